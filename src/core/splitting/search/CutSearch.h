// The one search for a cut along an ordered set of a node's rows, beneath
// every splitter: the loop over candidate boundaries (between distinct
// values), the fewest rows a cut leaves on either side, and where the
// threshold lies (midway between the values either side of the boundary).
// What a cut is worth comes from a scan (outcome/CutScan.h for the default
// splitter's outcomes, the paper splitters' impurities in Impurity.h): the
// rows join its left group in order and it answers a boundary's gain.
#ifndef SVFOREST_CUT_SEARCH_H
#define SVFOREST_CUT_SEARCH_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "data/ColumnRanks.h"
#include "outcome/CutScan.h"

namespace svf {

// Sorted (value, node position) pairs of a projection of the node's rows.
using SortedValues = std::vector<std::pair<double, int>>;

// A candidate cut between values a < b of gain g: taken when above `gain`,
// midway (the lower one for adjacent doubles, so the cut still separates
// them).
inline bool take_cut(double g, double a, double b, double& cut, double& gain) {
  if (!(g > gain)) return false;
  gain = g;
  cut = a + (b - a) / 2.0;
  if (!(cut < b)) cut = a;
  return true;
}

// The cut of largest gain along `sorted` ((value, item) pairs in increasing
// value): the items join `scan`'s left group one by one (scan.add(item));
// at each boundary between distinct values that leaves at least `min_leaf`
// rows on either side, scan.gain(rows on the left) is the candidate's gain.
// Only a gain above `gain` counts (then updated, with `cut`); returns
// whether one did. The order of additions is the order of `sorted`, so sums
// a scan keeps are those of that order.
template <class Item, class Scan>
bool search_sorted_cut(const std::vector<std::pair<double, Item>>& sorted, Scan& scan, size_t min_leaf, double& cut,
                       double& gain) {
  const size_t n = sorted.size();
  bool found = false;
  for (size_t k = 0; k + 1 < n; ++k) {
    scan.add(sorted[k].second);
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a) || k + 1 < min_leaf || n - k - 1 < min_leaf) continue;
    found = take_cut(scan.gain(k + 1), a, b, cut, gain) || found;
  }
  return found;
}

// The outcome's scan along node positions sorted by value (from a fresh
// left group; min_leaf as the scan takes it): false without a cut to score.
bool search_cut(CutScan& scan, const SortedValues& sorted, size_t min_leaf, double& cut, double& gain);

// A splitter's cut searches at the nodes of one thread, with the memory
// they reuse: the node's rows ordered along a predictor through the forest's
// rank index, or along values (a projection, a column the index lacks).
class CutSearch {
 public:
  // Along node positions sorted by value (as search_cut()).
  bool along_sorted(CutScan& scan, const SortedValues& sorted, size_t min_leaf, double& cut, double& gain);
  // Along `values` (one per node row, n of them).
  bool along_values(CutScan& scan, const double* values, size_t n, size_t min_leaf, double& cut, double& gain);
  // Along ranked column `col` (ranks.has(col)) of the node's rows.
  bool along_column(CutScan& scan, const ColumnRanks& ranks, size_t col, const int* rows, size_t n, size_t min_leaf,
                    double& cut, double& gain);
  // Along binned column `col` (ranks.binned(col)): candidates only at the
  // edges between the bins the node's rows fall in, each cut midway between
  // the lower bin's largest training value and the upper bin's smallest.
  // Additive scans read a histogram of the node's rows; the others take the
  // rows in bin order (a counting sort, O(n + bins)). A node whose rows lie
  // in one bin, or in fewer than `min_occupied` bins (0: no such rule), is
  // searched exactly.
  bool along_bins(CutScan& scan, const ColumnRanks& ranks, size_t col, const int* rows, size_t n, size_t min_leaf,
                  double& cut, double& gain, size_t min_occupied = 0);

  // Along `values` (a projection, one per node row) in `buckets` (<= 65535)
  // of equal width between their smallest and largest: candidates at the
  // edges between non-empty buckets, each cut midway between the largest
  // value below the edge and the smallest above it (as exact cuts are).
  bool along_buckets(CutScan& scan, const double* values, size_t n, size_t buckets, size_t min_leaf, double& cut,
                     double& gain);

  // With keep_sides(true), a search along a ranked column without NaN
  // (along_column(), along_bins()) that finds a cut also leaves the node's
  // rows' sides under it (1: left, node positions) in sides(), exactly as
  // RowRouter routes them: sides_known() says whether the last search did.
  void keep_sides(bool keep) { keep_sides_ = keep; }
  bool sides_known() const { return sides_known_; }
  std::vector<char>& sides() { return sides_; }

 private:
  // The scan over bins once node_code_ and bin_count_ hold the node's rows'
  // bins: a boundary below each non-empty bin after the first, cut midway
  // between high[previous non-empty bin] and low[bin].
  bool scan_bins(CutScan& scan, size_t n, size_t bins, const double* high, const double* low, size_t min_leaf,
                 double& cut, double& gain, bool sides = false);
  // The one loop over boundaries (along_sorted()), on the node's rows in
  // value order as `order` gives them (greater(a, b), position(k), value(k)).
  template <class Order>
  bool along_order(CutScan& scan, const Order& order, size_t n, size_t min_leaf, double& cut, double& gain,
                   bool sides = false);
  bool keep_sides_ = false, sides_known_ = false;
  std::vector<char> sides_;
  std::vector<double> bucket_low_, bucket_high_, gains_;
  std::vector<int> positions_;
  std::vector<size_t> at_;
  std::vector<uint16_t> node_code_;
  std::vector<size_t> bin_count_, bin_begin_;
  std::vector<int> order_;
  SortedValues sorted_;
  std::vector<unsigned long long> keys_;
  std::vector<uint64_t> rank_keys_;
};

}  // namespace svf
#endif
