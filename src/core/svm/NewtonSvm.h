// The problem LIBLINEAR's L2R_L2LOSS_SVC solves (L2-regularised squared
// hinge loss, bias regularised, per-class weights), by Newton's method with
// the full (p + 1) x (p + 1) generalised Hessian and an exact line search.
// RSVF scores thousands of child SVMs per tree; for few predictors a full
// Newton step costs less than LIBLINEAR's conjugate-gradient steps, and
// bootstrap duplicates can enter as row weights instead of repeated rows.
// Rows are read in place from ScaledRows (no copy); deterministic.
#ifndef SVFOREST_NEWTONSVM_H
#define SVFOREST_NEWTONSVM_H

#include <Eigen/Dense>

#include <vector>

#include "data/TrainingData.h"

namespace svf {

// Largest p + 1 for which the full-Hessian solver is used.
const int kNewtonMaxDim = 160;

// rows[0..m) with multiplicities mult (nullptr: 1 each); label +1 where
// y == positive_class. Costs, balancing and the stopping rule are those of
// train_binary_svm() on the rows repeated mult times. init: p + 1 weights or
// empty. Returns p + 1 weights.
std::vector<double> train_binary_svm_newton(const TrainingData& data, const int* rows,
                                            const int* mult, size_t m, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init);

// The same problem on a dense design, for callers that solve many problems
// on the same rows (RSVT's leaf cross-validation: 5 C values per fold).
// X: one row per example, bias column last; y: +1 / -1; cost: each row's C
// (class weight included). The stopping rule counts rows, as LIBLINEAR does.
std::vector<double> train_binary_svm_newton_dense(const Eigen::MatrixXd& X,
                                                  const Eigen::VectorXd& y,
                                                  const Eigen::VectorXd& cost, double tolerance,
                                                  const std::vector<double>& init);

// rows[0..m) of the scaled design as a dense m x (p + 1) matrix, bias last.
Eigen::MatrixXd gather_scaled_rows(const TrainingData& data, const int* rows, size_t m);

// The same with the costs of the positive and negative side multiplied by
// pos_factor and neg_factor (after balancing).
std::vector<double> train_binary_svm_newton(const TrainingData& data, const int* rows,
                                            const int* mult, size_t m, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init, double pos_factor,
                                            double neg_factor);

// A node's rows gathered once as a dense design for all its binary problems
// (one-vs-rest classes): xt holds row i as column i (scaled, bias last), so
// margins and gradients are matrix-vector products over contiguous memory.
struct NewtonDesign {
  Eigen::MatrixXd xt;           // (p + 1) x m
  std::vector<double> weight;   // multiplicity of each row
  std::vector<int> label;       // its class
  // optional: column k the sum of weight * row over the rows of class k;
  // the gradients at 0 of the one-vs-rest problems follow from it without
  // a pass over the rows each
  Eigen::MatrixXd class_sum;
};

// Fills design.class_sum (num_classes columns) in one pass over the rows.
void sum_design_classes(NewtonDesign& design, int num_classes);

// The distinct rows of rows[0..n) (sorted) and how often each occurs: a
// bootstrap sample as a design's rows and weights.
void collapse_repeats(const int* rows, size_t n, std::vector<int>& distinct, std::vector<int>& mult);

void build_newton_design(const TrainingData& data, const int* rows, const int* mult, size_t m,
                         NewtonDesign& design);

// train_binary_svm_newton() on a design; at most max_iter Newton steps.
// With more than kNewtonMaxDim columns the Newton steps are solved by
// preconditioned conjugate gradients (as LIBLINEAR's trust-region Newton
// does) instead of a factorised Hessian.
std::vector<double> train_binary_svm_newton(const NewtonDesign& design, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init, double pos_factor,
                                            double neg_factor, int max_iter = 100,
                                            const double* init_z = nullptr);
// init_z: the rows' decision values under init (m values), if known.

}  // namespace svf
#endif
