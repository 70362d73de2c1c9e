// R entry point for prediction. The forest list is checked in full before any
// row is routed.
#include <Rcpp.h>

#include "RcppRunner.h"
#include "core/Predictor.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

// [[Rcpp::export(.svf_predict)]]
List svf_predict(List forest, List data, int num_threads, bool want_leaves, bool want_tree_class,
                 bool want_max_confidence = false) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != handle.view.num_features)
    Rcpp::stop("newdata has %d predictor columns, the model %d", (int)p, (int)handle.view.num_features);
  const int n = static_cast<int>(rows->n_rows()), K = handle.view.num_classes;
  const int ntree = static_cast<int>(handle.view.trees.size());
  Rcpp::NumericMatrix prob(n, K);
  Rcpp::IntegerMatrix votes(n, K);
  Rcpp::IntegerMatrix leaves(want_leaves ? n : 0, want_leaves ? ntree : 0);
  // per-tree outputs are n x ntree: allocated only when asked for
  Rcpp::IntegerMatrix tree_class(want_tree_class ? n : 0, want_tree_class ? ntree : 0);
  svf::PredictOutput out;
  out.prob = prob.begin();
  out.votes = votes.begin();
  out.leaves = want_leaves ? leaves.begin() : nullptr;
  out.tree_class = want_tree_class ? tree_class.begin() : nullptr;
  Rcpp::IntegerVector max_conf(want_max_confidence ? n : 0);
  out.max_confidence_class = want_max_confidence ? max_conf.begin() : nullptr;
  RcppRunner runner(num_threads, false);
  svf::predict_forest(handle.view, *rows, out, runner);
  return List::create(Named("prob") = prob, Named("votes") = votes, Named("leaves") = leaves,
                      Named("tree_class") = tree_class, Named("max_confidence_class") = max_conf);
}

// Checks a forest list without predicting; returns TRUE or raises an R error.
// [[Rcpp::export(.svf_check_forest)]]
bool svf_check_forest(List forest) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  return true;
}

// Test hooks for the PSVM splitter's building blocks.
#include "core/ProximalSvmSplitter.h"

// [[Rcpp::export(.svf_proximal_svm)]]
Rcpp::NumericVector svf_proximal_svm(Rcpp::NumericMatrix A, Rcpp::NumericVector d, double nu) {
  std::vector<double> z = svf::solve_proximal_svm(A.begin(), d.begin(), A.nrow(), A.ncol(), nu);
  return Rcpp::wrap(z);
}

// [[Rcpp::export(.svf_overlay_classes)]]
Rcpp::LogicalVector svf_overlay_classes(Rcpp::IntegerVector counts, double seed) {
  svf::Rng rng(static_cast<uint64_t>(seed), 0);
  std::vector<char> a = svf::overlay_classes(counts.begin(), counts.size(), rng);
  return Rcpp::LogicalVector(a.begin(), a.end());
}

// Test hooks for the transformation splitter: A and B hold the two groups'
// rows (as rows); returns T, the objective trace and each group's basis.
#include "core/TransformSplitter.h"

// [[Rcpp::export(.svf_learn_transform)]]
List svf_learn_transform(Rcpp::NumericMatrix A, Rcpp::NumericMatrix B, int rank, int iterations,
                         double step, int dim) {
  if (A.ncol() != B.ncol() || A.nrow() < 1 || B.nrow() < 1 || dim < 1 || iterations < 0)
    Rcpp::stop("bad arguments");
  Eigen::Map<const Eigen::MatrixXd> a(A.begin(), A.nrow(), A.ncol()), b(B.begin(), B.nrow(), B.ncol());
  const Eigen::MatrixXd at = a.transpose(), bt = b.transpose();
  const svf::LearnedTransform lt = svf::learn_transform(at, bt, rank, iterations, step);
  auto to_r = [](const Eigen::MatrixXd& m) {
    Rcpp::NumericMatrix out(m.rows(), m.cols());
    std::copy(m.data(), m.data() + m.size(), out.begin());
    return out;
  };
  return List::create(Named("T") = to_r(lt.T), Named("objective") = Rcpp::wrap(lt.objective),
                      Named("basis_a") = to_r(svf::group_basis(lt.T, at, dim)),
                      Named("basis_b") = to_r(svf::group_basis(lt.T, bt, dim)));
}
