// Impurity of class counts, shared by the splitters that score splits by it.
#ifndef SVFOREST_IMPURITY_H
#define SVFOREST_IMPURITY_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace svf {

// Entropy gain (natural log) of splitting class counts `total` into `left`
// and total - left; n = sum(total), n_left = sum(left).
inline double entropy_gain(const int* total, const int* left, int num_classes, size_t n, size_t n_left) {
  auto xlogx = [](double v) { return v > 0.0 ? v * std::log(v) : 0.0; };
  // n * gain = n H(S) - n_l H(S_l) - n_r H(S_r), with m H = m log m - sum c log c
  const size_t n_right = n - n_left;
  double s = xlogx(static_cast<double>(n)) - xlogx(static_cast<double>(n_left)) -
             xlogx(static_cast<double>(n_right));
  for (int k = 0; k < num_classes; ++k)
    s += xlogx(left[k]) + xlogx(total[k] - left[k]) - xlogx(total[k]);
  return s / static_cast<double>(n);
}

// The cut of largest entropy gain along one direction. `sorted` holds the
// node's (value, class) pairs in increasing value; `total` its class counts.
// Cuts lie midway between consecutive distinct values (the lower value when
// the two are adjacent doubles, so the cut still separates them). Only a gain
// strictly above `gain` counts: on return `gain` and `cut` hold the best one,
// and the result says whether any cut beat the value passed in. `left` is
// scratch of num_classes counts.
inline bool best_entropy_cut(const std::vector<std::pair<double, int>>& sorted, const int* total,
                             int num_classes, std::vector<int>& left, double& cut, double& gain) {
  const size_t n = sorted.size();
  std::fill(left.begin(), left.end(), 0);
  bool found = false;
  for (size_t k = 0; k + 1 < n; ++k) {
    ++left[sorted[k].second];
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a)) continue;  // cuts only between distinct values
    const double g = entropy_gain(total, left.data(), num_classes, n, k + 1);
    if (g > gain) {
      gain = g;
      found = true;
      cut = a + (b - a) / 2.0;
      if (!(cut < b)) cut = a;  // adjacent doubles
    }
  }
  return found;
}

}  // namespace svf
#endif
