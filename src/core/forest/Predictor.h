// Forest prediction over a RowSource, parallel over chunks of rows.
#ifndef SVFOREST_PREDICTOR_H
#define SVFOREST_PREDICTOR_H

#include <vector>

#include "RowSource.h"
#include "Scaling.h"
#include "TaskRunner.h"
#include "Tree.h"

namespace svf {

struct ForestView {
  int num_classes = 0;
  size_t num_features = 0;
  const Scaling* scaling = nullptr;
  std::vector<TreeView> trees;
};

// Outputs are column-major n x K (prob, votes) and n x ntree (leaves,
// tree_class); any pointer may be null. prob averages the trees' leaf
// distributions; votes counts each tree's class.
struct PredictOutput {
  double* prob = nullptr;
  int* votes = nullptr;
  int* leaves = nullptr;
  int* tree_class = nullptr;
  int* max_confidence_class = nullptr;  // n: class of the most confident tree
};

// Class distribution and class of one tree for one row.
int tree_predict(const TreeView& tree, int num_classes, size_t p, const Scaling& scaling,
                 const RowSource& rows, size_t row, std::vector<feature_node>& buffer,
                 double* dist, int* leaf_out);

// As tree_predict(), with the leaf's confidence (see leaf_class_confidence()).
int tree_predict_confidence(const TreeView& tree, int num_classes, size_t p,
                            const Scaling& scaling, const RowSource& rows, size_t row,
                            std::vector<feature_node>& buffer, double* confidence);

void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size = 2048);

}  // namespace svf
#endif
