// Class frequencies, compact: only the classes present in the leaf. A pure
// leaf holds its class and count. Written by every leaf that keeps class
// frequencies (constant_leaf()); predictions are those of the full counts
// (ConstantLeaf.h), value for value.
// Payload: int [m, the m classes present (ascending), their counts (m, > 0)].
#ifndef SVFOREST_CLASSCOUNTSLEAF_H
#define SVFOREST_CLASSCOUNTSLEAF_H

#include "LeafModel.h"

namespace svf {

class ClassCountsLeafModel : public LeafModel {
 public:
  static const int kKind = 8;
  static std::unique_ptr<LeafModel> create(const Params*) {
    return std::unique_ptr<LeafModel>(new ClassCountsLeafModel());
  }
  bool needs_scaled_rows() const override { return false; }
  void fit(const TrainingData& data, const int*, size_t, const int* counts, Rng&, LeafFit& out) const override {
    constant_leaf(counts, data.num_classes, out);
  }
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*, double* out,
               double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override;
  bool holds_model() const override { return false; }
};

}  // namespace svf
#endif
