#include "ScaledRows.h"

namespace svf {

ScaledRows::ScaledRows(const DataView& data, const Scaling& scaling) {
  const size_t n = data.n_rows(), p = data.n_cols();
  // Pass 1: count the non-zero scaled entries of each row (column-wise access
  // works for dense and CSC alike).
  std::vector<size_t> count(n, 0);
  std::vector<int> rows;
  std::vector<double> values;
  for (size_t j = 0; j < p; ++j) {
    data.column_entries(j, rows, values);
    for (size_t k = 0; k < rows.size(); ++k)
      if (scaling.apply(j, values[k]) != 0.0) ++count[rows[k]];
  }
  offset_.resize(n + 1);
  offset_[0] = 0;
  for (size_t r = 0; r < n; ++r) offset_[r + 1] = offset_[r] + count[r] + 2;
  nodes_.resize(offset_[n]);
  // Pass 2: fill, columns in increasing order so indices are sorted per row.
  std::vector<size_t> fill(offset_.begin(), offset_.end() - 1);
  for (size_t j = 0; j < p; ++j) {
    data.column_entries(j, rows, values);
    for (size_t k = 0; k < rows.size(); ++k) {
      const double v = scaling.apply(j, values[k]);
      if (v != 0.0) {
        feature_node& node = nodes_[fill[rows[k]]++];
        node.index = static_cast<int>(j) + 1;
        node.value = v;
      }
    }
  }
  for (size_t r = 0; r < n; ++r) {
    nodes_[fill[r]].index = static_cast<int>(p) + 1;
    nodes_[fill[r]].value = 1.0;
    nodes_[fill[r] + 1].index = -1;
    nodes_[fill[r] + 1].value = 0.0;
  }
}

void scale_dense_row(const double* values, size_t stride, const Scaling& scaling,
                     std::vector<feature_node>& out) {
  const size_t p = scaling.center.size();
  out.clear();
  for (size_t j = 0; j < p; ++j) {
    const double v = scaling.apply(j, values[j * stride]);
    if (v != 0.0) out.push_back(feature_node{static_cast<int>(j) + 1, v});
  }
  out.push_back(feature_node{static_cast<int>(p) + 1, 1.0});
  out.push_back(feature_node{-1, 0.0});
}

}  // namespace svf
