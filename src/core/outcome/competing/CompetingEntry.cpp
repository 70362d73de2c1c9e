#include "CompetingEntry.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "CompetingSteps.h"
#include "outcome/DelayedEntry.h"

namespace svf {

namespace {

// The node's event times (the distinct grid indices of its event rows), increasing.
std::vector<int> node_event_times(const CompetingRows& data, const int* rows, size_t n) {
  std::vector<int> times;
  for (size_t i = 0; i < n; ++i)
    if (data.cause[rows[i]] > 0) times.push_back(data.time_index[rows[i]]);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// A row's interval of those times, [start, limit): it is at risk at the
// times after its entry's index and at or before its own index (an event
// row is at risk at its own time: its entry is before its time).
void row_interval(const std::vector<int>& times, const CompetingRows& data, int r, int& start, int& limit) {
  limit = static_cast<int>(std::upper_bound(times.begin(), times.end(), data.time_index[r]) - times.begin());
  const int first =
      static_cast<int>(std::upper_bound(times.begin(), times.end(), data.entry_index[r]) - times.begin());
  start = std::min(first, limit);  // never at risk: an empty interval
}

}  // namespace

void build_entry_competing_table(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table) {
  const int K = data.n_causes;
  const std::vector<int> times = node_event_times(data, rows, n);
  const size_t T = times.size();
  table.n_causes = K;
  table.limit.resize(n);
  table.start.resize(n);
  table.cause.resize(n);
  table.at_risk.assign(T, 0.0);
  table.deaths.assign(T * K, 0.0);
  std::vector<double> change(T + 1, 0.0);  // rows joining (+1 at start) and leaving (-1 at limit)
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i];
    int start = 0, limit = 0;
    row_interval(times, data, r, start, limit);
    table.start[i] = start;
    table.limit[i] = limit;
    table.cause[i] = data.cause[r];
    change[start] += 1.0;
    change[limit] -= 1.0;
    if (data.cause[r] > 0) table.deaths[static_cast<size_t>(limit - 1) * K + data.cause[r] - 1] += 1.0;
  }
  double running = 0.0;
  for (size_t j = 0; j < T; ++j) {
    running += change[j];
    table.at_risk[j] = running;
  }
}

void build_competing_table_of(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table) {
  if (data.entry_index) return build_entry_competing_table(data, rows, n, table);
  build_competing_table(data, rows, n, table);
}

namespace {

// Sums of `width` values added at positions 0..T, over positions < k, side
// by side (one walk reads or updates every column): a Fenwick tree.
class ColumnSums {
 public:
  ColumnSums(size_t T, size_t width) : width_(width), tree_((T + 2) * width, 0.0) {}
  void clear() { std::fill(tree_.begin(), tree_.end(), 0.0); }
  void add(int position, const double* v) {
    const size_t size = tree_.size() / width_;
    for (size_t i = static_cast<size_t>(position) + 1; i < size; i += i & (~i + 1))
      for (size_t c = 0; c < width_; ++c) tree_[i * width_ + c] += v[c];
  }
  void below(int k, double* out) const {  // positions < k
    std::fill(out, out + width_, 0.0);
    for (size_t i = static_cast<size_t>(k); i > 0; i -= i & (~i + 1))
      for (size_t c = 0; c < width_; ++c) out[c] += tree_[i * width_ + c];
  }

 private:
  size_t width_;
  std::vector<double> tree_;
};

// Rows at risk 1 or fewer carry no variance (as CompetingLogRank.cpp).
double variance_weight(double y, double d) { return y > 1.0 ? d * (y - d) / (y - 1.0) / y : 0.0; }

// The cause-specific log-rank statistics of a growing left group whose rows
// are at risk over [start, limit) of the node's times, O(K log T) per row:
// per cause the numerator (events less the hazard over the interval), the
// linear variance term, and the square term sum_j e_j Y_j^2, which grows
// by the e-weighted overlaps of the new row's interval with the left rows'
// (Fenwick sums over their starts and limits: count and each cause's E).
class EntryCompetingScan : public CutScanOf<EntryCompetingScan> {
 public:
  explicit EntryCompetingScan(const CompetingTable& table)
      : table_(table), K_(table.n_causes), T_(table.n_times()), prefix_((T_ + 1) * K_ * 3, 0.0),
        starts_(T_, K_ + 1), limits_(T_, K_ + 1), point_(K_ + 1), below_(K_ + 1), upto_(K_ + 1), over_(K_),
        numerator_(K_, 0.0), linear_(K_, 0.0), square_(K_, 0.0) {
    for (size_t j = 0; j < T_; ++j) {
      const double y = table.at_risk[j];
      for (int k = 0; k < K_; ++k) {
        const double d = table.deaths[j * K_ + k], c = variance_weight(y, d);
        const double* before = &prefix_[(j * K_ + k) * 3];
        double* after = &prefix_[((j + 1) * K_ + k) * 3];
        after[0] = before[0] + (y > 0.0 ? d / y : 0.0);
        after[1] = before[1] + c;
        after[2] = before[2] + (y > 0.0 ? c / y : 0.0);
      }
    }
  }
  void reset() override {
    starts_.clear();
    limits_.clear();
    std::fill(numerator_.begin(), numerator_.end(), 0.0);
    std::fill(linear_.begin(), linear_.end(), 0.0);
    std::fill(square_.begin(), square_.end(), 0.0);
  }
  void add(int position) override {
    const size_t i = static_cast<size_t>(position);
    const int s = table_.start[i], l = table_.limit[i], cause = table_.cause[i];
    if (cause > 0) numerator_[cause - 1] += 1.0;
    if (s >= l) return;  // never at risk
    const double* at_s = &prefix_[static_cast<size_t>(s) * K_ * 3];
    const double* at_l = &prefix_[static_cast<size_t>(l) * K_ * 3];
    std::fill(over_.begin(), over_.end(), 0.0);
    overlap(starts_, s, l, at_s, at_l, 1.0);
    overlap(limits_, s, l, at_s, at_l, -1.0);
    for (int k = 0; k < K_; ++k) {
      numerator_[k] -= at_l[3 * k] - at_s[3 * k];
      linear_[k] += at_l[3 * k + 1] - at_s[3 * k + 1];
      square_[k] += 2.0 * over_[k] + (at_l[3 * k + 2] - at_s[3 * k + 2]);
    }
    point_[0] = 1.0;
    for (int k = 0; k < K_; ++k) point_[1 + k] = at_s[3 * k + 2];
    starts_.add(s, point_.data());
    for (int k = 0; k < K_; ++k) point_[1 + k] = at_l[3 * k + 2];
    limits_.add(l, point_.data());
  }
  double gain(size_t) const override { return composite(); }
  bool any_cut() const override { return T_ > 0; }
  double chi_square(int cause) const {
    const int k = cause - 1;
    const double var = linear_[k] - square_[k];
    if (!(var > 1e-10 * linear_[k])) return 0.0;
    return numerator_[k] * numerator_[k] / var;
  }
  double composite() const {
    double s = 0.0;
    for (int k = 1; k <= K_; ++k) s += chi_square(k);
    return s;
  }

 private:
  // per cause, sign * the sum over points a of `sums` of sum_{j in [s, l), j >= a} e_j
  // = E(l) #{a < l} - E(s) #{a <= s} - sum_{a < l} E(a) + sum_{a <= s} E(a)
  void overlap(const ColumnSums& sums, int s, int l, const double* at_s, const double* at_l, double sign) {
    sums.below(l, below_.data());
    sums.below(s + 1, upto_.data());
    for (int k = 0; k < K_; ++k)
      over_[k] += sign * (at_l[3 * k + 2] * below_[0] - at_s[3 * k + 2] * upto_[0] - below_[1 + k] + upto_[1 + k]);
  }
  const CompetingTable& table_;
  int K_;
  size_t T_;
  std::vector<double> prefix_;  // per time k and cause: hazard, c and e summed over times < k
  ColumnSums starts_, limits_;
  std::vector<double> point_, below_, upto_, over_, numerator_, linear_, square_;
};

}  // namespace

std::unique_ptr<CutScan> competing_cut_scan_of(const CompetingTable& table) {
  if (table.start.empty()) return competing_cut_scan(table);
  return std::unique_ptr<CutScan>(new EntryCompetingScan(table));
}

double competing_logrank_of(const CompetingTable& table, const std::vector<char>& left, std::vector<double>& per_cause) {
  if (table.start.empty()) return competing_logrank(table, left, per_cause);
  const size_t n = table.limit.size();
  per_cause.assign(table.n_causes, 0.0);
  EntryCompetingScan scan(table);
  const size_t n_left = add_marked_rows(scan, left, n);
  if (n_left == 0 || n_left == n) return 0.0;
  for (int k = 1; k <= table.n_causes; ++k) per_cause[k - 1] = scan.chi_square(k);
  return scan.composite();
}

void competing_target_of(const CompetingTable& table, const std::vector<double>& cause_weights, double* out) {
  if (table.start.empty()) return competing_target(table, cause_weights, out);
  const int K = table.n_causes;
  const size_t T = table.n_times();
  std::vector<double> hazard(T + 1, 0.0);  // weighted cumulative hazard over the first t node times
  for (size_t j = 0; j < T; ++j) {
    double h = 0.0;
    for (int k = 0; k < K; ++k) h += cause_weights[k] * table.deaths[j * K + k];
    hazard[j + 1] = hazard[j] + (table.at_risk[j] > 0.0 ? h / table.at_risk[j] : 0.0);
  }
  for (size_t i = 0; i < table.limit.size(); ++i) {
    const int c = table.cause[i];
    out[i] = (c > 0 ? cause_weights[c - 1] : 0.0) - (hazard[table.limit[i]] - hazard[table.start[i]]);
  }
}

CompetingCurves entry_competing_curves(const CompetingRows& data, const int* rows, size_t n) {
  const int K = data.n_causes;
  const std::vector<int> times = node_event_times(data, rows, n);
  const size_t T = times.size();
  // per node time: the weight joining and leaving the risk set, and each cause's events
  std::vector<double> change(T + 1, 0.0), events(T * K, 0.0);
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i];
    int start = 0, limit = 0;
    row_interval(times, data, r, start, limit);
    const double w = data.weight_of(r);
    change[start] += w;
    change[limit] -= w;
    if (data.cause[r] > 0) events[static_cast<size_t>(limit - 1) * K + data.cause[r] - 1] += w;
  }
  CompetingCurves out;
  out.n_causes = K;
  std::vector<double> cif(K, 0.0), chf(K, 0.0);
  double surv = 1.0, at_risk = 0.0;
  for (size_t u = 0; u < T; ++u) {
    at_risk += change[u];
    const double* d = &events[u * K];
    double total = 0.0;
    for (int k = 0; k < K; ++k) total += d[k];
    if (!(total > 0.0)) continue;
    // Aalen-Johansen over the risk set entry < t <= exit
    for (int k = 0; k < K; ++k) {
      cif[k] += surv * d[k] / at_risk;
      chf[k] += d[k] / at_risk;
    }
    surv *= 1.0 - total / at_risk;
    out.at.push_back(times[u]);
    out.survival.push_back(surv);
    out.cif.insert(out.cif.end(), cif.begin(), cif.end());
    out.chf.insert(out.chf.end(), chf.begin(), chf.end());
  }
  return out;
}

void competing_steps_of(const CompetingRows& data, const int* rows, size_t n, std::vector<int>& ints,
                        std::vector<double>& reals) {
  if (!data.entry_index) return competing_steps(data, rows, n, ints, reals);
  // as competing_steps(): each value rounded to a multiple of 2^-32
  auto fine = [](double v) { return std::ldexp(std::nearbyint(std::ldexp(v, 32)), -32); };
  const CompetingCurves curves = entry_competing_curves(data, rows, n);
  ints.push_back(static_cast<int>(curves.n_at()));
  ints.insert(ints.end(), curves.at.begin(), curves.at.end());
  for (double v : curves.cif) reals.push_back(fine(v));
  for (double v : curves.chf) reals.push_back(fine(v));
}

double wolbers_c_of(const double* time, const int* status, const double* entry, const int* rows, size_t m,
                    const double* risk, int cause, std::vector<double>* row_loss) {
  if (!entry) return wolbers_c(time, status, rows, m, risk, cause, row_loss);
  // as wolbers_c(): rows of another cause moved past every time, censored;
  // Harrell's C under truncation then keeps a pair only when the other row
  // had entered by the event's time
  double beyond = 0.0;
  for (size_t k = 0; k < m; ++k) beyond = std::max(beyond, time[rows[k]]);
  beyond = 2.0 * beyond + 1.0;
  std::vector<double> t(m), e(m);
  std::vector<int> s(m), position(m);
  for (size_t k = 0; k < m; ++k) {
    const int c = status[rows[k]];
    t[k] = c > 0 && c != cause ? beyond : time[rows[k]];
    s[k] = c == cause ? 1 : 0;
    e[k] = entry[rows[k]];
  }
  std::iota(position.begin(), position.end(), 0);
  return harrell_c_entry(t.data(), s.data(), e.data(), position.data(), m, risk, row_loss);
}

}  // namespace svf
