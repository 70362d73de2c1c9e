#include "DelayedEntry.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace svf {

std::vector<int> entry_grid_index(const std::vector<double>& grid, const double* entry, size_t n) {
  std::vector<int> index(n);
  for (size_t i = 0; i < n; ++i)
    index[i] = static_cast<int>(std::upper_bound(grid.begin(), grid.end(), entry[i]) - grid.begin()) - 1;
  return index;
}

void build_entry_survival_table(const TrainingData& data, const int* rows, size_t n, SurvivalTable& table) {
  std::vector<int> times;
  for (size_t i = 0; i < n; ++i)
    if (data.status[rows[i]]) times.push_back(data.time_index[rows[i]]);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const size_t T = times.size();
  table.limit.resize(n);
  table.start.resize(n);
  table.event.resize(n);
  table.at_risk.assign(T, 0.0);
  table.deaths.assign(T, 0.0);
  std::vector<double> change(T + 1, 0.0);  // rows joining (+1 at start) and leaving (-1 at limit) the risk set
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i];
    const int lim = static_cast<int>(std::upper_bound(times.begin(), times.end(), data.time_index[r]) - times.begin());
    const int first = static_cast<int>(std::upper_bound(times.begin(), times.end(), data.entry_index[r]) - times.begin());
    table.limit[i] = lim;
    table.start[i] = std::min(first, lim);  // never at risk: an empty interval
    table.event[i] = data.status[r] ? 1 : 0;
    change[table.start[i]] += 1.0;
    change[lim] -= 1.0;
    if (table.event[i]) table.deaths[lim - 1] += 1.0;  // (an event row is at risk at its own time)
  }
  double running = 0.0;
  for (size_t j = 0; j < T; ++j) {
    running += change[j];
    table.at_risk[j] = running;
  }
}

namespace {

// Rows at risk 1 or fewer carry no variance (as SurvivalTable.cpp).
double entry_variance_weight(double at_risk, double deaths) {
  return at_risk > 1.0 ? deaths * (at_risk - deaths) / (at_risk - 1.0) / at_risk : 0.0;
}

// Sums of values added at positions 0..T, over positions <= k or < k.
class PositionSums {
 public:
  explicit PositionSums(size_t T) : tree_(T + 2, 0.0) {}
  void clear() { std::fill(tree_.begin(), tree_.end(), 0.0); }
  void add(int position, double v) {
    for (size_t i = static_cast<size_t>(position) + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += v;
  }
  double below(int k) const {  // positions < k
    double s = 0.0;
    for (size_t i = static_cast<size_t>(k); i > 0; i -= i & (~i + 1)) s += tree_[i];
    return s;
  }
  double at_most(int k) const { return below(k + 1); }

 private:
  std::vector<double> tree_;
};

class EntryLogRankScan : public CutScanOf<EntryLogRankScan> {
 public:
  explicit EntryLogRankScan(const SurvivalTable& table)
      : table_(table), hazard_(table.n_times() + 1, 0.0), c_sum_(table.n_times() + 1, 0.0),
        e_sum_(table.n_times() + 1, 0.0), start_count_(table.n_times()), start_e_(table.n_times()),
        limit_count_(table.n_times()), limit_e_(table.n_times()), any_(table.n_times() > 0) {
    for (size_t j = 0; j < table.n_times(); ++j) {
      const double nj = table.at_risk[j], dj = table.deaths[j], c = entry_variance_weight(nj, dj);
      hazard_[j + 1] = hazard_[j] + (nj > 0.0 ? dj / nj : 0.0);
      c_sum_[j + 1] = c_sum_[j] + c;
      e_sum_[j + 1] = e_sum_[j] + (nj > 0.0 ? c / nj : 0.0);
    }
  }
  void reset() override {
    start_count_.clear();
    start_e_.clear();
    limit_count_.clear();
    limit_e_.clear();
    numerator_ = linear_ = square_ = 0.0;
  }
  void add(int position) override {
    const size_t i = static_cast<size_t>(position);
    const int s = table_.start[i], l = table_.limit[i];
    numerator_ += table_.event[i] ? 1.0 : 0.0;
    if (s >= l) return;  // never at risk
    numerator_ -= hazard_[l] - hazard_[s];
    linear_ += c_sum_[l] - c_sum_[s];
    // sum over j in [s, l) of e_j Y_j, Y_j = left starts <= j minus left limits <= j
    const double partial = overlap(start_count_, start_e_, s, l) - overlap(limit_count_, limit_e_, s, l);
    square_ += 2.0 * partial + (e_sum_[l] - e_sum_[s]);
    start_count_.add(s, 1.0);
    start_e_.add(s, e_sum_[s]);
    limit_count_.add(l, 1.0);
    limit_e_.add(l, e_sum_[l]);
  }
  double gain(size_t) const override {
    const double var = linear_ - square_;
    if (!(var > 1e-10 * linear_)) return 0.0;
    return numerator_ * numerator_ / var;
  }
  bool any_cut() const override { return any_; }

 private:
  // sum over points a (counts, and E(a) sums) of sum_{j in [s, l), j >= a} e_j
  // = E(l) #{a < l} - E(s) #{a <= s} - sum_{a < l} E(a) + sum_{a <= s} E(a)
  double overlap(const PositionSums& count, const PositionSums& e, int s, int l) const {
    return e_sum_[l] * count.below(l) - e_sum_[s] * count.at_most(s) - e.below(l) + e.at_most(s);
  }
  const SurvivalTable& table_;
  std::vector<double> hazard_, c_sum_, e_sum_;
  PositionSums start_count_, start_e_, limit_count_, limit_e_;
  double numerator_ = 0.0, linear_ = 0.0, square_ = 0.0;
  bool any_;
};

}  // namespace

std::unique_ptr<CutScan> entry_logrank_cut_scan(const SurvivalTable& table) {
  return std::unique_ptr<CutScan>(new EntryLogRankScan(table));
}

double entry_logrank_statistic(const SurvivalTable& table, const std::vector<char>& left) {
  const size_t n = table.limit.size();
  EntryLogRankScan scan(table);
  const size_t n_left = add_marked_rows(scan, left, n);
  if (n_left == 0 || n_left == n) return 0.0;
  return scan.gain(n_left);
}

void entry_martingale_scores(const SurvivalTable& table, double* out) {
  const size_t T = table.n_times();
  std::vector<double> hazard(T + 1, 0.0);
  for (size_t j = 0; j < T; ++j) hazard[j + 1] = hazard[j] + table.deaths[j] / table.at_risk[j];
  for (size_t i = 0; i < table.limit.size(); ++i)
    out[i] = (table.event[i] ? 1.0 : 0.0) - (hazard[table.limit[i]] - hazard[table.start[i]]);
}

namespace {

// Counts of inserted ranks below a rank (a Fenwick tree).
class RankTally {
 public:
  explicit RankTally(size_t n) : tree_(n + 1, 0) {}
  void add(size_t rank) {
    for (size_t k = rank + 1; k < tree_.size(); k += k & (~k + 1)) ++tree_[k];
  }
  long below(size_t rank) const {
    long s = 0;
    for (size_t k = rank; k > 0; k -= k & (~k + 1)) s += tree_[k];
    return s;
  }

 private:
  std::vector<long> tree_;
};

// Per row: among the rows of `others` that pass (inserted before its
// query), those of lower and of equal rank, and how many passed.
struct PairCounts {
  std::vector<double> less, equal, passed;
  explicit PairCounts(size_t m) : less(m, 0.0), equal(m, 0.0), passed(m, 0.0) {}
};

// Sweeps queries (rows `asked`, in order) against inserted rows (`inserted`,
// in order): before row a is asked, every inserted row b with goes(b, a) in
// order joins; the counts are of those joined.
template <class Goes>
void sweep(const std::vector<size_t>& asked, const std::vector<size_t>& inserted, const std::vector<size_t>& rank,
           size_t levels, Goes goes, PairCounts& out) {
  RankTally tally(levels);
  size_t k = 0;
  long joined = 0;
  for (size_t a : asked) {
    for (; k < inserted.size() && goes(inserted[k], a); ++k, ++joined) tally.add(rank[inserted[k]]);
    const long less = tally.below(rank[a]);
    out.less[a] += static_cast<double>(less);
    out.equal[a] += static_cast<double>(tally.below(rank[a] + 1) - less);
    out.passed[a] += static_cast<double>(joined);
  }
}

}  // namespace

double harrell_c_entry(const double* time, const int* status, const double* entry, const int* rows, size_t m,
                       const double* risk, std::vector<double>* row_loss) {
  std::vector<double> levels(risk, risk + m);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  std::vector<size_t> rank(m), all(m), events;
  for (size_t a = 0; a < m; ++a) rank[a] = std::lower_bound(levels.begin(), levels.end(), risk[a]) - levels.begin();
  std::iota(all.begin(), all.end(), size_t(0));
  auto t = [&](size_t a) { return time[rows[a]]; };
  auto e = [&](size_t a) { return entry[rows[a]]; };
  for (size_t a = 0; a < m; ++a)
    if (status[rows[a]]) events.push_back(a);
  const size_t L = levels.size();
  std::vector<size_t> by_time = all, by_entry = all, ev_time = events;
  std::sort(by_time.begin(), by_time.end(), [&](size_t a, size_t b) { return t(a) > t(b); });
  std::sort(by_entry.begin(), by_entry.end(), [&](size_t a, size_t b) { return e(a) > e(b); });
  std::sort(ev_time.begin(), ev_time.end(), [&](size_t a, size_t b) { return t(a) > t(b); });
  // an event a's partners: the rows of a later time (later) less those entered at or after t_a (late)
  PairCounts later(m), late(m);
  sweep(ev_time, by_time, rank, L, [&](size_t b, size_t a) { return t(b) > t(a); }, later);
  sweep(ev_time, by_entry, rank, L, [&](size_t b, size_t a) { return e(b) >= t(a); }, late);
  double concordant = 0.0, pairs = 0.0;
  std::vector<double> bad(m, 0.0), pairs_of(m, 0.0);
  for (size_t a : events) {
    const double less = later.less[a] - late.less[a], equal = later.equal[a] - late.equal[a];
    const double n_pairs = later.passed[a] - late.passed[a];
    concordant += less + 0.5 * equal;
    pairs += n_pairs;
    bad[a] += n_pairs - less - equal + 0.5 * equal;
    pairs_of[a] += n_pairs;
  }
  if (row_loss) {
    // a row b's partners as the later row: events before t_b less those at or before its entry
    std::reverse(by_time.begin(), by_time.end());
    std::reverse(by_entry.begin(), by_entry.end());
    std::reverse(ev_time.begin(), ev_time.end());
    PairCounts earlier(m), before_entry(m);
    sweep(by_time, ev_time, rank, L, [&](size_t ev, size_t b) { return t(ev) < t(b); }, earlier);
    sweep(by_entry, ev_time, rank, L, [&](size_t ev, size_t b) { return t(ev) <= e(b); }, before_entry);
    for (size_t b = 0; b < m; ++b) {
      // the earlier event's risk above b's is the concordant order: b's bad pairs are events of lower rank
      const double less = earlier.less[b] - before_entry.less[b], equal = earlier.equal[b] - before_entry.equal[b];
      bad[b] += less + 0.5 * equal;
      pairs_of[b] += earlier.passed[b] - before_entry.passed[b];
    }
    row_loss->assign(m, NAN);
    if (pairs > 0.0) {
      const double error = 1.0 - concordant / pairs, lift = static_cast<double>(m - 1) / pairs;
      for (size_t a = 0; a < m; ++a) (*row_loss)[a] = error + lift * (bad[a] - error * pairs_of[a]);
    }
  }
  return pairs > 0.0 ? concordant / pairs : NAN;
}

double harrell_c_of(const TrainingData& data, const int* rows, size_t m, const double* risk,
                    std::vector<double>* row_loss) {
  if (data.has_entry()) return harrell_c_entry(data.time, data.status, data.entry, rows, m, risk, row_loss);
  return harrell_c(data.time, data.status, rows, m, risk, row_loss);
}

}  // namespace svf
