// Linear SVM leaves (LIBLINEAR, L2-regularised L2-loss, primal Newton solver,
// which draws no random numbers). Binary leaves fit one SVM, leaves with more
// classes one per class (one-vs-rest). Each binary problem weights its two
// sides in inverse proportion to their size (balanced). C is chosen from a
// grid by stratified k-fold CV inside the leaf (folds from the leaf's own
// generator), then the SVM is refit on the whole leaf. A leaf with one class,
// or with a class of fewer than min_class_rows rows, keeps class frequencies.
#ifndef SVFOREST_LINEARSVMLEAF_H
#define SVFOREST_LINEARSVMLEAF_H

#include <vector>
#include "LeafModel.h"

namespace svf {

struct LinearSvmOptions {
  std::vector<double> cost_grid{0.25, 0.5, 1, 2, 4};  // ascending
  int cv_folds = 3;
  int min_class_rows = 2;
  // false: a class with fewer than min_class_rows rows makes the leaf constant
  // (SPEC). true: such classes get no SVM output, their rows stay negatives.
  bool rare_as_negative = false;
  bool balanced = true;
  double tolerance = 0.01;     // LIBLINEAR's default for this solver
  double cv_tolerance = 0.1;   // for the cross-validation solves
  // Cost factor per class for leaves with two classes (empty: 1), applied
  // after balancing (RSVF's task-proportion weights).
  std::vector<double> class_factor;
};

class LinearSvmLeafModel : public LeafModel {
 public:
  explicit LinearSvmLeafModel(const LinearSvmOptions& options) : opt_(options) {}
  bool needs_scaled_rows() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
           LeafFit& out) const override;

 private:
  LinearSvmOptions opt_;
};

// One binary SVM on rows[0..m): label +1 where y == positive_class. `init`
// (p + 1 weights, or empty) warm-starts the solver. Returns p + 1 weights.
std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init);
// The same with the positive and negative side's costs multiplied by
// pos_factor and neg_factor (after balancing).
std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init,
                                     double pos_factor, double neg_factor);

}  // namespace svf
#endif
