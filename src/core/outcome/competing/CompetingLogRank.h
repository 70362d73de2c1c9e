// Splitting criteria of competing risks on a node's rows: the cause-specific
// log-rank statistics of a two-group split, their composite (the sum over
// causes of the standardized statistics' squares: a split that separates
// any cause's hazard counts) as the split search reads it, and the
// hyperplane target (per-cause martingale residuals, weighted).
#ifndef SVFOREST_COMPETING_LOGRANK_H
#define SVFOREST_COMPETING_LOGRANK_H

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "CumulativeIncidence.h"
#include "outcome/CutScan.h"

namespace svf {

// The node's event times (grid indices where a node row has an event of any
// cause), with at each the rows at risk and each cause's events; per node
// row (by position) how many of those times it is at risk at, and its cause.
struct CompetingTable {
  int n_causes = 0;
  std::vector<int> limit, cause;
  std::vector<int> start;  // delayed entry only (CompetingEntry.h): at risk at times start..limit - 1
  std::vector<double> at_risk, deaths;  // deaths: n_times x n_causes, time-major
  size_t n_times() const { return at_risk.size(); }
};
// O(n log n): over the node's own event times, not the grid.
void build_competing_table(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table);

// A growing left group's cause-specific log-rank statistics. Adding a row
// costs O(K log T): per cause the numerator (observed minus expected events
// of the left rows) and the variance sum_j c_j Y_j - e_j Y_j^2 (Y_j the left
// rows at risk), whose square term needs, over the left rows, the count and
// the per-cause prefix sums of e by limit: Fenwick trees. (An exact variance
// at every cut cannot be had in O(n + T): the square term couples each new
// row with every left row of smaller limit.)
class CompetingLogRankScan {
 public:
  explicit CompetingLogRankScan(const CompetingTable& table);
  void reset();                          // the left group empty
  void add(size_t i);                    // node row i (by position) joins the left group
  double chi_square(int cause) const;   // cause 1..K; 0 without variance
  double composite() const;             // sum over causes of chi_square

 private:
  const CompetingTable& table_;
  int K_;
  size_t T_;
  // per limit k and cause, the prefix sums over times < k of the hazard,
  // c and e, side by side: prefix_[(k * K + cause) * 3 + 0..2]
  std::vector<double> prefix_;
  // a Fenwick tree over limits (positions 1..T) of the left rows' count and
  // per cause their E(limit), side by side: tree_[k * (K + 1) + 0] the
  // count, + 1 + cause the sums; one walk reads or updates all
  std::vector<double> tree_;
  std::vector<double> numerator_, linear_, square_, below_;
  double n_left_ = 0.0;  // left rows at risk at one time or more
};

// The statistics of the rows with left[i] != 0 against the others: per cause
// chi-square (out[0..K-1]) and the composite (returned); all 0 when a group
// is empty.
double competing_logrank(const CompetingTable& table, const std::vector<char>& left, std::vector<double>& per_cause);

// The composite statistic as the split search reads it (CutScan.h): cuts
// keep the splitter's min_leaf_size rows on either side; no cut without
// event times. `table` must outlive it.
std::unique_ptr<CutScan> competing_cut_scan(const CompetingTable& table);

// The hyperplane target of a node: sum_k w_k (1[cause_i = k] - H_k(T_i)), the
// cause-specific martingale residuals under the node's Nelson-Aalen hazards,
// weighted per cause (w: n_causes weights); large for rows with more events
// of the weighted causes than their time predicts. O(n K + T K).
void competing_target(const CompetingTable& table, const std::vector<double>& cause_weights, double* out);

}  // namespace svf
#endif
