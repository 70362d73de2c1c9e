#include "CumulativeIncidence.h"

#include <algorithm>

namespace svf {

long CompetingCurves::position(int grid_index) const {
  return static_cast<long>(std::upper_bound(at.begin(), at.end(), grid_index) - at.begin()) - 1;
}

double CompetingCurves::cif_at(int cause, int grid_index) const {
  const long a = position(grid_index);
  return a < 0 ? 0.0 : cif[a * n_causes + cause - 1];
}

double CompetingCurves::chf_at(int cause, int grid_index) const {
  const long a = position(grid_index);
  return a < 0 ? 0.0 : chf[a * n_causes + cause - 1];
}

double CompetingCurves::survival_at(int grid_index) const {
  const long a = position(grid_index);
  return a < 0 ? 1.0 : survival[a];
}

CompetingCurves competing_curves(const CompetingRows& data, const int* rows, size_t n) {
  const int K = data.n_causes;
  // the distinct grid indices of the node's rows (those at risk at a grid
  // time: index >= 0), increasing; the curves change only there, so the
  // walk visits them, not the whole grid (the sums, in row order, and the
  // subtractions, in grid order, are those of a walk over every grid index)
  std::vector<int> at_index;
  at_index.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (data.time_index[rows[i]] >= 0) at_index.push_back(data.time_index[rows[i]]);
  std::sort(at_index.begin(), at_index.end());
  at_index.erase(std::unique(at_index.begin(), at_index.end()), at_index.end());
  const size_t U = at_index.size();
  // per such index: weight of rows whose index is it (leaving after it) and
  // each cause's events there
  std::vector<double> ending(U, 0.0), events(U * K, 0.0);
  double at_risk = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const int r = rows[i], j = data.time_index[r];
    if (j < 0) continue;  // ends before the first grid time: never at risk
    const size_t u = static_cast<size_t>(std::lower_bound(at_index.begin(), at_index.end(), j) - at_index.begin());
    const double w = data.weight_of(r);
    at_risk += w;
    ending[u] += w;
    if (data.cause[r] > 0) events[u * K + data.cause[r] - 1] += w;
  }
  CompetingCurves out;
  out.n_causes = K;
  std::vector<double> cif(K, 0.0), chf(K, 0.0);
  double surv = 1.0;
  for (size_t u = 0; u < U; ++u) {
    const double* d = &events[u * K];
    double total = 0.0;
    for (int k = 0; k < K; ++k) total += d[k];
    if (total > 0.0) {
      // Aalen-Johansen: the event-free survival just before the time times
      // each cause's hazard increment; survival loses exactly their sum
      for (int k = 0; k < K; ++k) {
        cif[k] += surv * d[k] / at_risk;
        chf[k] += d[k] / at_risk;
      }
      surv *= 1.0 - total / at_risk;
      out.at.push_back(at_index[u]);
      out.survival.push_back(surv);
      out.cif.insert(out.cif.end(), cif.begin(), cif.end());
      out.chf.insert(out.chf.end(), chf.begin(), chf.end());
    }
    at_risk -= ending[u];
  }
  return out;
}

}  // namespace svf
