// RBF-kernel C-SVM leaves (LIBSVM), as in tree decomposition SVM: every leaf
// with two or more classes gets one SVM on its rows (scaled predictors), with
// the given C and gamma; a leaf with one class predicts it. Multi-class:
// one-against-one (LIBSVM's own: k(k-1)/2 machines, majority vote, ties to
// the class first in LIBSVM's label order) or one-against-others (k machines,
// largest decision value). LIBSVM's probability estimates and
// cross-validation use the C library's global random generator, so they are never used.
//
// The leaf keeps only what prediction needs: the support vectors (scaled,
// sparse, without the bias column), the coefficients, rho, gamma and the
// class labels. Prediction evaluates the kernel itself, so a model read back
// from R needs no LIBSVM object.
#ifndef SVFOREST_KERNELSVMLEAF_H
#define SVFOREST_KERNELSVMLEAF_H

#include <string>
#include <vector>
#include <linear.h>

#include "LeafModel.h"

namespace svf {

struct KernelSvmOptions {
  double cost = 1.0;
  double gamma = 1.0;
  bool one_vs_one = true;
  double tolerance = 1e-3;   // LIBSVM's default stopping tolerance
  double cache_mb = 100.0;   // LIBSVM's default kernel cache per machine
};

class KernelSvmLeafModel : public LeafModel {
 public:
  static const int kKind = 2;
  // Payload: int [class counts (num_classes), one-against-one (1) or
  // one-against-others (0), k, the k SVM classes (LIBSVM's order), their
  // support vector counts, l support vectors, their pointers (l + 1, from 0),
  // their predictor indices (0-based, increasing per vector)];
  // real [C, gamma, rho (k(k-1)/2 or k), coefficients (rows x l, row-major;
  // rows = k - 1 or k), the support vectors' scaled values].
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit KernelSvmLeafModel(const KernelSvmOptions& options) : opt_(options) {}
  bool needs_scaled_rows() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
           LeafFit& out) const override;
  bool reads_row() const override { return true; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
               double* out, double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override;
  int support_vectors(const LeafPayload& leaf, const OutcomeShape& shape) const override;

 private:
  KernelSvmOptions opt_;
};

// The options of kernel leaves from parameters (the first cost and gamma).
KernelSvmOptions kernel_svm_options(const Params& params);


}  // namespace svf
#endif
