// Impurity of class counts, shared by the splitters that score splits by it.
#ifndef SVFOREST_IMPURITY_H
#define SVFOREST_IMPURITY_H

#include <cmath>
#include <cstddef>

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

}  // namespace svf
#endif
