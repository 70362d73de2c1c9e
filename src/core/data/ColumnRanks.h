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
  // The node's rows ordered along `col` (has(col)): n keys (rank << 32 |
  // position in `rows`), ties by position, in `scratch` (the pointer
  // returned); a rank's value is distinct(col)[rank].
  const uint64_t* sort_keys(size_t col, const int* rows, size_t n, std::vector<uint64_t>& scratch) const;
  const double* distinct(size_t col) const { return distinct_[col].data(); }
  // Whether `col` (has(col)) takes more than one value on the rows: the
  // values' own test, without reading them.
  bool varies(size_t col, const int* rows, size_t n) const;

  // Bins: whether `col` has them, how many, each row's bin code (bins are
  // in increasing value), a bin's smallest and largest training value.
  // The codes are kept row by row (row r's code of `col` at
  // codes(col)[r * code_stride()]), so that a node's draws of several
  // columns read one cache line per row; of 8 bits when `max_bins` <= 256
  // (narrow_codes()), else 16.
  bool binned(size_t col) const { return col < bins_.size() && !bins_[col].low.empty(); }
  size_t bins(size_t col) const { return bins_[col].low.size(); }
  bool narrow_codes() const { return !code8_.empty(); }
  size_t code_stride() const { return code_stride_; }
  const uint8_t* codes8(size_t col) const { return code8_.data() + col; }
  const uint16_t* codes16(size_t col) const { return code16_.data() + col; }
  const double* bin_lows(size_t col) const { return bins_[col].low.data(); }
  // Routing training rows by an axis cut `t` of binned column `col` without
  // reading their values: where t lies between two bins, a row's value is
  // at most t iff its code is at most bin_at_most(col, t) (-1: t within or
  // below a bin, or no bins). routes(col): the column has no NaN.
  bool routes(size_t col) const { return has(col) && col < nan_free_.size() && nan_free_[col]; }
  long bin_at_most(size_t col, double t) const;
  // With bins, the dense predictors' values row by row as well (row r's
  // value of column c at row_values()[r * n_cols + c], every column): a
  // node's hyperplane reads several columns of each of its rows, one or
  // two cache lines a row instead of one a column; nullptr without bins
  // or with factor columns (the trees code those: their values differ).
  const double* row_values() const { return row_values_.empty() ? nullptr : row_values_.data(); }
  const double* bin_highs(size_t col) const { return bins_[col].high.data(); }

 private:
  struct Bins {
    std::vector<double> low, high;  // per bin; empty: not binned
  };
  void bin_column(size_t col, const std::vector<size_t>& rows_of_rank, size_t max_bins);
  size_t n_rows_ = 0;
  std::vector<Bins> bins_;
  size_t code_stride_ = 0;                     // columns per row of the codes
  std::vector<uint8_t> code8_;                 // n_rows x p, row-major (max_bins <= 256)
  std::vector<uint16_t> code16_;               // n_rows x p, row-major (more bins)
  std::vector<char> nan_free_;                 // per column: no NaN among its values
  std::vector<double> row_values_;             // n_rows x p, row-major (with bins)
  std::vector<uint32_t> rank_;                // n_rows x p, row-major (a node's drawn columns share its rows' lines)
  std::vector<std::vector<double>> distinct_;  // each column's distinct values, increasing
};

}  // namespace svf
#endif
