// Which child a split sends training rows to, for the loops that route many
// rows through one rule (the tree grower, the hybrid splitter's out-of-bag
// gains): an axis or oblique rule on columns the view holds contiguously
// reads them through the columns' pointers (the same products summed in the
// same order as split_projection(), so the same side for every row); any
// other rule asks SplitRule::goes_left().
#ifndef SVFOREST_ROWROUTER_H
#define SVFOREST_ROWROUTER_H

#include <vector>

#include "data/DataView.h"
#include "tree/SplitKinds.h"

namespace svf {

class RowRouter {
 public:
  // `rule` and `x` must outlive the router.
  RowRouter(const SplitRule& rule, const DataView& x) : rule_(rule), x_(x) {
    if (!rule.has_projection()) return;
    const bool axis = rule.kind == kSplitAxis;
    const int m = axis ? 1 : rule.ints[0];
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
    if (!fast_) return rule_.goes_left([this, r](int col) { return x_.value(r, col); }, x_.n_cols());
    if (axis_) return columns_[0][r] <= threshold_;
    const double* w = rule_.reals.data() + 1;
    double s = 0.0;
    for (size_t k = 0; k < columns_.size(); ++k) s += w[k] * columns_[k][r];
    return s <= threshold_;
  }

 private:
  const SplitRule& rule_;
  const DataView& x_;
  std::vector<const double*> columns_;
  bool fast_ = false, axis_ = false;
  double threshold_ = 0.0;
};

}  // namespace svf
#endif
