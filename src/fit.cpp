// R entry point for training, one for every method: reads the engine parts
// chosen in R (already validated there), runs the tuning stage when the fit
// asks for one, trains with the common trainer and returns plain R data.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "RcppRunner.h"
#include "core/forest/Aggregation.h"
#include "core/forest/Forest.h"
#include "core/forest/Tuning.h"
#include "core/leaves/LeafKinds.h"
#include "core/outcome/DelayedEntry.h"
#include "core/outcome/SurvivalTable.h"
#include "core/splitting/Splitter.h"
#include "model_convert.h"
#include "r_params.h"
#include "release_memory.h"
#include "training_leaves.h"

using Rcpp::List;
using Rcpp::Named;

namespace {

// The causes of a competing-risks outcome (list(time, status, causes)):
// its `causes` (K >= 1; status then 0..K), 0 for survival.
int outcome_causes(const List& s) {
  if (!s.containsElementNamed("causes")) return 0;
  SEXP causes = s["causes"];
  if (TYPEOF(causes) != INTSXP || XLENGTH(causes) != 1 || INTEGER(causes)[0] < 1)
    Rcpp::stop("internal: the number of causes");
  return INTEGER(causes)[0];
}

// A survival outcome's optional `entry` (doubles before each row's time:
// delayed entry) and `subject` (codes 0..S-1 with every code used; `id`).
void check_entry_and_subject(const List& s, size_t n) {
  if (s.containsElementNamed("entry")) {
    SEXP entry = s["entry"], time = s["time"];
    if (TYPEOF(entry) != REALSXP || static_cast<size_t>(XLENGTH(entry)) != n)
      Rcpp::stop("internal: survival entry times");
    for (size_t i = 0; i < n; ++i)
      if (!std::isfinite(REAL(entry)[i]) || !(REAL(entry)[i] < REAL(time)[i]))
        Rcpp::stop("internal: an entry time not before its exit time");
  }
  if (s.containsElementNamed("subject")) {
    SEXP subject = s["subject"];
    if (TYPEOF(subject) != INTSXP || static_cast<size_t>(XLENGTH(subject)) != n)
      Rcpp::stop("internal: subjects");
    int top = -1;
    for (size_t i = 0; i < n; ++i) {
      if (INTEGER(subject)[i] < 0 || INTEGER(subject)[i] == NA_INTEGER) Rcpp::stop("internal: subject codes");
      top = std::max(top, INTEGER(subject)[i]);
    }
    std::vector<char> used(static_cast<size_t>(top) + 1, 0);
    for (size_t i = 0; i < n; ++i) used[INTEGER(subject)[i]] = 1;
    for (char u : used)
      if (!u) Rcpp::stop("internal: subject codes must be 0..S-1, each used");
  }
}

// The outcome: class codes (num_classes >= 2) or, for regression
// (num_classes 0), finite numbers, or for survival (num_classes 0)
// list(time = positive doubles, status = 0/1 integers) with an event, or
// for competing risks list(time, status = causes 0..K, causes = K).
void check_outcome(SEXP y, size_t n, int num_classes) {
  if (TYPEOF(y) == VECSXP) {
    const List s(y);
    if (num_classes != 0 || !s.containsElementNamed("time") || !s.containsElementNamed("status"))
      Rcpp::stop("internal: a survival outcome is list(time, status)");
    SEXP time = s["time"], status = s["status"];
    if (TYPEOF(time) != REALSXP || TYPEOF(status) != INTSXP || static_cast<size_t>(XLENGTH(time)) != n ||
        static_cast<size_t>(XLENGTH(status)) != n)
      Rcpp::stop("internal: survival time and status");
    const int last = std::max(1, outcome_causes(s));
    bool event = false;
    for (size_t i = 0; i < n; ++i) {
      if (!(REAL(time)[i] > 0.0) || !std::isfinite(REAL(time)[i]) || INTEGER(status)[i] < 0 ||
          INTEGER(status)[i] > last)
        Rcpp::stop("internal: survival time or status out of range");
      event = event || INTEGER(status)[i] > 0;
    }
    if (!event) Rcpp::stop("internal: no events");
    check_entry_and_subject(s, n);
    return;
  }
  if (static_cast<size_t>(XLENGTH(y)) != n) Rcpp::stop("internal: length of y");
  if (num_classes == 0) {
    if (TYPEOF(y) != REALSXP) Rcpp::stop("internal: a regression outcome must be a double vector");
    for (R_xlen_t i = 0; i < XLENGTH(y); ++i)
      if (!std::isfinite(REAL(y)[i])) Rcpp::stop("internal: outcome not finite");
    return;
  }
  if (TYPEOF(y) != INTSXP || num_classes < 2) Rcpp::stop("internal: class codes must be integers");
  for (R_xlen_t i = 0; i < XLENGTH(y); ++i)
    if (INTEGER(y)[i] < 0 || INTEGER(y)[i] >= num_classes) Rcpp::stop("internal: class index out of range");
}

// Each tree is released once copied: the model is never held twice (on a
// million rows a forest can take several times the memory of the data).
List forest_to_r(const svf::TrainingData& td, svf::FittedForest& forest, const std::vector<double>& times) {
  List trees(forest.trees.size());
  for (size_t t = 0; t < forest.trees.size(); ++t) {
    // a tree the trainer kept compact (ForestOptions::compact_trees) is copied as it is
    const bool compact = t < forest.compact.size() && forest.compact[t].n_nodes > 0;
    trees[t] = compact ? compact_tree_to_r(forest.compact[t], forest.trees[t])
                       : tree_to_r(forest.trees[t], td.x->n_cols());
    forest.trees[t] = svf::Tree();
    if (compact) forest.compact[t] = svf::CompactTree();
    if (t % 16 == 15) release_free_memory();  // the copied trees' engine buffers
  }
  if (td.survival()) {  // the grid of the leaves' step functions (the curve grid)
    List out = List::create(Named("num_classes") = 0, Named("num_features") = static_cast<int>(td.x->n_cols()),
                            Named("scale_center") = Rcpp::wrap(td.scaling.center),
                            Named("scale_factor") = Rcpp::wrap(td.scaling.factor), Named("trees") = trees,
                            Named("times") = Rcpp::wrap(times));
    if (td.competing()) out["num_causes"] = td.num_causes;
    return out;
  }
  return List::create(
      Named("num_classes") = td.num_classes, Named("num_features") = static_cast<int>(td.x->n_cols()),
      Named("scale_center") = Rcpp::wrap(td.scaling.center),
      Named("scale_factor") = Rcpp::wrap(td.scaling.factor), Named("trees") = trees);
}

// Each tree's scoring out-of-bag rows, 1-based (post-fit calibration); each
// list released once copied.
List oob_rows_to_r(std::vector<std::vector<int>>& oob_rows) {
  List out(oob_rows.size());
  for (size_t t = 0; t < oob_rows.size(); ++t) {
    Rcpp::IntegerVector rows(oob_rows[t].size());
    for (size_t k = 0; k < oob_rows[t].size(); ++k) rows[k] = oob_rows[t][k] + 1;
    out[t] = rows;
    std::vector<int>().swap(oob_rows[t]);
  }
  return out;
}

// What the tuning stage chose and saw, for the model.
List tuning_to_r(const svf::TuningResult& res) {
  const svf::TdSearchResult& s = res.search;
  const size_t m = s.curve.size();
  Rcpp::IntegerVector stage(m), sig(m), leaves(m), svm_leaves(m);
  Rcpp::NumericVector cost(m), gamma(m), accuracy(m);
  for (size_t k = 0; k < m; ++k) {
    const svf::TdEvaluation& e = s.curve[k];
    stage[k] = e.stage;
    sig[k] = static_cast<int>(std::min<size_t>(e.sigma, INT32_MAX));
    cost[k] = res.candidates[e.candidate].cost;
    gamma[k] = res.candidates[e.candidate].gamma;
    accuracy[k] = e.accuracy;
    leaves[k] = static_cast<int>(e.leaves);
    svm_leaves[k] = static_cast<int>(e.svm_leaves);
  }
  const svf::TdCandidate& best = res.candidates[s.candidate];
  return List::create(
      Named("sigma") = static_cast<int>(std::min<size_t>(s.sigma, INT32_MAX)), Named("cost") = best.cost,
      Named("gamma") = best.gamma, Named("n_train") = static_cast<int>(s.n_train),
      Named("n_validation") = static_cast<int>(s.n_validation),
      Named("curve") = Rcpp::DataFrame::create(Named("stage") = stage, Named("sigma") = sig, Named("cost") = cost,
                                               Named("gamma") = gamma, Named("accuracy") = accuracy,
                                               Named("leaves") = leaves, Named("svm_leaves") = svm_leaves));
}

// The fit's out-of-bag results as R data (oob_to_r(); NULL when not
// available), the engine's
// survival and competing-risks tally released at once: taken before the
// trees are copied, it is never held twice (competing risks at 200,000
// rows: n x 150 times x 2 causes doubles, 480 MB). A competing-risks
// outcome's `cause_names` (K strings) name the tally's third dimension.
Rcpp::RObject take_oob(svf::OobResult& oob, size_t n, int num_classes, SEXP y, const svf::TrainingData& td) {
  if (!oob.available) return Rcpp::RObject(R_NilValue);
  SEXP names = R_NilValue;
  if (td.competing() && TYPEOF(y) == VECSXP && List(y).containsElementNamed("cause_names")) {
    names = List(y)["cause_names"];
    if (TYPEOF(names) != STRSXP || XLENGTH(names) != td.num_causes) Rcpp::stop("internal: the cause names");
  }
  Rcpp::RObject out = oob_to_r(oob, n, num_classes, names);
  std::vector<double>().swap(oob.chf_sum);
  return out;
}

// The factor columns of level codes (forest/LevelValues.h), when the data
// list has them: 0-based columns `factor_cols` and their `factor_levels`
// (checked in R first).
void read_factor_columns(const List& data, size_t p, svf::TrainingData& td) {
  if (!data.containsElementNamed("factor_cols")) return;
  const Rcpp::IntegerVector cols = data["factor_cols"], levels = data["factor_levels"];
  if (cols.size() != levels.size()) Rcpp::stop("internal: factor columns");
  for (R_xlen_t f = 0; f < cols.size(); ++f) {
    if (cols[f] < 0 || static_cast<size_t>(cols[f]) >= p || levels[f] < 1) Rcpp::stop("internal: factor columns");
    td.factor_cols.push_back(cols[f]);
    td.factor_levels.push_back(levels[f]);
  }
}

// The (checked) outcome into `td`; for survival, the event-time grid is
// returned and each row's index in it kept in `time_index`.
std::vector<double> read_outcome(SEXP y, size_t n, int num_classes, std::vector<int>& time_index,
                                 std::vector<int>& entry_index, svf::TrainingData& td) {
  std::vector<double> times;  // every event time
  td.num_classes = num_classes;
  if (TYPEOF(y) == VECSXP) {
    const List s(y);
    td.time = REAL(s["time"]);
    td.status = INTEGER(s["status"]);
    times = svf::event_grid(td.time, td.status, n, time_index);
    td.time_index = time_index.data();
    td.num_times = static_cast<int>(times.size());
    td.num_causes = outcome_causes(s);
    if (s.containsElementNamed("entry")) {  // delayed entry (core/outcome/DelayedEntry.h)
      td.entry = REAL(s["entry"]);
      entry_index = svf::entry_grid_index(times, td.entry, n);
      td.entry_index = entry_index.data();
    }
    if (s.containsElementNamed("subject")) {  // `id`: subjects drawn whole (core/forest/SubjectSampler.h)
      SEXP subject = s["subject"];
      td.subject = INTEGER(subject);
      td.num_subjects = 1 + *std::max_element(INTEGER(subject), INTEGER(subject) + n);
    }
  } else if (num_classes == 0) {
    td.response = REAL(y);
  } else {
    td.y = INTEGER(y);
  }
  return times;
}

// The grids of a survival outcome into `td`: its event times `times` (the
// splits') and the curve grid of at most `ntime` of them (the leaves',
// out-of-bag tallies' and predictions'), returned (empty: every event
// time), with per event time the index of the first grid time at or after
// it in `curve_of`.
std::vector<double> read_curve_grid(const RParams& rp, const std::vector<double>& times, size_t n,
                                    std::vector<int>& curve_of, svf::TrainingData& td) {
  td.grid_times = times.data();
  if (!td.survival() || !rp.has("ntime")) return std::vector<double>();
  std::vector<double> curve = svf::curve_grid(td.time, td.status, n, times, rp.number("ntime"), curve_of);
  if (!curve.empty()) {
    td.num_curve_times = static_cast<int>(curve.size());
    td.curve_times = curve.data();  // (the vector's buffer moves with it when returned)
    td.curve_of_time = curve_of.data();
  }
  return curve;
}

// The case weights (case_weights_from_r()), checked against the outcome's
// options: subjects take no weights.
const double* checked_case_weights(SEXP weights, size_t n, const svf::TrainingData& td) {
  const double* w = case_weights_from_r(weights, n);
  if (td.subject && w) Rcpp::stop("internal: subjects take no case weights");
  return w;
}

// Trees held at once while they grow (their rows, leaf fits and arrays:
// some 120 MB a tree at the end of a batch on 1,000,000 rows, on top of the
// trees kept): fewer on many rows, at least two a thread, one from
// 1,000,000 rows (the forest is the same for any batch size).
size_t batch_size(size_t n, int num_threads) {
  const size_t per_thread = n >= 1000000 ? 1 : 2;
  return std::max<size_t>(per_thread * num_threads,
                          std::min<size_t>(8, (size_t(1) << (20 + per_thread)) / std::max<size_t>(n, 1)));
}

}  // namespace

// [[Rcpp::export(.svf_fit)]]
List svf_fit(List data, SEXP y, SEXP weights, int num_classes, List params, SEXP valid_data, SEXP valid_y,
             int num_threads, bool verbose) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  const size_t n = x->n_rows();
  check_outcome(y, n, num_classes);
  const RParams rp(params);
  const bool survival = TYPEOF(y) == VECSXP, regression = num_classes == 0 && !survival;

  svf::TrainingData td;
  td.x = x.get();
  std::vector<int> time_index, entry_index, curve_of;
  const std::vector<double> times = read_outcome(y, n, num_classes, time_index, entry_index, td);
  const std::vector<double> curve = read_curve_grid(rp, times, n, curve_of, td);
  td.weights = checked_case_weights(weights, n, td);  // (R drops rows of weight 0)
  td.scaling = svf::fit_scaling(*x, rp.flag("scale"));
  read_factor_columns(data, x->n_cols(), td);

  svf::ForestOptions opt;
  opt.ntree = rp.integer("ntree");
  opt.seed = static_cast<uint64_t>(rp.number("seed"));
  opt.first_tree = rp.integer("first_tree");
  if (rp.has("ntree_max")) {
    opt.ntree_max = rp.integer("ntree_max");
    opt.ntree_gain = rp.number("ntree_gain");
    opt.ntree_gain_rows = rp.number("ntree_gain_rows");
    if (rp.has("ntree_gain_z")) opt.ntree_gain_z = rp.number("ntree_gain_z");
  }
  opt.sampler = svf::sampler_named(rp.text("sampler"));
  opt.sample_fraction = rp.number("sample_fraction");
  opt.grow.max_depth = rp.integer("max_depth");
  opt.batch_size = batch_size(n, num_threads);
  opt.compact_trees = true;  // as forest_to_r() saves them
  if (num_classes > 0 && rp.has("aggregation")) opt.aggregation = svf::aggregation_named(rp.text("aggregation"));

  RcppRunner runner(num_threads, verbose, svf::wants_tuning(rp) ? "Fitting leaves" : "Growing trees");
  if (rp.has("progress_delay")) runner.set_delay(rp.number("progress_delay"));
  List result;
  try {
    // tuning stage: its choices override the fit's parameters
    {
      // R checks this first; a part that cannot read the outcome must never run
      const auto splitter = svf::make_splitter(rp.text("splitter"), rp);
      const auto leaf = svf::make_leaf_model(rp.text("leaf"), rp);
      const bool fits = td.competing() ? splitter->fits_any_outcome() && leaf->fits_competing()
                        : survival     ? splitter->fits_any_outcome() && leaf->fits_survival()
                        : regression ? splitter->fits_regression() && leaf->fits_regression()
                                     : leaf->fits_classification() && !leaf->fits_survival() &&
                                           !leaf->fits_competing();
      if (!fits)
        Rcpp::stop("internal: the splitter or leaf does not fit this outcome type");
    }
    svf::OverrideParams chosen(rp);
    svf::TuningResult tuning;
    if (svf::wants_tuning(rp)) {
      if (survival) Rcpp::stop("internal: no tuning stage for a survival outcome");
      if (td.scaled.empty()) td.scaled = svf::ScaledRows(*x, td.scaling);
      svf::ValidationSet external;
      std::unique_ptr<svf::RowSource> valid_rows;
      if (!Rf_isNull(valid_data)) {
        size_t p = 0;
        valid_rows = row_source_from_r(List(valid_data), p);
        if (p != x->n_cols()) Rcpp::stop("internal: validation columns");
        check_outcome(valid_y, valid_rows->n_rows(), num_classes);
        external.rows = valid_rows.get();
        for (size_t v = 0; v < valid_rows->n_rows(); ++v) {
          external.index.push_back(static_cast<int>(v));
          if (regression) external.response.push_back(REAL(valid_y)[v]);
          else external.y.push_back(INTEGER(valid_y)[v]);
        }
      }
      tuning = svf::tune(td, rp, valid_rows ? &external : nullptr, runner);
      runner.begin_stage("Fitting leaves");
      for (const auto& c : tuning.chosen) chosen.set(c.first, c.second);
    }
    std::unique_ptr<svf::Splitter> splitter = svf::make_splitter(rp.text("splitter"), chosen);
    std::unique_ptr<svf::LeafModel> leaf = svf::make_leaf_model(rp.text("leaf"), chosen);
    // the quantile forest's training leaves, recorded as the trees grow
    const auto training_leaves = record_training_leaves(regression && !tuning.has_forest, *x, opt);
    svf::FittedForest forest = tuning.has_forest ? std::move(tuning.forest)
                                                 : svf::train_forest(td, *splitter, *leaf, opt, runner);
    runner.finish();
    const Rcpp::RObject oob_r = take_oob(forest.oob, n, num_classes, y, td);
    result = List::create(Named("forest") = forest_to_r(td, forest, curve.empty() ? times : curve), Named("oob") = oob_r,
                          Named("tuning") = R_NilValue,
                          // whether the scoring out-of-bag rows also chose splits or trees (RSVF):
                          // then they are no honest test rows (R/uncertainty.R)
                          Named("splitter_uses_oob") = (splitter->uses_oob() || splitter->rival() != nullptr) &&
                                                       !(splitter->choosing_share() > 0.0),
                          Named("oob_choosing_share") = splitter->choosing_share());
    if (forest.oob.available) result["oob_rows"] = oob_rows_to_r(forest.oob_rows);
    if (training_leaves) result["training_leaves"] = training_leaves->value();
    if (tuning.tuned) result["tuning"] = tuning_to_r(tuning);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  release_free_memory();  // the trees' and the column index's buffers
  return result;
}

// The class of each row of a tally (Aggregation.h), 0-based, NA without
// trees: how R's combine() decides the out-of-bag classes of merged parts by
// the engine's own rule. votes, shares: n x K; count: n; confident_class: n
// (0-based) or NULL.
// [[Rcpp::export(.svf_decide_classes)]]
Rcpp::IntegerVector svf_decide_classes(std::string aggregation, Rcpp::IntegerMatrix votes,
                                       Rcpp::NumericMatrix shares, Rcpp::IntegerVector count,
                                       SEXP confident_class) {
  svf::Aggregation a;
  try {
    a = svf::aggregation_named(aggregation);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  const int n = votes.nrow(), K = votes.ncol();
  if (shares.nrow() != n || shares.ncol() != K || count.size() != n) Rcpp::stop("internal: tally dimensions");
  const int* conf = nullptr;
  if (a == svf::Aggregation::MaxConfidence) {
    if (TYPEOF(confident_class) != INTSXP || XLENGTH(confident_class) != n)
      Rcpp::stop("internal: max_confidence needs each row's confident class");
    conf = INTEGER(confident_class);
  }
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) {
    const int c = svf::decide_class(a, K, votes.begin() + i, shares.begin() + i, static_cast<size_t>(n), count[i], conf ? conf[i] : -1);
    out[i] = c < 0 ? NA_INTEGER : c;
  }
  return out;
}

