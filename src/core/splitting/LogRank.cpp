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

// The statistic from the left group's rows at risk and events per time.
double logrank_from(const SurvivalTable& table, const std::vector<double>& left_at_risk,
                    const std::vector<double>& left_deaths) {
  double num = 0.0, var = 0.0;
  for (size_t j = 0; j < table.n_times(); ++j) {
    const double nj = table.at_risk[j], dj = table.deaths[j], lj = left_at_risk[j];
    if (lj <= 0.0) break;  // at-risk sets shrink with time: no left rows later
    num += left_deaths[j] - lj * dj / nj;
    if (nj > 1.0) var += lj / nj * (1.0 - lj / nj) * (nj - dj) / (nj - 1.0) * dj;
  }
  return var > 0.0 ? num * num / var : 0.0;
}

void add_row(const SurvivalTable& table, size_t i, std::vector<double>& at_risk, std::vector<double>& deaths) {
  const int lim = table.limit[i];
  for (int j = 0; j < lim; ++j) at_risk[j] += 1.0;
  if (table.event[i]) deaths[lim - 1] += 1.0;
}

}  // namespace

double logrank_statistic(const SurvivalTable& table, const std::vector<char>& left) {
  const size_t T = table.n_times(), n = table.limit.size();
  std::vector<double> at_risk(T, 0.0), deaths(T, 0.0);
  size_t n_left = 0;
  for (size_t i = 0; i < n; ++i)
    if (left[i]) { add_row(table, i, at_risk, deaths); ++n_left; }
  if (n_left == 0 || n_left == n) return 0.0;
  return logrank_from(table, at_risk, deaths);
}

bool best_logrank_cut(const SurvivalTable& table, const std::vector<std::pair<double, int>>& sorted,
                      double& cut, double& gain) {
  const size_t n = sorted.size(), T = table.n_times();
  if (T == 0 || n < 2) return false;
  std::vector<double> at_risk(T, 0.0), deaths(T, 0.0);
  bool found = false;
  for (size_t k = 0; k + 1 < n; ++k) {
    add_row(table, static_cast<size_t>(sorted[k].second), at_risk, deaths);
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a)) continue;
    const double g = logrank_from(table, at_risk, deaths);
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
