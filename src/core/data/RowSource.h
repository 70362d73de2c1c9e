// Row-wise access for prediction: raw values for routing, scaled rows for
// SVM leaves. Implementations for a dense column-major matrix, a CSR matrix,
// and the training data itself (for out-of-bag predictions).
#ifndef SVFOREST_ROWSOURCE_H
#define SVFOREST_ROWSOURCE_H

#include <algorithm>
#include <vector>

#include "ScaledRows.h"
#include "TrainingData.h"

namespace svf {

class RowSource {
 public:
  virtual ~RowSource() {}
  virtual size_t n_rows() const = 0;
  virtual double get(size_t row, size_t col) const = 0;
  // The row scaled, in LIBLINEAR's format; may use `buffer` as storage.
  virtual const feature_node* scaled_row(size_t row, const Scaling& scaling,
                                         std::vector<feature_node>& buffer) const = 0;
  // Whether gather() copies rows: where that is cheap (dense storage),
  // routing reads a contiguous buffer instead of one virtual get() per term
  // of a hyperplane. Callers size gather()'s buffer only when it does.
  virtual bool gathers() const { return false; }
  // Copies the row's p values to `out` and returns true, or returns false
  // (nothing copied) where gathers() is false.
  virtual bool gather(size_t /*row*/, size_t /*p*/, double* /*out*/) const { return false; }
};

class DenseRows : public RowSource {
 public:
  DenseRows(const double* x, size_t n_rows) : x_(x), n_(n_rows) {}
  size_t n_rows() const override { return n_; }
  double get(size_t row, size_t col) const override { return x_[col * n_ + row]; }
  const feature_node* scaled_row(size_t row, const Scaling& scaling,
                                 std::vector<feature_node>& buffer) const override {
    scale_dense_row(x_ + row, n_, scaling, buffer);
    return buffer.data();
  }
  bool gathers() const override { return true; }
  bool gather(size_t row, size_t p, double* out) const override {
    for (size_t j = 0; j < p; ++j) out[j] = x_[j * n_ + row];
    return true;
  }

 private:
  const double* x_;
  size_t n_;
};

// Compressed sparse rows: column indices j (sorted within a row), row
// pointers p (length n_rows + 1), values x. Scaling must keep zeros zero.
class CsrRows : public RowSource {
 public:
  CsrRows(const int* j, const int* p, const double* x, size_t n_rows)
      : j_(j), p_(p), x_(x), n_(n_rows) {}
  size_t n_rows() const override { return n_; }
  double get(size_t row, size_t col) const override {
    const int* begin = j_ + p_[row];
    const int* end = j_ + p_[row + 1];
    const int* hit = std::lower_bound(begin, end, static_cast<int>(col));
    return (hit != end && *hit == static_cast<int>(col)) ? x_[hit - j_] : 0.0;
  }
  const feature_node* scaled_row(size_t row, const Scaling& scaling,
                                 std::vector<feature_node>& buffer) const override {
    buffer.clear();
    for (int k = p_[row]; k < p_[row + 1]; ++k) {
      const double v = scaling.apply(j_[k], x_[k]);
      if (v != 0.0) buffer.push_back(feature_node{j_[k] + 1, v});
    }
    buffer.push_back(feature_node{static_cast<int>(scaling.center.size()) + 1, 1.0});
    buffer.push_back(feature_node{-1, 0.0});
    return buffer.data();
  }

 private:
  const int* j_;
  const int* p_;
  const double* x_;
  size_t n_;
};

class TrainingRows : public RowSource {
 public:
  explicit TrainingRows(const TrainingData& data) : data_(data) {}
  size_t n_rows() const override { return data_.x->n_rows(); }
  double get(size_t row, size_t col) const override { return data_.x->value(row, col); }
  const feature_node* scaled_row(size_t row, const Scaling& scaling,
                                 std::vector<feature_node>& buffer) const override {
    if (!data_.scaled.empty()) return data_.scaled.row(row);
    scale_view_row(*data_.x, row, scaling, buffer);  // a fit that scales leaf by leaf
    return buffer.data();
  }

 private:
  const TrainingData& data_;
};

}  // namespace svf
#endif
