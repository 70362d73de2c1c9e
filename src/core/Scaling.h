// Feature scaling used by SVM leaves: scaled = (x - center) * factor.
// Dense data: min-max to [0, 1]. Sparse data: max-abs (center 0), so zeros stay
// zero and the data stays sparse. Constant columns get factor 0.
#ifndef SVFOREST_SCALING_H
#define SVFOREST_SCALING_H

#include <vector>
#include "DataView.h"

namespace svf {

struct Scaling {
  std::vector<double> center;
  std::vector<double> factor;
  double apply(size_t col, double value) const { return (value - center[col]) * factor[col]; }
};

// enabled = false gives the identity (center 0, factor 1).
Scaling fit_scaling(const DataView& data, bool enabled);

}  // namespace svf
#endif
