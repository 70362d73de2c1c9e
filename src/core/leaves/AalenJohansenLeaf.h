// Competing-risks leaves: each cause's Aalen-Johansen cumulative incidence
// (CIF) and cause-specific Nelson-Aalen cumulative hazard (CHF) of their
// in-bag rows (each row as often as the tree drew it), step functions with
// steps at the leaf's own event times (outcome/competing/CompetingSteps.h):
// ints [m, the grid index of each of the m times], reals [CIF m x K, then
// CHF m x K, time-major], on a fine grid so a forest's sums are the same in
// any grouping of its trees (combine()). A leaf predicts each cause's CIF at
// every time of the forest's grid (cause-major).
#ifndef SVFOREST_AALENJOHANSENLEAF_H
#define SVFOREST_AALENJOHANSENLEAF_H

#include "LeafModel.h"

namespace svf {

class AalenJohansenLeafModel : public LeafModel {
 public:
  static const int kKind = 10;
  static std::unique_ptr<LeafModel> create(const Params*) {
    return std::unique_ptr<LeafModel>(new AalenJohansenLeafModel());
  }
  bool needs_scaled_rows() const override { return false; }
  bool fits_classification() const override { return false; }
  bool fits_competing() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&, LeafFit& out) const override;
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*, double* out,
               double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override;
  bool holds_model() const override { return false; }
};

}  // namespace svf
#endif
