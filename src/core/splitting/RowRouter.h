// Which child a split sends training rows to, for the loops that route many
// rows through one rule (the tree grower, the hybrid splitter's out-of-bag
// gains): an axis or oblique rule on columns the view holds contiguously
// reads them through the columns' pointers (the same products summed in the
// same order as split_projection(), so the same side for every row); any
// other rule asks SplitRule::goes_left().
#ifndef SVFOREST_ROWROUTER_H
#define SVFOREST_ROWROUTER_H

#include <cstdint>
#include <vector>

#include "data/ColumnRanks.h"
#include "data/DataView.h"
#include "tree/SplitKinds.h"

namespace svf {

class RowRouter {
 public:
  // `rule` and `x` must outlive the router. `ranks`: the forest's index of
  // x (or nullptr), through which an axis rule on a column it routes
  // (ColumnRanks::routes()) reads the rows' bin codes or ranks instead of
  // their values, and an oblique rule its values row by row where it has
  // them (row_values()): the same sides. Training rows only, then.
  // `n_rows`: how many rows it will route, if known; for fewer than
  // kBinLookupRows, an axis rule on a column the view holds contiguously
  // reads the values (finding the cut's bin costs more than those rows).
  RowRouter(const SplitRule& rule, const DataView& x, const ColumnRanks* ranks = nullptr,
            size_t n_rows = static_cast<size_t>(-1))
      : rule_(rule), x_(x) {
    if (!rule.has_projection()) return;
    const bool axis = rule.kind == kSplitAxis;
    const int m = axis ? 1 : rule.ints[0];
    const double* row_values = ranks ? ranks->row_values() : nullptr;
    const size_t col = static_cast<size_t>(rule.ints[axis ? 0 : 1]);
    const bool look_up = n_rows >= kBinLookupRows || !x.contiguous_column(col);
    const long bin = axis && look_up && ranks && ranks->routes(col) ? ranks->bin_at_most(col, rule.reals[0]) : -1;
    if (bin >= 0) {  // (a cut between two bins: the codes, a row's in one cache line)
      fast_ = true;
      stride_ = ranks->code_stride();
      if (ranks->narrow_codes()) {
        code8_ = ranks->codes8(col);
      } else {
        code16_ = ranks->codes16(col);
      }
      limit_ = bin;
      return;
    }
    if (!axis && row_values) {
      fast_ = true;
      row_values_ = row_values;
      p_ = x.n_cols();
      offset_.resize(static_cast<size_t>(m));
      for (int k = 0; k < m; ++k) offset_[k] = static_cast<size_t>(rule.ints[1 + k]);
      threshold_ = rule.reals[0];
      return;
    }
    columns_.resize(static_cast<size_t>(m));
    for (int k = 0; k < m; ++k) {
      columns_[k] = x.contiguous_column(static_cast<size_t>(rule.ints[axis ? 0 : 1 + k]));
      if (!columns_[k]) return;
    }
    fast_ = true;
    axis_ = axis;
    threshold_ = rule.reals[0];
  }
  bool left(int r) const {
    if (code8_) return static_cast<long>(code8_[static_cast<size_t>(r) * stride_]) <= limit_;
    if (!fast_) return slow_left(r);
    if (code16_) return static_cast<long>(code16_[static_cast<size_t>(r) * stride_]) <= limit_;
    if (axis_) return columns_[0][r] <= threshold_;
    const double* w = rule_.reals.data() + 1;
    double s = 0.0;
    if (row_values_) {
      const double* row = row_values_ + static_cast<size_t>(r) * p_;
      for (size_t k = 0; k < offset_.size(); ++k) s += w[k] * row[offset_[k]];
      return s <= threshold_;
    }
    for (size_t k = 0; k < columns_.size(); ++k) s += w[k] * columns_[k][r];
    return s <= threshold_;
  }

  // left() of rows[0..n) into out[0..n) (1: left), a loop per kind of rule.
  void sides(const int* rows, size_t n, char* out) const {
    if (code8_) {
      for (size_t i = 0; i < n; ++i) out[i] = code8_[static_cast<size_t>(rows[i]) * stride_] <= limit_ ? 1 : 0;
    } else if (code16_) {
      for (size_t i = 0; i < n; ++i) out[i] = code16_[static_cast<size_t>(rows[i]) * stride_] <= limit_ ? 1 : 0;
    } else if (fast_ && axis_) {
      const double* column = columns_[0];
      for (size_t i = 0; i < n; ++i) out[i] = column[rows[i]] <= threshold_ ? 1 : 0;
    } else if (row_values_) {
      // a hyperplane on the values row by row: the sum of left(), in the
      // same order, with the row kPrefetch ahead asked for early (the rows
      // are scattered over the table, and its rows' lines are most of the
      // time: issue #58)
      const double* w = rule_.reals.data() + 1;
      const size_t* offset = offset_.data();
      const size_t m = offset_.size();
      for (size_t i = 0; i < n; ++i) {
        if (i + kPrefetch < n) prefetch_row(row_values_ + static_cast<size_t>(rows[i + kPrefetch]) * p_, offset, m);
        const double* row = row_values_ + static_cast<size_t>(rows[i]) * p_;
        double s = 0.0;
        for (size_t k = 0; k < m; ++k) s += w[k] * row[offset[k]];
        out[i] = s <= threshold_ ? 1 : 0;
      }
    } else {
      for (size_t i = 0; i < n; ++i) out[i] = left(rows[i]) ? 1 : 0;
    }
  }

  // Rows read this many ahead are asked for early (prefetch_row()).
  static constexpr size_t kPrefetch = 16;
  // Fewer rows than this route by an axis rule's values (the constructor).
  static constexpr size_t kBinLookupRows = 256;
  // Asks for the cache lines of `row` that columns offset[0..m) fall in.
  static void prefetch_row(const double* row, const size_t* offset, size_t m) {
    for (size_t k = 0; k < m; ++k) __builtin_prefetch(row + offset[k]);
  }

 private:
  bool slow_left(int r) const {
    return rule_.goes_left([this, r](int col) { return x_.value(r, col); }, x_.n_cols());
  }
  const SplitRule& rule_;
  const DataView& x_;
  std::vector<const double*> columns_;
  const double* row_values_ = nullptr;
  const uint8_t* code8_ = nullptr;
  const uint16_t* code16_ = nullptr;
  size_t stride_ = 0;
  long limit_ = 0;
  size_t p_ = 0;
  std::vector<size_t> offset_;  // the rule's columns, with row_values_
  bool fast_ = false, axis_ = false;
  double threshold_ = 0.0;
};

}  // namespace svf
#endif
