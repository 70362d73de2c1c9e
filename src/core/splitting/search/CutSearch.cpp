#include "CutSearch.h"

#include "splitting/SortedValues.h"

namespace svf {

bool search_cut(CutScan& scan, const SortedValues& sorted, size_t min_leaf, double& cut, double& gain) {
  if (sorted.size() < 2 || !(sorted.back().first > sorted.front().first) || !scan.any_cut()) return false;
  scan.reset();
  return search_sorted_cut(sorted, scan, scan.min_leaf(min_leaf), cut, gain);
}

bool CutSearch::along_values(CutScan& scan, const double* values, size_t n, size_t min_leaf, double& cut,
                             double& gain) {
  sort_with_positions(values, n, sorted_, keys_);
  return search_cut(scan, sorted_, min_leaf, cut, gain);
}

bool CutSearch::along_column(CutScan& scan, const ColumnRanks& ranks, size_t col, const int* rows, size_t n,
                             size_t min_leaf, double& cut, double& gain) {
  ranks.sort_rows(col, rows, n, sorted_, rank_keys_);
  return search_cut(scan, sorted_, min_leaf, cut, gain);
}

}  // namespace svf
