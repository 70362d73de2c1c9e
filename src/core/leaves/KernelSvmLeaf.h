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
  explicit KernelSvmLeafModel(const KernelSvmOptions& options) : opt_(options) {}
  bool needs_scaled_rows() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
           LeafFit& out) const override;

 private:
  KernelSvmOptions opt_;
};

// Class predicted by a kernel leaf for a scaled row (LIBLINEAR format, the
// bias node at index p + 1 is ignored). The tree must be validated.
int kernel_leaf_class(const TreeView& t, int leaf, size_t p, const feature_node* row);

// Checks of the support vector arrays (all leaves) and of one kernel leaf.
std::string validate_support_vectors(const TreeView& t, size_t p);
std::string validate_kernel_leaf(const TreeView& t, size_t leaf, int num_classes);

}  // namespace svf
#endif
