// R entry points for reading a fitted forest: permutation importance and
// local linear explanations. The forest list is checked in full first.
#include <Rcpp.h>

#include <cmath>

#include "RcppRunner.h"
#include "core/forest/Importance.h"
#include "core/forest/LocalLinear.h"
#include "core/outcome/Outcome.h"
#include "core/prediction/SurvivalPrediction.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;


// forest: the model's forest; data: new_engine_data() of the rows; y: class
// of each row from 0; groups: list of integer vectors of columns (from 0);
// tree_seed, tree_index: per tree, its seed and global index (doubles: 64-bit
// seeds); out_of_bag: use each tree's regenerated out-of-bag rows (data must
// then be the training data in its order); weights: the fit's case weights
// (NULL or positive, one per row; they shape the out-of-bag rows);
// choosing_share: the model's oob_choosing_share (the rows that chose are
// left out of the out-of-bag rows); fast:
// FALSE routes every permuted row anew (tests); outcome: "classification"
// (y: class codes from 0) or "regression" (y: the outcome on the model's
// standardised scale, doubles) or "survival" (y: list(time, status); the
// drop of each tree's Harrell's C).
// [[Rcpp::export(.svf_importance)]]
List svf_importance(List forest, List data, SEXP y, List groups, Rcpp::NumericVector tree_seed,
                    Rcpp::NumericVector tree_index, bool out_of_bag, std::string sampler, double sample_fraction,
                    SEXP weights, double choosing_share, bool per_class, std::string outcome, int num_threads,
                    bool fast) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != handle.view.shape.p)
    Rcpp::stop("the data have %d predictor columns, the model %d", (int)p, (int)handle.view.shape.p);
  const size_t n = rows->n_rows(), ntree = handle.view.trees.size();
  const int K = handle.view.shape.num_classes;
  const bool survival = outcome == "survival", regression = outcome == "regression";
  if (!regression && !survival && outcome != "classification") Rcpp::stop("internal: unknown outcome '%s'", outcome);
  if (survival != handle.view.shape.survival() || (regression || survival) != (K == 0))
    Rcpp::stop("internal: outcome does not match the forest");
  const double* time = nullptr;
  const int* status = nullptr;
  const double* entry = nullptr;
  if (!survival && static_cast<size_t>(XLENGTH(y)) != n) Rcpp::stop("internal: length of y");
  if (survival) {
    // y: list(time, status) of the rows
    if (TYPEOF(y) != VECSXP || per_class) Rcpp::stop("internal: a survival outcome is list(time, status)");
    const List s(y);
    SEXP t = s["time"], st = s["status"];
    if (TYPEOF(t) != REALSXP || TYPEOF(st) != INTSXP || static_cast<size_t>(XLENGTH(t)) != n ||
        static_cast<size_t>(XLENGTH(st)) != n)
      Rcpp::stop("internal: survival time and status");
    time = REAL(t);
    status = INTEGER(st);
    if (s.containsElementNamed("entry")) {  // delayed entry: list(time, status, entry)
      SEXP e = s["entry"];
      if (TYPEOF(e) != REALSXP || static_cast<size_t>(XLENGTH(e)) != n) Rcpp::stop("internal: survival entry times");
      entry = REAL(e);
    }
  } else if (regression) {
    if (TYPEOF(y) != REALSXP) Rcpp::stop("internal: a regression outcome must be doubles");
    for (R_xlen_t i = 0; i < XLENGTH(y); ++i)
      if (!std::isfinite(REAL(y)[i])) Rcpp::stop("internal: outcome not finite");
    if (per_class) Rcpp::stop("internal: per_class is for classification");
  } else {
    if (TYPEOF(y) != INTSXP) Rcpp::stop("internal: class codes must be integers");
    for (R_xlen_t i = 0; i < XLENGTH(y); ++i)
      if (INTEGER(y)[i] < 0 || INTEGER(y)[i] >= K) Rcpp::stop("internal: class index out of range");
  }
  if (static_cast<size_t>(tree_seed.size()) != ntree || static_cast<size_t>(tree_index.size()) != ntree)
    Rcpp::stop("internal: tree seeds");
  svf::ImportanceOptions opt;
  opt.entry = entry;
  opt.outcome = regression ? svf::ImportanceOutcome::Regression : svf::ImportanceOutcome::Classification;
  if (regression) opt.response = REAL(y);
  for (size_t t = 0; t < ntree; ++t) {
    if (!std::isfinite(tree_seed[t]) || !std::isfinite(tree_index[t]) || tree_index[t] < 0)
      Rcpp::stop("internal: tree seed or index");
    opt.tree_seed.push_back(static_cast<uint64_t>(tree_seed[t]));
    opt.tree_index.push_back(static_cast<uint64_t>(tree_index[t]));
  }
  opt.out_of_bag = out_of_bag;
  // the out-of-bag rows are drawn again as the trainer drew them
  if (survival) opt.weights_draw_rows = svf::survival_outcome().weights_draw_rows();
  opt.sampler = svf::sampler_named(sampler);
  opt.sample_fraction = sample_fraction;
  opt.weights = case_weights_from_r(weights, n);
  if (!(choosing_share >= 0.0 && choosing_share < 1.0)) Rcpp::stop("internal: choosing share");
  opt.choosing_share = choosing_share;
  opt.per_class = per_class;
  opt.fast = fast;
  std::vector<std::vector<int>> g(groups.size());
  for (R_xlen_t k = 0; k < groups.size(); ++k) {
    Rcpp::IntegerVector cols(groups[k]);
    for (int c : cols) {
      if (c < 0 || static_cast<size_t>(c) >= p) Rcpp::stop("internal: group column out of range");
      if (!g[k].empty() && c <= g[k].back()) Rcpp::stop("internal: group columns must be increasing");
      g[k].push_back(c);
    }
  }
  svf::ImportanceResult res;
  RcppRunner runner(num_threads, false);
  if (survival)  // by the trees' concordance (core/prediction/SurvivalPrediction.h)
    svf::concordance_importance(handle.view, *rows, time, status, g, opt, runner, res);
  else
    svf::permutation_importance(handle.view, *rows, regression ? nullptr : INTEGER(y), g, opt, runner, res);
  Rcpp::NumericMatrix by_class(per_class ? groups.size() : 0, per_class ? K : 0);
  if (per_class) std::copy(res.per_class.begin(), res.per_class.end(), by_class.begin());
  return List::create(Named("importance") = Rcpp::wrap(res.importance), Named("per_class") = by_class,
                      Named("trees_used") = static_cast<int>(res.trees_used));
}

// Local linear coefficients of each row on the original scale: an array
// n x p x outputs (outputs = 1 for two classes), and the trees that
// contributed (n x outputs).
// [[Rcpp::export(.svf_local_linear)]]
List svf_local_linear(List forest, List data, int num_threads) {
  ForestHandle handle;
  forest_from_r(forest, handle);
  if (!svf::forest_has_linear_leaves(handle.view))
    Rcpp::stop("no linear leaves");
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != handle.view.shape.p)
    Rcpp::stop("newdata has %d predictor columns, the model %d", (int)p, (int)handle.view.shape.p);
  const int n = static_cast<int>(rows->n_rows()), K = handle.view.shape.num_classes;
  const int outputs = K == 2 || K == 0 ? 1 : K;  // (K 0: regression)
  Rcpp::NumericVector coef(static_cast<R_xlen_t>(n) * p * outputs);
  coef.attr("dim") = Rcpp::IntegerVector::create(n, static_cast<int>(p), outputs);
  Rcpp::IntegerMatrix trees(n, outputs);
  svf::LocalLinearOutput out;
  out.coef = coef.begin();
  out.trees = trees.begin();
  RcppRunner runner(num_threads, false);
  svf::local_linear(handle.view, *rows, out, runner);
  return List::create(Named("coef") = coef, Named("trees") = trees);
}
