// R entry point for tree decomposition SVM (splitter "cart"): the search for
// the ceiling size sigma and the leaf SVM parameters on a validation part
// (core/TdSvm.h), then the final tree, grown with the chosen sigma on all
// training rows (or handed over by the search when it used those rows). Plus test hooks for the tree merging.
#include <Rcpp.h>

#include <memory>

#include "RcppRunner.h"
#include "core/CartSplitter.h"
#include "core/TdSvm.h"
#include "fit_parts.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

namespace {

void check_labels(const Rcpp::IntegerVector& y, size_t n, int num_classes) {
  if (static_cast<size_t>(y.size()) != n) Rcpp::stop("internal: length of y");
  for (int v : y)
    if (v < 0 || v >= num_classes) Rcpp::stop("internal: class index out of range");
}

// The leaf models tried by the search: every (cost, gamma) for kernel
// leaves, every cost for linear leaves (no inner cross-validation), the
// class frequencies for constant leaves.
struct Grid {
  std::vector<std::unique_ptr<svf::LeafModel>> models;
  std::vector<svf::TdCandidate> candidates;
};

void build_grid(const List& params, Grid& grid) {
  const std::string leaf = param<std::string>(params, "leaf");
  const std::vector<double> cost = param<std::vector<double>>(params, "cost");
  const std::vector<double> gamma = param<std::vector<double>>(params, "gamma");
  List one = Rcpp::clone(params);
  auto add = [&](double c, double g) {
    one["cost"] = Rcpp::NumericVector::create(c);
    one["gamma"] = Rcpp::NumericVector::create(g);
    one["cv_folds"] = 1;
    grid.models.push_back(make_leaf_model(one));
    svf::TdCandidate cand;
    cand.cost = c;
    cand.gamma = leaf == "kernel_svm" ? g : NAN;
    cand.model = grid.models.back().get();
    grid.candidates.push_back(cand);
  };
  if (leaf == "kernel_svm") {
    for (double c : cost)
      for (double g : gamma) add(c, g);
  } else if (leaf == "linear_svm") {
    for (double c : cost) add(c, NAN);
  } else {
    grid.models.push_back(make_leaf_model(params));
    grid.candidates.push_back(svf::TdCandidate());
    grid.candidates.back().model = grid.models.back().get();
  }
}

}  // namespace

// [[Rcpp::export(.svf_fit_tdsvm)]]
List svf_fit_tdsvm(List data, Rcpp::IntegerVector y, int num_classes, List params, SEXP valid_data,
                   Rcpp::IntegerVector valid_y, int num_threads, bool verbose) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  const size_t n = x->n_rows();
  check_labels(y, n, num_classes);

  svf::TrainingData td;
  td.x = x.get();
  td.y = y.begin();
  td.num_classes = num_classes;
  td.scaling = svf::fit_scaling(*x, param<bool>(params, "scale"));
  td.scaled = svf::ScaledRows(*x, td.scaling);

  const uint64_t seed = static_cast<uint64_t>(param<double>(params, "seed"));
  const bool rare_negative = param<std::string>(params, "rare_classes") == "negative";
  const int svm_min_rows = rare_negative ? param<int>(params, "min_class_rows") : 1;
  const int sigma_param = param<int>(params, "sigma");  // NA: search
  Grid grid;
  build_grid(params, grid);
  const bool search = sigma_param == NA_INTEGER || grid.candidates.size() > 1;

  RcppRunner runner(num_threads, verbose, "Fitting leaves");
  if (params.containsElementNamed("progress_delay")) runner.set_delay(param<double>(params, "progress_delay"));
  size_t sigma = sigma_param == NA_INTEGER ? 0 : static_cast<size_t>(sigma_param);
  int chosen = 0;
  Rcpp::RObject selection = R_NilValue;
  // The final model is one tree on all training rows. With user-given
  // validation data those are the search's rows, so the search can hand
  // over the chosen tree's leaf models instead of training them again.
  const svf::SamplerType sampler = sampler_type(param<std::string>(params, "sampler"));
  const bool one_plain_tree = param<int>(params, "ntree") == 1 && sampler == svf::SamplerType::All &&
                              param<int>(params, "first_tree") == 0;
  svf::FittedForest handed_over;
  bool have_forest = false;
  if (search) {
    svf::ValidationSet valid;
    std::vector<int> train_rows;
    std::unique_ptr<svf::RowSource> external;
    std::unique_ptr<svf::TrainingRows> internal;
    if (!Rf_isNull(valid_data)) {
      size_t p = 0;
      external = row_source_from_r(List(valid_data), p);
      if (p != x->n_cols()) Rcpp::stop("internal: validation columns");
      check_labels(valid_y, external->n_rows(), num_classes);
      valid.rows = external.get();
      for (size_t v = 0; v < external->n_rows(); ++v) {
        valid.index.push_back(static_cast<int>(v));
        valid.y.push_back(valid_y[v]);
      }
      for (size_t r = 0; r < n; ++r) train_rows.push_back(static_cast<int>(r));
    } else {
      // the hold-out has a stream of its own: (tree 0, leaf -2)
      svf::Rng rng(seed, svf::stream_id(0, -2));
      const std::vector<char> held = svf::stratified_holdout(
          y.begin(), n, num_classes, param<double>(params, "validation_fraction"), rng);
      internal.reset(new svf::TrainingRows(td));
      valid.rows = internal.get();
      for (size_t r = 0; r < n; ++r) {
        if (held[r]) {
          valid.index.push_back(static_cast<int>(r));
          valid.y.push_back(y[r]);
        } else {
          train_rows.push_back(static_cast<int>(r));
        }
      }
    }
    if (valid.index.empty()) Rcpp::stop("The validation part has no rows: raise `validation_fraction`.");
    if (train_rows.size() < 2) Rcpp::stop("The training part has fewer than 2 rows: lower `validation_fraction`.");

    svf::TdSearchOptions so;
    so.search_sigma = sigma_param == NA_INTEGER;
    so.sigma0 = so.search_sigma ? param<int>(params, "sigma0") : sigma;
    so.factor = param<int>(params, "sigma_factor");
    so.top_k = param<int>(params, "top_k");
    so.min_gain = param<double>(params, "min_gain") / 100.0;
    so.grow.max_depth = param<int>(params, "max_depth");
    so.seed = seed;
    so.svm_min_rows = svm_min_rows;
    so.keep_fits = one_plain_tree && external;
    svf::TdSearchResult res = svf::td_search(td, train_rows, valid, grid.candidates, so, runner);
    sigma = res.sigma;
    chosen = res.candidate;
    if (res.has_fits) {
      svf::Tree& tree = res.tree.tree;
      tree.svm_min_rows = svm_min_rows;
      svf::assemble_leaves(tree, res.fits.cbegin());
      handed_over.trees.push_back(std::move(tree));
      have_forest = true;
    }

    const size_t m = res.curve.size();
    Rcpp::IntegerVector stage(m), sig(m), leaves(m), svm_leaves(m);
    Rcpp::NumericVector cost(m), gamma(m), accuracy(m);
    for (size_t k = 0; k < m; ++k) {
      const svf::TdEvaluation& e = res.curve[k];
      stage[k] = e.stage;
      sig[k] = static_cast<int>(std::min<size_t>(e.sigma, INT32_MAX));
      cost[k] = grid.candidates[e.candidate].cost;
      gamma[k] = grid.candidates[e.candidate].gamma;
      accuracy[k] = e.accuracy;
      leaves[k] = static_cast<int>(e.leaves);
      svm_leaves[k] = static_cast<int>(e.svm_leaves);
    }
    selection = List::create(
        Named("sigma") = static_cast<int>(std::min<size_t>(sigma, INT32_MAX)),
        Named("cost") = grid.candidates[chosen].cost, Named("gamma") = grid.candidates[chosen].gamma,
        Named("n_train") = static_cast<int>(train_rows.size()),
        Named("n_validation") = static_cast<int>(valid.index.size()),
        Named("curve") = Rcpp::DataFrame::create(
            Named("stage") = stage, Named("sigma") = sig, Named("cost") = cost, Named("gamma") = gamma,
            Named("accuracy") = accuracy, Named("leaves") = leaves, Named("svm_leaves") = svm_leaves));
  }

  // final model: the chosen sigma and leaf parameters, on all training rows
  svf::CartSplitter splitter(sigma);
  svf::ForestOptions opt;
  opt.ntree = param<int>(params, "ntree");
  opt.seed = seed;
  opt.first_tree = param<int>(params, "first_tree");
  opt.sampler = sampler;
  opt.sample_fraction = param<double>(params, "sample_fraction");
  opt.grow.max_depth = param<int>(params, "max_depth");
  opt.batch_size = std::max(8, 2 * num_threads);
  opt.svm_min_rows = svm_min_rows;
  svf::FittedForest forest = have_forest ? std::move(handed_over)
                                         : svf::train_forest(td, splitter, *grid.candidates[chosen].model,
                                                             opt, runner);
  runner.finish();

  List result = forest_to_r(td, forest, opt.svm_min_rows);
  if (forest.oob.available) {
    Rcpp::IntegerMatrix votes(static_cast<int>(n), num_classes);
    std::copy(forest.oob.votes.begin(), forest.oob.votes.end(), votes.begin());
    result["oob"] = List::create(Named("votes") = votes, Named("error") = forest.oob.error,
                                 Named("error_curve") = Rcpp::wrap(forest.oob.error_curve));
  }
  return List::create(Named("forest") = result, Named("selection") = selection,
                      Named("sigma") = static_cast<int>(std::min<size_t>(sigma, INT32_MAX)));
}

// Test hook: a CART tree grown with sigma0 and merged to sigma, and the tree
// grown with sigma directly (structures and leaf rows only).
// [[Rcpp::export(.svf_cart_merge)]]
List svf_cart_merge(List data, Rcpp::IntegerVector y, int num_classes, int sigma0, int sigma) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  check_labels(y, x->n_rows(), num_classes);
  svf::TrainingData td;
  td.x = x.get();
  td.y = y.begin();
  td.num_classes = num_classes;
  std::vector<int> rows(x->n_rows());
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<int>(r);
  svf::GrowOptions go;
  svf::GrownTree small, merged, direct;
  svf::Rng rng(1, 0);
  svf::grow_tree(td, rows, svf::CartSplitter(sigma0), go, rng, small);
  svf::merge_leaves(small, sigma, merged);
  svf::grow_tree(td, rows, svf::CartSplitter(sigma), go, rng, direct);
  auto out = [](const svf::GrownTree& g) {
    return List::create(Named("tree") = tree_to_r(g.tree), Named("rows") = Rcpp::wrap(g.rows),
                        Named("leaf_begin") = Rcpp::wrap(std::vector<double>(g.leaf_begin.begin(), g.leaf_begin.end())));
  };
  return List::create(Named("small") = out(small), Named("merged") = out(merged), Named("direct") = out(direct));
}
