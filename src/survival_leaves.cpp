// The leaf each row reaches in each tree of a survival forest (predict()'s
// type = "leaf" and the per-tree output of R/predict-survival.R).
#include <Rcpp.h>

#include <memory>
#include <vector>

#include "RcppRunner.h"
#include "core/forest/SurvivalForest.h"
#include "model_convert.h"

// n x ntree leaf numbers, from 0, of the rows of `data` in `trees`.
// [[Rcpp::export(.svf_survival_leaves)]]
Rcpp::IntegerMatrix svf_survival_leaves(Rcpp::List trees, int num_times, int num_features, Rcpp::List data,
                                        int num_threads) {
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != static_cast<size_t>(num_features)) Rcpp::stop("internal: predictor columns");
  svf::OutcomeShape shape;
  shape.p = p;
  shape.num_times = num_times;
  std::vector<svf::Tree> storage(trees.size());
  std::vector<svf::TreeView> views;
  for (R_xlen_t t = 0; t < trees.size(); ++t)
    views.push_back(tree_view_from_r(Rcpp::List(trees[t]), shape, static_cast<int>(t), storage[t]));
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
