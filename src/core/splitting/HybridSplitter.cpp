#include "HybridSplitter.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "LogRank.h"
#include "SortedValues.h"

namespace svf {

namespace {

// The node's outcome, as the impurity of a cut reads it.
struct NodeOutcome {
  const TrainingData* data;
  const int* rows;
  size_t n;
  std::vector<int> counts;  // classification
  double total = 0.0;       // regression: sum of the outcome
  SurvivalTable table;      // survival
  size_t min_leaf = 1;      // survival: the fewest rows a cut leaves on a side
  double outcome(size_t i) const { return data->response[rows[i]]; }
  int label(size_t i) const { return data->y[rows[i]]; }
};

// Gains at or below this share of the node's scale are rounding noise.
const double kRelativeMinGain = 1e-12;

// The cut of largest impurity decrease along `values` (one per node row):
// midway between consecutive distinct values (the lower one for adjacent
// doubles). Classification: n * (Gini decrease), as sum l_k^2 / n_l +
// sum r_k^2 / n_r - sum t_k^2 / n; regression: the decrease of the squared
// error, L^2 / n_l + R^2 / n_r - T^2 / n. Only a gain above `gain` counts;
// returns whether one did.
struct CutScratch {
  std::vector<std::pair<double, int>> sorted;
  std::vector<int> left;
  std::vector<unsigned long long> keys;
  std::vector<uint64_t> rank_keys;
};
bool best_cut_sorted(const NodeOutcome& node, CutScratch& scratch, double& cut, double& gain) {
  const size_t n = node.n;
  std::vector<std::pair<double, int>>& sorted = scratch.sorted;
  std::vector<int>& left = scratch.left;
  if (!(sorted.back().first > sorted.front().first)) return false;
  if (node.data->survival()) return best_logrank_cut(node.table, sorted, node.min_leaf, cut, gain);
  bool found = false;
  const double dn = static_cast<double>(n);
  // a cut between values a < b with gain g
  auto consider = [&](double g, double a, double b) {
    if (!(g > gain)) return;
    gain = g;
    found = true;
    cut = a + (b - a) / 2.0;
    if (!(cut < b)) cut = a;
  };
  if (node.data->regression()) {
    const double base = node.total * node.total / dn;
    double sum_left = 0.0;
    for (size_t k = 0; k + 1 < n; ++k) {
      sum_left += node.outcome(sorted[k].second);
      const double a = sorted[k].first, b = sorted[k + 1].first;
      if (!(b > a)) continue;
      const double nl = static_cast<double>(k + 1), sum_right = node.total - sum_left;
      consider(sum_left * sum_left / nl + sum_right * sum_right / (dn - nl) - base, a, b);
    }
    return found;
  }
  const int K = static_cast<int>(node.counts.size());
  left.assign(K, 0);
  double sq_total = 0.0;
  for (int c : node.counts) sq_total += static_cast<double>(c) * c;
  const double base = sq_total / dn;
  double sq_left = 0.0, sq_right = sq_total;
  for (size_t k = 0; k + 1 < n; ++k) {
    const int c = node.label(sorted[k].second);
    const double l = left[c], r = node.counts[c] - left[c];
    sq_left += 2.0 * l + 1.0;
    sq_right -= 2.0 * r - 1.0;
    ++left[c];
    const double a = sorted[k].first, b = sorted[k + 1].first;
    if (!(b > a)) continue;
    const double nl = static_cast<double>(k + 1);
    consider(sq_left / nl + sq_right / (dn - nl) - base, a, b);
  }
  return found;
}
bool best_cut_along(const NodeOutcome& node, const double* values, CutScratch& scratch, double& cut, double& gain) {
  sort_with_positions(values, node.n, scratch.sorted, scratch.keys);
  return best_cut_sorted(node, scratch, cut, gain);
}
// Along predictor `col` (node values `values`): through the forest's rank
// index where it has the column (the same order, sorted faster).
bool best_axis_cut(const NodeOutcome& node, int col, const double* values, CutScratch& scratch, double& cut,
                   double& gain) {
  const ColumnRanks* ranks = node.data->ranks;
  if (!ranks || !ranks->has(static_cast<size_t>(col))) return best_cut_along(node, values, scratch, cut, gain);
  ranks->sort_rows(static_cast<size_t>(col), node.rows, node.n, scratch.sorted, scratch.rank_keys);
  return best_cut_sorted(node, scratch, cut, gain);
}

// Two groups of the classes present in the node (1: group A): with two
// classes, one each; with more, the classes in random order go to A until
// it holds half the rows, never all of them (PSVM trees' overlay classes).
std::vector<char> class_groups(const std::vector<int>& counts, Rng& rng) {
  std::vector<int> present;
  long total = 0;
  for (size_t k = 0; k < counts.size(); ++k)
    if (counts[k] > 0) { present.push_back(static_cast<int>(k)); total += counts[k]; }
  std::vector<char> in_a(counts.size(), 0);
  if (present.size() > 2) rng.shuffle(present.data(), present.size());
  long in_group = 0;
  for (size_t i = 0; i + 1 < present.size() && 2 * in_group < total; ++i) {
    in_a[present[i]] = 1;
    in_group += counts[present[i]];
  }
  return in_a;
}

// How well `rule` separates the out-of-bag rows `oob[0..n_oob)`: the same
// impurity decrease as in-bag cuts are scored by, on those rows.
double oob_gain(const TrainingData& data, const SplitRule& rule, const int* oob, size_t n_oob) {
  if (n_oob < 2) return 0.0;
  const size_t p = data.x->n_cols();
  const DataView& x = *data.x;
  if (data.survival()) {
    SurvivalTable table;
    build_survival_table(data, oob, n_oob, table);
    std::vector<char> left(n_oob);
    for (size_t i = 0; i < n_oob; ++i) {
      const int r = oob[i];
      left[i] = rule.goes_left([&x, r](int col) { return x.get(r, col); }, p) ? 1 : 0;
    }
    return logrank_statistic(table, left);
  }
  const int K = data.regression() ? 0 : data.num_classes;
  std::vector<double> left(std::max(K, 1), 0.0), total(std::max(K, 1), 0.0);
  double n_left = 0.0;
  for (size_t i = 0; i < n_oob; ++i) {
    const int r = oob[i];
    const bool goes_left = rule.goes_left([&x, r](int col) { return x.get(r, col); }, p);
    const int c = K > 0 ? data.y[r] : 0;
    const double v = K > 0 ? 1.0 : data.response[r];
    total[c] += v;
    if (goes_left) { left[c] += v; n_left += 1.0; }
  }
  const double n = static_cast<double>(n_oob), n_right = n - n_left;
  if (n_left == 0.0 || n_right == 0.0) return 0.0;
  double g = 0.0;
  for (size_t c = 0; c < left.size(); ++c) {
    const double l = left[c], r = total[c] - left[c];
    g += l * l / n_left + r * r / n_right - total[c] * total[c] / n;
  }
  return g;
}

// The node's outcome: class counts, or the sum of the outcome.
NodeOutcome node_outcome(const NodeContext& ctx) {
  const TrainingData& data = *ctx.data;
  NodeOutcome node{&data, ctx.rows, ctx.n, {}, 0.0};
  if (data.survival()) {
    build_survival_table(data, ctx.rows, ctx.n, node.table);
  } else if (data.regression()) {
    for (size_t i = 0; i < ctx.n; ++i) node.total += node.outcome(i);
  } else {
    node.counts.assign(data.num_classes, 0);
    for (size_t i = 0; i < ctx.n; ++i) ++node.counts[node.label(i)];
  }
  return node;
}

// Up to `want` predictors that vary in the node, drawn without replacement;
// their node values go to `columns`, column after column.
void draw_columns(const NodeContext& ctx, size_t want, Rng& rng, std::vector<int>& features,
                  std::vector<double>& columns) {
  const DataView& x = *ctx.data->x;
  const size_t n = ctx.n, p = x.n_cols();
  std::vector<int> order(p);
  std::iota(order.begin(), order.end(), 0);
  columns.reserve(want * n);
  for (size_t k = 0; k < p && features.size() < want; ++k) {
    std::swap(order[k], order[k + rng.below(p - k)]);
    const size_t at = columns.size();
    columns.resize(at + n);
    x.gather(order[k], ctx.rows, n, columns.data() + at);
    const auto mm = std::minmax_element(columns.begin() + at, columns.end());
    if (*mm.second > *mm.first) {
      features.push_back(order[k]);
    } else {
      columns.resize(at);
    }
  }
}

// The information matrix of the Cox partial likelihood at zero weights for
// the node's rows Z (n x m): sum over event times of the deaths times the
// covariance of Z among the rows at risk, computed as
// Z' diag(H_i) Z - sum_j d_j zbar_j zbar_j' (H_i the Nelson-Aalen hazard at
// row i's time, zbar_j the mean of the rows at risk at time j).
void cox_information(const SurvivalTable& table, const Eigen::MatrixXd& Z, Eigen::MatrixXd& info) {
  const size_t n = table.limit.size(), T = table.n_times();
  const Eigen::Index m = Z.cols();
  std::vector<double> hazard(T + 1, 0.0);
  for (size_t j = 0; j < T; ++j) hazard[j + 1] = hazard[j] + table.deaths[j] / table.at_risk[j];
  Eigen::MatrixXd at_risk_sum = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(T) + 1, m);  // rows ending at limit k
  Eigen::VectorXd h(static_cast<Eigen::Index>(n));
  for (size_t i = 0; i < n; ++i) {
    h[i] = hazard[table.limit[i]];
    at_risk_sum.row(table.limit[i]) += Z.row(i);
  }
  Eigen::MatrixXd hz = Z.array().colwise() * h.array().sqrt();
  info = Eigen::MatrixXd::Zero(m, m);
  info.selfadjointView<Eigen::Lower>().rankUpdate(hz.transpose());
  Eigen::RowVectorXd running = Eigen::RowVectorXd::Zero(m);
  for (size_t j = T; j-- > 0;) {
    running += at_risk_sum.row(static_cast<Eigen::Index>(j) + 1);  // rows at risk at time j: limit > j
    if (table.deaths[j] > 0.0) {
      const Eigen::RowVectorXd mean = running / table.at_risk[j];
      info.selfadjointView<Eigen::Lower>().rankUpdate(mean.transpose(), -table.deaths[j]);
    }
  }
  info.triangularView<Eigen::StrictlyUpper>() = info.transpose();
}

// The events among a node's rows.
double survival_events(const SurvivalTable& table) {
  double events = 0.0;
  for (double d : table.deaths) events += d;
  return events;
}

// The best of n_oblique hyperplanes through the drawn predictors (see the
// header), when its gain beats `best_gain` (then updated).
bool best_oblique(const NodeOutcome& node, const std::vector<int>& features, const std::vector<double>& columns,
                  int n_oblique, double split_ridge, bool cox_step, Rng& rng, double& best_gain, SplitRule& rule) {
  const TrainingData& data = *node.data;
  const size_t n = node.n, m = features.size();
  // the drawn predictors, standardised in the node
  Eigen::Map<const Eigen::MatrixXd> X(columns.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  const Eigen::RowVectorXd mean = X.colwise().mean();
  Eigen::MatrixXd Z = X.rowwise() - mean;
  Eigen::VectorXd sd(m);
  for (size_t k = 0; k < m; ++k) {
    sd[k] = std::sqrt(Z.col(k).squaredNorm() / static_cast<double>(n));
    Z.col(k) /= sd[k];
  }
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(m, m);
  gram.selfadjointView<Eigen::Lower>().rankUpdate(Z.transpose());
  gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();
  if (data.survival() && cox_step) {
    cox_information(node.table, Z, gram);
    gram.diagonal().array() += split_ridge * gram.trace() / static_cast<double>(m);
  } else {
    gram.diagonal().array() += split_ridge * static_cast<double>(n);
  }
  const Eigen::LDLT<Eigen::MatrixXd> solver(gram);

  Eigen::VectorXd target(n);
  std::vector<double> weight(m), proj(n);
  CutScratch scratch;
  double cut = 0.0;
  bool found = false;
  for (int t = 0; t < n_oblique; ++t) {
    if (data.survival()) {
      if (t > 0) break;  // one direction: the rows' order by risk
      martingale_scores(node.table, target.data());
    } else if (data.regression()) {
      if (t > 0) break;  // the outcome's direction is one
      for (size_t i = 0; i < n; ++i) target[i] = node.outcome(i);
    } else {
      const std::vector<char> in_a = class_groups(node.counts, rng);
      for (size_t i = 0; i < n; ++i) target[i] = in_a[node.label(i)] ? 1.0 : -1.0;
    }
    target.array() -= target.mean();
    const Eigen::VectorXd w = solver.solve(Z.transpose() * target);
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
    if (best_cut_along(node, proj.data(), scratch, cut, best_gain)) {
      rule = SplitRule::oblique(features, weight, cut);
      found = true;
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
                                                      rivals_named(params.has("tree_rival") ? params.text("tree_rival") : "axis")));
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
                           oblique_rows_, false, false, static_cast<int>(min_leaf_size_), cox_step_, min_node_events_)));
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
  NodeOutcome node = node_outcome(ctx);
  node.min_leaf = min_leaf_size_;
  // a log-rank statistic on a handful of events is noise that the maximum
  // over cuts picks: with rare events, nodes of many rows still split on few
  if (data.survival() && survival_events(node.table) < static_cast<double>(min_node_events_)) return false;
  // the first mtry drawn predictors for the axis candidates, up to
  // oblique_mtry in all for the oblique ones
  const size_t root_p = std::max<size_t>(1, static_cast<size_t>(std::sqrt(static_cast<double>(p))));
  const size_t mtry = std::min(p, mtry_ > 0 ? static_cast<size_t>(mtry_) : root_p);
  const size_t want = n_oblique_ == 0 ? mtry
                      : std::min(p, std::max(mtry, oblique_mtry_ > 0 ? static_cast<size_t>(oblique_mtry_) : 2 * mtry));
  std::vector<int> features;
  std::vector<double> columns;
  draw_columns(ctx, want, rng, features, columns);
  if (features.empty()) return false;
  const size_t m = features.size(), m_axis = std::min(m, mtry);

  // (the log-rank statistic is a chi-square: on its own scale)
  double scale = data.survival() ? 1.0 : static_cast<double>(n);
  if (data.regression()) {
    scale = 0.0;
    for (size_t i = 0; i < n; ++i) scale += node.outcome(i) * node.outcome(i);
  }
  double best_gain = kRelativeMinGain * scale, cut = 0.0;
  CutScratch scratch;
  bool found = false;
  for (size_t k = 0; k < m_axis; ++k) {
    if (best_axis_cut(node, features[k], columns.data() + k * n, scratch, cut, best_gain)) {
      found = true;
      rule = SplitRule::axis(features[k], cut);
    }
  }
  if (m < 2 || n_oblique_ == 0 || static_cast<double>(n) < oblique_rows_ * static_cast<double>(m)) return found;
  SplitRule oblique;
  if (!best_oblique(node, features, columns, n_oblique_, split_ridge_, cox_step_, rng, best_gain, oblique)) return found;
  // the oblique rule separates the in-bag rows best; with oob_choice it
  // must also separate the out-of-bag rows better than the best axis rule
  if (!found || !oob_choice_ || oob_gain(data, oblique, ctx.oob, ctx.n_oob) > oob_gain(data, rule, ctx.oob, ctx.n_oob))
    rule = oblique;
  return true;
}

}  // namespace svf
