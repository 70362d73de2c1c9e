// Each numeric predictor's training values as ranks among its distinct
// values, built once per forest, so that a splitter orders a node's rows
// along a predictor by sorting small integers (a counting sort when the node
// is large against the number of distinct values) instead of doubles. The
// order is the one sort_with_positions() gives (value, then position), so
// the forest does not change. With `max_bins`, the index is also a column
// index of bins: a column of more distinct values than that gets at most
// `max_bins` quantile bins of whole distinct values (each about as many
// training rows), a code per row, and each bin's smallest and largest
// training value, so that a binned cut search orders a node's rows by
// counting and places a cut between two bins' training values.
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
  // tree); an empty index for sparse data. `max_bins` >= 2 (at most 65535)
  // also bins the columns of more distinct values; 0: none.
  ColumnRanks(const DataView& x, const std::vector<int>& skip, size_t max_bins = 0);
  bool has(size_t col) const { return col < distinct_.size() && !distinct_[col].empty(); }
  // The node's rows ordered along `col`: sorted[i] = (value, position in
  // `rows`), ties by position. `col` must be has(col).
  void sort_rows(size_t col, const int* rows, size_t n, std::vector<std::pair<double, int>>& sorted,
                 std::vector<uint64_t>& scratch) const;
  // Whether `col` (has(col)) takes more than one value on the rows: the
  // values' own test, without reading them.
  bool varies(size_t col, const int* rows, size_t n) const;

  // Bins: whether `col` has them, how many, each row's bin code (bins are
  // in increasing value), a bin's smallest and largest training value.
  bool binned(size_t col) const { return col < bins_.size() && !bins_[col].low.empty(); }
  size_t bins(size_t col) const { return bins_[col].low.size(); }
  const uint16_t* codes(size_t col) const { return code_.data() + bins_[col].slot * n_rows_; }
  const double* bin_lows(size_t col) const { return bins_[col].low.data(); }
  const double* bin_highs(size_t col) const { return bins_[col].high.data(); }

 private:
  struct Bins {
    size_t slot = 0;                 // the column's place in code_
    std::vector<double> low, high;  // per bin; empty: not binned
  };
  void bin_column(size_t col, const std::vector<size_t>& rows_of_rank, size_t max_bins);
  size_t n_rows_ = 0;
  std::vector<Bins> bins_;
  std::vector<uint16_t> code_;                // n_rows x binned columns, column-major
  std::vector<uint32_t> rank_;                // n_rows x p, column-major
  std::vector<std::vector<double>> distinct_;  // each column's distinct values, increasing
};

}  // namespace svf
#endif
