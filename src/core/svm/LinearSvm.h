// Binary linear models by LIBLINEAR on the scaled training rows, and the
// rule that turns a leaf's or node's linear decision values into a class.
// Shared by splitters (RSVF's split scoring) and leaves.
#ifndef SVFOREST_LINEARSVM_H
#define SVFOREST_LINEARSVM_H

#include <vector>
#include <linear.h>

#include "data/ScaledRows.h"
#include "data/TrainingData.h"

namespace svf {

// One binary problem on rows[0..m): label +1 where y == positive_class.
// `init` (p + 1 weights, or empty) warm-starts the solver. With balanced,
// each side is weighted in inverse proportion to its size; the positive and
// negative side's costs are then multiplied by pos_factor and neg_factor.
// solver_type: LIBLINEAR's primal solvers, which draw no random numbers
// (L2R_L2LOSS_SVC, the default, or L2R_LR). Returns p + 1 weights, bias last.
std::vector<double> train_binary_linear(const TrainingData& data, const int* rows, size_t m,
                                        int positive_class, double cost, bool balanced,
                                        double tolerance, const std::vector<double>& init,
                                        double pos_factor, double neg_factor, int solver_type);

// The L2-regularised L2-loss SVM (L2R_L2LOSS_SVC).
std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init,
                                     double pos_factor = 1.0, double neg_factor = 1.0);

// Class of linear decision values over `classes` (ascending, n >= 2): one
// output for two classes (positive side classes[1]), else one output per
// class (one-vs-rest, the largest value, the first on ties).
inline int class_from_decisions(const double* dec, const int* classes, size_t n) {
  if (n == 2) return dec[0] > 0.0 ? classes[1] : classes[0];
  size_t best = 0;
  for (size_t o = 1; o < n; ++o)
    if (dec[o] > dec[best]) best = o;
  return classes[best];
}

// Linear outputs of a model with n classes: 1 for two classes, else n.
inline size_t linear_outputs(size_t n_classes) { return n_classes == 2 ? 1 : n_classes; }

// Class of a scaled row under weights w (outputs x (p + 1)); *decision
// receives the decision value of the chosen output (|w'x| for two classes).
int linear_class(const double* w, const int* classes, size_t n_classes, size_t p,
                 const feature_node* row, double* decision);

}  // namespace svf
#endif
