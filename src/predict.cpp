// R entry point for prediction. The forest list is checked in full before any
// row is routed.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "RcppRunner.h"
#include "core/forest/Predictor.h"
#include "core/leaves/LeafKinds.h"
#include "core/outcome/SurvivalTable.h"
#include "core/prediction/CompetingPrediction.h"
#include "core/prediction/SurvivalPrediction.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

namespace {

// Nodes of the trees a prediction holds decoded at once (ForestHandle): a
// forest of more is read a group of trees at a time (about 80 MB decoded,
// plus their packed nodes).
constexpr size_t kGroupNodes = size_t(1) << 21;

// What one call to .svf_predict asks for besides the forest's probabilities
// and votes (always returned): the `outputs` of its request list.
struct PredictRequest {
  bool leaves = false, tree_class = false, tree_values = false, tree_sd = false, cls = false, class_curve = false;
  svf::Aggregation aggregation = svf::Aggregation::Vote;
  size_t group_nodes = kGroupNodes;
};

// request: list(outputs = character vector of "leaves" (n x ntree leaf
// numbers, 0-based), "tree_class" (n x ntree, classification),
// "tree_values" and "tree_sd" (regression: per-tree values, n x ntree, and
// their spread, n; on the engine's standardised scale), "class" (each row's
// class by `aggregation`, 0-based) and "class_curve" (the class after the
// first 1, 2, ... trees, n x ntree; needs "class"), aggregation = "vote",
// "prob" or "max_confidence" (needed by "class")), group_nodes (optional:
// the nodes of the trees decoded at once, kGroupNodes; the same results).
PredictRequest read_request(const List& request) {
  PredictRequest r;
  const Rcpp::CharacterVector outputs =
      request.containsElementNamed("outputs") ? Rcpp::as<Rcpp::CharacterVector>(request["outputs"]) : Rcpp::CharacterVector();
  for (R_xlen_t i = 0; i < outputs.size(); ++i) {
    const std::string o = Rcpp::as<std::string>(outputs[i]);
    if (o == "leaves") r.leaves = true;
    else if (o == "tree_class") r.tree_class = true;
    else if (o == "tree_values") r.tree_values = true;
    else if (o == "tree_sd") r.tree_sd = true;
    else if (o == "class") r.cls = true;
    else if (o == "class_curve") r.class_curve = true;
    else Rcpp::stop("internal: unknown prediction output \"%s\"", o);
  }
  if (r.class_curve && !r.cls) Rcpp::stop("internal: \"class_curve\" needs \"class\"");
  if (request.containsElementNamed("group_nodes")) {
    const double g = Rcpp::as<double>(request["group_nodes"]);
    if (!(g >= 1)) Rcpp::stop("internal: group_nodes");
    r.group_nodes = static_cast<size_t>(std::min(g, 1e15));
  }
  if (r.cls) {
    if (!request.containsElementNamed("aggregation")) Rcpp::stop("internal: \"class\" needs an aggregation");
    try {
      r.aggregation = svf::aggregation_named(Rcpp::as<std::string>(request["aggregation"]));
    } catch (std::invalid_argument& e) {
      Rcpp::stop(e.what());
    }
  }
  return r;
}

// An n x cols matrix when asked for, else 0 x 0.
template <typename M>
M output_matrix(bool wanted, int n, int cols) {
  return wanted ? M(n, cols) : M(0, 0);
}

// Stops unless every leaf of the forest is of kind `name` (a strategy reads
// that kind's payload alone).
void check_leaf_kinds(const ForestHandle& handle, const std::string& name, const char* what) {
  int kind = -1;
  for (const svf::LeafKindInfo& info : svf::leaf_kinds())
    if (info.name == name) kind = info.kind;
  for (const svf::TreeView& view : handle.view.trees)
    for (size_t l = 0; l < view.n_leaves; ++l)
      if (view.leaf_kind[l] != kind) Rcpp::stop("internal: a %s tree's leaf kind", what);
}

// Each row's leaf (0-based) in each tree (n x ntree): predict(type = "leaf")
// and the per-tree curves of forests of step functions.
List leaves_of_rows(const ForestHandle& handle, const svf::RowSource& rows, int num_threads) {
  const size_t n = rows.n_rows(), ntree = handle.view.trees.size(), p = handle.view.shape.p;
  Rcpp::IntegerMatrix leaves(static_cast<int>(n), static_cast<int>(ntree));
  int* out = leaves.begin();
  RcppRunner runner(num_threads, false);
  runner.run(n, [&](size_t r) {
    std::vector<double> scratch;
    for (size_t t = 0; t < ntree; ++t) out[t * n + r] = svf::tree_leaf_of_row(handle.view.trees[t], p, rows, r, scratch);
  });
  runner.finish();
  return List::create(Named("leaves") = leaves);
}

// A survival forest's prediction (core/prediction/SurvivalPrediction.h):
// list(chf), each row's cumulative hazard at each grid time (n x num_times).
List survival_prediction(const ForestHandle& handle, const svf::RowSource& rows, int num_threads,
                         const PredictRequest& want) {
  check_leaf_kinds(handle, "nelson_aalen", "survival");
  if (want.leaves) return leaves_of_rows(handle, rows, num_threads);
  const int T = handle.view.shape.num_times;
  Rcpp::NumericMatrix chf(static_cast<int>(rows.n_rows()), T);
  RcppRunner runner(num_threads, false);
  svf::predict_chf(handle.view.trees, handle.view.shape.p, static_cast<size_t>(T), rows, runner, chf.begin());
  runner.finish();
  return List::create(Named("chf") = chf);
}

// A competing-risks forest's prediction (core/prediction/CompetingPrediction.h):
// list(cif, chf), each row's curves of each cause at each grid time
// (n x num_times x num_causes arrays).
List competing_prediction(const ForestHandle& handle, const svf::RowSource& rows, int num_threads,
                          const PredictRequest& want) {
  check_leaf_kinds(handle, "aalen_johansen", "competing-risks");
  if (want.leaves) return leaves_of_rows(handle, rows, num_threads);
  const int T = handle.view.shape.num_times, K = handle.view.shape.num_causes, n = static_cast<int>(rows.n_rows());
  const Rcpp::IntegerVector dim = Rcpp::IntegerVector::create(n, T, K);
  Rcpp::NumericVector cif(static_cast<R_xlen_t>(n) * T * K), chf(static_cast<R_xlen_t>(n) * T * K);
  RcppRunner runner(num_threads, false);
  svf::predict_competing(handle.view.trees, handle.view.shape.p, static_cast<size_t>(T), K, rows, runner,
                         cif.begin(), chf.begin());
  runner.finish();
  cif.attr("dim") = dim;
  chf.attr("dim") = dim;
  return List::create(Named("cif") = cif, Named("chf") = chf);
}

}  // namespace

// The forest's predictions for the rows of `data` (a survival forest's:
// list(chf), or list(leaves) when asked, survival_prediction(); a
// competing-risks forest's list(cif, chf), competing_prediction()): list(prob, votes) and the
// outputs the named `request` asks for (read_request()).
// [[Rcpp::export(.svf_predict)]]
List svf_predict(List forest, List data, int num_threads, List request) {
  const PredictRequest want = read_request(request);
  ForestHandle handle;
  // trees decoded a group at a time (event-time forests: all at once)
  forest_from_r(forest, handle, forest.containsElementNamed("times") ? 0 : want.group_nodes);
  size_t p = 0;
  std::unique_ptr<svf::RowSource> rows = row_source_from_r(data, p);
  if (p != handle.view.shape.p)
    Rcpp::stop("newdata has %d predictor columns, the model %d", (int)p, (int)handle.view.shape.p);
  if (handle.view.shape.competing()) return competing_prediction(handle, *rows, num_threads, want);
  if (handle.view.shape.survival()) return survival_prediction(handle, *rows, num_threads, want);
  const int n = static_cast<int>(rows->n_rows()), K = handle.view.shape.num_classes;
  const int ntree = static_cast<int>(handle.view.trees.size());
  const bool regression = K == 0;
  Rcpp::NumericMatrix prob(n, handle.view.shape.outputs());
  Rcpp::IntegerMatrix votes(n, K);
  // per-tree outputs are n x ntree: allocated only when asked for
  auto leaves = output_matrix<Rcpp::IntegerMatrix>(want.leaves, n, ntree);
  auto tree_class = output_matrix<Rcpp::IntegerMatrix>(want.tree_class && !regression, n, ntree);
  auto class_curve = output_matrix<Rcpp::IntegerMatrix>(want.class_curve && !regression, n, ntree);
  auto tree_values = output_matrix<Rcpp::NumericMatrix>(want.tree_values && regression, n, ntree);
  Rcpp::NumericVector tree_sd(want.tree_sd && regression ? n : 0);
  Rcpp::IntegerVector cls(want.cls && !regression ? n : 0);
  svf::PredictOutput out;
  out.prob = prob.begin();
  out.votes = votes.begin();
  if (want.leaves) out.leaves = leaves.begin();
  if (want.tree_class && !regression) out.tree_class = tree_class.begin();
  if (want.cls && !regression) {
    out.aggregation = want.aggregation;
    out.cls = cls.begin();
    if (want.class_curve) out.class_curve = class_curve.begin();
  }
  if (want.tree_values && regression) out.tree_value = tree_values.begin();
  if (want.tree_sd && regression) out.tree_sd = tree_sd.begin();
  RcppRunner runner(num_threads, false);
  svf::predict_forest(handle.view, *rows, out, runner);
  List res = List::create(Named("prob") = prob, Named("votes") = votes);
  if (want.leaves) res["leaves"] = leaves;
  if (want.tree_class) res["tree_class"] = tree_class;
  if (want.cls) res["class"] = cls;
  if (want.class_curve) res["class_curve"] = class_curve;
  if (want.tree_values) res["tree_values"] = tree_values;
  if (want.tree_sd) res["tree_sd"] = tree_sd;
  return res;
}

// Checks a forest list without predicting; returns TRUE or raises an R error.
// [[Rcpp::export(.svf_check_forest)]]
bool svf_check_forest(List forest) {
  ForestHandle handle;
  forest_from_r(forest, handle, 1);  // each tree checked, then released
  return true;
}

// Harrell's C of `risk` (higher: earlier event) on rows of `time` and
// `status` (checked in R: as long, finite, status 0/1); NA without pairs.
// [[Rcpp::export(.svf_harrell_c)]]
double svf_harrell_c(Rcpp::NumericVector time, Rcpp::IntegerVector status, Rcpp::NumericVector risk) {
  const size_t m = time.size();
  if (static_cast<size_t>(status.size()) != m || static_cast<size_t>(risk.size()) != m)
    Rcpp::stop("internal: lengths of time, status and risk");
  for (size_t i = 0; i < m; ++i)
    if (!std::isfinite(time[i]) || !std::isfinite(risk[i]) || (status[i] != 0 && status[i] != 1))
      Rcpp::stop("internal: time, status or risk out of range");
  std::vector<int> rows(m);
  for (size_t i = 0; i < m; ++i) rows[i] = static_cast<int>(i);
  const double c = svf::harrell_c(time.begin(), status.begin(), rows.data(), m, risk.begin());
  return std::isnan(c) ? NA_REAL : c;
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
