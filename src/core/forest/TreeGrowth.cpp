#include "TreeGrowth.h"

#include <algorithm>
#include <cmath>

#include "outcome/Outcome.h"

namespace svf {

std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) {
  return outcome_of(data).oob_row_losses(data, oob);
}

std::vector<double> tally_row_losses(const OobResult& tally, Aggregation aggregation, int K,
                                     const std::vector<double>& response, const std::vector<int>& y) {
  const size_t n = tally.count.size();
  std::vector<double> loss(n, NAN);
  for (size_t r = 0; r < n; ++r) {
    if (tally.count[r] == 0) continue;
    if (K == 0) {
      const ExactSum sum{tally.sum_whole[r], tally.sum_fraction[r]};
      const double e = sum.value() / tally.count[r] - response[r];
      loss[r] = e * e;
      continue;
    }
    const int confident = tally.confident_class.empty() ? -1 : tally.confident_class[r];
    const int cls = decide_class(aggregation, K, tally.votes.data() + r, tally.shares.data() + r, n, tally.count[r],
                                 confident);
    loss[r] = cls == y[r] ? 0.0 : 1.0;
  }
  return loss;
}

namespace {

// The mean of the losses of the rows with votes (NaN without any), and
// their number.
double mean_loss(const std::vector<double>& loss, size_t& rows) {
  long double sum = 0.0L;
  rows = 0;
  for (double l : loss) {
    if (std::isnan(l)) continue;
    sum += l;
    ++rows;
  }
  return rows == 0 ? NAN : static_cast<double>(sum / rows);
}

}  // namespace

bool more_trees_help(const std::vector<double>& loss_half, const std::vector<double>& loss_full,
                     const GrowthRule& rule) {
  size_t rows_half = 0, rows = 0;
  const double before = mean_loss(loss_half, rows_half), after = mean_loss(loss_full, rows);
  if (rows == 0 || !std::isfinite(before) || !std::isfinite(after)) return false;
  // a few rows of a small table are noise
  const double needed = std::max(rule.gain, rule.gain_rows / static_cast<double>(rows));
  if (!(before - after >= needed)) return false;
  return rule.z <= 0.0 || losses_fell(loss_half, loss_full, rule.z);
}

bool losses_fell(const std::vector<double>& before, const std::vector<double>& after, double z) {
  long double drop = 0.0L, squares = 0.0L;
  const size_t n = std::min(before.size(), after.size());
  for (size_t r = 0; r < n; ++r) {
    if (std::isnan(before[r]) || std::isnan(after[r])) continue;
    const long double d = static_cast<long double>(before[r]) - after[r];
    drop += d;
    squares += d * d;
  }
  return drop > 0.0L && static_cast<double>(drop) >= z * std::sqrt(static_cast<double>(squares));
}

GrowthSnapshots::GrowthSnapshots(size_t ntree, size_t ntree_max) {
  for (size_t t = ntree; ntree > 0 && t < ntree_max; t += ntree)
    if (t / 2 >= 1) halves_.push_back(t / 2);
}

void GrowthSnapshots::after_tree(size_t trees, const TrainingData& data, const OobResult& oob) {
  if (std::find(halves_.begin(), halves_.end(), trees) != halves_.end()) kept_[trees] = oob_row_losses(data, oob);
}

std::vector<double> GrowthSnapshots::take(size_t trees) {
  std::vector<double> out;
  auto it = kept_.find(trees);
  if (it != kept_.end()) out = std::move(it->second);
  kept_.erase(kept_.begin(), kept_.upper_bound(trees));
  return out;
}

}  // namespace svf
