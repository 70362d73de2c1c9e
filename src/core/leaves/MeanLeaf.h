// Regression leaves that predict the mean outcome of their rows (the
// "constant" leaf of a regression forest). Payload: real [mean] (on the
// model's outcome scale).
#ifndef SVFOREST_MEANLEAF_H
#define SVFOREST_MEANLEAF_H

#include "LeafModel.h"

namespace svf {

class MeanLeafModel : public LeafModel {
 public:
  static const int kKind = 4;
  static std::unique_ptr<LeafModel> create(const Params*) { return std::unique_ptr<LeafModel>(new MeanLeafModel()); }
  bool needs_scaled_rows() const override { return false; }
  bool fits_regression() const override { return true; }
  bool fits_classification() const override { return false; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&, LeafFit& out) const override;
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape&, const feature_node*, double* out,
               double* confidence) const override {
    out[0] = leaf.reals[0];
    if (confidence) *confidence = 0.0;
  }
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape&, PayloadDescription& out) const override {
    out.reals("mean", leaf.reals, 0, 1);
  }
  bool holds_model() const override { return false; }
};

// The payload of a leaf predicting the mean outcome of rows[0..n).
void mean_leaf(const TrainingData& data, const int* rows, size_t n, LeafFit& out);

}  // namespace svf
#endif
