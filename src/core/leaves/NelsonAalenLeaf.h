// Survival leaves: the Nelson-Aalen cumulative hazard of their in-bag rows
// (each row as often as the tree drew it, so case weights act as in every
// leaf), a step function with steps at the leaf's own event times.
// Payload: ints [m, the grid index of each of the leaf's m event times,
// increasing], reals [cumulative hazard at each]; m = 0: zero hazard.
// A leaf predicts the step function at every time of the forest's grid.
// Its hazards are rounded to multiples of 2^-32 (outcome/SurvivalTable.h,
// nelson_aalen_steps()): a forest's CHF sums are the same in any grouping of
// its trees, and combine() of parts equals the whole bit for bit.
#ifndef SVFOREST_NELSONAALENLEAF_H
#define SVFOREST_NELSONAALENLEAF_H

#include "LeafModel.h"

namespace svf {

class NelsonAalenLeafModel : public LeafModel {
 public:
  static const int kKind = 9;
  static std::unique_ptr<LeafModel> create(const Params*) {
    return std::unique_ptr<LeafModel>(new NelsonAalenLeafModel());
  }
  bool needs_scaled_rows() const override { return false; }
  bool fits_classification() const override { return false; }
  bool fits_survival() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&, LeafFit& out) const override;
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*, double* out,
               double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape&, PayloadDescription& out) const override {
    out.ints("time_index", leaf.ints, 1, leaf.ints[0]);
    out.reals("cumulative_hazard", leaf.reals, 0, leaf.ints[0]);
  }
  bool holds_model() const override { return false; }
};

}  // namespace svf
#endif
