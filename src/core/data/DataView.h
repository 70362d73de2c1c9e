// Read-only views of the training or prediction matrix, dense (column-major)
// or sparse (CSC). Views never own memory: the caller keeps the data alive.
#ifndef SVFOREST_DATAVIEW_H
#define SVFOREST_DATAVIEW_H

#include <cstddef>
#include <vector>

namespace svf {

class DataView {
 public:
  DataView(size_t n_rows, size_t n_cols) : n_rows_(n_rows), n_cols_(n_cols) {}
  virtual ~DataView() {}
  size_t n_rows() const { return n_rows_; }
  size_t n_cols() const { return n_cols_; }
  virtual bool is_sparse() const = 0;
  // Value at (row, col).
  virtual double get(size_t row, size_t col) const = 0;
  // Values of column `col` at rows[0..m) into out[0..m).
  virtual void gather(size_t col, const int* rows, size_t m, double* out) const = 0;
  // Stored entries of column `col` (all rows when dense): rows and values.
  virtual void column_entries(size_t col, std::vector<int>& rows,
                              std::vector<double>& values) const = 0;
  // Column `col`'s values for rows 0..n_rows, when the view holds them
  // contiguously; else nullptr.
  const double* contiguous_column(size_t col) const { return contiguous_.empty() ? nullptr : contiguous_[col]; }
  // get(row, col), without a virtual call where the column is contiguous
  // (the same value): for the growers' and routers' inner loops.
  double value(size_t row, size_t col) const {
    const double* c = contiguous_.empty() ? nullptr : contiguous_[col];
    return c ? c[row] : get(row, col);
  }

 protected:
  // per column, its values for rows 0..n_rows, or nullptr (empty: none)
  std::vector<const double*> contiguous_;

 private:
  size_t n_rows_, n_cols_;
};

class DenseView : public DataView {
 public:
  DenseView(const double* x, size_t n_rows, size_t n_cols) : DataView(n_rows, n_cols), x_(x) {
    contiguous_.resize(n_cols);
    for (size_t c = 0; c < n_cols; ++c) contiguous_[c] = x + c * n_rows;
  }
  bool is_sparse() const override { return false; }
  double get(size_t row, size_t col) const override { return x_[col * n_rows() + row]; }
  void gather(size_t col, const int* rows, size_t m, double* out) const override;
  void column_entries(size_t col, std::vector<int>& rows,
                      std::vector<double>& values) const override;

 private:
  const double* x_;
};

// Compressed sparse column: row indices i (sorted within a column), column
// pointers p (length n_cols + 1) and values x, as in Matrix::dgCMatrix.
class SparseView : public DataView {
 public:
  SparseView(const int* i, const int* p, const double* x, size_t n_rows, size_t n_cols)
      : DataView(n_rows, n_cols), i_(i), p_(p), x_(x) {}
  bool is_sparse() const override { return true; }
  double get(size_t row, size_t col) const override;
  void gather(size_t col, const int* rows, size_t m, double* out) const override;
  void column_entries(size_t col, std::vector<int>& rows,
                      std::vector<double>& values) const override;

 private:
  const int* i_;
  const int* p_;
  const double* x_;
};

}  // namespace svf
#endif
