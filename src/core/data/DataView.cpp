#include "DataView.h"

#include <algorithm>

namespace svf {

void DenseView::gather(size_t col, const int* rows, size_t m, double* out) const {
  const double* column = x_ + col * n_rows();
  for (size_t k = 0; k < m; ++k) out[k] = column[rows[k]];
}

void DenseView::column_entries(size_t col, std::vector<int>& rows,
                               std::vector<double>& values) const {
  rows.resize(n_rows());
  values.assign(x_ + col * n_rows(), x_ + (col + 1) * n_rows());
  for (size_t r = 0; r < n_rows(); ++r) rows[r] = static_cast<int>(r);
}

double SparseView::get(size_t row, size_t col) const {
  const int* begin = i_ + p_[col];
  const int* end = i_ + p_[col + 1];
  const int* hit = std::lower_bound(begin, end, static_cast<int>(row));
  return (hit != end && *hit == static_cast<int>(row)) ? x_[hit - i_] : 0.0;
}

void SparseView::gather(size_t col, const int* rows, size_t m, double* out) const {
  for (size_t k = 0; k < m; ++k) out[k] = get(rows[k], col);
}

void SparseView::column_entries(size_t col, std::vector<int>& rows,
                                std::vector<double>& values) const {
  rows.assign(i_ + p_[col], i_ + p_[col + 1]);
  values.assign(x_ + p_[col], x_ + p_[col + 1]);
}

}  // namespace svf
