#include "HybridSplitter.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "RowRouter.h"
#include "outcome/Outcome.h"
#include "search/CutSearch.h"

namespace svf {

namespace {

// Gains at or below this share of the node's scale are rounding noise.
const double kRelativeMinGain = 1e-12;
// Binned axis cuts: a node's rows must fall in at least this many of a
// column's bins (or half of its bins, if fewer) to be searched at bin edges.
const size_t kMinOccupied = 128;

// The best cut along predictor `col` (node values `values`): through the
// forest's rank index where it has the column (the same order, sorted
// faster), else along the values. Only a gain above `gain` counts; returns
// whether one did.
bool best_axis_cut(CutSearch& search, CutScan& scan, const NodeStats& node, size_t min_leaf, int col,
                   const double* values, double& cut, double& gain) {
  const ColumnRanks* ranks = node.data->ranks;
  const size_t c = static_cast<size_t>(col);
  if (!ranks || !ranks->has(c)) return search.along_values(scan, values, node.n, min_leaf, cut, gain);
  // binned where the node has more rows than the column bins and its rows
  // fall in at least half of them (at most 128): a node within a narrow
  // range of the column (below a cut along it) is searched exactly
  if (ranks->binned(c) && node.n > ranks->bins(c)) {
    const size_t min_occupied = std::min<size_t>(ranks->bins(c), 2 * kMinOccupied) / 2;
    return search.along_bins(scan, *ranks, c, node.rows, node.n, min_leaf, cut, gain, min_occupied);
  }
  return search.along_column(scan, *ranks, c, node.rows, node.n, min_leaf, cut, gain);
}

// How well `rule` separates the out-of-bag rows `oob[0..n_oob)`: the same
// gain as in-bag cuts are scored by, on those rows.
double oob_gain(const TrainingData& data, const SplitRule& rule, const int* oob, size_t n_oob) {
  if (n_oob < 2) return 0.0;
  const RowRouter router(rule, *data.x, data.ranks);
  thread_local std::vector<char> left;
  left.resize(n_oob);
  router.sides(oob, n_oob, left.data());
  return outcome_of(data).split_gain(data, oob, n_oob, left);
}

// Memory a thread's node searches reuse, so that a node allocates nothing
// of its own for drawing, gathering and sorting.
struct NodeScratch {
  std::vector<int> order, features;
  std::vector<size_t> offsets;  // the drawn columns, as RowRouter::prefetch_row() takes them
  std::vector<char> sides;      // the node's rows' sides under its best hyperplane
  std::vector<char> axis_sides; // ... and under its best axis cut (CutSearch::keep_sides())
  std::vector<double> columns, one;
  CutSearch cut;
};
NodeScratch& node_scratch() {
  thread_local NodeScratch scratch;
  return scratch;
}

// Up to `want` predictors that vary in the node, drawn without replacement,
// into `s.features`. Where the rank index has a column, its ranks tell (the
// same answer as its values) and no value is read.
void draw_features(const NodeContext& ctx, size_t want, Rng& rng, NodeScratch& s) {
  const DataView& x = *ctx.data->x;
  const ColumnRanks* ranks = ctx.data->ranks;
  const size_t n = ctx.n, p = x.n_cols();
  const double* row_values = ranks ? ranks->row_values() : nullptr;
  s.order.resize(p);
  std::iota(s.order.begin(), s.order.end(), 0);
  s.features.clear();
  for (size_t k = 0; k < p && s.features.size() < want; ++k) {
    std::swap(s.order[k], s.order[k + rng.below(p - k)]);
    const int col = s.order[k];
    bool varies;
    if (row_values && n > 0 && ranks->routes(static_cast<size_t>(col))) {
      // (a column without NaN varies iff its values do, as its ranks: read
      // row by row, the drawn columns of a row share its cache lines)
      const double first = row_values[static_cast<size_t>(ctx.rows[0]) * p + col];
      varies = false;
      for (size_t i = 1; i < n && !varies; ++i) varies = row_values[static_cast<size_t>(ctx.rows[i]) * p + col] != first;
    } else if (ranks && ranks->has(static_cast<size_t>(col))) {
      varies = ranks->varies(static_cast<size_t>(col), ctx.rows, n);
    } else {
      s.one.resize(n);
      x.gather(col, ctx.rows, n, s.one.data());
      const auto mm = std::minmax_element(s.one.begin(), s.one.end());
      varies = *mm.second > *mm.first;
    }
    if (varies) s.features.push_back(col);
  }
}

// The node values of the first `count` drawn predictors, column after
// column, into `s.columns`.
void gather_columns(const NodeContext& ctx, size_t count, NodeScratch& s) {
  const size_t n = ctx.n;
  s.columns.resize(count * n);
  const double* row_values = ctx.data->ranks ? ctx.data->ranks->row_values() : nullptr;
  if (row_values) {  // (each row's values read together: the same values)
    const size_t p = ctx.data->x->n_cols();
    s.offsets.assign(s.features.begin(), s.features.begin() + static_cast<std::ptrdiff_t>(count));
    for (size_t i = 0; i < n; ++i) {
      // (the rows lie scattered over the table: a row ahead asked for early)
      if (i + RowRouter::kPrefetch < n)
        RowRouter::prefetch_row(row_values + static_cast<size_t>(ctx.rows[i + RowRouter::kPrefetch]) * p,
                                s.offsets.data(), count);
      const double* row = row_values + static_cast<size_t>(ctx.rows[i]) * p;
      for (size_t k = 0; k < count; ++k) s.columns[k * n + i] = row[s.features[k]];
    }
    return;
  }
  for (size_t k = 0; k < count; ++k) ctx.data->x->gather(s.features[k], ctx.rows, n, s.columns.data() + k * n);
}

// With bins (max_bins > 0): a node of more rows than its outcome's fit
// sample fits its hyperplanes' directions on that many of its rows, drawn
// without replacement, and one of more than kBucketRows cuts the projection
// in max_bins buckets of equal width (search/CutSearch.h); smaller nodes as
// without bins. Regression's sample is larger: on 1,024 rows its directions
// lost about 1% RMSE at 100,000 rows, for no CPU saved (chosen on
// development data, bench/fit_rows_dev.R, bench/results/binned_search.txt
// Run 11).
const size_t kFitRows = 1024, kFitRowsRegression = 4096, kBucketRows = 1536;

// `k` of the node's n rows drawn without replacement (positions in
// `sample`, increasing) and their values of the m columns (n rows each, one
// after the other) into `sampled` (k rows each).
void sample_rows(const std::vector<double>& columns, size_t n, size_t m, size_t k, Rng& rng, std::vector<int>& sample,
                 std::vector<double>& sampled) {
  thread_local std::vector<int> all;  // (reused: a large node's n, not allocated per node)
  all.resize(n);
  std::iota(all.begin(), all.end(), 0);
  for (size_t i = 0; i < k; ++i) std::swap(all[i], all[i + rng.below(n - i)]);
  sample.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k));
  std::sort(sample.begin(), sample.end());
  sampled.resize(k * m);
  for (size_t c = 0; c < m; ++c)
    for (size_t i = 0; i < k; ++i) sampled[c * k + i] = columns[c * n + sample[i]];
}

// The best of n_oblique hyperplanes through the drawn predictors (see the
// header), when its gain beats `best_gain` (then updated, with the node's
// rows' sides under it in `sides`).
bool best_oblique(const Outcome& outcome, const NodeStats& node, CutScan& scan, size_t min_leaf,
                  const std::vector<int>& features, const std::vector<double>& columns, int n_oblique,
                  double split_ridge, bool cox_step, size_t max_bins, Rng& rng, CutSearch& search, double& best_gain,
                  SplitRule& rule, std::vector<char>& sides) {
  const size_t n = node.n, m = features.size();
  // with bins, a large node fits its directions on a sample of its rows
  // (not the Cox step: its matrix reads every row) and cuts in buckets
  std::vector<int> sample;
  std::vector<double> sampled;
  const size_t fit_rows = node.data->regression() ? kFitRowsRegression : kFitRows;
  if (max_bins > 0 && !cox_step && n > fit_rows) sample_rows(columns, n, m, fit_rows, rng, sample, sampled);
  const bool fit_sample = !sample.empty();
  const size_t n_fit = fit_sample ? sample.size() : n;
  const bool buckets = max_bins > 0 && n > kBucketRows;
  // the drawn predictors, standardised in the node (or its sample)
  Eigen::Map<const Eigen::MatrixXd> X(fit_sample ? sampled.data() : columns.data(), static_cast<Eigen::Index>(n_fit),
                                      static_cast<Eigen::Index>(m));
  const Eigen::RowVectorXd mean = X.colwise().mean();
  Eigen::MatrixXd Z = X.rowwise() - mean;
  Eigen::VectorXd sd(m);
  for (size_t k = 0; k < m; ++k) {
    sd[k] = std::sqrt(Z.col(k).squaredNorm() / static_cast<double>(n_fit));
    Z.col(k) /= sd[k];
  }
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(m, m);
  gram.selfadjointView<Eigen::Lower>().rankUpdate(Z.transpose());
  gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();
  if (cox_step && outcome.likelihood_information(node, Z, gram)) {
    gram.diagonal().array() += split_ridge * gram.trace() / static_cast<double>(m);
  } else {
    gram.diagonal().array() += split_ridge * static_cast<double>(n_fit);
  }
  const Eigen::LDLT<Eigen::MatrixXd> solver(gram);

  Eigen::VectorXd target(n), target_fit(fit_sample ? n_fit : 0);
  std::vector<double> weight(m);
  thread_local std::vector<double> proj;  // every element written before it is read
  proj.resize(n);
  double cut = 0.0;
  bool found = false;
  for (int t = 0; t < n_oblique; ++t) {
    if (!outcome.hyperplane_target(node, t, rng, target.data())) break;
    if (fit_sample) {
      for (size_t i = 0; i < n_fit; ++i) target_fit[i] = target[sample[i]];
      target_fit.array() -= target_fit.mean();
    } else {
      target.array() -= target.mean();
    }
    const Eigen::VectorXd w = solver.solve(Z.transpose() * (fit_sample ? target_fit : target));
    // the rule in raw units, projected as prediction projects it
    bool finite = true, nonzero = false;
    for (size_t k = 0; k < m; ++k) {
      weight[k] = w[k] / sd[k];
      finite = finite && std::isfinite(weight[k]);
      nonzero = nonzero || weight[k] != 0.0;
    }
    if (!finite || !nonzero) continue;
    for (size_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (size_t k = 0; k < m; ++k) s += weight[k] * columns[k * n + i];
      proj[i] = s;
    }
    if (buckets ? search.along_buckets(scan, proj.data(), n, max_bins, min_leaf, cut, best_gain)
                : search.along_values(scan, proj.data(), n, min_leaf, cut, best_gain)) {
      rule = SplitRule::oblique(features, weight, cut);
      found = true;
      // the rows' sides: the projections prediction and RowRouter compute
      sides.resize(n);
      for (size_t i = 0; i < n; ++i) sides[i] = proj[i] <= cut ? 1 : 0;
    }
  }
  return found;
}

}  // namespace

// odr-used (C++14 needs the definitions)
constexpr int HybridSplitter::kAxisRival;
constexpr int HybridSplitter::kObliqueRival;

namespace {

// "axis", "oblique" or "both": the tree choice's rivals.
int rivals_named(const std::string& name) {
  if (name == "axis") return HybridSplitter::kAxisRival;
  if (name == "oblique") return HybridSplitter::kObliqueRival;
  if (name == "both") return HybridSplitter::kAxisRival | HybridSplitter::kObliqueRival;
  throw std::invalid_argument("tree_rival must be \"axis\", \"oblique\" or \"both\"");
}

// `max_bins` as the index takes it: 0 (exact) for Inf or none, at most
// 65535 (codes of 16 bits).
size_t max_bins_of(const Params& params) {
  if (!params.has("max_bins")) return 0;
  const double v = params.number("max_bins");
  if (std::isinf(v) && v > 0) return 0;
  if (!(v >= 2.0) || v != std::floor(v)) throw std::invalid_argument("max_bins must be a whole number of 2 or more, or Inf");
  return v > 65535.0 ? 65535 : static_cast<size_t>(v);
}

}  // namespace

std::unique_ptr<Splitter> HybridSplitter::create(const Params& params) {
  const int mtry = params.integer("mtry"), oblique_mtry = params.integer("oblique_mtry");
  return std::unique_ptr<Splitter>(new HybridSplitter(mtry > 0 ? mtry : 0, oblique_mtry > 0 ? oblique_mtry : 0,
                                                      params.integer("min_node_size"),
                                                      params.integer("n_oblique"), params.number("split_ridge"),
                                                      params.number("oblique_rows"),
                                                      params.text("oblique_choice") == "oob",
                                                      params.text("tree_choice") == "oob",
                                                      params.has("min_leaf_size") ? params.integer("min_leaf_size") : 1,
                                                      params.has("oblique_fit") && params.text("oblique_fit") == "cox",
                                                      params.has("min_node_events") ? params.integer("min_node_events") : 0,
                                                      rivals_named(params.has("tree_rival") ? params.text("tree_rival") : "axis"),
                                                      params.has("oblique_stop") ? params.integer("oblique_stop") : 0,
                                                      max_bins_of(params)));
}

std::unique_ptr<Splitter> HybridSplitter::rival() const {
  std::vector<std::unique_ptr<Splitter>> all = rivals();
  return all.empty() ? nullptr : std::move(all.front());
}

std::vector<std::unique_ptr<Splitter>> HybridSplitter::rivals() const {
  std::vector<std::unique_ptr<Splitter>> out;
  if (!tree_choice_ || n_oblique_ == 0) return out;
  for (int kind : {kAxisRival, kObliqueRival}) {
    if (!(rivals_ & kind)) continue;
    // neither rival reads out-of-bag rows: the hyperplanes (if any) win in-bag
    out.push_back(std::unique_ptr<Splitter>(
        new HybridSplitter(mtry_, oblique_mtry_, min_node_size_, kind == kAxisRival ? 0 : n_oblique_, split_ridge_,
                           oblique_rows_, false, false, static_cast<int>(min_leaf_size_), cox_step_, min_node_events_,
                           kAxisRival, oblique_stop_, max_bins_)));
  }
  return out;
}

// Half of a tree's out-of-bag rows choose (hyperplane against axis cut, and
// hybrid against axis-only tree); the other half score the tree.
constexpr double kChoosingShare = 0.5;

double HybridSplitter::choosing_share() const {
  const bool reads_oob = n_oblique_ > 0 && (oob_choice_ || tree_choice_);
  return reads_oob ? kChoosingShare : 0.0;
}

bool HybridSplitter::find_split(const NodeContext& ctx, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *ctx.data;
  const size_t n = ctx.n, p = data.x->n_cols();
  const Outcome& outcome = outcome_of(data);
  NodeStats node;
  node.data = &data;
  node.rows = ctx.rows;
  node.n = n;
  outcome.node_stats(node);
  // (a log-rank statistic on a handful of events is noise that the maximum
  // over cuts picks: with rare events, nodes of many rows still split on few)
  if (!outcome.may_split(node, min_node_events_)) return false;
  // the first mtry drawn predictors for the axis candidates, up to
  // oblique_mtry in all for the oblique ones
  const size_t root_p = std::max<size_t>(1, static_cast<size_t>(std::sqrt(static_cast<double>(p))));
  const size_t mtry = std::min(p, mtry_ > 0 ? static_cast<size_t>(mtry_) : root_p);
  // (below oblique_stop axis cuts in a row, the axis candidates' alone)
  const bool may_oblique =
      n_oblique_ > 0 && (oblique_stop_ == 0 || ctx.axis_run < static_cast<size_t>(oblique_stop_));
  const size_t want = !may_oblique ? mtry
                      : std::min(p, std::max(mtry, oblique_mtry_ > 0 ? static_cast<size_t>(oblique_mtry_) : 2 * mtry));
  NodeScratch& s = node_scratch();
  draw_features(ctx, want, rng, s);
  const std::vector<int>& features = s.features;
  if (features.empty()) return false;
  const size_t m = features.size(), m_axis = std::min(m, mtry);
  const bool tries_oblique =
      m >= 2 && may_oblique && !(static_cast<double>(n) < oblique_rows_ * static_cast<double>(m));
  // the values are read only where a hyperplane needs them or the rank
  // index lacks the column
  if (tries_oblique) gather_columns(ctx, m, s);
  const ColumnRanks* ranks = data.ranks;

  const std::unique_ptr<CutScan> scan = outcome.cut_scan(node);
  double best_gain = kRelativeMinGain * outcome.gain_scale(node), cut = 0.0;
  bool found = false, axis_sides = false;
  // (the searches keep the best axis cut's sides for the grower, which then
  // need not route the in-bag rows: issue #58)
  s.cut.keep_sides(ctx.sides != nullptr);
  for (size_t k = 0; k < m_axis; ++k) {
    const double* values = nullptr;
    if (tries_oblique) {
      values = s.columns.data() + k * n;
    } else if (!ranks || !ranks->has(static_cast<size_t>(features[k]))) {
      s.one.resize(n);
      data.x->gather(features[k], ctx.rows, n, s.one.data());
      values = s.one.data();
    }
    if (best_axis_cut(s.cut, *scan, node, min_leaf_size_, features[k], values, cut, best_gain)) {
      found = true;
      rule = SplitRule::axis(features[k], cut);
      axis_sides = s.cut.sides_known();
      if (axis_sides) s.axis_sides.swap(s.cut.sides());
    }
  }
  if (found && axis_sides && ctx.sides) ctx.sides->swap(s.axis_sides);
  if (!tries_oblique) return found;
  SplitRule oblique;
  if (!best_oblique(outcome, node, *scan, min_leaf_size_, features, s.columns, n_oblique_, split_ridge_, cox_step_,
                    max_bins_, rng, s.cut, best_gain, oblique, s.sides))
    return found;
  // the oblique rule separates the in-bag rows best; with oob_choice it
  // must also separate the out-of-bag rows better than the best axis rule
  if (!found || !oob_choice_ || oob_gain(data, oblique, ctx.oob, ctx.n_oob) > oob_gain(data, rule, ctx.oob, ctx.n_oob)) {
    rule = oblique;
    if (ctx.sides) ctx.sides->swap(s.sides);  // (the grower need not project the rows again)
  }  // (else the axis rule stays, and so do its sides)
  return true;
}

}  // namespace svf
