// What the linear regression leaves (ridge, linear SVR) share: a linear
// model of the scaled predictors, its regularisation chosen from a grid by
// k-fold cross-validation inside the leaf (random folds from the leaf's own
// generator, mean squared error), then refitted on the whole leaf. A leaf
// with fewer than 2 rows or a constant outcome predicts its mean.
// Payload: real [the chosen grid value, weights (p + 1, bias last)].
// A new linear regression leaf derives from this class and supplies its
// kind code and its solver.
#ifndef SVFOREST_LINEARREGRESSIONLEAF_H
#define SVFOREST_LINEARREGRESSIONLEAF_H

#include <Eigen/Dense>
#include <vector>

#include "LeafModel.h"

namespace svf {

struct LinearRegressionOptions {
  std::vector<double> grid{1.0};  // regularisation values tried (the solver says which)
  int cv_folds = 3;
  double epsilon = 0.1;           // SVR's insensitive tube, on the outcome's scale
  double tolerance = 0.01;        // iterative solvers' stopping tolerance
};

class LinearRegressionLeafModel : public LeafModel {
 public:
  explicit LinearRegressionLeafModel(const LinearRegressionOptions& options) : opt_(options) {}
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
  bool linear() const override { return true; }
  bool linear_terms(const LeafPayload& leaf, const OutcomeShape& shape, LinearTerms& out) const override;

 protected:
  virtual int kind() const = 0;
  // The name of the regularisation value (the payload's first double).
  virtual const char* value_name() const = 0;
  // Weights (p + 1, bias last) for rows[0..m) of the training data, given
  // also as a dense design X (m x (p + 1), bias column last) and outcome y,
  // with regularisation value `value`.
  virtual std::vector<double> solve(const TrainingData& data, const int* rows, size_t m,
                                    const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                    double value) const = 0;
  LinearRegressionOptions opt_;
};

}  // namespace svf
#endif
