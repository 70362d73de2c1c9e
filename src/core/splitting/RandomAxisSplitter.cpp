#include "RandomAxisSplitter.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace svf {

std::unique_ptr<Splitter> RandomAxisSplitter::create(const Params& params) {
  return std::unique_ptr<Splitter>(new RandomAxisSplitter(
      params.integer("min_leaf_size"), params.text("split_rule") == "published"));
}

bool RandomAxisSplitter::find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  const size_t p = data.x->n_cols();
  std::vector<int> features(p);
  std::iota(features.begin(), features.end(), 0);
  std::vector<double> values(n);
  size_t remaining = p;
  while (remaining > 0) {
    // draw a feature without replacement among those not tried yet
    const size_t k = rng.below(remaining);
    const int j = features[k];
    features[k] = features[--remaining];
    data.x->gather(j, rows, n, values.data());

    double lo, hi;
    if (published_) {
      auto mm = std::minmax_element(values.begin(), values.end());
      lo = *mm.first;
      hi = *mm.second;
    } else {
      // order statistics bounding the admissible cuts
      const size_t a = min_leaf_ - 1, b = n - min_leaf_;
      std::nth_element(values.begin(), values.begin() + b, values.end());
      hi = values[b];
      std::nth_element(values.begin(), values.begin() + a, values.begin() + b);
      lo = values[a];
    }
    if (!(lo < hi)) continue;  // constant (or no admissible cut): try another feature

    double cut = lo + rng.uniform() * (hi - lo);
    if (cut >= hi) cut = lo;
    if (published_) {
      size_t left = 0;
      for (size_t r = 0; r < n; ++r) left += data.x->value(rows[r], j) <= cut;
      if (left < min_leaf_ || n - left < min_leaf_) return false;  // give up
    }
    rule = SplitRule::axis(j, cut);
    return true;
  }
  return false;
}

}  // namespace svf
