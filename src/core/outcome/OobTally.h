// What the trainer hands an outcome's out-of-bag tally (Outcome::add_oob_row)
// for one tree and row, and what the row changes in the forest's error.
#ifndef SVFOREST_OOBTALLY_H
#define SVFOREST_OOBTALLY_H

#include <cstdint>
#include <functional>
#include <vector>

#include "forest/Aggregation.h"
#include "forest/Predictor.h"

namespace svf {

struct OobRowInput {
  const TrainingData* data;
  Aggregation aggregation;
  const TreeView* view;
  const OutcomeShape* shape;
  const LeafReaders* readers;
  const RowSource* rows;
  PredictScratch* scratch;
  double* dist;    // shape->outputs() values
  bool even_tree;  // the tree's forest-wide index is even
  // when set, the row's leaf is written here (indexed by row): the tree's
  // column of TrainingLeaves (forest/Forest.h)
  uint16_t* leaf16 = nullptr;
};

// What one chunk of a tree's out-of-bag rows changes in the error after
// that tree.
struct OobChange {
  long wrong = 0, rows = 0;    // misclassified rows; rows with their first tree
  double sse = 0.0;            // regression
  std::vector<int> leaf_rows;  // the chunk's rows per leaf of the tree
};

// The tree's prediction of row r (its leaf counted in `change`).
inline int predict_oob_row(const OobRowInput& in, int r, OobChange& change, double* confidence) {
  int leaf = 0;
  const int cls = tree_predict(*in.view, *in.shape, *in.readers, in.data->scaling, *in.rows, r, *in.scratch, in.dist,
                               confidence, &leaf);
  ++change.leaf_rows[leaf];
  if (in.leaf16) in.leaf16[r] = static_cast<uint16_t>(leaf);
  return cls;
}

struct OobResult;
struct GrownTree;

// Outcomes of event times (outcome/Survival.cpp, outcome/CompetingRisks.cpp):
// the rows with out-of-bag trees and their mean risk (risk_sum / count).
void oob_mean_risks(const OobResult& oob, std::vector<int>& rows, std::vector<double>& risk);

// Each row's out-of-bag loss (NaN without out-of-bag trees) from a
// concordance C of the rows' mean risks: its pseudo-value of 1 - Somers' D
// (D = 2 C - 1, the rank correlation of risk and event time), twice its
// pseudo-value of 1 - C, which `concordance(rows, m, risk, row_loss)` fills
// for rows[0..m) by position (harrell_c(), wolbers_c()). The losses' mean
// is 1 - D. Pseudo-values, not each row's share of discordant pairs: a pair
// is in the losses of both its rows, so the shares' paired drops are far
// from independent and the growth rule's test of them (losses_fell()) would
// read chance as a fall; a row's pseudo-value is its own term of the
// statistic to first order (as in DeLong's test of two areas under ROC
// curves). And the scale of a correlation: a forest no better than chance
// has D = 0 as a regression forest has R^2 = 0, and C moves half as far as
// D, so that the rule's 2 points are one point of C.
using ConcordanceLosses = std::function<void(const int*, size_t, const double*, std::vector<double>*)>;
std::vector<double> oob_concordance_losses(const OobResult& oob, const ConcordanceLosses& concordance);

// The risk of each of `rows` under a grown structure (forest/TreeGrower.h):
// that of its leaf, `leaf_risk(leaf rows, their number)` of the leaf's
// in-bag rows, computed once per leaf.
std::vector<double> structure_row_risks(const TrainingData& data, const GrownTree& grown, const std::vector<int>& rows,
                                        const std::function<double(const int*, size_t)>& leaf_risk);

}  // namespace svf
#endif
