// RBF-kernel epsilon-SVR leaves (LIBSVM), as TD-SVM's leaves for a numeric
// outcome: one SVR per leaf on its scaled rows with the given C, gamma and
// tube epsilon (on the model's outcome scale); a leaf with a constant
// outcome predicts it. TD-SVM's search chooses C and gamma.
// Payload: int [l support vectors, their pointers (l + 1, from 0), their
// predictor indices (0-based, increasing per vector)], real [C, gamma, rho,
// coefficients (l), the support vectors' scaled values].
#ifndef SVFOREST_KERNELSVRLEAF_H
#define SVFOREST_KERNELSVRLEAF_H

#include "LeafModel.h"

namespace svf {

struct KernelSvrOptions {
  double cost = 1.0, gamma = 1.0, epsilon = 0.1;
  double tolerance = 1e-3, cache_mb = 100.0;
};

class KernelSvrLeafModel : public LeafModel {
 public:
  static const int kKind = 7;
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit KernelSvrLeafModel(const KernelSvrOptions& o) : opt_(o) {}
  bool needs_scaled_rows() const override { return true; }
  bool fits_regression() const override { return true; }
  bool fits_classification() const override { return false; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
           LeafFit& out) const override;
  bool reads_row() const override { return true; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
               double* out, double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override;
  int support_vectors(const LeafPayload& leaf, const OutcomeShape&) const override { return leaf.ints[0]; }

 private:
  KernelSvrOptions opt_;
};

}  // namespace svf
#endif
