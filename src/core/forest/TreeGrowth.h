// The growth rule's reading of the out-of-bag rows (Forest.h,
// ForestOptions::ntree_max): more trees help when the forest's out-of-bag
// error after T trees is below its error after T / 2 by the gain, and when
// the rows the added trees fixed outnumber the rows they broke by more than
// chance would (a paired test on each row's loss, McNemar's for classes):
// with few out-of-bag trees per row the error curve is noisy, and noise
// alone must not grow a forest. Both readings come from the rows' losses
// alone, so a forest grown in parts (svforest_future() in R, through the
// binding .svf_more_trees_help) asks the same rule of its merged tallies.
#ifndef SVFOREST_TREEGROWTH_H
#define SVFOREST_TREEGROWTH_H

#include <map>
#include <vector>

#include "Aggregation.h"
#include "Forest.h"

namespace svf {

// The rule's settings (ForestOptions::ntree_gain, ntree_gain_rows,
// ntree_gain_z; z <= 0 skips the paired test).
struct GrowthRule {
  double gain = 0.0, gain_rows = 0.0, z = 0.0;
};

// Each row's out-of-bag loss (Outcome::oob_row_losses()): 1 when its
// out-of-bag class is wrong, 0 when right; for a numeric outcome, the
// squared error of its mean out-of-bag prediction (outcome in the engine's
// units); for event times, its pseudo-value of 1 - Somers' D (2 C - 1, C
// the out-of-bag concordance: outcome/OobTally.h); NaN for a row without
// votes.
std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob);

// The same losses from a tally alone (classes decided by `aggregation`, as
// the engine decides them while it grows): `response` for a numeric outcome
// (K = 0), else the 0-based classes `y`.
std::vector<double> tally_row_losses(const OobResult& tally, Aggregation aggregation, int K,
                                     const std::vector<double>& response, const std::vector<int>& y);

// Whether trees after T / 2 helped, from the rows' losses after T / 2 and
// after T trees: the error (mean loss over the rows with votes) fell by at
// least the gain and by gain_rows of those rows, and (z > 0) the losses fell
// beyond chance (losses_fell()).
bool more_trees_help(const std::vector<double>& loss_half, const std::vector<double>& loss_full,
                     const GrowthRule& rule);

// Whether the losses fell from `before` to `after` beyond chance: over the
// rows with both, the sum of the drops d is at least z sqrt(sum d^2).
// Sums in long double in row order.
bool losses_fell(const std::vector<double>& before, const std::vector<double>& after, double z);

// The rows' losses at every count of trees the rule may compare with (half
// of each count it reads: multiples of ntree below ntree_max).
class GrowthSnapshots {
 public:
  GrowthSnapshots(size_t ntree, size_t ntree_max);
  // after the forest's `trees`-th tree
  void after_tree(size_t trees, const TrainingData& data, const OobResult& oob);
  // the losses after `trees` trees (empty when not kept); forgets earlier ones
  std::vector<double> take(size_t trees);

 private:
  std::map<size_t, std::vector<double>> kept_;
  std::vector<size_t> halves_;
};

}  // namespace svf
#endif
