#include "Scaling.h"

#include <cmath>

namespace svf {

namespace {

double finite_or_zero(double factor) { return std::isfinite(factor) ? factor : 0.0; }

}  // namespace

Scaling fit_scaling(const DataView& data, bool enabled) {
  const size_t p = data.n_cols();
  Scaling s;
  s.center.assign(p, 0.0);
  s.factor.assign(p, 1.0);
  if (!enabled) return s;
  std::vector<int> rows;
  std::vector<double> values;
  for (size_t j = 0; j < p; ++j) {
    data.column_entries(j, rows, values);
    if (data.is_sparse()) {
      double maxabs = 0.0;
      bool constant = values.size() == data.n_rows();  // no zeros among the values
      for (double v : values) {
        maxabs = std::max(maxabs, std::fabs(v));
        constant = constant && v == values[0];
      }
      // constant columns (all zero, or one non-zero value in every row) get
      // zero weight, as in the dense case
      s.factor[j] = maxabs > 0.0 && !constant ? finite_or_zero(1.0 / maxabs) : 0.0;
    } else {
      double lo = values.empty() ? 0.0 : values[0], hi = lo;
      for (double v : values) { lo = std::min(lo, v); hi = std::max(hi, v); }
      s.center[j] = lo;
      if (!(hi > lo)) {
        s.factor[j] = 0.0;
      } else if (std::isinf(hi - lo)) {
        s.factor[j] = 0.5 / (0.5 * hi - 0.5 * lo);  // range beyond the largest double
      } else {
        s.factor[j] = finite_or_zero(1.0 / (hi - lo));
      }
    }
  }
  return s;
}

}  // namespace svf
