// The best axis cut of an outcome whose statistic is read from a scan that
// grows a left group row by row (survival's and competing risks' log-rank
// scans): one loop over the sorted values for both.
#ifndef SVFOREST_SCAN_CUT_H
#define SVFOREST_SCAN_CUT_H

#include <cstddef>
#include <utility>
#include <vector>

namespace svf {

// Adds the rows of `sorted` ((value, node position) pairs, increasing) to
// `scan` one by one; between distinct values with at least `min_leaf` rows
// on either side, `statistic(scan)` is a candidate cut's gain, taken midway
// (the lower value for adjacent doubles) when above `gain`.
template <class Scan, class Statistic>
bool best_scan_cut(Scan& scan, const std::vector<std::pair<double, int>>& sorted, size_t min_leaf,
                   Statistic statistic, double& cut, double& gain) {
  const size_t n = sorted.size();
  bool found = false;
  for (size_t k = 0; k + 1 < n; ++k) {
    scan.add(static_cast<size_t>(sorted[k].second));
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a) || k + 1 < min_leaf || n - k - 1 < min_leaf) continue;
    const double g = statistic(scan);
    if (g > gain) {
      gain = g;
      found = true;
      cut = a + (b - a) / 2.0;
      if (!(cut < b)) cut = a;
    }
  }
  return found;
}

}  // namespace svf
#endif
