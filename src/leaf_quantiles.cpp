// R entry points of the quantile forest prediction strategy
// (core/prediction/QuantileForest.h): leaf ids and outcomes in, quantiles
// out. Worker threads touch no R data.
#include <Rcpp.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "RcppRunner.h"
#include "core/prediction/QuantileForest.h"

namespace {

// m x taus quantiles as an R matrix, NA for a row with no usable tree.
Rcpp::NumericMatrix as_matrix(const std::vector<double>& v, int m, int nt) {
  Rcpp::NumericMatrix res(m, nt);
  for (size_t k = 0; k < v.size(); ++k) res[k] = std::isnan(v[k]) ? NA_REAL : v[k];
  return res;
}

}  // namespace

// train_leaves: n x ntree leaf ids of the training rows (as predict(type =
// "leaf")); y: their outcomes; new_leaves: m x ntree leaf ids of the rows
// to predict; taus: increasing levels in (0, 1). self: for m == n, row i of
// new_leaves is training row i, left out of its own distribution.
// [[Rcpp::export(.svf_leaf_quantiles)]]
Rcpp::NumericMatrix svf_leaf_quantiles(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y,
                                       Rcpp::IntegerMatrix new_leaves, Rcpp::NumericVector taus, bool self,
                                       double smooth, int num_threads) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol(), m = new_leaves.nrow(), nt = taus.size();
  if (y.size() != n || new_leaves.ncol() != ntree || n < 1) Rcpp::stop("leaf matrices and outcomes do not match");
  if (self && m != n) Rcpp::stop("self = TRUE needs the training rows' own leaves");
  std::vector<double> q;
  try {
    const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth);
    svf::QuantileQuery query;
    query.leaves = new_leaves.begin();
    query.m = m;
    query.self = self;
    RcppRunner runner(num_threads, false);
    q = forest.quantiles(query, Rcpp::as<std::vector<double>>(taus), runner);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  return as_matrix(q, m, nt);
}

// Out-of-bag quantiles of the training rows (the quantile forest as a
// stand-in for new rows, for conformal scores): row i's distribution from
// the trees that row i scored out of bag alone (oob_rows: per tree, the
// 1-based rows), with row i's own outcome left out of it. A row out of bag
// in no tree gets NA.
// [[Rcpp::export(.svf_oob_leaf_quantiles)]]
Rcpp::NumericMatrix svf_oob_leaf_quantiles(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y,
                                           Rcpp::List oob_rows, Rcpp::NumericVector taus, double smooth,
                                           int num_threads) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol(), nt = taus.size();
  if (y.size() != n || n < 1 || oob_rows.size() != ntree) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  std::vector<std::vector<int>> rows(ntree);
  for (int t = 0; t < ntree; ++t) {
    const Rcpp::IntegerVector r = Rcpp::as<Rcpp::IntegerVector>(oob_rows[t]);
    for (int v : r) {
      if (v == NA_INTEGER || v < 1 || v > n) Rcpp::stop("out-of-bag rows must be between 1 and the number of rows");
      rows[t].push_back(v - 1);
    }
  }
  std::vector<double> q;
  try {
    const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth);
    RcppRunner runner(num_threads, false);
    q = forest.quantiles(forest.out_of_bag_query(rows), Rcpp::as<std::vector<double>>(taus), runner);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  return as_matrix(q, n, nt);
}
