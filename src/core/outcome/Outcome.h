// The outcome as a kind of the engine: one unit per outcome (classes,
// numbers, survival times) answers what the splitters and the trainer need
// of it, so that they never ask which outcome a forest has.
// - Splitters: a node's statistics (NodeStats), whether the node may split,
//   the scale of its gains, the node's cut statistic (CutScan.h: what a row
//   adds to a left group, a boundary's gain; the split search in
//   splitting/search/ owns the loop over cuts), the target a hyperplane is
//   fitted to (and, for survival's Cox step, the matrix it is solved with),
//   and a rule's gain on out-of-bag rows.
// - The trainer (forest/Forest.cpp): its out-of-bag tally (start, add a
//   tree's prediction of a row, the error after each tree, each row's loss
//   for the growth rule), the values per-tree factor coding orders levels by
//   (forest/LevelValues.h), and the loss that chooses between structures
//   grown on the same sample.
// outcome_of(data) is the unit of a training set's outcome.
#ifndef SVFOREST_OUTCOME_H
#define SVFOREST_OUTCOME_H

#include <Eigen/Dense>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "CutScan.h"
#include "SurvivalTable.h"
#include "competing/CompetingLogRank.h"
#include "common/Random.h"
#include "data/TrainingData.h"

namespace svf {

struct OobResult;
struct OobRowInput;
struct OobChange;
struct GrownTree;
class LeafModel;

// A node's outcome as the impurity of a cut reads it: class counts, the sum
// of the outcome, or the survival (or competing-risks) table of its rows.
struct NodeStats {
  const TrainingData* data = nullptr;
  const int* rows = nullptr;
  size_t n = 0;
  std::vector<int> counts;  // classification
  double total = 0.0;       // regression: sum of the outcome
  SurvivalTable table;      // survival
  CompetingTable competing; // competing risks
  double outcome(size_t i) const { return data->response[rows[i]]; }
  int label(size_t i) const { return data->y[rows[i]]; }
};

class Outcome {
 public:
  virtual ~Outcome() {}

  // --- splitters ---
  virtual void node_stats(NodeStats& node) const = 0;
  // Whether a node with these statistics may split (survival: at least
  // `min_events` events; a log-rank statistic on a handful is noise).
  virtual bool may_split(const NodeStats&, int /*min_events*/) const { return true; }
  // Whether case weights reweight a subsample's draw of distinct rows
  // (nodes then count distinct rows, as ranger's case.weights) rather than
  // repeat the drawn rows about their weight (Sampler.h).
  virtual bool weights_draw_rows() const { return false; }
  // Whether the rows are all alike (one class, one value): a leaf at once.
  virtual bool pure(const TrainingData& data, const int* rows, size_t n, std::vector<int>& counts) const = 0;
  // The node's gain scale: gains at or below a tiny share of it are noise.
  virtual double gain_scale(const NodeStats& node) const = 0;
  // The node's cut statistic (Gini decrease, squared-error decrease, a
  // log-rank statistic), read by the split search as rows join a left group;
  // it refers to `node`, which must outlive it.
  virtual std::unique_ptr<CutScan> cut_scan(const NodeStats& node) const = 0;
  // The t-th target (t = 0, 1, ...) a hyperplane is fitted to, one per node
  // row, in `target`; false when the outcome has no t-th.
  virtual bool hyperplane_target(const NodeStats& node, int t, Rng& rng, double* target) const = 0;
  // The matrix of a Newton step of the outcome's likelihood at zero weights
  // for the standardised rows Z (survival's Cox step); false when the
  // outcome has none (the ridge Gram matrix then serves).
  virtual bool likelihood_information(const NodeStats&, const Eigen::MatrixXd&, Eigen::MatrixXd&) const {
    return false;
  }
  // The gain of the split `left` (one flag per row) of rows oob[0..n_oob).
  virtual double split_gain(const TrainingData& data, const int* oob, size_t n_oob,
                            const std::vector<char>& left) const = 0;

  // --- the trainer ---
  // Empty out-of-bag tallies for n rows (max_conf, keep_even: classes).
  virtual void start_oob(const TrainingData& data, OobResult& oob, size_t n, bool max_conf,
                         bool keep_even) const = 0;
  // Adds a tree's prediction of training row r to its tally and what that
  // changes in the error to `change`.
  virtual void add_oob_row(const OobRowInput& in, int r, OobResult& oob, OobChange& change) const = 0;
  // The out-of-bag error after the changes so far (their sums `wrong`, `sse`).
  virtual double oob_error(const TrainingData& data, const OobResult& oob, long wrong, double sse) const = 0;
  // Each row's out-of-bag loss (NaN without trees): its mean is the error
  // the growth rule reads (forest/TreeGrowth.h).
  virtual std::vector<double> oob_row_losses(const TrainingData& data, const OobResult& oob) const = 0;
  // The loss of a grown structure on the choosing rows (lower is better;
  // leaves fitted by `leaf_model` where the loss needs them).
  virtual double structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                                const LeafModel& leaf_model) const = 0;
  // Per in-bag row (by position), the value factor levels are ordered by
  // (forest/LevelValues.h) and the slot it adds to; `slots` of them.
  virtual int level_slots(const TrainingData& data) const = 0;
  virtual void level_values(const TrainingData& data, const std::vector<int>& inbag, std::vector<double>& value,
                            std::vector<int>& slot) const = 0;
};

const Outcome& outcome_of(const TrainingData& data);
const Outcome& survival_outcome();
const Outcome& competing_risks_outcome();

}  // namespace svf
#endif
