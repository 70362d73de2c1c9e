// The training rows, scaled, in LIBLINEAR's sparse row format: for each row its
// non-zero scaled values (1-based feature index), then a bias node
// (index p + 1, value 1) and a terminator (index -1). Built once per fit and
// shared read-only by all threads, so a leaf SVM problem is just an array of
// row pointers: no copy of the data per leaf or per candidate.
#ifndef SVFOREST_SCALEDROWS_H
#define SVFOREST_SCALEDROWS_H

#include <vector>
#include <linear.h>


#include "DataView.h"
#include "Scaling.h"

namespace svf {

class ScaledRows {
 public:
  ScaledRows() {}
  // Every row of the data.
  ScaledRows(const DataView& data, const Scaling& scaling);
  // Only rows[0..m) (any order, repeats allowed): what one leaf's SVM reads.
  // A fit on large dense data scales each leaf's rows as it fits it, instead
  // of holding a scaled copy of every row (16 bytes per value, twice the data).
  ScaledRows(const DataView& data, const Scaling& scaling, const int* rows, size_t m);
  const feature_node* row(size_t r) const {
    if (ids_.empty()) return &nodes_[offset_[r]];
    return &nodes_[offset_[subset_position(r)]];
  }
  bool empty() const { return offset_.empty(); }

 private:
  size_t subset_position(size_t r) const;
  std::vector<feature_node> nodes_;
  std::vector<size_t> offset_;
  std::vector<int> ids_;  // a subset's rows, increasing; empty: every row
};

// Writes row `row` of `data` scaled into `out` in the same format.
void scale_view_row(const DataView& data, size_t row, const Scaling& scaling, std::vector<feature_node>& out);

// Writes row `values` (dense, length p) scaled into `out` in the same format.
void scale_dense_row(const double* values, size_t stride, const Scaling& scaling,
                     std::vector<feature_node>& out);

// w' x over a row in this format (w has p + 1 entries, the last for the bias).
inline double dot(const double* w, const feature_node* x) {
  double s = 0.0;
  for (; x->index != -1; ++x) s += w[x->index - 1] * x->value;
  return s;
}

}  // namespace svf
#endif
