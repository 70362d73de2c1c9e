// Class frequencies. Payload: int [class counts (num_classes)].
#ifndef SVFOREST_CONSTANTLEAF_H
#define SVFOREST_CONSTANTLEAF_H

#include "LeafModel.h"

namespace svf {

class ConstantLeafModel : public LeafModel {
 public:
  static const int kKind = 0;
  static std::unique_ptr<LeafModel> create(const Params*) {
    return std::unique_ptr<LeafModel>(new ConstantLeafModel());
  }
  bool needs_scaled_rows() const override { return false; }
  void fit(const TrainingData& data, const int*, size_t, const int* counts, Rng&,
           LeafFit& out) const override {
    constant_leaf(counts, data.num_classes, out);
  }
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*, double* out,
               double* confidence) const override {
    class_frequencies(leaf.ints, shape.num_classes, out, confidence);
  }
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override {
    return check_class_counts(leaf, shape);
  }
};

}  // namespace svf
#endif
