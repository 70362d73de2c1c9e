// The classification outcome (Outcome.h): class counts, Gini cuts, the
// two-group labels a hyperplane separates, votes and shares out of bag.
#include <algorithm>
#include <cmath>

#include "OobTally.h"
#include "Outcome.h"
#include "forest/Forest.h"
#include "forest/TreeChoice.h"

namespace svf {

namespace {

// Two groups of the classes present in the node (1: group A): with two
// classes, one each; with more, the classes in random order go to A until
// it holds half the rows, never all of them (PSVM trees' overlay classes).
std::vector<char> class_groups(const std::vector<int>& counts, Rng& rng) {
  std::vector<int> present;
  long total = 0;
  for (size_t k = 0; k < counts.size(); ++k)
    if (counts[k] > 0) { present.push_back(static_cast<int>(k)); total += counts[k]; }
  std::vector<char> in_a(counts.size(), 0);
  if (present.size() > 2) rng.shuffle(present.data(), present.size());
  long in_group = 0;
  for (size_t i = 0; i + 1 < present.size() && 2 * in_group < total; ++i) {
    in_a[present[i]] = 1;
    in_group += counts[present[i]];
  }
  return in_a;
}

// n * (Gini decrease) of a left group: sum l_k^2 / n_l + sum r_k^2 / n_r -
// sum t_k^2 / n, the sums of squares kept as a row moves from right to left
// (integers: exact in any order).
class GiniScan : public CutScanOf<GiniScan> {
 public:
  explicit GiniScan(const NodeStats& node)
      : node_(node), left_(node.counts.size(), 0), label_(node.n), dn_(static_cast<double>(node.n)) {
    for (int c : node.counts) sq_total_ += static_cast<double>(c) * c;
    for (size_t i = 0; i < node.n; ++i) label_[i] = node.label(i);
    base_ = sq_total_ / dn_;
    reset();
  }
  void reset() override {
    std::fill(left_.begin(), left_.end(), 0);
    sq_left_ = 0.0;
    sq_right_ = sq_total_;
  }
  void add(int position) override {
    const int c = label_[static_cast<size_t>(position)];
    const double l = left_[c], r = node_.counts[c] - left_[c];
    sq_left_ += 2.0 * l + 1.0;
    sq_right_ -= 2.0 * r - 1.0;
    ++left_[c];
  }
  double gain(size_t n_left) const override {
    const double nl = static_cast<double>(n_left);
    return sq_left_ / nl + sq_right_ / (dn_ - nl) - base_;
  }
  size_t min_leaf(size_t) const override { return 1; }
  bool additive() const override { return true; }
  void add_histogram(const uint16_t* code, size_t bins) override {
    const size_t K = left_.size();
    hist_.assign(bins * K, 0);
    for (size_t i = 0; i < node_.n; ++i) ++hist_[code[i] * K + static_cast<size_t>(label_[i])];
  }
  // the squares change by (l + m)^2 - l^2 and r^2 - (r - m)^2: integers, so
  // the same sums as m rows joining one by one
  void add_bin(size_t b) override {
    const size_t K = left_.size();
    const int* m = hist_.data() + b * K;
    for (size_t c = 0; c < K; ++c) {
      if (m[c] == 0) continue;
      const double l = left_[c], r = node_.counts[c] - left_[c], k = m[c];
      sq_left_ += k * (2.0 * l + k);
      sq_right_ -= k * (2.0 * r - k);
      left_[c] += m[c];
    }
  }

 private:
  const NodeStats& node_;
  std::vector<int> left_, hist_;
  std::vector<int> label_;  // the node rows' classes, read once (by position)
  double dn_, sq_total_ = 0.0, base_ = 0.0, sq_left_ = 0.0, sq_right_ = 0.0;
};

class Classification : public Outcome {
 public:
  void node_stats(NodeStats& node) const override {
    node.counts.assign(node.data->num_classes, 0);
    for (size_t i = 0; i < node.n; ++i) ++node.counts[node.label(i)];
  }
  bool pure(const TrainingData& data, const int* rows, size_t n, std::vector<int>& counts) const override {
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t k = 0; k < n; ++k) ++counts[data.y[rows[k]]];
    return std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }) <= 1;
  }
  double gain_scale(const NodeStats& node) const override { return static_cast<double>(node.n); }
  std::unique_ptr<CutScan> cut_scan(const NodeStats& node) const override {
    return std::unique_ptr<CutScan>(new GiniScan(node));
  }
  bool hyperplane_target(const NodeStats& node, int, Rng& rng, double* target) const override {
    const std::vector<char> in_a = class_groups(node.counts, rng);
    for (size_t i = 0; i < node.n; ++i) target[i] = in_a[node.label(i)] ? 1.0 : -1.0;
    return true;
  }
  double split_gain(const TrainingData& data, const int* oob, size_t n_oob,
                    const std::vector<char>& goes_left) const override {
    const int K = data.num_classes;
    std::vector<double> left(K, 0.0), total(K, 0.0);
    double n_left = 0.0;
    for (size_t i = 0; i < n_oob; ++i) {
      const int c = data.y[oob[i]];
      total[c] += 1.0;
      if (goes_left[i]) { left[c] += 1.0; n_left += 1.0; }
    }
    const double n = static_cast<double>(n_oob), n_right = n - n_left;
    if (n_left == 0.0 || n_right == 0.0) return 0.0;
    double g = 0.0;
    for (int c = 0; c < K; ++c) {
      const double l = left[c], r = total[c] - left[c];
      g += l * l / n_left + r * r / n_right - total[c] * total[c] / n;
    }
    return g;
  }

  void start_oob(const TrainingData& data, OobResult& oob, size_t n, bool max_conf, bool keep_even) const override {
    const int K = data.num_classes;
    oob.count.assign(n, 0);
    oob.predicted.assign(n, -1);
    oob.votes.assign(n * K, 0);
    oob.shares.assign(n * K, 0.0);
    if (max_conf) {
      oob.confidence.assign(n, 0.0);
      oob.confident_class.assign(n, -1);
      return;  // one tree decides: no ensemble-size correction
    }
    if (!keep_even) return;
    oob.even_votes.assign(n * K, 0);
    oob.even_shares.assign(n * K, 0.0);
    oob.even_count.assign(n, 0);
  }
  void add_oob_row(const OobRowInput& in, int r, OobResult& oob, OobChange& change) const override {
    const TrainingData& data = *in.data;
    const size_t n = data.x->n_rows();
    const bool max_conf = in.aggregation == Aggregation::MaxConfidence;
    double conf = 0.0;
    const int cls = predict_oob_row(in, r, change, max_conf ? &conf : nullptr);
    const int K = in.shape->num_classes;
    const ClassTally tally{oob.votes.data() + r, oob.shares.data() + r, n, oob.count.data() + r,
                           max_conf ? oob.confidence.data() + r : nullptr,
                           max_conf ? oob.confident_class.data() + r : nullptr};
    const int before = oob.predicted[r];
    tally_tree(tally, K, cls, in.dist, conf);
    if (in.even_tree && !oob.even_count.empty()) {
      const ClassTally even{oob.even_votes.data() + r, oob.even_shares.data() + r, n, oob.even_count.data() + r,
                            nullptr, nullptr};
      tally_tree(even, K, cls, in.dist, 0.0);
    }
    const int after = decide_class(in.aggregation, K, tally.votes, tally.shares, n, oob.count[r],
                                   max_conf ? oob.confident_class[r] : -1);
    oob.predicted[r] = after;
    if (before < 0) ++change.rows;
    else if (before != data.y[r]) --change.wrong;
    if (after != data.y[r]) ++change.wrong;
  }
  double oob_error(const TrainingData&, const OobResult& oob, long wrong, double) const override {
    return static_cast<double>(wrong) / static_cast<double>(oob.n_rows_with_votes);
  }
  std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) const override {
    std::vector<double> loss(oob.count.size(), NAN);
    for (size_t r = 0; r < loss.size(); ++r)
      if (oob.count[r] > 0) loss[r] = oob.predicted[r] == data.y[r] ? 0.0 : 1.0;
    return loss;
  }
  double structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                        const LeafModel&) const override {
    return oob_structure_loss(data, grown, rows);
  }
  int level_slots(const TrainingData& data) const override { return data.num_classes; }
  void level_values(const TrainingData& data, const std::vector<int>& inbag, std::vector<double>& value,
                    std::vector<int>& slot) const override {
    value.assign(inbag.size(), 1.0);
    slot.resize(inbag.size());
    for (size_t i = 0; i < inbag.size(); ++i) slot[i] = data.y[inbag[i]];
  }
};

}  // namespace

const Outcome& classification_outcome() {
  static const Classification unit;
  return unit;
}

}  // namespace svf
