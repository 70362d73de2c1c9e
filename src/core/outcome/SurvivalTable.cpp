#include "SurvivalTable.h"

#include "DelayedEntry.h"
#include "RadixOrder.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <numeric>

namespace svf {

void build_survival_table(const TrainingData& data, const int* rows, size_t n, SurvivalTable& table) {
  if (data.has_entry()) return build_entry_survival_table(data, rows, n, table);
  table.event.resize(n);
  for (size_t i = 0; i < n; ++i) table.event[i] = data.status[rows[i]] ? 1 : 0;
  const int node_times = node_event_limits(data.time_index, data.num_times, rows, n,
                                           [&](size_t i) { return table.event[i] != 0; }, table.limit);
  table.at_risk.assign(node_times, 0.0);
  table.deaths.assign(node_times, 0.0);
  const size_t T = table.at_risk.size();
  // (counts of whole rows: exact in any order)
  std::vector<double> ending(T + 1, 0.0);  // rows at risk at exactly the first `limit` times
  for (size_t i = 0; i < n; ++i) {
    const int lim = table.limit[i];
    ending[lim] += 1.0;
    if (table.event[i]) table.deaths[lim - 1] += 1.0;
  }
  double running = 0.0;
  for (size_t j = T; j-- > 0;) {
    running += ending[j + 1];
    table.at_risk[j] = running;
  }
}

namespace {

// Rows at risk 1 or fewer carry no variance.
double variance_weight(double at_risk, double deaths) {
  return at_risk > 1.0 ? deaths * (at_risk - deaths) / (at_risk - 1.0) / at_risk : 0.0;
}

}  // namespace

LogRankScan::LogRankScan(const SurvivalTable& table)
    : table_(table), prefix_(table.n_times() + 1, Prefix{0.0, 0.0, 0.0}), tree_(table.n_times() + 1, Pair{0.0, 0.0}) {
  for (size_t j = 0; j < table.n_times(); ++j) {
    const double nj = table.at_risk[j], dj = table.deaths[j], c = variance_weight(nj, dj);
    prefix_[j + 1].hazard = prefix_[j].hazard + dj / nj;
    prefix_[j + 1].c = prefix_[j].c + c;
    prefix_[j + 1].e = prefix_[j].e + c / nj;
  }
}

void LogRankScan::reset() {
  std::fill(tree_.begin(), tree_.end(), Pair{0.0, 0.0});
  numerator_ = linear_ = square_ = n_left_ = 0.0;
}

void LogRankScan::add(size_t i) {
  const int lim = table_.limit[i];
  const Prefix& at = prefix_[lim];
  numerator_ += (table_.event[i] ? 1.0 : 0.0) - at.hazard;
  linear_ += at.c;
  // over the left rows of limit < lim: their count and sum of E(limit)
  double below = 0.0, e_below = 0.0;
  for (int k = lim - 1; k > 0; k -= k & -k) {
    below += tree_[k].count;
    e_below += tree_[k].e;
  }
  // sum_{j < lim} e_j Y_j = E(lim) * (left rows of limit >= lim) + sum of E(limit) over the others
  const double partial = at.e * (n_left_ - below) + e_below;
  square_ += 2.0 * partial + at.e;
  if (lim > 0) {  // rows never at risk stay out of the counts: E(0) = 0
    n_left_ += 1.0;
    for (int k = lim; k < static_cast<int>(tree_.size()); k += k & -k) {
      tree_[k].count += 1.0;
      tree_[k].e += at.e;
    }
  }
}

double LogRankScan::statistic() const {
  const double var = linear_ - square_;
  // cancellation leaves a rounding residue where the true variance is 0
  if (!(var > 1e-10 * linear_)) return 0.0;
  return numerator_ * numerator_ / var;
}

double logrank_statistic(const SurvivalTable& table, const std::vector<char>& left) {
  if (!table.start.empty()) return entry_logrank_statistic(table, left);
  const size_t n = table.limit.size();
  LogRankScan scan(table);
  const size_t n_left = add_marked_rows(scan, left, n);
  if (n_left == 0 || n_left == n) return 0.0;
  return scan.statistic();
}

namespace {

class LogRankCutScan : public CutScanOf<LogRankCutScan> {
 public:
  explicit LogRankCutScan(const SurvivalTable& table) : scan_(table), any_(table.n_times() > 0) {}
  void reset() override { scan_.reset(); }
  void add(int position) override { scan_.add(static_cast<size_t>(position)); }
  double gain(size_t) const override { return scan_.statistic(); }
  bool any_cut() const override { return any_; }

 private:
  LogRankScan scan_;
  bool any_;
};

}  // namespace

std::unique_ptr<CutScan> logrank_cut_scan(const SurvivalTable& table) {
  if (!table.start.empty()) return entry_logrank_cut_scan(table);
  return std::unique_ptr<CutScan>(new LogRankCutScan(table));
}

void martingale_scores(const SurvivalTable& table, double* out) {
  if (!table.start.empty()) return entry_martingale_scores(table, out);
  const size_t T = table.n_times();
  std::vector<double> hazard(T + 1, 0.0);  // hazard[k]: cumulative over the first k times
  for (size_t j = 0; j < T; ++j) hazard[j + 1] = hazard[j] + table.deaths[j] / table.at_risk[j];
  for (size_t i = 0; i < table.limit.size(); ++i) out[i] = (table.event[i] ? 1.0 : 0.0) - hazard[table.limit[i]];
}

std::vector<double> event_grid(const double* time, const int* status, size_t n, std::vector<int>& index) {
  std::vector<double> grid;
  for (size_t i = 0; i < n; ++i)
    if (status[i] > 0) grid.push_back(time[i]);  // an event of any cause (competing risks: 1..K)
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  index.resize(n);
  for (size_t i = 0; i < n; ++i)
    index[i] = static_cast<int>(std::upper_bound(grid.begin(), grid.end(), time[i]) - grid.begin()) - 1;
  return grid;
}

std::vector<double> curve_grid(const double* time, const int* status, size_t n, const std::vector<double>& events,
                               double ntime, std::vector<int>& curve_of) {
  curve_of.clear();
  if (!(ntime < static_cast<double>(events.size()))) return std::vector<double>();
  std::vector<double> event_rows;
  for (size_t i = 0; i < n; ++i)
    if (status[i] > 0) event_rows.push_back(time[i]);
  std::sort(event_rows.begin(), event_rows.end());
  const size_t D = event_rows.size(), k_max = static_cast<size_t>(ntime);
  std::vector<double> grid;
  for (size_t k = 1; k <= k_max; ++k) {
    // the smallest event time with at least k / ntime of the event rows at or before it
    size_t need = (k * D + k_max - 1) / k_max;  // ceil(k D / ntime), exact in integers
    if (need < 1) need = 1;
    const double t = event_rows[need - 1];
    if (grid.empty() || t > grid.back()) grid.push_back(t);
  }
  curve_of.resize(events.size());
  for (size_t e = 0; e < events.size(); ++e)
    curve_of[e] = static_cast<int>(std::lower_bound(grid.begin(), grid.end(), events[e]) - grid.begin());
  return grid;
}

void steps_on_curve_grid(const int* curve_of, std::vector<int>& ints, std::vector<double>& reals, size_t width,
                         size_t parts) {
  if (!curve_of || ints.empty()) return;
  const size_t m = static_cast<size_t>(ints[0]);
  std::vector<size_t> keep;  // the last step landing on each grid time
  for (size_t a = 0; a < m; ++a)
    if (a + 1 == m || curve_of[ints[2 + a]] != curve_of[ints[1 + a]]) keep.push_back(a);
  const size_t M = keep.size();
  std::vector<int> out_ints(1 + M);
  std::vector<double> out_reals(parts * M * width);
  out_ints[0] = static_cast<int>(M);
  for (size_t b = 0; b < M; ++b) {
    out_ints[1 + b] = curve_of[ints[1 + keep[b]]];
    for (size_t part = 0; part < parts; ++part)
      for (size_t k = 0; k < width; ++k)
        out_reals[part * M * width + b * width + k] = reals[part * m * width + keep[b] * width + k];
  }
  ints.swap(out_ints);
  reals.swap(out_reals);
}

void nelson_aalen_steps(const TrainingData& data, const int* rows, size_t n, std::vector<int>& ints,
                        std::vector<double>& reals) {
  SurvivalTable table;
  build_survival_table(data, rows, n, table);
  // the table's times are the rows' event times, increasing; recover their grid indices
  std::vector<int> grid(table.n_times(), -1);
  for (size_t i = 0; i < n; ++i)
    if (table.event[i]) grid[table.limit[i] - 1] = data.time_index[rows[i]];
  ints.push_back(static_cast<int>(table.n_times()));
  double hazard = 0.0;
  for (size_t j = 0; j < table.n_times(); ++j) {
    hazard += table.deaths[j] / table.at_risk[j];
    ints.push_back(grid[j]);
    reals.push_back(std::ldexp(std::nearbyint(std::ldexp(hazard, 32)), -32));
  }
}

double steps_risk(const int* ints, const double* reals, int T) {
  double sum = 0.0, before = 0.0;
  for (int j = 0; j < ints[0]; ++j) {
    sum += (reals[j] - before) * static_cast<double>(T - ints[1 + j]);
    before = reals[j];
  }
  return sum;
}

namespace {

// Counts of inserted ranks below a rank (a Fenwick tree).
class RankCounts {
 public:
  explicit RankCounts(size_t n) : tree_(n + 1, 0) {}
  void add(size_t rank) {
    for (size_t k = rank + 1; k < tree_.size(); k += k & (~k + 1)) ++tree_[k];
  }
  long below(size_t rank) const {  // inserted ranks < rank
    long s = 0;
    for (size_t k = rank; k > 0; k -= k & (~k + 1)) s += tree_[k];
    return s;
  }

 private:
  std::vector<long> tree_;
};

}  // namespace

double harrell_c(const double* time, const int* status, const int* rows, size_t m, const double* risk,
                 std::vector<double>* row_loss) {
  std::vector<double> levels(risk, risk + m);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  std::vector<size_t> rank(m), order(m);
  for (size_t a = 0; a < m; ++a) rank[a] = std::lower_bound(levels.begin(), levels.end(), risk[a]) - levels.begin();
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return time[rows[a]] > time[rows[b]]; });
  std::vector<double> bad, pairs_of;
  if (row_loss) {
    bad.assign(m, 0.0);
    pairs_of.assign(m, 0.0);
  }
  // latest first: an event's pairs are the rows inserted before its time's group
  RankCounts later(levels.size());
  double concordant = 0.0, pairs = 0.0;
  long inserted = 0;
  for (size_t g = 0; g < m;) {
    size_t end = g;
    while (end < m && time[rows[order[end]]] == time[rows[order[g]]]) ++end;
    for (size_t k = g; k < end; ++k) {
      const size_t a = order[k];
      if (!status[rows[a]]) continue;
      const long less = later.below(rank[a]), equal = later.below(rank[a] + 1) - less;
      concordant += static_cast<double>(less) + 0.5 * static_cast<double>(equal);
      pairs += static_cast<double>(inserted);
      if (row_loss) {
        bad[a] += static_cast<double>(inserted - less - equal) + 0.5 * static_cast<double>(equal);
        pairs_of[a] += static_cast<double>(inserted);
      }
    }
    for (size_t k = g; k < end; ++k) later.add(rank[order[k]]);
    inserted += static_cast<long>(end - g);
    g = end;
  }
  if (row_loss) {
    // earliest first: a row's pairs as the later one are the earlier events
    RankCounts earlier(levels.size());
    long events = 0;
    for (size_t g = m; g > 0;) {
      size_t begin = g;
      while (begin > 0 && time[rows[order[begin - 1]]] == time[rows[order[g - 1]]]) --begin;
      for (size_t k = begin; k < g; ++k) {
        const size_t a = order[k];
        const long less = earlier.below(rank[a]), equal = earlier.below(rank[a] + 1) - less;
        bad[a] += static_cast<double>(less) + 0.5 * static_cast<double>(equal);
        pairs_of[a] += static_cast<double>(events);
      }
      for (size_t k = begin; k < g; ++k)
        if (status[rows[order[k]]]) {
          earlier.add(rank[order[k]]);
          ++events;
        }
      g = begin;
    }
    // each row's pseudo-value of 1 - C: 1 - C plus (m - 1) times the row's
    // discordant pairs less its share (1 - C) of its pairs, over all pairs
    // (the first-order jackknife m (1 - C) - (m - 1) (1 - C without the
    // row)); their mean is 1 - C exactly
    row_loss->assign(m, NAN);
    if (pairs > 0.0) {
      const double error = 1.0 - concordant / pairs, lift = static_cast<double>(m - 1) / pairs;
      for (size_t a = 0; a < m; ++a) (*row_loss)[a] = error + lift * (bad[a] - error * pairs_of[a]);
    }
  }
  return pairs > 0.0 ? concordant / pairs : NAN;
}

}  // namespace svf
