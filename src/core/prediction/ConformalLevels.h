// Conformal order statistics of a quantile forest's scores (outcome minus
// quantile, one score per row and level), streamed: the scores of all rows
// are never held at once. A sample of the rows places per level a few
// thousand bins; a pass over every row counts the scores per bin and keeps
// those near the sample's estimate of the order statistic; the counts then
// bound where it lies exactly, and a further pass collects those bins for a
// level whose estimate missed. The result is the value a full sort of every
// row's scores gives, bit for bit. Memory: the bins (levels x sample) and a
// chunk of rows' scores, not rows x levels.
#ifndef SVFOREST_CONFORMALLEVELS_H
#define SVFOREST_CONFORMALLEVELS_H

#include <vector>

#include "QuantileForest.h"
#include "common/TaskRunner.h"

namespace svf {

// The scores of rows `rows` (0-based rows of the queries, increasing) at
// each level: y[i] minus row i's quantile from query `all`, and, when
// `even` and `odd` are given, from those queries (the same rows restricted
// to each half of the trees).
struct ConformalScores {
  const QuantileForest* forest = nullptr;
  const QuantileQuery* all = nullptr;
  const QuantileQuery* even = nullptr;
  const QuantileQuery* odd = nullptr;
  const double* y = nullptr;
  std::vector<int> rows;
  size_t sample_rows = 16384;  // rows (at most) whose scores place the bins
  // the bins kept in the first full pass: the sample's estimate plus or
  // minus bracket_sd of its standard deviations and bracket_bins bins (a
  // miss costs one more pass, never a different result)
  double bracket_sd = 3;
  size_t bracket_bins = 8;
};

// Per level j of increasing levels `tau`: the least score a of query `all`
// at which the share (1 + weight) A(a) - weight (E(a) + O(a)) / 2 reaches
// k[j] (to 1e-9), where A, E and O count the rows' scores at or below a
// from `all`, `even` and `odd` (E = O = 0 without halves); NaN when it never
// does or k[j] is outside 1..rows. With weight 0 and no halves it is the
// k-th smallest score. weight >= 0. Throws std::invalid_argument when a row
// has no usable tree.
std::vector<double> conformal_order_statistics(const ConformalScores& s, const std::vector<double>& tau,
                                               const std::vector<double>& k, double weight, TaskRunner& runner);

}  // namespace svf
#endif
