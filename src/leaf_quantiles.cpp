// R entry points of the quantile forest prediction strategy
// (core/prediction/QuantileForest.h): leaf ids and outcomes in, quantiles
// out. Worker threads touch no R data.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "RcppRunner.h"
#include "release_memory.h"
#include "core/prediction/ConformalLevels.h"
#include "core/prediction/QuantileForest.h"

namespace {

// m x taus quantiles as an R matrix, NA for a row with no usable tree.
Rcpp::NumericMatrix as_matrix(const std::vector<double>& v, int m, int nt) {
  Rcpp::NumericMatrix res(m, nt);
  for (size_t k = 0; k < v.size(); ++k) res[k] = std::isnan(v[k]) ? NA_REAL : v[k];
  return res;
}

// Per tree, the 0-based rows of a list of 1-based out-of-bag rows.
std::vector<std::vector<int>> oob_lists(Rcpp::List oob_rows, int n, int ntree) {
  if (oob_rows.size() != ntree) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  std::vector<std::vector<int>> rows(ntree);
  for (int t = 0; t < ntree; ++t) {
    const Rcpp::IntegerVector r = Rcpp::as<Rcpp::IntegerVector>(oob_rows[t]);
    for (int v : r) {
      if (v == NA_INTEGER || v < 1 || v > n) Rcpp::stop("out-of-bag rows must be between 1 and the number of rows");
      rows[t].push_back(v - 1);
    }
  }
  return rows;
}

// The out-of-bag query of a list of 1-based out-of-bag rows per tree (integer
// vectors, read in place).
svf::QuantileQuery oob_query(const svf::QuantileForest& forest, Rcpp::List oob_rows, int ntree) {
  if (oob_rows.size() != ntree) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  std::vector<const int*> rows(ntree);
  std::vector<size_t> counts(ntree);
  for (int t = 0; t < ntree; ++t) {
    SEXP r = oob_rows[t];
    if (TYPEOF(r) != INTSXP) Rcpp::stop("out-of-bag rows must be integer vectors");
    rows[t] = INTEGER(r);
    counts[t] = static_cast<size_t>(XLENGTH(r));
  }
  return forest.out_of_bag_query(rows, counts, 1);
}

// The out-of-bag query restricted to the trees whose `even_tree` flag is
// `parity` (the rows' lists shared with `all`).
svf::QuantileQuery half_query(const svf::QuantileQuery& all, const std::vector<char>& even_tree, bool parity) {
  svf::QuantileQuery q = all;
  q.keep = &even_tree;
  q.keep_value = parity ? 1 : 0;
  return q;
}

std::vector<char> tree_flags(Rcpp::LogicalVector even_tree, int ntree) {
  if (even_tree.size() != 0 && even_tree.size() != ntree) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  std::vector<char> flags(even_tree.size());
  for (R_xlen_t t = 0; t < even_tree.size(); ++t) flags[t] = even_tree[t] == TRUE ? 1 : 0;
  return flags;
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
    RcppRunner runner(num_threads, false);
    if (self) {
      const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth);
      svf::QuantileQuery query;
      query.leaves = new_leaves.begin();
      query.m = m;
      query.self = true;
      q = forest.quantiles(query, Rcpp::as<std::vector<double>>(taus), runner);
    } else {
      // new rows: an index of the leaves they reach alone
      const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth,
                                       new_leaves.begin(), static_cast<size_t>(m));
      q = forest.quantiles(forest.new_rows_query(), Rcpp::as<std::vector<double>>(taus), runner);
    }
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the quantile forest's index
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
  const std::vector<std::vector<int>> rows = oob_lists(oob_rows, n, ntree);
  std::vector<double> q;
  try {
    const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth);
    RcppRunner runner(num_threads, false);
    q = forest.quantiles(forest.out_of_bag_query(rows), Rcpp::as<std::vector<double>>(taus), runner);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the quantile forest's index
  return as_matrix(q, n, nt);
}

// Which training rows have out-of-bag quantiles (a usable tree): from all
// the trees they were out of bag in, and, when `even_tree` (per tree) is
// given, from the even and from the odd trees alone. list(all, even, odd).
// [[Rcpp::export(.svf_oob_scored)]]
Rcpp::List svf_oob_scored(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y, Rcpp::List oob_rows,
                          Rcpp::LogicalVector even_tree) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol();
  if (y.size() != n || n < 1) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  Rcpp::List out;
  try {
    const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, 0.0);
    const std::vector<char> flags = tree_flags(even_tree, ntree);
    const svf::QuantileQuery all = oob_query(forest, oob_rows, ntree);
    const svf::QuantileQuery queries[3] = {all, half_query(all, flags, true), half_query(all, flags, false)};
    const char* names[3] = {"all", "even", "odd"};
    for (int c = 0; c < (flags.empty() ? 1 : 3); ++c) {
      Rcpp::LogicalVector ok(n);
      for (int i = 0; i < n; ++i) ok[i] = forest.usable(queries[c], static_cast<size_t>(i));
      out[names[c]] = ok;
    }
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the quantile forest's index
  return out;
}

// The conformal order statistics (core/prediction/ConformalLevels.h) of
// the out-of-bag scores of training rows `rows` (1-based, increasing) at
// increasing levels `taus`: ranks k per level, the halves (even_tree per
// tree, or none) with extrapolation `weight`. NA where the share never
// reaches k or k is outside 1..length(rows). sample_rows and bracket (sd,
// bins): how the bins are placed and which the first pass keeps
// (ConformalLevels.h; the result does not depend on them).
// [[Rcpp::export(.svf_oob_conformal)]]
Rcpp::NumericVector svf_oob_conformal(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y, Rcpp::List oob_rows,
                                      Rcpp::LogicalVector even_tree, Rcpp::IntegerVector rows,
                                      Rcpp::NumericVector taus, Rcpp::NumericVector k, double weight, double smooth,
                                      int num_threads, int sample_rows = 16384,
                                      Rcpp::NumericVector bracket = Rcpp::NumericVector::create(3, 8)) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol();
  if (bracket.size() != 2 || !(bracket[0] >= 0) || !(bracket[1] >= 0)) Rcpp::stop("bracket: two numbers >= 0");
  if (y.size() != n || n < 1) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  std::vector<double> out;
  try {
    const std::vector<double> yy = Rcpp::as<std::vector<double>>(y);
    const svf::QuantileForest forest(train_leaves.begin(), yy, ntree, smooth);
    const std::vector<char> flags = tree_flags(even_tree, ntree);
    const svf::QuantileQuery all = oob_query(forest, oob_rows, ntree);
    const svf::QuantileQuery even = half_query(all, flags, true), odd = half_query(all, flags, false);
    svf::ConformalScores s;
    s.forest = &forest;
    s.all = &all;
    if (!flags.empty()) {
      s.even = &even;
      s.odd = &odd;
    }
    s.y = yy.data();
    s.sample_rows = static_cast<size_t>(std::max(1, sample_rows));
    s.bracket_sd = bracket[0];
    s.bracket_bins = static_cast<size_t>(bracket[1]);
    for (int r : rows) {
      if (r == NA_INTEGER || r < 1 || r > n || (!s.rows.empty() && r - 1 <= s.rows.back()))
        Rcpp::stop("rows must be increasing, between 1 and the number of rows");
      s.rows.push_back(r - 1);
    }
    RcppRunner runner(num_threads, false);
    out = svf::conformal_order_statistics(s, Rcpp::as<std::vector<double>>(taus), Rcpp::as<std::vector<double>>(k),
                                          weight, runner);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the quantile forest's index
  Rcpp::NumericVector res(out.size());
  for (size_t j = 0; j < out.size(); ++j) res[j] = std::isnan(out[j]) ? NA_REAL : out[j];
  return res;
}

// The conformal order statistics of new rows' scores (new_y minus their
// quantiles; new_leaves: m x ntree leaf ids) at increasing levels `taus`,
// ranks k per level: NA where k is outside 1..m.
// [[Rcpp::export(.svf_new_rows_conformal)]]
Rcpp::NumericVector svf_new_rows_conformal(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y,
                                           Rcpp::IntegerMatrix new_leaves, Rcpp::NumericVector new_y,
                                           Rcpp::NumericVector taus, Rcpp::NumericVector k, double smooth,
                                           int num_threads, int sample_rows = 16384) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol(), m = new_leaves.nrow();
  if (y.size() != n || new_leaves.ncol() != ntree || new_y.size() != m || n < 1)
    Rcpp::stop("leaf matrices and outcomes do not match");
  std::vector<double> out;
  try {
    // an index of the leaves the new rows reach alone
    const svf::QuantileForest forest(train_leaves.begin(), Rcpp::as<std::vector<double>>(y), ntree, smooth,
                                     new_leaves.begin(), static_cast<size_t>(m));
    const svf::QuantileQuery query = forest.new_rows_query();
    const std::vector<double> yy = Rcpp::as<std::vector<double>>(new_y);
    svf::ConformalScores s;
    s.forest = &forest;
    s.all = &query;
    s.y = yy.data();
    s.sample_rows = static_cast<size_t>(std::max(1, sample_rows));
    for (int i = 0; i < m; ++i) s.rows.push_back(i);
    RcppRunner runner(num_threads, false);
    out = svf::conformal_order_statistics(s, Rcpp::as<std::vector<double>>(taus), Rcpp::as<std::vector<double>>(k),
                                          0.0, runner);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the quantile forest's index
  Rcpp::NumericVector res(out.size());
  for (size_t j = 0; j < out.size(); ++j) res[j] = std::isnan(out[j]) ? NA_REAL : out[j];
  return res;
}

// Hands the pages of memory already freed back to the system (after R's
// garbage collection has freed its own), so that a large index built next
// starts from the memory the live objects hold.
// [[Rcpp::export(.svf_release_memory)]]
void svf_release_memory() {
  release_free_memory();
}
