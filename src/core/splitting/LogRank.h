// Survival criteria of a node's rows (TrainingData::survival()): the
// log-rank statistic of a two-group split, the best axis or projection cut
// by it, and the rows' martingale scores under the node's Nelson-Aalen
// hazard (the target an oblique split fits to order rows by risk).
#ifndef SVFOREST_LOGRANK_H
#define SVFOREST_LOGRANK_H

#include <cstddef>
#include <utility>
#include <vector>

#include "data/TrainingData.h"

namespace svf {

// The node's event times (those of the forest's grid where a node row has
// an event), with at each the rows at risk and the events; per node row
// (by position) how many of those times it is at risk at, and its status.
struct SurvivalTable {
  std::vector<int> limit;
  std::vector<char> event;
  std::vector<double> at_risk, deaths;
  size_t n_times() const { return at_risk.size(); }
};
void build_survival_table(const TrainingData& data, const int* rows, size_t n, SurvivalTable& table);

// The log-rank chi-square statistic of a growing left group, O(log T) per
// row added: its numerator is the sum of the left rows' martingale scores
// and its variance sum_j c_j Y_j - e_j Y_j^2 (Y_j the left rows at risk at
// time j), whose square term two Fenwick trees over the rows' limits keep
// (the left rows' count and their prefix sums of e, by limit), so a scan of
// sorted rows costs O(n log T) instead of O(n T).
class LogRankScan {
 public:
  explicit LogRankScan(const SurvivalTable& table);
  void add(size_t i);  // node row i (by position) joins the left group
  double statistic() const;  // 0 when there is no variance
 private:
  double tree_sum(const std::vector<double>& tree, int k) const;  // over limits < k
  void tree_add(std::vector<double>& tree, int k, double v);      // at limit k
  const SurvivalTable& table_;
  std::vector<double> hazard_, c_sum_, e_sum_;  // prefix sums over times < k
  std::vector<double> count_tree_, e_tree_;
  double numerator_ = 0.0, linear_ = 0.0, square_ = 0.0, n_left_ = 0.0;  // n_left_: rows of limit > 0
};

// The log-rank chi-square statistic of the rows with left[i] != 0 against
// the others (0 when either group is empty or there is no variance).
double logrank_statistic(const SurvivalTable& table, const std::vector<char>& left);

// The cut of largest log-rank statistic along values sorted as
// (value, node position) pairs; cuts midway between distinct values, with
// at least `min_leaf` rows on either side (the statistic of a group of one
// or two rows is noise that a maximum over cuts picks). Only a statistic
// above `gain` counts; returns whether one did.
bool best_logrank_cut(const SurvivalTable& table, const std::vector<std::pair<double, int>>& sorted,
                      size_t min_leaf, double& cut, double& gain);

// score_i = status_i - H(time_i), H the node's Nelson-Aalen cumulative
// hazard: positive for rows with more events than their time predicts.
void martingale_scores(const SurvivalTable& table, double* out);

}  // namespace svf
#endif
