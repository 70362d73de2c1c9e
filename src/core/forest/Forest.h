// Trains a forest: sampler x splitter x leaf model, trees in batches. Within
// a batch, tree structures grow in parallel, then every leaf of the batch is
// fitted in parallel, then out-of-bag rows are predicted. Tree t draws from
// Rng(seed, stream_id(t, -1)) and its leaf l from Rng(seed, stream_id(t, l)),
// so the forest is the same for any number of threads and any batch size.
#ifndef SVFOREST_FOREST_H
#define SVFOREST_FOREST_H

#include <cstdint>
#include <functional>
#include <vector>

#include "Aggregation.h"
#include "Sampler.h"
#include "TreeGrower.h"
#include "common/TaskRunner.h"
#include "data/TrainingData.h"
#include "leaves/LeafModel.h"
#include "splitting/Splitter.h"
#include "tree/Tree.h"
#include "tree/TreeCodec.h"

namespace svf {

// The leaf (the number predict() gives) each training row reaches in each
// tree, n x ntree column-major, recorded as the trees grow (in-bag rows from
// the grower's partition, out-of-bag rows where their tallies and the tree
// choice route them), so the quantile forest needs no second routing. Two
// bytes a cell. `allocate()` (called on the training thread, between
// batches, when the first batch is grown) sets `narrow` to an n x ntree
// buffer. `exact` is cleared when a tree's rows may sit in two leaves (a
// banded rule) or has more than 65,536 leaves: the caller routes the rows
// instead (a four-byte record would add rows x trees x 4 bytes to the
// engine's peak: 400 MB at 1,000,000 rows and 100 trees).
struct TrainingLeaves {
  size_t n = 0;
  uint16_t* narrow = nullptr;
  std::function<void()> allocate;
  bool exact = true;
};

struct ForestOptions {
  size_t ntree = 10;
  uint64_t seed = 1;
  size_t first_tree = 0;  // index of the first tree: lets several machines grow parts of one forest
  // Growth by out-of-bag error: after T trees (T = ntree, 2 ntree, ...),
  // ntree more are grown, up to ntree_max in all, while the forest's
  // out-of-bag error after T trees is below its error after T / 2 by at
  // least ntree_gain and by ntree_gain_rows rows, and,
  // with ntree_gain_z > 0, its rows' losses fell beyond chance
  // (more_trees_help() in TreeGrowth.h). ntree_max <= ntree: exactly ntree.
  size_t ntree_max = 0;
  double ntree_gain = 0.0, ntree_gain_rows = 0.0, ntree_gain_z = 0.0;
  SamplerType sampler = SamplerType::All;
  double sample_fraction = 1.0;
  GrowOptions grow;
  size_t batch_size = 8;  // trees whose rows are held in memory at once
  Aggregation aggregation = Aggregation::Vote;  // the OOB class's rule, as predict()'s
  // Keep each finished tree in its compact layout (tree/TreeCodec.h), as
  // a saved model holds it: a forest of large trees then takes about a
  // third of the memory while it grows (the same trees).
  bool compact_trees = false;
  // When set, filled for the trees of this fit (ntree of them: no growth
  // by out-of-bag error).
  TrainingLeaves* training_leaves = nullptr;
};

// Out-of-bag results: each row's tally over the trees that did not draw it
// (Aggregation.h), so that R can merge the results of a forest's parts.
struct OobResult {
  bool available = false;
  // classification: n x K column-major vote counts and class share sums;
  // with max_confidence, each row's most confident tree's confidence and
  // class (n each)
  std::vector<int> votes;
  std::vector<double> shares;
  std::vector<double> confidence;
  std::vector<int> confident_class;
  std::vector<int> count;  // out-of-bag trees of each row
  // classification by "vote" or "prob" with choosing rows (a splitter's
  // choosing_share() > 0): the same tally over the even-numbered
  // trees only (forest-wide index), so R can compare each row's error with
  // half of its trees to its error with all (the ensemble-size correction
  // of the out-of-bag error, R/aggregation.R)
  std::vector<int> even_votes, even_count;
  std::vector<double> even_shares;
  // regression: exact sums of each row's out-of-bag predictions
  std::vector<double> sum_whole, sum_fraction;
  // event times: each row's cumulative hazard on the grid summed over its
  // out-of-bag trees (n x num_times, column-major), and its risk so summed
  // (outcome/Survival.cpp)
  std::vector<double> chf_sum, risk_sum;
  // classification: share of rows with votes that are misclassified;
  // regression: mean squared error of the rows' mean OOB prediction;
  // event times: 1 - Harrell's C of the rows' mean out-of-bag risk
  double error = NAN;
  std::vector<double> error_curve;  // error after 1, 2, ... trees
  std::vector<int> predicted;       // OOB class of each row, -1 if none
  size_t n_rows_with_votes = 0;
};

struct FittedForest {
  // With ForestOptions::compact_trees, a tree kept compact has only its
  // factor level values here (its layout in `compact`).
  std::vector<Tree> trees;
  // With compact_trees, per tree its compact layout; n_nodes 0 for a tree
  // not in the grower's order, kept in full in `trees`. Else empty.
  std::vector<CompactTree> compact;
  OobResult oob;
  // each tree's out-of-bag rows that scored it (its tallies above): rows
  // that chose nothing in the tree, for post-fit calibration; empty when
  // the sampler leaves no rows out. Not stored in the model.
  std::vector<std::vector<int>> oob_rows;
};

// Places each fitted leaf (fits in leaf order) into the tree's flat arrays.
void assemble_leaves(Tree& tree, std::vector<LeafFit>::const_iterator fits);


// Fills data.scaled if the leaf model needs it.
FittedForest train_forest(TrainingData& data, const Splitter& splitter, const LeafModel& leaf_model,
                          const ForestOptions& options, TaskRunner& runner);

}  // namespace svf
#endif
