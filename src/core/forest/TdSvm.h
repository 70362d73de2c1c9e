// Model selection of tree decomposition SVM (TD-SVM): the ceiling size sigma
// and the leaf SVM parameters theta are chosen on a validation part.
//   stage 0: grow one CART tree with sigma_0 on the training part, fit the
//            leaves with every theta in the grid, rank theta by validation
//            accuracy;
//   stage t: sigma_t = factor * sigma_{t-1}; the tree for sigma_t is the
//            stage-0 tree with every node of fewer than sigma_t rows merged
//            into a leaf (no regrowth: CART splits are deterministic, so this
//            is exactly the tree grown with sigma_t); only the top_k thetas
//            of stage 0 are tried;
//   stop when the best accuracy gains less than min_gain over the previous
//   stage (keep the previous stage's choice), or sigma_t >= training rows
//   (keep this stage's choice), or sigma_t would exceed sigma_max (keep the
//   previous stage's choice). Regression measures the gain relative to the
//   previous stage's unexplained share, (R2_t - R2_{t-1}) / (1 - R2_{t-1}),
//   i.e. the fraction of validation MSE removed: R-squared points shrink as
//   the fit gets good, so a fixed number of points would stop too early.
// Leaves are fitted in parallel, one task per (theta, leaf); a leaf model is
// scored on the validation rows that reach it and then dropped, so memory
// does not grow with the grid.
#ifndef SVFOREST_TDSVM_H
#define SVFOREST_TDSVM_H

#include <cstdint>
#include <vector>

#include "TreeGrower.h"
#include "common/Random.h"
#include "common/TaskRunner.h"
#include "data/RowSource.h"
#include "leaves/LeafModel.h"

namespace svf {

struct TdCandidate {
  double cost = NAN, gamma = NAN;
  const LeafModel* model = nullptr;
};

struct TdSearchOptions {
  size_t sigma0 = 1500;
  size_t factor = 4;
  size_t top_k = 5;
  double min_gain = 0.005;   // accuracy as a fraction (0.005 = 0.5 points); regression: fraction of MSE
  size_t sigma_max = 0;      // 0: no cap on the searched sigma
  bool search_sigma = true;  // false: stage 0 only
  GrowOptions grow;
  uint64_t seed = 1;
  // Keep the leaf models of the chosen tree when the choice is made at a
  // stage >= 1 (at most top_k models per leaf held at once), so that a final
  // fit on the same rows need not train them again. Stage 0 tries the whole
  // grid; its models are never kept.
  bool keep_fits = false;
};

struct TdEvaluation {
  int stage;
  size_t sigma;
  int candidate;
  double accuracy;
  size_t leaves, svm_leaves;
};

struct TdSearchResult {
  size_t sigma = 0;
  int candidate = 0;
  std::vector<TdEvaluation> curve;
  // With keep_fits: the chosen tree and its leaf models (in leaf order), as
  // train_forest() would fit them for tree 0 on the search's training rows.
  bool has_fits = false;
  GrownTree tree;
  std::vector<LeafFit> fits;
  size_t n_train = 0, n_validation = 0;
};

// Validation rows: rows->get(index[v], .) with class y[v].
struct ValidationSet {
  const RowSource* rows = nullptr;
  std::vector<int> index;
  std::vector<int> y;              // classification
  std::vector<double> response;    // regression
};

// The tree `grown` (grown from ascending rows with a smaller ceiling size
// by a deterministic splitter on p predictors)
// with every node of fewer than `sigma` rows made a leaf. Node and leaf
// numbering, class counts and each leaf's rows (ascending) are those of a
// tree grown with `sigma` directly.
void merge_leaves(const GrownTree& grown, size_t sigma, size_t p, GrownTree& out);

// Stratified hold-out: about `fraction` of each class's rows (rounded) from
// rng. Returns 1 for held-out rows.
std::vector<char> stratified_holdout(const int* y, size_t n, int num_classes, double fraction, Rng& rng);

// `train_rows` must be ascending. data.scaled must be filled.
TdSearchResult td_search(const TrainingData& data, const std::vector<int>& train_rows,
                         const ValidationSet& valid, const std::vector<TdCandidate>& candidates,
                         const TdSearchOptions& options, TaskRunner& runner);

}  // namespace svf
#endif
