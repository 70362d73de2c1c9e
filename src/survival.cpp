// R entry points of survival forests (core/forest/SurvivalForest.h): the
// engine side of R/engine-survival.R, which checks the outcome first.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "RcppRunner.h"
#include "core/forest/Predictor.h"
#include "core/forest/SurvivalForest.h"
#include "core/leaves/LeafKinds.h"
#include "core/splitting/Splitter.h"
#include "model_convert.h"
#include "r_params.h"

using Rcpp::List;
using Rcpp::Named;

namespace {

// The forest's time grid (the distinct event times, increasing) and each
// row's index in it (the last grid time at or before the row's time).
std::vector<double> event_grid(const Rcpp::NumericVector& time, const Rcpp::IntegerVector& status,
                               std::vector<int>& index) {
  std::vector<double> grid;
  for (R_xlen_t i = 0; i < time.size(); ++i)
    if (status[i] == 1) grid.push_back(time[i]);
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  index.resize(time.size());
  for (R_xlen_t i = 0; i < time.size(); ++i)
    index[i] = static_cast<int>(std::upper_bound(grid.begin(), grid.end(), time[i]) - grid.begin()) - 1;
  return grid;
}

// Checked views of a survival forest's trees (compact trees decoded into
// `storage`, which must outlive the views).
std::vector<svf::TreeView> survival_tree_views(const List& trees, size_t p, int num_times,
                                               std::vector<svf::Tree>& storage) {
  svf::OutcomeShape shape;
  shape.p = p;
  shape.num_times = num_times;
  std::vector<svf::TreeView> views;
  for (R_xlen_t t = 0; t < trees.size(); ++t)
    views.push_back(tree_view_from_r(List(trees[t]), shape, static_cast<int>(t), storage[t]));
  return views;
}

svf::ForestOptions survival_options(const RParams& rp) {
  svf::ForestOptions opt;
  opt.ntree = rp.integer("ntree");
  opt.seed = static_cast<uint64_t>(rp.number("seed"));
  // a part of a forest (combine(), svforest_future()) starts at its first tree
  if (rp.has("first_tree")) opt.first_tree = static_cast<size_t>(rp.number("first_tree"));
  opt.sampler = svf::sampler_named(rp.text("sampler"));
  opt.sample_fraction = rp.number("sample_fraction");
  opt.grow.max_depth = rp.integer("max_depth");
  return opt;
}

}  // namespace

// [[Rcpp::export(.svf_survival_fit)]]
List svf_survival_fit(List data, Rcpp::NumericVector time, Rcpp::IntegerVector status, SEXP weights, List params,
                      int num_threads) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  const size_t n = x->n_rows();
  if (static_cast<size_t>(time.size()) != n || static_cast<size_t>(status.size()) != n)
    Rcpp::stop("internal: lengths of time and status");
  const RParams rp(params);
  std::vector<int> index;
  const std::vector<double> grid = event_grid(time, status, index);
  if (grid.empty()) Rcpp::stop("internal: no events");
  svf::TrainingData td;
  td.x = x.get();
  td.time = REAL(time);
  td.status = INTEGER(status);
  td.time_index = index.data();
  td.num_times = static_cast<int>(grid.size());
  td.weights = case_weights_from_r(weights, n);
  td.scaling = svf::fit_scaling(*x, false);
  const svf::ForestOptions opt = survival_options(rp);
  RcppRunner runner(num_threads, false);
  svf::SurvivalForestFit fit;
  try {
    // the default method's splitter, whose criteria read the survival outcome
    const std::unique_ptr<svf::Splitter> splitter = svf::make_splitter("hybrid", rp);
    const std::unique_ptr<svf::LeafModel> leaf = svf::make_leaf_model("nelson_aalen", rp);
    fit = svf::train_survival_forest(td, *splitter, *leaf, opt, runner);
    runner.finish();
  } catch (std::exception& e) {
    Rcpp::stop(e.what());
  }
  List trees(fit.trees.size());
  for (size_t t = 0; t < fit.trees.size(); ++t) trees[t] = tree_to_r(fit.trees[t], x->n_cols());
  Rcpp::NumericMatrix oob_chf(static_cast<int>(n), static_cast<int>(grid.size()));
  std::copy(fit.oob.chf_sum.begin(), fit.oob.chf_sum.end(), oob_chf.begin());
  return List::create(Named("trees") = trees, Named("times") = Rcpp::wrap(grid),
                      Named("num_features") = static_cast<int>(x->n_cols()), Named("oob_chf_sum") = oob_chf,
                      Named("oob_count") = Rcpp::wrap(fit.oob.count));
}

// The forest's cumulative hazard of each row at each of its num_times grid
// times (n x num_times): the mean of the trees' leaf step functions.
// [[Rcpp::export(.svf_survival_predict)]]
Rcpp::NumericMatrix svf_survival_predict(List trees, int num_times, int num_features, List data, int num_threads) {
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != static_cast<size_t>(num_features)) Rcpp::stop("internal: predictor columns");
  if (num_times < 1 || trees.size() < 1) Rcpp::stop("internal: an empty survival forest");
  std::vector<svf::Tree> storage(trees.size());
  const std::vector<svf::TreeView> views = survival_tree_views(trees, p, num_times, storage);
  // the step reading below knows the survival leaf's payload alone
  int survival_kind = -1;
  for (const svf::LeafKindInfo& info : svf::leaf_kinds())
    if (info.name == "nelson_aalen") survival_kind = info.kind;
  for (const svf::TreeView& view : views)
    for (size_t l = 0; l < view.n_leaves; ++l)
      if (view.leaf_kind[l] != survival_kind) Rcpp::stop("internal: a survival tree's leaf kind");
  const size_t n = rows->n_rows(), T = static_cast<size_t>(num_times);
  Rcpp::NumericMatrix chf(static_cast<int>(n), num_times);
  double* out = chf.begin();
  RcppRunner runner(num_threads, false);
  runner.run(n, [&](size_t r) {
    std::vector<double> route_scratch, steps(T, 0.0);
    for (const svf::TreeView& view : views)
      svf::add_leaf_steps(view, svf::survival_leaf(view, p, *rows, r, route_scratch), steps.data());
    svf::accumulate_steps(steps.data(), T, static_cast<double>(views.size()), out + r, n);
  });
  runner.finish();
  return chf;
}

// The leaf (from 0) each row of `data` reaches in each tree (n x ntree):
// predict()'s type = "leaf" and the per-tree curves (R/predict-survival.R).
// [[Rcpp::export(.svf_survival_leaves)]]
Rcpp::IntegerMatrix svf_survival_leaves(List trees, int num_times, int num_features, List data, int num_threads) {
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != static_cast<size_t>(num_features)) Rcpp::stop("internal: predictor columns");
  std::vector<svf::Tree> storage(trees.size());
  const std::vector<svf::TreeView> views = survival_tree_views(trees, p, num_times, storage);
  const size_t n = rows->n_rows(), m = views.size();
  Rcpp::IntegerMatrix leaves(static_cast<int>(n), static_cast<int>(m));
  int* out = leaves.begin();
  RcppRunner runner(num_threads, false);
  runner.run(n, [&](size_t r) {
    std::vector<double> scratch;
    for (size_t t = 0; t < m; ++t) out[t * n + r] = svf::survival_leaf(views[t], p, *rows, r, scratch);
  });
  runner.finish();
  return leaves;
}
