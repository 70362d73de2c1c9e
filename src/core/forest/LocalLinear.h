// Local linear explanations: for each row, the coefficients of the linear
// leaves (linear SVM and logistic leaves) it reaches, averaged over the trees
// whose leaf is linear, per class. Leaves hold weights on the scaled
// predictors; out = weight * scaling factor, the coefficient per unit of the
// original predictor.
//
// Per class k: a one-vs-rest leaf gives its output of class k (when k has
// one); a two-class leaf with classes a < b gives +w to b and -w to a; a
// class without an output in the tree's leaf does not count for that tree.
// A forest with two classes reports class 2 only (class 1 is its negative).
// A regression forest (ridge and linear SVR leaves) has one output: the
// leaf's weights, on the model's standardised outcome.
#ifndef SVFOREST_LOCALLINEAR_H
#define SVFOREST_LOCALLINEAR_H

#include <vector>

#include "Predictor.h"
#include "common/TaskRunner.h"
#include "data/RowSource.h"

namespace svf {

// Whether any leaf of the forest is linear.
bool forest_has_linear_leaves(const ForestView& forest);

struct LocalLinearOutput {
  // outputs = 1 for two classes (class 2) and regression, else K
  // coef: n x p x outputs (column-major); trees: n x outputs, the trees that
  // contributed (coef is 0 where none did)
  double* coef = nullptr;
  int* trees = nullptr;
};

void local_linear(const ForestView& forest, const RowSource& rows, LocalLinearOutput& out, TaskRunner& runner,
                  size_t chunk_size = 1024);

}  // namespace svf
#endif
