// R entry point for prediction. The forest list is checked in full before any
// row is routed.
#include <Rcpp.h>

#include <stdexcept>

#include "RcppRunner.h"
#include "core/forest/Predictor.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

// aggregation: "" (no class), "vote", "prob" or "max_confidence": the class
// of each row by that rule (Aggregation.h), 0-based; with want_class_curve
// also the class after the first 1, 2, ... trees (n x ntree).
// [[Rcpp::export(.svf_predict)]]
List svf_predict(List forest, List data, int num_threads, bool want_leaves, bool want_tree_class,
                 std::string aggregation = "", bool want_class_curve = false, bool want_tree_values = false,
                 bool want_tree_sd = false) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != handle.view.shape.p)
    Rcpp::stop("newdata has %d predictor columns, the model %d", (int)p, (int)handle.view.shape.p);
  const int n = static_cast<int>(rows->n_rows()), K = handle.view.shape.num_classes;
  const int ntree = static_cast<int>(handle.view.trees.size());
  Rcpp::NumericMatrix prob(n, handle.view.shape.outputs());
  Rcpp::IntegerMatrix votes(n, K);
  Rcpp::IntegerMatrix leaves(want_leaves ? n : 0, want_leaves ? ntree : 0);
  // per-tree outputs are n x ntree: allocated only when asked for
  Rcpp::IntegerMatrix tree_class(want_tree_class ? n : 0, want_tree_class ? ntree : 0);
  svf::PredictOutput out;
  out.prob = prob.begin();
  out.votes = votes.begin();
  out.leaves = want_leaves ? leaves.begin() : nullptr;
  out.tree_class = want_tree_class ? tree_class.begin() : nullptr;
  const bool want_class = !aggregation.empty() && K > 0;
  Rcpp::IntegerVector cls(want_class ? n : 0);
  if (want_class) {
    try {
      out.aggregation = svf::aggregation_named(aggregation);
    } catch (std::invalid_argument& e) {
      Rcpp::stop(e.what());
    }
    out.cls = cls.begin();
  }
  Rcpp::IntegerMatrix class_curve(want_class && want_class_curve ? n : 0, want_class && want_class_curve ? ntree : 0);
  if (want_class && want_class_curve) out.class_curve = class_curve.begin();
  // regression: per-tree values (n x ntree) and their spread (n), on the
  // engine's standardised outcome scale
  const bool regression = K == 0;
  Rcpp::NumericMatrix tree_values(want_tree_values && regression ? n : 0, want_tree_values && regression ? ntree : 0);
  Rcpp::NumericVector tree_sd(want_tree_sd && regression ? n : 0);
  out.tree_value = want_tree_values && regression ? tree_values.begin() : nullptr;
  out.tree_sd = want_tree_sd && regression ? tree_sd.begin() : nullptr;
  RcppRunner runner(num_threads, false);
  svf::predict_forest(handle.view, *rows, out, runner);
  return List::create(Named("prob") = prob, Named("votes") = votes, Named("leaves") = leaves,
                      Named("tree_class") = tree_class, Named("class") = cls,
                      Named("class_curve") = class_curve, Named("tree_values") = tree_values,
                      Named("tree_sd") = tree_sd);
}

// Checks a forest list without predicting; returns TRUE or raises an R error.
// [[Rcpp::export(.svf_check_forest)]]
bool svf_check_forest(List forest) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  return true;
}

// Support vectors each row evaluates, summed over trees (kernel leaves).
// [[Rcpp::export(.svf_support_vectors_used)]]
Rcpp::IntegerVector svf_support_vectors_used(List forest, Rcpp::IntegerMatrix leaves) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  const size_t ntree = handle.view.trees.size();
  if (static_cast<size_t>(leaves.ncol()) != ntree) Rcpp::stop("internal: leaves");
  const int n = leaves.nrow();
  Rcpp::IntegerVector used(n);
  for (size_t t = 0; t < ntree; ++t) {
    const svf::TreeView& tree = handle.view.trees[t];
    for (int i = 0; i < n; ++i) {
      const int leaf = leaves(i, t) - 1;
      if (leaf < 0 || static_cast<size_t>(leaf) >= tree.n_leaves) Rcpp::stop("internal: leaf out of range");
      used[i] += handle.view.readers[tree.leaf_kind[leaf]].support_vectors(svf::leaf_payload(tree, leaf),
                                                                           handle.view.shape);
    }
  }
  return used;
}
