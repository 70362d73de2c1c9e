// R entry point for training: reads the engine parts chosen in R (already
// validated there), trains, and returns plain R data.
#include <Rcpp.h>

#include <memory>

#include "RcppRunner.h"
#include "core/CartSplitter.h"
#include "core/Forest.h"
#include "core/KernelSvmLeaf.h"
#include "core/LinearSvmLeaf.h"
#include "core/OobSvmSplitter.h"
#include "core/ProximalSvmSplitter.h"
#include "core/RandomAxisSplitter.h"
#include "core/TransformSplitter.h"
#include "fit_parts.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

svf::OobSvmOptions oob_svm_options(const List& params) {
  svf::OobSvmOptions o;
  o.n_theta = param<int>(params, "n_theta");
  o.n_omega = param<int>(params, "n_omega");
  o.n_tau = param<int>(params, "n_tau");
  o.proj_dim = param<int>(params, "proj_dim");
  o.delta_tau = param<double>(params, "delta_tau");
  o.min_leaf = param<int>(params, "min_leaf_size");
  o.cost = param<std::vector<double>>(params, "cost")[0];
  o.tolerance = param<double>(params, "split_tolerance");
  o.min_class_rows = param<int>(params, "min_class_rows");
  o.rare_as_negative = param<std::string>(params, "rare_classes") == "negative";
  o.balanced = param<bool>(params, "balanced");
  o.class_factor = param<std::vector<double>>(params, "class_factor");
  return o;
}

std::unique_ptr<svf::Splitter> make_splitter(const List& params) {
  const std::string type = param<std::string>(params, "splitter");
  if (type == "random_axis")
    return std::unique_ptr<svf::Splitter>(new svf::RandomAxisSplitter(
        param<int>(params, "min_leaf_size"), param<std::string>(params, "split_rule") == "published"));
  if (type == "psvm")
    return std::unique_ptr<svf::Splitter>(new svf::ProximalSvmSplitter(
        param<double>(params, "nu"), param<int>(params, "m_max"), param<int>(params, "n_min")));
  if (type == "transform") {
    svf::TransformOptions o;
    o.rank = param<int>(params, "transform_rank");
    o.dim = param<int>(params, "subspace_dim");
    o.dim_per_class = param<int>(params, "dim_per_class");
    o.iterations = param<int>(params, "transform_iter");
    o.step = param<double>(params, "transform_step");
    o.tries = param<int>(params, "node_tries");
    o.min_node_size = param<int>(params, "min_node_size");
    return std::unique_ptr<svf::Splitter>(new svf::TransformSplitter(o));
  }
  if (type == "cart")
    return std::unique_ptr<svf::Splitter>(new svf::CartSplitter(param<int>(params, "sigma")));
  if (type == "oob_svm") return std::unique_ptr<svf::Splitter>(new svf::OobSvmSplitter(oob_svm_options(params)));
  Rcpp::stop("unknown splitter '%s'", type);
}

std::unique_ptr<svf::LeafModel> make_leaf_model(const List& params) {
  const std::string type = param<std::string>(params, "leaf");
  if (type == "constant") return std::unique_ptr<svf::LeafModel>(new svf::ConstantLeafModel());
  if (type == "linear_svm") {
    svf::LinearSvmOptions o;
    o.cost_grid = param<std::vector<double>>(params, "cost");
    o.cv_folds = param<int>(params, "cv_folds");
    o.min_class_rows = param<int>(params, "min_class_rows");
    o.balanced = param<bool>(params, "balanced");
    o.tolerance = param<double>(params, "tolerance");
    o.cv_tolerance = param<double>(params, "cv_tolerance");
    o.rare_as_negative = param<std::string>(params, "rare_classes") == "negative";
    o.class_factor = param<std::vector<double>>(params, "class_factor");
    return std::unique_ptr<svf::LeafModel>(new svf::LinearSvmLeafModel(o));
  }
  if (type == "kernel_svm") {
    svf::KernelSvmOptions o = kernel_options(params);
    o.cost = param<std::vector<double>>(params, "cost").at(0);
    o.gamma = param<std::vector<double>>(params, "gamma").at(0);
    return std::unique_ptr<svf::LeafModel>(new svf::KernelSvmLeafModel(o));
  }
  Rcpp::stop("unknown leaf model '%s'", type);
}

svf::KernelSvmOptions kernel_options(const List& params) {
  svf::KernelSvmOptions o;
  o.one_vs_one = param<std::string>(params, "multiclass") == "ovo";
  o.tolerance = param<double>(params, "svm_tolerance");
  o.cache_mb = param<double>(params, "cache_size");
  return o;
}

svf::SamplerType sampler_type(const std::string& s) {
  if (s == "all") return svf::SamplerType::All;
  if (s == "bootstrap") return svf::SamplerType::Bootstrap;
  if (s == "subsample") return svf::SamplerType::Subsample;
  Rcpp::stop("unknown sampler '%s'", s);
}

List forest_to_r(const svf::TrainingData& td, const svf::FittedForest& forest, int svm_min_rows) {
  List trees(forest.trees.size());
  for (size_t t = 0; t < forest.trees.size(); ++t) trees[t] = tree_to_r(forest.trees[t]);
  return List::create(
      Named("num_classes") = td.num_classes, Named("num_features") = static_cast<int>(td.x->n_cols()),
      Named("scale_center") = Rcpp::wrap(td.scaling.center),
      Named("scale_factor") = Rcpp::wrap(td.scaling.factor), Named("svm_min_rows") = svm_min_rows,
      Named("trees") = trees);
}

// [[Rcpp::export(.svf_fit)]]
List svf_fit(List data, Rcpp::IntegerVector y, int num_classes, List params, int num_threads,
             bool verbose) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  if (static_cast<size_t>(y.size()) != x->n_rows()) Rcpp::stop("internal: length of y");
  for (int v : y)
    if (v < 0 || v >= num_classes) Rcpp::stop("internal: class index out of range");

  svf::TrainingData td;
  td.x = x.get();
  td.y = y.begin();
  td.num_classes = num_classes;
  td.scaling = svf::fit_scaling(*x, param<bool>(params, "scale"));

  svf::ForestOptions opt;
  opt.ntree = param<int>(params, "ntree");
  opt.seed = static_cast<uint64_t>(param<double>(params, "seed"));
  opt.first_tree = param<int>(params, "first_tree");
  opt.sampler = sampler_type(param<std::string>(params, "sampler"));
  opt.sample_fraction = param<double>(params, "sample_fraction");
  opt.grow.max_depth = param<int>(params, "max_depth");
  opt.batch_size = std::max(8, 2 * num_threads);
  const bool rare_negative = param<std::string>(params, "rare_classes") == "negative";
  opt.svm_min_rows = rare_negative ? param<int>(params, "min_class_rows") : 1;
  opt.max_confidence = param<std::string>(params, "aggregation") == "max_confidence";

  std::unique_ptr<svf::Splitter> splitter = make_splitter(params);
  std::unique_ptr<svf::LeafModel> leaf = make_leaf_model(params);
  RcppRunner runner(num_threads, verbose);
  if (params.containsElementNamed("progress_delay")) runner.set_delay(param<double>(params, "progress_delay"));
  svf::FittedForest forest = svf::train_forest(td, *splitter, *leaf, opt, runner);
  runner.finish();

  List result = forest_to_r(td, forest, opt.svm_min_rows);
  if (forest.oob.available) {
    Rcpp::IntegerMatrix votes(static_cast<int>(x->n_rows()), num_classes);
    std::copy(forest.oob.votes.begin(), forest.oob.votes.end(), votes.begin());
    result["oob"] = List::create(Named("votes") = votes, Named("error") = forest.oob.error,
                                 Named("error_curve") = Rcpp::wrap(forest.oob.error_curve),
                                 Named("predicted") = Rcpp::wrap(forest.oob.predicted));
  }
  return result;
}
