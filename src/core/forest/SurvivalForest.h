// Survival forests (TrainingData::survival()): bootstrap trees grown by a
// splitter that scores cuts by the log-rank statistic (HybridSplitter), with
// Nelson-Aalen leaves (leaves/NelsonAalenLeaf.h). A tree's structure and
// leaves come from Rng(seed, stream_id(t, -1)) alone and trees are kept in
// order, so the forest is the same for any number of threads.
//
// The forest's cumulative hazard (CHF) of a row is the mean over trees of
// their leaves' step functions on the grid of training event times: the
// mean of Nelson-Aalen estimates is itself a cumulative hazard
// (non-decreasing, zero at the start) and survival is exp(-CHF), in [0, 1]
// and non-increasing by construction. Its risk is the sum of the CHF over
// the grid (ranger's "mortality").
#ifndef SVFOREST_SURVIVALFOREST_H
#define SVFOREST_SURVIVALFOREST_H

#include <vector>

#include "Forest.h"
#include "data/RowSource.h"
#include "tree/Tree.h"

namespace svf {

struct SurvivalOob {
  // per row, the sum over its scoring out-of-bag trees of their CHF on the
  // grid (n x num_times, column-major) and the number of such trees
  std::vector<double> chf_sum;
  std::vector<int> count;
};

struct SurvivalForestFit {
  std::vector<Tree> trees;
  SurvivalOob oob;
};

// leaf_model: the survival leaves ("nelson_aalen").
SurvivalForestFit train_survival_forest(const TrainingData& data, const Splitter& splitter,
                                        const LeafModel& leaf_model, const ForestOptions& options,
                                        TaskRunner& runner);

// A row's leaf in `tree`, routed as tree_predict() routes it.
int survival_leaf(const TreeView& tree, size_t p, const RowSource& rows, size_t row, std::vector<double>& scratch);

// Adds the steps of a (checked) survival leaf's cumulative hazard to
// `steps` (one per grid time: the increase at that time). The running sum
// of the steps of all trees is their summed CHF: a row reads each tree's
// leaf once, in O(its event times), instead of the whole grid per tree.
void add_leaf_steps(const TreeView& tree, int leaf, double* steps);

// Adds a (checked) survival leaf's CHF at each of the T grid times to
// sum[0..T): tree by tree, out-of-bag sums of parts of a forest then add up
// exactly to the whole forest's (combine()).
void add_leaf_chf(const TreeView& tree, int leaf, size_t T, double* sum);

// The running sums of steps[0..T) divided by `count`, written to out[j * stride].
void accumulate_steps(const double* steps, size_t T, double count, double* out, size_t stride);

// Harrell's C of `risk` (higher: earlier event) on rows[0..m): among pairs
// where the earlier time is an event, the share ordered by risk (ties 1/2);
// NaN without such pairs.
double harrell_c(const TrainingData& data, const int* rows, size_t m, const double* risk);

}  // namespace svf
#endif
