// Each numeric predictor's training values as ranks among its distinct
// values, built once per forest, so that a splitter orders a node's rows
// along a predictor by sorting small integers (a counting sort when the node
// is large against the number of distinct values) instead of doubles. The
// order is the one sort_with_positions() gives (value, then position), so
// the forest does not change.
#ifndef SVFOREST_COLUMNRANKS_H
#define SVFOREST_COLUMNRANKS_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "DataView.h"

namespace svf {

class ColumnRanks {
 public:
  ColumnRanks() {}
  // Ranks of every dense column not in `skip` (factor columns coded per
  // tree); an empty index for sparse data.
  ColumnRanks(const DataView& x, const std::vector<int>& skip);
  bool has(size_t col) const { return col < distinct_.size() && !distinct_[col].empty(); }
  // The node's rows ordered along `col`: sorted[i] = (value, position in
  // `rows`), ties by position. `col` must be has(col).
  void sort_rows(size_t col, const int* rows, size_t n, std::vector<std::pair<double, int>>& sorted,
                 std::vector<uint64_t>& scratch) const;
  // Whether `col` (has(col)) takes more than one value on the rows: the
  // values' own test, without reading them.
  bool varies(size_t col, const int* rows, size_t n) const;

 private:
  size_t n_rows_ = 0;
  std::vector<uint32_t> rank_;                // n_rows x p, column-major
  std::vector<std::vector<double>> distinct_;  // each column's distinct values, increasing
};

}  // namespace svf
#endif
