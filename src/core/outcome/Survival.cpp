// The survival outcome (Outcome.h): the survival table of a node's rows,
// log-rank cuts, martingale scores as a hyperplane's target (or the Cox
// partial likelihood's information matrix for a Newton step), and out of
// bag each row's cumulative hazard (CHF) on the forest's grid of event
// times, summed over its trees, with Harrell's C as the error (1 - C).
#include <cmath>

#include "DelayedEntry.h"
#include "OobTally.h"
#include "Outcome.h"
#include "forest/Forest.h"
#include "forest/TreeChoice.h"
#include "prediction/SurvivalPrediction.h"

namespace svf {

namespace {

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
  if (!table.start.empty()) {  // delayed entry: at risk from `start` on (DelayedEntry.h)
    for (size_t i = 0; i < n; ++i) {
      h[i] -= hazard[table.start[i]];
      at_risk_sum.row(table.start[i]) -= Z.row(i);
    }
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

class Survival : public Outcome {
 public:
  void node_stats(NodeStats& node) const override { build_survival_table(*node.data, node.rows, node.n, node.table); }
  bool weights_draw_rows() const override { return true; }  // as ranger's case.weights: nodes count distinct rows
  bool may_split(const NodeStats& node, int min_events) const override {
    double events = 0.0;
    for (double d : node.table.deaths) events += d;
    return !(events < static_cast<double>(min_events));
  }
  // the splitter finds no cut in a node without events
  bool pure(const TrainingData&, const int*, size_t, std::vector<int>&) const override { return false; }
  // the log-rank statistic is a chi-square: on its own scale
  double gain_scale(const NodeStats&) const override { return 1.0; }
  std::unique_ptr<CutScan> cut_scan(const NodeStats& node) const override { return logrank_cut_scan(node.table); }
  bool hyperplane_target(const NodeStats& node, int t, Rng&, double* target) const override {
    if (t > 0) return false;  // one direction: the rows' order by risk
    martingale_scores(node.table, target);
    return true;
  }
  bool likelihood_information(const NodeStats& node, const Eigen::MatrixXd& Z, Eigen::MatrixXd& info) const override {
    cox_information(node.table, Z, info);
    return true;
  }
  double split_gain(const TrainingData& data, const int* oob, size_t n_oob,
                    const std::vector<char>& left) const override {
    SurvivalTable table;
    build_survival_table(data, oob, n_oob, table);
    return logrank_statistic(table, left);
  }

  void start_oob(const TrainingData& data, OobResult& oob, size_t n, bool, bool) const override {
    oob.count.assign(n, 0);
    oob.predicted.assign(n, -1);
    oob.chf_sum.assign(n * static_cast<size_t>(data.curve_size()), 0.0);  // on the curve grid
    oob.risk_sum.assign(n, 0.0);
  }
  // the CHF sums of each row follow tree order, so those of parts of a
  // forest add up to the whole's (combine(); leaf hazards on a fine grid)
  void add_oob_row(const OobRowInput& in, int r, OobResult& oob, OobChange& change) const override {
    const TrainingData& data = *in.data;
    const int leaf = tree_leaf_of_row(*in.view, in.shape->p, *in.rows, r, in.scratch->route);
    ++change.leaf_rows[leaf];
    if (oob.count[r] == 0) ++change.rows;
    const size_t n = data.x->n_rows();
    add_leaf_chf(*in.view, leaf, static_cast<size_t>(data.curve_size()), oob.chf_sum.data() + r, n);
    const LeafPayload payload = leaf_payload(*in.view, leaf);
    oob.risk_sum[r] += steps_risk(payload.ints, payload.reals, data.curve_size());
    ++oob.count[r];
  }
  double oob_error(const TrainingData& data, const OobResult& oob, long, double) const override {
    std::vector<int> rows;
    std::vector<double> risk;
    oob_mean_risks(oob, rows, risk);
    return 1.0 - harrell_c_of(data, rows.data(), rows.size(), risk.data());
  }
  // each row's pseudo-value of 1 - Somers' D (oob_concordance_losses())
  std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) const override {
    return oob_concordance_losses(oob, [&](const int* rows, size_t m, const double* risk, std::vector<double>* loss) {
      harrell_c_of(data, rows, m, risk, loss);
    });
  }
  // 1 - Harrell's C on the rows (0.5 without pairs) of each leaf's
  // Nelson-Aalen risk from its in-bag rows
  double structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                        const LeafModel&) const override {
    std::vector<int> ints;
    std::vector<double> reals;
    const std::vector<double> risk = structure_row_risks(data, grown, rows, [&](const int* leaf_rows, size_t n) {
      ints.clear();
      reals.clear();
      nelson_aalen_steps(data, leaf_rows, n, ints, reals);
      return steps_risk(ints.data(), reals.data(), data.num_times);
    });
    const double c = harrell_c_of(data, rows.data(), rows.size(), risk.data());
    return std::isnan(c) ? 0.5 : 1.0 - c;
  }
  // the rows' martingale scores under the tree's in-bag Nelson-Aalen hazard
  int level_slots(const TrainingData&) const override { return 1; }
  void level_values(const TrainingData& data, const std::vector<int>& inbag, std::vector<double>& value,
                    std::vector<int>& slot) const override {
    SurvivalTable table;
    build_survival_table(data, inbag.data(), inbag.size(), table);
    value.resize(inbag.size());
    martingale_scores(table, value.data());
    slot.assign(inbag.size(), 0);
  }
};

}  // namespace

void oob_mean_risks(const OobResult& oob, std::vector<int>& rows, std::vector<double>& risk) {
  for (size_t r = 0; r < oob.count.size(); ++r) {
    if (oob.count[r] == 0) continue;
    rows.push_back(static_cast<int>(r));
    risk.push_back(oob.risk_sum[r] / oob.count[r]);
  }
}

std::vector<double> oob_concordance_losses(const OobResult& oob, const ConcordanceLosses& concordance) {
  std::vector<int> rows;
  std::vector<double> risk, row_loss;
  oob_mean_risks(oob, rows, risk);
  concordance(rows.data(), rows.size(), risk.data(), &row_loss);
  std::vector<double> loss(oob.count.size(), NAN);
  for (size_t k = 0; k < rows.size(); ++k) loss[rows[k]] = 2.0 * row_loss[k];
  return loss;
}

std::vector<double> structure_row_risks(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                                        const std::function<double(const int*, size_t)>& leaf_risk) {
  std::vector<double> by_leaf(grown.tree.leaf_size.size(), NAN), risk(rows.size()), scratch;
  for (size_t k = 0; k < rows.size(); ++k) {
    const int leaf = structure_leaf(data, grown.tree, rows[k], scratch);
    if (std::isnan(by_leaf[leaf])) {
      const size_t begin = grown.leaf_begin[leaf];
      by_leaf[leaf] = leaf_risk(grown.rows.data() + begin, grown.leaf_begin[leaf + 1] - begin);
    }
    risk[k] = by_leaf[leaf];
  }
  return risk;
}

const Outcome& survival_outcome() {
  static const Survival unit;
  return unit;
}

const Outcome& classification_outcome();
const Outcome& regression_outcome();

const Outcome& outcome_of(const TrainingData& data) {
  if (data.competing()) return competing_risks_outcome();
  if (data.survival()) return survival_outcome();
  return data.regression() ? regression_outcome() : classification_outcome();
}

}  // namespace svf
