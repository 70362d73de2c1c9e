#include "LogRank.h"

#include <algorithm>
#include <cmath>

namespace svf {

void build_survival_table(const TrainingData& data, const int* rows, size_t n, SurvivalTable& table) {
  std::vector<int> times;
  for (size_t i = 0; i < n; ++i)
    if (data.status[rows[i]]) times.push_back(data.time_index[rows[i]]);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const size_t T = times.size();
  table.limit.resize(n);
  table.event.resize(n);
  table.at_risk.assign(T, 0.0);
  table.deaths.assign(T, 0.0);
  std::vector<double> ending(T + 1, 0.0);  // rows at risk at exactly the first `limit` times
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i];
    const int lim = static_cast<int>(std::upper_bound(times.begin(), times.end(), data.time_index[r]) - times.begin());
    table.limit[i] = lim;
    table.event[i] = data.status[r] ? 1 : 0;
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
    : table_(table), hazard_(table.n_times() + 1, 0.0), c_sum_(table.n_times() + 1, 0.0),
      e_sum_(table.n_times() + 1, 0.0), count_tree_(table.n_times() + 1, 0.0), e_tree_(table.n_times() + 1, 0.0) {
  for (size_t j = 0; j < table.n_times(); ++j) {
    const double nj = table.at_risk[j], dj = table.deaths[j], c = variance_weight(nj, dj);
    hazard_[j + 1] = hazard_[j] + dj / nj;
    c_sum_[j + 1] = c_sum_[j] + c;
    e_sum_[j + 1] = e_sum_[j] + c / nj;
  }
}

double LogRankScan::tree_sum(const std::vector<double>& tree, int k) const {
  double s = 0.0;
  for (int i = k - 1; i > 0; i -= i & -i) s += tree[i];
  return s;
}

void LogRankScan::tree_add(std::vector<double>& tree, int k, double v) {
  // limit 0 (no time at risk) adds nothing to any sum: index k as is, k >= 1
  for (int i = k; i < static_cast<int>(tree.size()); i += i & -i) tree[i] += v;
}

void LogRankScan::add(size_t i) {
  const int lim = table_.limit[i];
  numerator_ += (table_.event[i] ? 1.0 : 0.0) - hazard_[lim];
  linear_ += c_sum_[lim];
  // sum_{j < lim} e_j Y_j = E(lim) * (left rows of limit >= lim) + sum of E(limit) over the others
  const double below = tree_sum(count_tree_, lim);
  const double partial = e_sum_[lim] * (n_left_ - below) + tree_sum(e_tree_, lim);
  square_ += 2.0 * partial + e_sum_[lim];
  if (lim > 0) {  // rows never at risk stay out of the counts: E(0) = 0
    n_left_ += 1.0;
    tree_add(count_tree_, lim, 1.0);
    tree_add(e_tree_, lim, e_sum_[lim]);
  }
}

double LogRankScan::statistic() const {
  const double var = linear_ - square_;
  // cancellation leaves a rounding residue where the true variance is 0
  if (!(var > 1e-10 * linear_)) return 0.0;
  return numerator_ * numerator_ / var;
}

double logrank_statistic(const SurvivalTable& table, const std::vector<char>& left) {
  const size_t n = table.limit.size();
  LogRankScan scan(table);
  size_t n_left = 0;
  for (size_t i = 0; i < n; ++i)
    if (left[i]) { scan.add(i); ++n_left; }
  if (n_left == 0 || n_left == n) return 0.0;
  return scan.statistic();
}

bool best_logrank_cut(const SurvivalTable& table, const std::vector<std::pair<double, int>>& sorted,
                      size_t min_leaf, double& cut, double& gain) {
  const size_t n = sorted.size();
  if (table.n_times() == 0 || n < 2) return false;
  LogRankScan scan(table);
  bool found = false;
  for (size_t k = 0; k + 1 < n; ++k) {
    scan.add(static_cast<size_t>(sorted[k].second));
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a) || k + 1 < min_leaf || n - k - 1 < min_leaf) continue;
    const double g = scan.statistic();
    if (g > gain) {
      gain = g;
      found = true;
      cut = a + (b - a) / 2.0;
      if (!(cut < b)) cut = a;
    }
  }
  return found;
}

void martingale_scores(const SurvivalTable& table, double* out) {
  const size_t T = table.n_times();
  std::vector<double> hazard(T + 1, 0.0);  // hazard[k]: cumulative over the first k times
  for (size_t j = 0; j < T; ++j) hazard[j + 1] = hazard[j] + table.deaths[j] / table.at_risk[j];
  for (size_t i = 0; i < table.limit.size(); ++i) out[i] = (table.event[i] ? 1.0 : 0.0) - hazard[table.limit[i]];
}

}  // namespace svf
