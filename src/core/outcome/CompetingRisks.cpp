// The competing-risks outcome (Outcome.h): each row's time and cause (0
// censored, 1..K). A node's statistics are its competing table; axis cuts
// maximise the composite cause-specific log-rank statistic (the sum over
// causes of their chi-squares: a cut that separates any cause's hazard
// counts; as good as Gray's test, bench/results/competing_split_rule.txt);
// hyperplanes are fitted to the rows' all-cause martingale residuals (the
// causes' residuals with equal weights: one fit per node, as survival's);
// out of bag, each row's CIF of every cause on the forest's grid, summed
// over its trees, with 1 - Wolbers' C of the first cause's expected time
// lost as the error.
#include <cmath>

#include "OobTally.h"
#include "Outcome.h"
#include "competing/CompetingEntry.h"
#include "competing/CompetingSteps.h"
#include "forest/Forest.h"
#include "prediction/CompetingPrediction.h"
#include "prediction/SurvivalPrediction.h"

namespace svf {

namespace {

// The cause the out-of-bag error and the tree choice read: the first.
const int kErrorCause = 1;

CompetingRows competing_rows(const TrainingData& data) {
  CompetingRows rows;
  rows.time_index = data.time_index;
  rows.cause = data.status;
  rows.n_causes = data.num_causes;
  rows.grid_size = data.num_times;
  rows.entry_index = data.entry_index;  // delayed entry (competing/CompetingEntry.h) or nullptr
  return rows;  // unweighted: case weights act through the trees' draws
}

class CompetingRisks : public Outcome {
 public:
  void node_stats(NodeStats& node) const override {
    build_competing_table_of(competing_rows(*node.data), node.rows, node.n, node.competing);
  }
  bool weights_draw_rows() const override { return true; }  // as survival's
  bool may_split(const NodeStats& node, int min_events) const override {
    double events = 0.0;
    for (double d : node.competing.deaths) events += d;
    return !(events < static_cast<double>(min_events));
  }
  bool pure(const TrainingData&, const int*, size_t, std::vector<int>&) const override { return false; }
  double gain_scale(const NodeStats&) const override { return 1.0; }  // chi-squares
  std::unique_ptr<CutScan> cut_scan(const NodeStats& node) const override {
    return competing_cut_scan_of(node.competing);
  }
  // t = 0: every cause's martingale residual summed (the rows' order by
  // the risk of any event); t = k (1..K): cause k's alone, so a node with
  // n_oblique > 1 also tries a direction for each cause's own risk
  bool hyperplane_target(const NodeStats& node, int t, Rng&, double* target) const override {
    const int K = node.competing.n_causes;
    if (t > K) return false;
    std::vector<double> weights(K, t == 0 ? 1.0 : 0.0);
    if (t > 0) weights[t - 1] = 1.0;
    competing_target_of(node.competing, weights, target);
    return true;
  }
  double split_gain(const TrainingData& data, const int* oob, size_t n_oob,
                    const std::vector<char>& left) const override {
    CompetingTable table;
    build_competing_table_of(competing_rows(data), oob, n_oob, table);
    std::vector<double> per_cause;
    return competing_logrank_of(table, left, per_cause);
  }

  // chf_sum holds here each cause's CIF sums, n x T x K (column-major);
  // risk_sum the first cause's expected time lost
  void start_oob(const TrainingData& data, OobResult& oob, size_t n, bool, bool) const override {
    oob.count.assign(n, 0);
    oob.predicted.assign(n, -1);
    oob.chf_sum.assign(n * static_cast<size_t>(data.curve_size()) * data.num_causes, 0.0);  // the curve grid
    oob.risk_sum.assign(n, 0.0);
  }
  void add_oob_row(const OobRowInput& in, int r, OobResult& oob, OobChange& change) const override {
    const TrainingData& data = *in.data;
    const int leaf = tree_leaf_of_row(*in.view, in.shape->p, *in.rows, r, in.scratch->route);
    ++change.leaf_rows[leaf];
    if (oob.count[r] == 0) ++change.rows;
    const size_t n = data.x->n_rows();
    add_leaf_cif(*in.view, leaf, static_cast<size_t>(data.curve_size()), data.num_causes, oob.chf_sum.data() + r, n);
    const LeafPayload payload = leaf_payload(*in.view, leaf);
    oob.risk_sum[r] += steps_time_lost(payload.ints, payload.reals, data.num_causes, kErrorCause, data.curve_grid(),
                                       data.curve_size());
    ++oob.count[r];
  }
  double oob_error(const TrainingData& data, const OobResult& oob, long, double) const override {
    std::vector<int> rows;
    std::vector<double> risk;
    oob_mean_risks(oob, rows, risk);
    return 1.0 - wolbers_c_of(data.time, data.status, data.entry, rows.data(), rows.size(), risk.data(), kErrorCause);
  }
  std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) const override {
    return oob_concordance_losses(oob, [&](const int* rows, size_t m, const double* risk, std::vector<double>* loss) {
      wolbers_c_of(data.time, data.status, data.entry, rows, m, risk, kErrorCause, loss);
    });
  }
  // 1 - Wolbers' C on the rows (0.5 without pairs) of each leaf's expected
  // time lost to the first cause, from its in-bag rows
  double structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                        const LeafModel&) const override {
    std::vector<int> ints;
    std::vector<double> reals;
    const CompetingRows cr = competing_rows(data);
    const std::vector<double> risk = structure_row_risks(data, grown, rows, [&](const int* leaf_rows, size_t n) {
      ints.clear();
      reals.clear();
      competing_steps_of(cr, leaf_rows, n, ints, reals);
      return steps_time_lost(ints.data(), reals.data(), data.num_causes, kErrorCause, data.grid_times, data.num_times);
    });
    const double c =
        wolbers_c_of(data.time, data.status, data.entry, rows.data(), rows.size(), risk.data(), kErrorCause);
    return std::isnan(c) ? 0.5 : 1.0 - c;
  }
  // the rows' first-cause martingale scores under the tree's in-bag hazards
  int level_slots(const TrainingData&) const override { return 1; }
  void level_values(const TrainingData& data, const std::vector<int>& inbag, std::vector<double>& value,
                    std::vector<int>& slot) const override {
    CompetingTable table;
    build_competing_table_of(competing_rows(data), inbag.data(), inbag.size(), table);
    std::vector<double> weights(data.num_causes, 0.0);
    weights[kErrorCause - 1] = 1.0;
    value.resize(inbag.size());
    competing_target_of(table, weights, value.data());
    slot.assign(inbag.size(), 0);
  }
};

}  // namespace

const Outcome& competing_risks_outcome() {
  static const CompetingRisks unit;
  return unit;
}

}  // namespace svf
