#include "AalenJohansenLeaf.h"

#include <cmath>

#include "outcome/SurvivalTable.h"
#include "outcome/competing/CompetingEntry.h"
#include "outcome/competing/CompetingSteps.h"

namespace svf {

void AalenJohansenLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&,
                                 LeafFit& out) const {
  out = LeafFit();
  out.kind = kKind;
  CompetingRows cr;
  cr.time_index = data.time_index;
  cr.cause = data.status;
  cr.n_causes = data.num_causes;
  cr.grid_size = data.num_times;
  cr.entry_index = data.entry_index;  // delayed entry, or nullptr
  competing_steps_of(cr, rows, n, out.ints, out.reals);
  // stored on the curve grid: each curve's exact value at each grid time
  steps_on_curve_grid(data.curve_of_time, out.ints, out.reals, static_cast<size_t>(data.num_causes), 2);
}

void AalenJohansenLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*,
                                     double* out, double* confidence) const {
  const int m = leaf.ints[0], K = shape.num_causes, T = shape.num_times;
  for (int k = 0; k < K; ++k) {
    int next = 0;
    double cif = 0.0;
    for (int j = 0; j < T; ++j) {
      while (next < m && leaf.ints[1 + next] <= j) cif = leaf.reals[static_cast<size_t>(next++) * K + k];
      out[k * T + j] = cif;
    }
  }
  if (confidence) *confidence = 0.0;
}

std::string AalenJohansenLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (!shape.competing() || shape.num_times < 1) return "an Aalen-Johansen leaf in a model of another outcome";
  const size_t K = static_cast<size_t>(shape.num_causes);
  // n_ints, n_reals: what the tree holds from the leaf's payload on
  if (leaf.n_ints < 1 || leaf.ints[0] < 0 || static_cast<size_t>(leaf.ints[0]) >= leaf.n_ints ||
      2 * K * static_cast<size_t>(leaf.ints[0]) > leaf.n_reals)
    return "an Aalen-Johansen leaf's payload is too short";
  const size_t m = static_cast<size_t>(leaf.ints[0]);
  const int* grid = leaf.ints + 1;
  for (size_t a = 0; a < m; ++a) {
    if (grid[a] < 0 || grid[a] >= shape.num_times || (a > 0 && grid[a] <= grid[a - 1]))
      return "an Aalen-Johansen leaf's times are out of range";
    double total = 0.0;
    for (size_t part = 0; part < 2; ++part)
      for (size_t k = 0; k < K; ++k) {
        const double v = leaf.reals[part * m * K + a * K + k];
        const double before = a > 0 ? leaf.reals[part * m * K + (a - 1) * K + k] : 0.0;
        if (!std::isfinite(v) || v < before) return "an Aalen-Johansen leaf's curves are out of range";
        if (part == 0) total += v;
      }
    if (total > 1.0 + 1e-8) return "an Aalen-Johansen leaf's incidences sum past 1";
  }
  return "";
}

void AalenJohansenLeafModel::describe(const LeafPayload& leaf, const OutcomeShape& shape,
                                      PayloadDescription& out) const {
  const size_t m = static_cast<size_t>(leaf.ints[0]), K = static_cast<size_t>(shape.num_causes);
  out.ints("time_index", leaf.ints, 1, leaf.ints[0]);
  out.reals("cif", leaf.reals, 0, static_cast<int>(m * K));
  out.reals("chf", leaf.reals, static_cast<int>(m * K), static_cast<int>(m * K));
}

}  // namespace svf
