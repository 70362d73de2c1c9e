// Linear SVM leaves (LIBLINEAR, L2-regularised L2-loss, primal Newton solver,
// which draws no random numbers). Binary leaves fit one SVM, leaves with more
// classes one per class (one-vs-rest). Each binary problem weights its two
// sides in inverse proportion to their size (balanced). C is chosen from a
// grid by stratified k-fold CV inside the leaf (folds from the leaf's own
// generator), then the SVM is refit on the whole leaf. A leaf with one class,
// or with a class of fewer than min_class_rows rows, keeps class frequencies.
#ifndef SVFOREST_LINEARSVMLEAF_H
#define SVFOREST_LINEARSVMLEAF_H

#include <Eigen/Dense>
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
  static const int kKind = 1;
  // Payload: int [class counts (num_classes), c, the c classes with an SVM
  // output (ascending)], real [C, weights (outputs x (p + 1), bias last)],
  // outputs = 1 for two classes, else c (one-vs-rest).
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit LinearSvmLeafModel(const LinearSvmOptions& options) : opt_(options) {}
  bool needs_scaled_rows() const override { return true; }
  void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
           LeafFit& out) const override;
  bool reads_row() const override { return true; }
  void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
               double* out, double* confidence) const override;
  std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const override;
  void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const override;
  bool linear() const override { return true; }
  bool linear_terms(const LeafPayload& leaf, const OutcomeShape& shape, LinearTerms& out) const override;

 protected:
  // Leaf kinds with the same payload and fit but another loss (logistic
  // leaves) override these: the kind code written, LIBLINEAR's solver, and
  // whether the cross-validation may use the squared-hinge Newton solver.
  virtual int kind() const { return kKind; }
  virtual int liblinear_solver() const;
  virtual bool squared_hinge() const { return true; }
  // C by cross-validation inside the leaf (LinearSvmLeaf.cpp)
  size_t choose_cost(const TrainingData& data, const int* rows, size_t n, const std::vector<int>& present,
                     const std::vector<int>& positive, double f_pos, double f_neg, bool newton,
                     const Eigen::MatrixXd& x_leaf, Rng& rng, std::vector<std::vector<double>>& refit_start) const;
  LinearSvmOptions opt_;
};

// The options of linear leaves (and of RSVF's split SVMs) from parameters.
LinearSvmOptions linear_svm_options(const Params& params);

// Shared by leaf kinds whose payload is [counts, c, classes] / [C, weights]
// (linear SVM and logistic leaves): the check, and the class and decision
// value of a row.
std::string check_linear_payload(const LeafPayload& leaf, const OutcomeShape& shape);
int linear_payload_class(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
                         double* decision);

}  // namespace svf
#endif
