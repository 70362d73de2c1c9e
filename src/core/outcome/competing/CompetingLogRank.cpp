#include "CompetingLogRank.h"

#include <algorithm>
#include <cstdint>

#include "outcome/RadixOrder.h"

namespace svf {

namespace {

// Each node row's limit (the node's event times at or before its grid
// index, outcome/RadixOrder.h) and cause; returns the node's number of
// event times.
int competing_limits(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table) {
  table.cause.resize(n);
  for (size_t i = 0; i < n; ++i) table.cause[i] = data.cause[rows[i]];
  return node_event_limits(data.time_index, data.grid_size, rows, n,
                           [&](size_t i) { return table.cause[i] > 0; }, table.limit);
}

}  // namespace

void build_competing_table(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table) {
  const int K = data.n_causes;
  table.n_causes = K;
  const int T = competing_limits(data, rows, n, table);
  table.at_risk.assign(T, 0.0);
  table.deaths.assign(static_cast<size_t>(T) * K, 0.0);
  std::vector<double> ending(T + 1, 0.0);  // rows at risk at exactly the first `limit` times
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i], lim = table.limit[i];
    ending[lim] += 1.0;
    if (data.cause[r] > 0) table.deaths[static_cast<size_t>(lim - 1) * K + data.cause[r] - 1] += 1.0;
  }
  double running = 0.0;
  for (int t = T; t-- > 0;) {
    running += ending[t + 1];
    table.at_risk[t] = running;
  }
}

CompetingLogRankScan::CompetingLogRankScan(const CompetingTable& table)
    : table_(table), K_(table.n_causes), T_(table.n_times()), prefix_((T_ + 1) * K_ * 3, 0.0),
      tree_((T_ + 1) * (K_ + 1), 0.0), numerator_(K_, 0.0), linear_(K_, 0.0), square_(K_, 0.0), below_(K_ + 1, 0.0) {
  for (size_t j = 0; j < T_; ++j) {
    const double y = table.at_risk[j];
    for (int k = 0; k < K_; ++k) {
      const double d = table.deaths[j * K_ + k];
      // hypergeometric variance weight; rows at risk 1 or fewer carry none
      const double c = y > 1.0 ? d * (y - d) / (y - 1.0) / y : 0.0;
      const double* before = &prefix_[(j * K_ + k) * 3];
      double* after = &prefix_[((j + 1) * K_ + k) * 3];
      after[0] = before[0] + d / y;
      after[1] = before[1] + c;
      after[2] = before[2] + c / y;
    }
  }
}

void CompetingLogRankScan::reset() {
  std::fill(tree_.begin(), tree_.end(), 0.0);
  std::fill(numerator_.begin(), numerator_.end(), 0.0);
  std::fill(linear_.begin(), linear_.end(), 0.0);
  std::fill(square_.begin(), square_.end(), 0.0);
  n_left_ = 0.0;
}

void CompetingLogRankScan::add(size_t i) {
  const int lim = table_.limit[i], cause = table_.cause[i];
  const size_t width = static_cast<size_t>(K_) + 1;
  // over the left rows of limit < lim: their count and each cause's sum of E(limit)
  std::fill(below_.begin(), below_.end(), 0.0);
  for (int k = lim - 1; k > 0; k -= k & -k) {
    const double* node = &tree_[static_cast<size_t>(k) * width];
    for (size_t c = 0; c < width; ++c) below_[c] += node[c];
  }
  const double* at = &prefix_[static_cast<size_t>(lim) * K_ * 3];
  for (int k = 0; k < K_; ++k) {
    const double hazard = at[3 * k], c_sum = at[3 * k + 1], e_sum = at[3 * k + 2];
    numerator_[k] += (cause == k + 1 ? 1.0 : 0.0) - hazard;
    linear_[k] += c_sum;
    // sum_{j < lim} e_j Y_j = E(lim) * (left rows of limit >= lim) + sum of E(limit) over the others
    const double partial = e_sum * (n_left_ - below_[0]) + below_[1 + k];
    square_[k] += 2.0 * partial + e_sum;
  }
  if (lim > 0) {  // rows never at risk stay out of the counts: E(0) = 0
    n_left_ += 1.0;
    for (int k = lim; k <= static_cast<int>(T_); k += k & -k) {
      double* node = &tree_[static_cast<size_t>(k) * width];
      node[0] += 1.0;
      for (int c = 0; c < K_; ++c) node[1 + c] += at[3 * c + 2];
    }
  }
}

double CompetingLogRankScan::chi_square(int cause) const {
  const int k = cause - 1;
  const double var = linear_[k] - square_[k];
  // cancellation leaves a rounding residue where the true variance is 0
  if (!(var > 1e-10 * linear_[k])) return 0.0;
  return numerator_[k] * numerator_[k] / var;
}

double CompetingLogRankScan::composite() const {
  double s = 0.0;
  for (int k = 1; k <= K_; ++k) s += chi_square(k);
  return s;
}

double competing_logrank(const CompetingTable& table, const std::vector<char>& left, std::vector<double>& per_cause) {
  const size_t n = table.limit.size();
  per_cause.assign(table.n_causes, 0.0);
  CompetingLogRankScan scan(table);
  const size_t n_left = add_marked_rows(scan, left, n);
  if (n_left == 0 || n_left == n) return 0.0;
  for (int k = 1; k <= table.n_causes; ++k) per_cause[k - 1] = scan.chi_square(k);
  return scan.composite();
}

namespace {

// CompetingLogRankScan for two causes (the common case), its arithmetic
// operation for operation (the same statistics, bit for bit) on fixed-size
// records: a Fenwick node of 32 bytes (the count and both causes' sums, one
// cache line), no per-row loops over causes or buffer clears.
class TwoCauseScan {
 public:
  explicit TwoCauseScan(const CompetingTable& table)
      : table_(table), T_(table.n_times()), prefix_(T_ + 1), tree_(T_ + 1) {
    for (size_t j = 0; j < T_; ++j) {
      const double y = table.at_risk[j];
      for (int k = 0; k < 2; ++k) {
        const double d = table.deaths[j * 2 + k];
        const double c = y > 1.0 ? d * (y - d) / (y - 1.0) / y : 0.0;
        const double* before = &prefix_[j].v[3 * k];
        double* after = &prefix_[j + 1].v[3 * k];
        after[0] = before[0] + d / y;
        after[1] = before[1] + c;
        after[2] = before[2] + c / y;
      }
    }
  }
  void reset() {
    std::fill(tree_.begin(), tree_.end(), Node{0.0, 0.0, 0.0, 0.0});
    num0_ = num1_ = lin0_ = lin1_ = sq0_ = sq1_ = n_left_ = 0.0;
  }
  void add(size_t i) {
    const int lim = table_.limit[i], cause = table_.cause[i];
    double b0 = 0.0, b1 = 0.0, b2 = 0.0;
    for (int k = lim - 1; k > 0; k -= k & -k) {
      const Node& node = tree_[static_cast<size_t>(k)];
      b0 += node.count;
      b1 += node.e0;
      b2 += node.e1;
    }
    const double* at = prefix_[static_cast<size_t>(lim)].v;
    num0_ += (cause == 1 ? 1.0 : 0.0) - at[0];
    lin0_ += at[1];
    const double partial0 = at[2] * (n_left_ - b0) + b1;
    sq0_ += 2.0 * partial0 + at[2];
    num1_ += (cause == 2 ? 1.0 : 0.0) - at[3];
    lin1_ += at[4];
    const double partial1 = at[5] * (n_left_ - b0) + b2;
    sq1_ += 2.0 * partial1 + at[5];
    if (lim > 0) {
      n_left_ += 1.0;
      for (int k = lim; k <= static_cast<int>(T_); k += k & -k) {
        Node& node = tree_[static_cast<size_t>(k)];
        node.count += 1.0;
        node.e0 += at[2];
        node.e1 += at[5];
      }
    }
  }
  double composite() const {
    double s = 0.0;
    s += chi_square(num0_, lin0_, sq0_);
    s += chi_square(num1_, lin1_, sq1_);
    return s;
  }

 private:
  static double chi_square(double numerator, double linear, double square) {
    const double var = linear - square;
    if (!(var > 1e-10 * linear)) return 0.0;
    return numerator * numerator / var;
  }
  struct Node {
    double count, e0, e1, pad;
  };
  struct Prefix {
    double v[6];  // per cause: hazard, c and e summed over times < k
  };
  const CompetingTable& table_;
  size_t T_;
  std::vector<Prefix> prefix_;
  std::vector<Node> tree_;
  double num0_ = 0.0, num1_ = 0.0, lin0_ = 0.0, lin1_ = 0.0, sq0_ = 0.0, sq1_ = 0.0, n_left_ = 0.0;
};

// The composite log-rank statistic as a cut scan, for the two-cause scan or
// the general one (the same statistic; the two-cause one is faster).
template <class Scan>
class CompositeCutScan : public CutScanOf<CompositeCutScan<Scan>> {
 public:
  explicit CompositeCutScan(const CompetingTable& table) : scan_(table), any_(table.n_times() > 0) {}
  void reset() override { scan_.reset(); }
  void add(int position) override { scan_.add(static_cast<size_t>(position)); }
  double gain(size_t) const override { return scan_.composite(); }
  bool any_cut() const override { return any_; }

 private:
  Scan scan_;
  bool any_;
};

}  // namespace

std::unique_ptr<CutScan> competing_cut_scan(const CompetingTable& table) {
  if (table.n_causes == 2) return std::unique_ptr<CutScan>(new CompositeCutScan<TwoCauseScan>(table));
  return std::unique_ptr<CutScan>(new CompositeCutScan<CompetingLogRankScan>(table));
}

void competing_target(const CompetingTable& table, const std::vector<double>& cause_weights, double* out) {
  const int K = table.n_causes;
  const size_t T = table.n_times();
  // weighted cumulative hazard over the first t node times
  std::vector<double> hazard(T + 1, 0.0);
  for (size_t j = 0; j < T; ++j) {
    double h = 0.0;
    for (int k = 0; k < K; ++k) h += cause_weights[k] * table.deaths[j * K + k];
    hazard[j + 1] = hazard[j] + h / table.at_risk[j];
  }
  for (size_t i = 0; i < table.limit.size(); ++i) {
    const int c = table.cause[i];
    out[i] = (c > 0 ? cause_weights[c - 1] : 0.0) - hazard[table.limit[i]];
  }
}

}  // namespace svf
