#include "CartSplitter.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace svf {

namespace {
// Gains this small are rounding noise: the node is treated as unsplittable.
const double kMinGain = 1e-10;

inline double xlogx(double v) { return v > 0.0 ? v * std::log(v) : 0.0; }
}  // namespace

double entropy_gain(const int* total, const int* left, int num_classes, size_t n, size_t n_left) {
  // n * gain = n H(S) - n_l H(S_l) - n_r H(S_r), with m H = m log m - sum c log c
  const size_t n_right = n - n_left;
  double s = xlogx(static_cast<double>(n)) - xlogx(static_cast<double>(n_left)) -
             xlogx(static_cast<double>(n_right));
  for (int k = 0; k < num_classes; ++k)
    s += xlogx(left[k]) + xlogx(total[k] - left[k]) - xlogx(total[k]);
  return s / static_cast<double>(n);
}

bool CartSplitter::find_split(const TrainingData& data, const int* rows, size_t n, Rng&,
                              SplitRule& rule) const {
  const int K = data.num_classes;
  const size_t p = data.x->n_cols();
  std::vector<int> total(K, 0), left(K);
  for (size_t k = 0; k < n; ++k) ++total[data.y[rows[k]]];

  std::vector<double> values(n);
  std::vector<std::pair<double, int>> sorted(n);  // (value, class)
  double best_gain = kMinGain;
  bool found = false;
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, values.data());
    for (size_t k = 0; k < n; ++k) sorted[k] = std::make_pair(values[k], data.y[rows[k]]);
    std::sort(sorted.begin(), sorted.end());
    if (sorted.front().first == sorted.back().first) continue;
    std::fill(left.begin(), left.end(), 0);
    for (size_t k = 0; k + 1 < n; ++k) {
      ++left[sorted[k].second];
      const double a = sorted[k].first, b = sorted[k + 1].first;
      if (a == b) continue;  // cuts only between distinct values
      const double gain = entropy_gain(total.data(), left.data(), K, n, k + 1);
      if (gain > best_gain) {
        best_gain = gain;
        found = true;
        rule.var = static_cast<int>(j);
        double cut = a + (b - a) / 2.0;
        if (!(cut < b)) cut = a;  // adjacent doubles
        rule.value = cut;
      }
    }
  }
  if (found) {
    rule.index.clear();
    rule.weight.clear();
  }
  return found;
}

}  // namespace svf
