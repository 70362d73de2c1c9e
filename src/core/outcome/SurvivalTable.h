// The survival outcome's table of a set of rows and what reads it (the
// outcome unit's, outcome/Survival.cpp, shared with the survival leaf): the
// log-rank statistic of a two-group split and of a growing left group (the
// cut statistic the split search reads), the rows' martingale scores under their Nelson-Aalen hazard (the
// target an oblique split fits to order rows by risk), the Nelson-Aalen
// step function a leaf stores, and Harrell's C.
#ifndef SVFOREST_SURVIVALTABLE_H
#define SVFOREST_SURVIVALTABLE_H

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "CutScan.h"
#include "data/TrainingData.h"

namespace svf {

// The node's event times (those of the forest's grid where a node row has
// an event), with at each the rows at risk and the events; per node row
// (by position) how many of those times it is at risk at, and its status.
struct SurvivalTable {
  std::vector<int> limit;
  std::vector<int> start;  // delayed entry only (DelayedEntry.h): at risk at times start..limit - 1
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
  void reset();        // the left group empty
  void add(size_t i);  // node row i (by position) joins the left group
  double statistic() const;  // 0 when there is no variance
 private:
  // per limit k, the prefix sums over times < k, side by side (one cache
  // line per row added)
  struct Prefix {
    double hazard, c, e;
  };
  // a Fenwick tree over limits of the left rows' count and their E(limit),
  // the two sums side by side: one walk reads or updates both
  struct Pair {
    double count, e;
  };
  const SurvivalTable& table_;
  std::vector<Prefix> prefix_;
  std::vector<Pair> tree_;
  double numerator_ = 0.0, linear_ = 0.0, square_ = 0.0, n_left_ = 0.0;  // n_left_: rows of limit > 0
};

// The log-rank chi-square statistic of the rows with left[i] != 0 against
// the others (0 when either group is empty or there is no variance).
double logrank_statistic(const SurvivalTable& table, const std::vector<char>& left);

// The log-rank statistic as the split search reads it (CutScan.h): cuts
// keep the splitter's min_leaf_size rows on either side (the statistic of a
// group of one or two rows is noise that a maximum over cuts picks); no cut
// without event times. `table` must outlive it.
std::unique_ptr<CutScan> logrank_cut_scan(const SurvivalTable& table);

// score_i = status_i - H(time_i), H the node's Nelson-Aalen cumulative
// hazard: positive for rows with more events than their time predicts.
void martingale_scores(const SurvivalTable& table, double* out);

// A survival forest's time grid: the distinct event times of time[0..n)
// (status 1, or any cause > 0 of competing risks), increasing, and each row's index in it (the last grid time at
// or before the row's time, -1 before the first).
std::vector<double> event_grid(const double* time, const int* status, size_t n, std::vector<int>& index);

// The grid of at most `ntime` times where the leaves' curves are stored
// (issue #61): the event times of time[0..n) (status > 0) at the quantiles
// k / ntime, k = 1..ntime (each the smallest event time with that share of
// the event rows at or before it; the last is the last event time), and
// per time of `events` (the distinct event times, event_grid()) the index
// of the first grid time at or after it (`curve_of`). Empty when
// `ntime` >= the number of event times (or infinite): every event time.
std::vector<double> curve_grid(const double* time, const int* status, size_t n, const std::vector<double>& events,
                               double ntime, std::vector<int>& curve_of);

// Step functions stored at event times (ints [m, event-time indices,
// increasing], reals `parts` blocks of m x `width` values, step-major) moved
// to the curve grid: each step to the first grid time at or after its
// time, keeping the last of the steps that land on one grid time. A
// curve's value at a grid time is then exactly its value at that time.
// Nothing changes without a curve grid (curve_of nullptr).
void steps_on_curve_grid(const int* curve_of, std::vector<int>& ints, std::vector<double>& reals, size_t width,
                         size_t parts);

// The Nelson-Aalen cumulative hazard of rows[0..n) as a survival leaf
// stores it: ints [m, the grid index of each of its m event times], reals
// [the hazard at each, rounded to multiples of 2^-32 (a change below 1e-10):
// sums of such numbers below 2^21 are exact in a double, so CHF sums are the
// same in any grouping of trees]. m = 0: zero hazard.
void nelson_aalen_steps(const TrainingData& data, const int* rows, size_t n, std::vector<int>& ints,
                        std::vector<double>& reals);

// The risk of such a step function on a grid of T times: the sum of the
// hazard over the grid (each step counts at every later time; ranger's
// "mortality"). `ints`, `reals` as above.
double steps_risk(const int* ints, const double* reals, int T);

// Harrell's C of `risk` (higher: earlier event) on rows[0..m) of `time` and
// `status`: among pairs whose earlier time is an event, the share ordered by
// risk (ties 1/2); NaN without such pairs. O(m log m); the counts are exact
// (halves below 2^53), so the value is the pairwise loop's. With
// `row_loss`, each row's pseudo-value of 1 - C (first-order jackknife:
// m (1 - C) - (m - 1) (1 - C without the row)), whose mean is 1 - C; all
// NaN without pairs.
double harrell_c(const double* time, const int* status, const int* rows, size_t m, const double* risk,
                 std::vector<double>* row_loss = nullptr);

}  // namespace svf
#endif
