// Logistic regression leaves (LIBLINEAR's L2-regularised logistic regression,
// primal trust-region Newton solver, which draws no random numbers): the
// linear SVM leaf's classes, class weights and choice of C by
// cross-validation inside the leaf, with the logistic loss. Unlike an SVM
// leaf, the leaf predicts probabilities: the logistic function of its
// decision value for two classes, the one-vs-rest probabilities normalised
// to sum to 1 for more. Payload: as LinearSvmLeafModel's.
#ifndef SVFOREST_LOGISTICLEAF_H
#define SVFOREST_LOGISTICLEAF_H

#include "LinearSvmLeaf.h"

namespace svf {

class LogisticLeafModel : public LinearSvmLeafModel {
 public:
  static const int kKind = 3;
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit LogisticLeafModel(const LinearSvmOptions& options) : LinearSvmLeafModel(options) {}
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
               double* out, double* confidence) const override;

 protected:
  int kind() const override { return kKind; }
  int liblinear_solver() const override;
  bool squared_hinge() const override { return false; }
};

}  // namespace svf
#endif
