#include "NelsonAalenLeaf.h"

#include <cmath>

#include "outcome/SurvivalTable.h"

namespace svf {

void NelsonAalenLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&,
                               LeafFit& out) const {
  out = LeafFit();
  out.kind = kKind;
  nelson_aalen_steps(data, rows, n, out.ints, out.reals);
  // stored on the curve grid: the exact hazard at each grid time
  steps_on_curve_grid(data.curve_of_time, out.ints, out.reals, 1, 1);
}

void NelsonAalenLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*,
                                   double* out, double* confidence) const {
  const size_t m = static_cast<size_t>(leaf.ints[0]);
  const int* grid = leaf.ints + 1;
  size_t next = 0;
  double hazard = 0.0;
  for (int j = 0; j < shape.num_times; ++j) {
    while (next < m && grid[next] <= j) hazard = leaf.reals[next++];
    out[j] = hazard;
  }
  if (confidence) *confidence = 0.0;
}

std::string NelsonAalenLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (!shape.survival()) return "a Nelson-Aalen leaf in a model of another outcome";
  if (leaf.n_ints < 1 || leaf.ints[0] < 0 || static_cast<size_t>(leaf.ints[0]) >= leaf.n_ints ||
      static_cast<size_t>(leaf.ints[0]) > leaf.n_reals)
    return "a Nelson-Aalen leaf's payload is too short";
  const size_t m = static_cast<size_t>(leaf.ints[0]);
  const int* grid = leaf.ints + 1;
  for (size_t j = 0; j < m; ++j) {
    const bool increasing = j == 0 || (grid[j] > grid[j - 1] && leaf.reals[j] >= leaf.reals[j - 1]);
    if (grid[j] < 0 || grid[j] >= shape.num_times || !increasing || !std::isfinite(leaf.reals[j]) ||
        !(leaf.reals[j] > 0.0))
      return "a Nelson-Aalen leaf's cumulative hazard is out of range";
  }
  return "";
}

}  // namespace svf
