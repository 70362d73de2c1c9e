// Feature scaling used by SVM leaves: scaled = (x - center) * factor.
// Dense data: min-max to [0, 1]. Sparse data: max-abs (center 0), so zeros stay
// zero and the data stays sparse. Constant columns get factor 0, and so do
// columns whose range is too small for its inverse to be a double (below
// about 1e-308: subnormal differences carry no usable information).
#ifndef SVFOREST_SCALING_H
#define SVFOREST_SCALING_H

#include <cmath>
#include <vector>
#include "DataView.h"

namespace svf {

struct Scaling {
  std::vector<double> center;
  std::vector<double> factor;
  double apply(size_t col, double value) const {
    const double shifted = value - center[col];
    // a column whose range exceeds the largest double: the split product
    // cannot overflow (0 * Inf would give NaN)
    if (!std::isfinite(shifted)) return value * factor[col] - center[col] * factor[col];
    return shifted * factor[col];
  }
};

// enabled = false gives the identity (center 0, factor 1).
Scaling fit_scaling(const DataView& data, bool enabled);

}  // namespace svf
#endif
