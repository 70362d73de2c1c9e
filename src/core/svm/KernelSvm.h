// RBF-kernel SVMs by LIBSVM on the scaled training rows, and the RBF
// distance prediction uses, shared by the kernel leaves (classification and
// regression). LIBSVM's probability estimates and cross-validation draw from
// the C library's global random generator, so they are never used.
#ifndef SVFOREST_KERNELSVM_H
#define SVFOREST_KERNELSVM_H

#include <memory>
#include <vector>
#include <linear.h>
#include <svm.h>

#include "data/TrainingData.h"

namespace svf {

struct LibsvmModelDeleter {
  void operator()(svm_model* m) const { svm_free_and_destroy_model(&m); }
};
using LibsvmModel = std::unique_ptr<svm_model, LibsvmModelDeleter>;

// The rows[0..n) of the scaled training data as a LIBSVM problem (without
// the bias node); y is left for the caller to fill.
struct LibsvmRows {
  std::vector<svm_node> nodes;
  std::vector<svm_node*> x;
  std::vector<double> y;
  svm_problem problem;
  LibsvmRows(const TrainingData& data, const int* rows, size_t n);
};

struct RbfSvmSettings {
  int svm_type = C_SVC;     // C_SVC or EPSILON_SVR
  double cost = 1.0;
  double gamma = 1.0;
  double epsilon = 0.1;     // EPSILON_SVR's tube
  double tolerance = 1e-3;  // LIBSVM's default stopping tolerance
  double cache_mb = 100.0;  // LIBSVM's default kernel cache
};

// Throws std::invalid_argument for parameters LIBSVM rejects.
LibsvmModel train_rbf_svm(const svm_problem& prob, const RbfSvmSettings& s);

// Squared distance between a scaled row (LIBLINEAR format: 1-based indices,
// predictors 1..p, then the bias node and the terminator) and a support
// vector (0-based indices idx, values val), merging the sorted index lists.
double rbf_squared_distance(const feature_node* x, size_t p, const int* idx, const double* val, int len);

}  // namespace svf
#endif
