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

// The decrease of the squared error of a left group: L^2 / n_l + R^2 / n_r -
// T^2 / n, L the left rows' outcomes summed in the order they joined.
class SquaredErrorScan : public CutScanOf<SquaredErrorScan> {
 public:
  explicit SquaredErrorScan(const NodeStats& node)
      : node_(node), dn_(static_cast<double>(node.n)), base_(node.total * node.total / dn_) {}
  void reset() override { sum_left_ = 0.0; }
  void add(int position) override { sum_left_ += node_.outcome(static_cast<size_t>(position)); }
  double gain(size_t n_left) const override {
    const double nl = static_cast<double>(n_left), sum_right = node_.total - sum_left_;
    return sum_left_ * sum_left_ / nl + sum_right * sum_right / (dn_ - nl) - base_;
  }
  size_t min_leaf(size_t) const override { return 1; }
  bool additive() const override { return true; }
  void add_histogram(const uint16_t* code, size_t bins) override {
    hist_.assign(bins, 0.0);
    for (size_t i = 0; i < node_.n; ++i) hist_[code[i]] += node_.outcome(i);
  }
  void add_bin(size_t b) override { sum_left_ += hist_[b]; }

 private:
  const NodeStats& node_;
  double dn_, base_, sum_left_ = 0.0;
  std::vector<double> hist_;
};

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
  std::unique_ptr<CutScan> cut_scan(const NodeStats& node) const override {
    return std::unique_ptr<CutScan>(new SquaredErrorScan(node));
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
