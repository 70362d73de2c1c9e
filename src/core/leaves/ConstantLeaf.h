// Class frequencies, or for a numeric outcome the mean: the leaf R calls
// "constant". It writes compact class counts (ClassCountsLeaf.h) or a mean
// (MeanLeaf.h); it reads the payload of models written before the compact
// kind: int [class counts (num_classes)].
#ifndef SVFOREST_CONSTANTLEAF_H
#define SVFOREST_CONSTANTLEAF_H

#include "LeafModel.h"
#include "MeanLeaf.h"

namespace svf {

class ConstantLeafModel : public LeafModel {
 public:
  static const int kKind = 0;
  static std::unique_ptr<LeafModel> create(const Params*) {
    return std::unique_ptr<LeafModel>(new ConstantLeafModel());
  }
  bool needs_scaled_rows() const override { return false; }
  bool fits_regression() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng&,
           LeafFit& out) const override {
    if (data.num_classes == 0) {
      mean_leaf(data, rows, n, out);
    } else {
      constant_leaf(counts, data.num_classes, out);
    }
  }
  bool reads_row() const override { return false; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*, double* out,
               double* confidence) const override {
    class_frequencies(leaf.ints, shape.num_classes, out, confidence);
  }
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override {
    return check_class_counts(leaf, shape);
  }
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override {
    describe_class_counts(leaf, shape, out);
  }
  bool holds_model() const override { return false; }
};

}  // namespace svf
#endif
