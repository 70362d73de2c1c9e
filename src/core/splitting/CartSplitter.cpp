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

// The reduction of the sum of squared errors around the means, per row, of
// a left group of outcomes (search/CutSearch.h reads it).
class SumScan {
 public:
  SumScan(double total, size_t n) : total_(total), n_(n) {}
  void add(double outcome) { left_ += outcome; }
  double gain(size_t n_left) const {
    const double nl = static_cast<double>(n_left), nr = static_cast<double>(n_ - n_left);
    const double right = total_ - left_;
    return (left_ * left_ / nl + right * right / nr - total_ * total_ / n_) / n_;
  }

 private:
  double total_, left_ = 0.0;
  size_t n_;
};
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
    SumScan scan(total, n);
    if (search_sorted_cut(sorted, scan, 1, best_cut, best_gain)) best_var = static_cast<int>(j);
  }
  if (best_var < 0) return false;
  rule = SplitRule::axis(best_var, best_cut);
  return true;
}

}  // namespace svf
