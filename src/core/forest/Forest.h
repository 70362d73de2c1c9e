// Trains a forest: sampler x splitter x leaf model, trees in batches. Within
// a batch, tree structures grow in parallel, then every leaf of the batch is
// fitted in parallel, then out-of-bag rows are predicted. Tree t draws from
// Rng(seed, stream_id(t, -1)) and its leaf l from Rng(seed, stream_id(t, l)),
// so the forest is the same for any number of threads and any batch size.
#ifndef SVFOREST_FOREST_H
#define SVFOREST_FOREST_H

#include <cstdint>
#include <vector>

#include "Sampler.h"
#include "TreeGrower.h"
#include "common/TaskRunner.h"
#include "data/TrainingData.h"
#include "leaves/LeafModel.h"
#include "splitting/Splitter.h"
#include "tree/Tree.h"

namespace svf {

struct ForestOptions {
  size_t ntree = 10;
  uint64_t seed = 1;
  size_t first_tree = 0;  // index of the first tree: lets several machines grow parts of one forest
  SamplerType sampler = SamplerType::All;
  double sample_fraction = 1.0;
  GrowOptions grow;
  size_t batch_size = 8;  // trees whose rows are held in memory at once
  bool max_confidence = false;  // OOB class: most confident tree instead of the vote
};

struct OobResult {
  bool available = false;
  std::vector<int> votes;           // classification: n x K, column-major
  // classification: share of rows with votes that are misclassified;
  // regression: mean squared error of the rows' mean OOB prediction
  double error = NAN;
  std::vector<double> error_curve;  // error after 1, 2, ... trees
  std::vector<int> predicted;       // OOB class of each row, -1 if none
  // regression: sum of each row's OOB predictions and their number
  std::vector<double> sum;
  std::vector<int> count;
  size_t n_rows_with_votes = 0;
};

struct FittedForest {
  std::vector<Tree> trees;
  OobResult oob;
};

// Places each fitted leaf (fits in leaf order) into the tree's flat arrays.
void assemble_leaves(Tree& tree, std::vector<LeafFit>::const_iterator fits);


// Fills data.scaled if the leaf model needs it.
FittedForest train_forest(TrainingData& data, const Splitter& splitter, const LeafModel& leaf_model,
                          const ForestOptions& options, TaskRunner& runner);

}  // namespace svf
#endif
