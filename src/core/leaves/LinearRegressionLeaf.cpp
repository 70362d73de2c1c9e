#include "LinearRegressionLeaf.h"

#include <cmath>

#include "MeanLeaf.h"
#include "data/ScaledRows.h"
#include "svm/NewtonSvm.h"

namespace svf {

void LinearRegressionLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int*,
                                    Rng& rng, LeafFit& out) const {
  mean_leaf(data, rows, n, out);  // unless a model is fitted below
  bool constant = true;
  for (size_t k = 1; k < n && constant; ++k) constant = data.response[rows[k]] == data.response[rows[0]];
  if (n < 2 || constant) return;

  const Eigen::MatrixXd X = gather_scaled_rows(data, rows, n);
  Eigen::VectorXd y(static_cast<Eigen::Index>(n));
  for (size_t k = 0; k < n; ++k) y[static_cast<Eigen::Index>(k)] = data.response[rows[k]];

  const std::vector<double>& grid = opt_.grid;
  size_t best = 0;
  const int folds = std::min<int>(opt_.cv_folds, static_cast<int>(n));
  if (grid.size() > 1 && folds > 1) {
    std::vector<int> order(n);
    for (size_t k = 0; k < n; ++k) order[k] = static_cast<int>(k);
    rng.shuffle(order.data(), n);
    std::vector<int> fold(n);
    for (size_t k = 0; k < n; ++k) fold[order[k]] = static_cast<int>(k % folds);
    std::vector<double> sse(grid.size(), 0.0);
    std::vector<int> train_rows, train_at, test_at;
    for (int f = 0; f < folds; ++f) {
      train_rows.clear();
      train_at.clear();
      test_at.clear();
      for (size_t k = 0; k < n; ++k) {
        if (fold[k] == f) {
          test_at.push_back(static_cast<int>(k));
        } else {
          train_at.push_back(static_cast<int>(k));
          train_rows.push_back(rows[k]);
        }
      }
      if (test_at.empty() || train_at.size() < 2) continue;
      Eigen::MatrixXd Xt(static_cast<Eigen::Index>(train_at.size()), X.cols());
      Eigen::VectorXd yt(static_cast<Eigen::Index>(train_at.size()));
      for (size_t i = 0; i < train_at.size(); ++i) {
        Xt.row(static_cast<Eigen::Index>(i)) = X.row(train_at[i]);
        yt[static_cast<Eigen::Index>(i)] = y[train_at[i]];
      }
      for (size_t g = 0; g < grid.size(); ++g) {
        const std::vector<double> w = solve(data, train_rows.data(), train_rows.size(), Xt, yt, grid[g]);
        const Eigen::Map<const Eigen::VectorXd> wv(w.data(), static_cast<Eigen::Index>(w.size()));
        for (int t : test_at) {
          const double e = X.row(t).dot(wv) - y[t];
          sse[g] += e * e;
        }
      }
    }
    for (size_t g = 1; g < grid.size(); ++g)
      if (sse[g] < sse[best]) best = g;  // ties keep the first grid value
  }
  const std::vector<double> w = solve(data, rows, n, X, y, grid[best]);
  for (double v : w)
    if (!std::isfinite(v)) return;  // a failed solve keeps the mean
  out = LeafFit();
  out.kind = kind();
  out.reals.reserve(1 + w.size());
  out.reals.push_back(grid[best]);
  out.reals.insert(out.reals.end(), w.begin(), w.end());
}

void LinearRegressionLeafModel::predict(const LeafPayload& leaf, const OutcomeShape&, const feature_node* row,
                                        double* out, double* confidence) const {
  out[0] = dot(leaf.reals + 1, row);
  if (confidence) *confidence = 0.0;
}

bool LinearRegressionLeafModel::linear_terms(const LeafPayload& leaf, const OutcomeShape&, LinearTerms& out) const {
  out.outputs = 1;
  out.weights = leaf.reals + 1;
  out.classes = nullptr;
  out.n_classes = 0;
  return true;
}

void LinearRegressionLeafModel::describe(const LeafPayload& leaf, const OutcomeShape& shape,
                                         PayloadDescription& out) const {
  out.reals(value_name(), leaf.reals, 0, 1);
  out.matrix("coef", leaf.reals, 1, static_cast<int>(shape.p) + 1, 1);
}

std::string LinearRegressionLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (!shape.regression()) return "a regression leaf in a classification model";
  if (leaf.n_reals < shape.p + 2) return "coefficients of a regression leaf are out of range";
  return "";
}

}  // namespace svf
