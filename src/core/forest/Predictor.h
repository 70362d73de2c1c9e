// Forest prediction over a RowSource, parallel over chunks of rows.
#ifndef SVFOREST_PREDICTOR_H
#define SVFOREST_PREDICTOR_H

#include <cstddef>
#include <vector>

#include "Aggregation.h"
#include "common/TaskRunner.h"
#include "data/RowSource.h"
#include "data/Scaling.h"
#include "leaves/LeafModel.h"
#include "tree/Tree.h"

namespace svf {

// The leaf models that read a forest's leaves, indexed by leaf kind code.
struct LeafReaders {
  std::vector<const LeafModel*> by_kind;
  const LeafModel& operator[](int kind) const { return *by_kind[kind]; }
};

// All leaf kinds of the registry (leaves/LeafKinds.h).
LeafReaders all_leaf_readers();

// A forest's trees decoded a group at a time, for a forest too large to
// hold decoded at once: predict_forest() asks for each group in turn.
class TreeGroups {
 public:
  virtual ~TreeGroups() = default;
  // The end of the group of trees that starts at tree `first` (> first).
  virtual size_t group_end(size_t first) const = 0;
  // Makes the views of trees [first, last) usable (those of the other
  // groups' trees may then be released).
  virtual void load(size_t first, size_t last) = 0;
};

struct ForestView {
  OutcomeShape shape;
  const Scaling* scaling = nullptr;
  LeafReaders readers;
  // one view per tree; with `groups`, only the loaded group's are usable
  std::vector<TreeView> trees;
  // null: every tree's view is usable (all that predict_forest() reads
  // group by group; other readers need every tree decoded)
  TreeGroups* groups = nullptr;
};

// Outputs are column-major n x outputs (prob), n x K (votes) and n x ntree
// (leaves, tree_class); any pointer may be null. prob averages the trees'
// leaf outputs (class distributions; for regression the predicted values,
// summed exactly, see Aggregation.h); votes counts each tree's class
// (classification); cls is the forest's class by `aggregation`.
struct PredictOutput {
  double* prob = nullptr;
  int* votes = nullptr;
  int* leaves = nullptr;
  int* tree_class = nullptr;
  int* cls = nullptr;  // n
  int* class_curve = nullptr;  // n x ntree: the class after the first t + 1 trees
  Aggregation aggregation = Aggregation::Vote;
  // Regression only: n x ntree per-tree predictions, and n standard deviations
  // of the trees' predictions around their mean (the local scale of the
  // conformal intervals, R/uncertainty.R).
  double* tree_value = nullptr;
  double* tree_sd = nullptr;
};

// Scratch space of one thread.
struct PredictScratch {
  std::vector<feature_node> row;
  std::vector<double> route;
  // When not null: the p values of the row being predicted (gathered by
  // RowSource::gather), read by routing in place of the source.
  const double* values = nullptr;
  // When >= 0: the row's leaf in this tree, routed already with the tree's
  // packed nodes (route_flat_rows(), tree/FlatTree.h).
  int leaf = -1;
};

// One tree, one row: the leaf's class distribution in dist, its class (the
// first largest value), the leaf's confidence when `confidence` is not null
// and the leaf number when `leaf_out` is not null.
int tree_predict(const TreeView& tree, const OutcomeShape& shape, const LeafReaders& readers,
                 const Scaling& scaling, const RowSource& rows, size_t row, PredictScratch& scratch,
                 double* dist, double* confidence, int* leaf_out);

// The leaf of each training row `which` in `tree` (routed as predict()
// routes it, through the tree's factor level values), and how many of them
// reach each leaf.
std::vector<int> leaves_of_rows(const TreeView& tree, size_t p, const RowSource& rows, const std::vector<int>& which);
std::vector<int> count_leaf_rows(const TreeView& tree, size_t p, const RowSource& rows, const std::vector<int>& which);

// With forest.groups, the trees are read a group at a time, each row's
// tally carried from one group to the next (the same results).
void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size = 2048);

}  // namespace svf
#endif
