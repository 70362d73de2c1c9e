// Impurity of class counts, shared by the splitters that score splits by it.
#ifndef SVFOREST_IMPURITY_H
#define SVFOREST_IMPURITY_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "search/CutSearch.h"

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

// Entropy gain of a left group of classes as the split search reads it
// (search/CutSearch.h): a row's class joins `left` (num_classes counts).
class EntropyScan {
 public:
  EntropyScan(const int* total, int num_classes, size_t n, std::vector<int>& left)
      : total_(total), left_(left), num_classes_(num_classes), n_(n) {}
  void add(int cls) { ++left_[cls]; }
  double gain(size_t n_left) const { return entropy_gain(total_, left_.data(), num_classes_, n_, n_left); }

 private:
  const int* total_;
  std::vector<int>& left_;
  int num_classes_;
  size_t n_;
};

// The cut of largest entropy gain along one direction. `sorted` holds the
// node's (value, class) pairs in increasing value; `total` its class counts.
// The split search places cuts (midway between consecutive distinct values).
// Only a gain strictly above `gain` counts: on return `gain` and `cut` hold
// the best one, and the result says whether any cut beat the value passed
// in. `left` is scratch of num_classes counts.
inline bool best_entropy_cut(const std::vector<std::pair<double, int>>& sorted, const int* total,
                             int num_classes, std::vector<int>& left, double& cut, double& gain) {
  std::fill(left.begin(), left.end(), 0);
  EntropyScan scan(total, num_classes, sorted.size(), left);
  return search_sorted_cut(sorted, scan, 1, cut, gain);
}

}  // namespace svf
#endif
