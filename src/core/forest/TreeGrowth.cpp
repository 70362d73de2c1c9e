#include "TreeGrowth.h"

#include <algorithm>
#include <cmath>

namespace svf {

std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) {
  const size_t n = oob.count.size();
  std::vector<double> loss(n, NAN);
  for (size_t r = 0; r < n; ++r) {
    if (oob.count[r] == 0) continue;
    if (data.regression()) {
      const ExactSum sum{oob.sum_whole[r], oob.sum_fraction[r]};
      const double e = sum.value() / oob.count[r] - data.response[r];
      loss[r] = e * e;
    } else {
      loss[r] = oob.predicted[r] == data.y[r] ? 0.0 : 1.0;
    }
  }
  return loss;
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
