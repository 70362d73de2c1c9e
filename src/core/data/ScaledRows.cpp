#include "ScaledRows.h"

#include <algorithm>
#include <stdexcept>

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

ScaledRows::ScaledRows(const DataView& data, const Scaling& scaling, const int* rows, size_t m)
    : ids_(rows, rows + m) {
  std::sort(ids_.begin(), ids_.end());
  ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
  const size_t k = ids_.size(), p = data.n_cols();
  std::vector<double> values(k * p);  // column-major, gathered column by column
  for (size_t j = 0; j < p; ++j) data.gather(j, ids_.data(), k, values.data() + j * k);
  offset_.resize(k + 1);
  nodes_.reserve(k * (p + 2));
  for (size_t i = 0; i < k; ++i) {
    offset_[i] = nodes_.size();
    for (size_t j = 0; j < p; ++j) {
      const double v = scaling.apply(j, values[j * k + i]);
      if (v != 0.0) nodes_.push_back(feature_node{static_cast<int>(j) + 1, v});
    }
    nodes_.push_back(feature_node{static_cast<int>(p) + 1, 1.0});
    nodes_.push_back(feature_node{-1, 0.0});
  }
  offset_[k] = nodes_.size();
}

size_t ScaledRows::subset_position(size_t r) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), static_cast<int>(r));
  if (it == ids_.end() || static_cast<size_t>(*it) != r) throw std::logic_error("internal: a row outside the scaled subset");
  return static_cast<size_t>(it - ids_.begin());
}

namespace {
// One row scaled, from its p raw values value(0..p-1).
template <typename Value>
void scale_row(size_t p, const Scaling& scaling, Value value, std::vector<feature_node>& out) {
  out.clear();
  for (size_t j = 0; j < p; ++j) {
    const double v = scaling.apply(j, value(j));
    if (v != 0.0) out.push_back(feature_node{static_cast<int>(j) + 1, v});
  }
  out.push_back(feature_node{static_cast<int>(p) + 1, 1.0});
  out.push_back(feature_node{-1, 0.0});
}
}  // namespace

void scale_dense_row(const double* values, size_t stride, const Scaling& scaling,
                     std::vector<feature_node>& out) {
  scale_row(scaling.center.size(), scaling, [&](size_t j) { return values[j * stride]; }, out);
}

void scale_view_row(const DataView& data, size_t row, const Scaling& scaling, std::vector<feature_node>& out) {
  scale_row(data.n_cols(), scaling, [&](size_t j) { return data.get(row, j); }, out);
}

}  // namespace svf
