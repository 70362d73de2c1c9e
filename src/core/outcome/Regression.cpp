// The regression outcome (Outcome.h): the outcome's sum, squared-error
// cuts, the outcome itself as a hyperplane's target, exact sums out of bag.
#include <algorithm>
#include <cmath>

#include "OobTally.h"
#include "Outcome.h"
#include "forest/Forest.h"
#include "forest/TreeChoice.h"

namespace svf {

namespace {

class Regression : public Outcome {
 public:
  void node_stats(NodeStats& node) const override {
    for (size_t i = 0; i < node.n; ++i) node.total += node.outcome(i);
  }
  bool pure(const TrainingData& data, const int* rows, size_t n, std::vector<int>&) const override {
    for (size_t k = 1; k < n; ++k)
      if (data.response[rows[k]] != data.response[rows[0]]) return false;
    return true;
  }
  double gain_scale(const NodeStats& node) const override {
    double scale = 0.0;
    for (size_t i = 0; i < node.n; ++i) scale += node.outcome(i) * node.outcome(i);
    return scale;
  }
  // the decrease of the squared error: L^2 / n_l + R^2 / n_r - T^2 / n
  bool best_cut(const NodeStats& node, const SortedValues& sorted, size_t, std::vector<int>&, double& cut,
                double& gain) const override {
    const size_t n = node.n;
    const double dn = static_cast<double>(n);
    const double base = node.total * node.total / dn;
    double sum_left = 0.0;
    bool found = false;
    for (size_t k = 0; k + 1 < n; ++k) {
      sum_left += node.outcome(sorted[k].second);
      const double a = sorted[k].first, b = sorted[k + 1].first;
      if (!(b > a)) continue;
      const double nl = static_cast<double>(k + 1), sum_right = node.total - sum_left;
      found = take_cut(sum_left * sum_left / nl + sum_right * sum_right / (dn - nl) - base, a, b, cut, gain) || found;
    }
    return found;
  }
  bool hyperplane_target(const NodeStats& node, int t, Rng&, double* target) const override {
    if (t > 0) return false;  // the outcome's direction is one
    for (size_t i = 0; i < node.n; ++i) target[i] = node.outcome(i);
    return true;
  }
  double split_gain(const TrainingData& data, const int* oob, size_t n_oob,
                    const std::vector<char>& goes_left) const override {
    double left = 0.0, total = 0.0, n_left = 0.0;
    for (size_t i = 0; i < n_oob; ++i) {
      const double v = data.response[oob[i]];
      total += v;
      if (goes_left[i]) { left += v; n_left += 1.0; }
    }
    const double n = static_cast<double>(n_oob), n_right = n - n_left;
    if (n_left == 0.0 || n_right == 0.0) return 0.0;
    const double r = total - left;
    return 0.0 + (left * left / n_left + r * r / n_right - total * total / n);
  }

  void start_oob(const TrainingData&, OobResult& oob, size_t n, bool, bool) const override {
    oob.count.assign(n, 0);
    oob.predicted.assign(n, -1);
    oob.sum_whole.assign(n, 0.0);
    oob.sum_fraction.assign(n, 0.0);
  }
  void add_oob_row(const OobRowInput& in, int r, OobResult& oob, OobChange& change) const override {
    const TrainingData& data = *in.data;
    predict_oob_row(in, r, change, nullptr);
    ExactSum sum{oob.sum_whole[r], oob.sum_fraction[r]};
    if (oob.count[r] > 0) {
      const double e = sum.value() / oob.count[r] - data.response[r];
      change.sse -= e * e;
    } else {
      ++change.rows;
    }
    sum.add(in.dist[0]);
    oob.sum_whole[r] = sum.whole;
    oob.sum_fraction[r] = sum.fraction;
    ++oob.count[r];
    const double e = sum.value() / oob.count[r] - data.response[r];
    change.sse += e * e;
  }
  double oob_error(const TrainingData&, const OobResult& oob, long, double sse) const override {
    return std::max(0.0, sse) / static_cast<double>(oob.n_rows_with_votes);
  }
  std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) const override {
    std::vector<double> loss(oob.count.size(), NAN);
    for (size_t r = 0; r < loss.size(); ++r) {
      if (oob.count[r] == 0) continue;
      const ExactSum sum{oob.sum_whole[r], oob.sum_fraction[r]};
      const double e = sum.value() / oob.count[r] - data.response[r];
      loss[r] = e * e;
    }
    return loss;
  }
  double structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                        const LeafModel&) const override {
    return oob_structure_loss(data, grown, rows);
  }
  int level_slots(const TrainingData&) const override { return 1; }
  void level_values(const TrainingData& data, const std::vector<int>& inbag, std::vector<double>& value,
                    std::vector<int>& slot) const override {
    value.resize(inbag.size());
    for (size_t i = 0; i < inbag.size(); ++i) value[i] = data.response[inbag[i]];
    slot.assign(inbag.size(), 0);
  }
};

}  // namespace

const Outcome& regression_outcome() {
  static const Regression unit;
  return unit;
}

}  // namespace svf
