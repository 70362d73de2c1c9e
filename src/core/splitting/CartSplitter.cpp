#include "CartSplitter.h"

#include "Impurity.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace svf {

namespace {
// Gains this small are rounding noise: the node is treated as unsplittable.
const double kMinGain = 1e-10;
}  // namespace

std::unique_ptr<Splitter> CartSplitter::create(const Params& params) {
  // NA sigma: the tuning stage chooses it; a splitter built before that uses sigma0
  const int sigma = params.integer("sigma");
  return std::unique_ptr<Splitter>(new CartSplitter(sigma > 0 ? sigma : params.integer("sigma0")));
}

std::unique_ptr<Splitter> make_cart_splitter(size_t sigma) {
  return std::unique_ptr<Splitter>(new CartSplitter(sigma));
}

bool CartSplitter::find_split(const NodeContext& node, Rng& , SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  if (data.regression()) return find_regression_split(node, rule);
  const int K = data.num_classes;
  const size_t p = data.x->n_cols();
  std::vector<int> total(K, 0), left(K);
  for (size_t k = 0; k < n; ++k) ++total[data.y[rows[k]]];

  std::vector<double> values(n);
  std::vector<std::pair<double, int>> sorted(n);  // (value, class)
  double best_gain = kMinGain, best_cut = 0.0;
  int best_var = -1;
  bool found = false;
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, values.data());
    for (size_t k = 0; k < n; ++k) sorted[k] = std::make_pair(values[k], data.y[rows[k]]);
    std::sort(sorted.begin(), sorted.end());
    if (sorted.front().first == sorted.back().first) continue;
    if (best_entropy_cut(sorted, total.data(), K, left, best_cut, best_gain)) {
      found = true;
      best_var = static_cast<int>(j);
    }
  }
  if (found) rule = SplitRule::axis(best_var, best_cut);
  return found;
}

bool CartSplitter::find_regression_split(const NodeContext& node, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n, p = data.x->n_cols();
  double total = 0.0;
  for (size_t k = 0; k < n; ++k) total += data.response[rows[k]];
  std::vector<double> values(n);
  std::vector<std::pair<double, double>> sorted(n);  // (value, outcome)
  double best_gain = kMinGain, best_cut = 0.0;
  int best_var = -1;
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, values.data());
    for (size_t k = 0; k < n; ++k) sorted[k] = std::make_pair(values[k], data.response[rows[k]]);
    std::sort(sorted.begin(), sorted.end());
    if (sorted.front().first == sorted.back().first) continue;
    double left = 0.0;
    for (size_t k = 0; k + 1 < n; ++k) {
      left += sorted[k].second;
      const double a = sorted[k].first, b = sorted[k + 1].first;
      if (a == b) continue;  // cuts only between distinct values
      // reduction of the sum of squared errors around the means, per row
      const double nl = static_cast<double>(k + 1), nr = static_cast<double>(n - k - 1);
      const double right = total - left;
      const double gain = (left * left / nl + right * right / nr - total * total / n) / n;
      if (gain > best_gain) {
        best_gain = gain;
        double cut = a + (b - a) / 2.0;
        if (!(cut < b)) cut = a;  // adjacent doubles
        best_var = static_cast<int>(j);
        best_cut = cut;
      }
    }
  }
  if (best_var < 0) return false;
  rule = SplitRule::axis(best_var, best_cut);
  return true;
}

}  // namespace svf
