// The default forest's split ("hybrid"): axis-aligned and oblique candidates
// compete on the same impurity, as in heterogeneous oblique random forests.
//
// At each node `mtry` predictors are drawn (among those that vary in the
// node). Candidates:
// - axis: the best cut of each drawn predictor (ranger's split);
// - oblique: `n_oblique` hyperplanes through the drawn predictors, each the
//   direction of a regularised least-squares fit (a proximal SVM on the
//   node's standardised predictors, ridge penalty `split_ridge` times the
//   node's rows) to the outcome's target (Outcome::hyperplane_target():
//   two-group labels of the classes, the outcome, or the rows' martingale
//   scores); with `oblique_fit = "cox"`, where the outcome has one
//   (Outcome::likelihood_information()), one Newton step from zero of its
//   likelihood instead. The cut along the direction is the best one, like
//   an axis cut's.
// The outcome scores cuts (Outcome::cut_scan(): Gini impurity, squared
// error, or the log-rank statistic, whose cuts leave at least
// `min_leaf_size` rows on either side); the best candidate wins. A node with
// fewer than `min_node_size` rows, one the outcome does not let split
// (Outcome::may_split(): fewer than `min_node_events` events), or no cut
// that lowers the impurity, is a leaf. With `oblique_stop` k > 0, a node
// below k axis cuts in a row (from the root or the nearest hyperplane above
// it) tries axis cuts alone: where the axis cut has won, hyperplanes rarely
// win again further down, and their fits are most of a node's work. With
// `max_bins` (finite), a column of more distinct values has at most that many
// quantile bins in the forest's index, and a node of more rows than the
// column's bins cuts it only at bin edges (search/CutSearch.h); a node of
// more than 1,024 rows (4,096 for regression) fits its hyperplanes'
// directions on that many of them (drawn with the tree's generator; not the
// Cox step), and one of more than 1,536 rows cuts the projection in
// max_bins buckets of equal width between its smallest and largest value,
// midway between the values either side of the bucket edge; smaller nodes
// search as without bins.
// Oblique rules are stored in the predictors' own units, and the cut is
// found on exactly the projections prediction computes, so routing agrees.
#ifndef SVFOREST_HYBRIDSPLITTER_H
#define SVFOREST_HYBRIDSPLITTER_H

#include <vector>

#include "Splitter.h"

namespace svf {

class HybridSplitter : public Splitter {
 public:
  HybridSplitter(int mtry, int oblique_mtry, size_t min_node_size, int n_oblique, double split_ridge, double oblique_rows,
                 bool oob_choice, bool tree_choice, int min_leaf_size = 1, bool cox_step = false, int min_node_events = 0,
                 int rivals = kAxisRival, int oblique_stop = 0, size_t max_bins = 0)
      : mtry_(mtry), oblique_mtry_(oblique_mtry), min_node_size_(min_node_size < 2 ? 2 : min_node_size),
        n_oblique_(n_oblique < 0 ? 0 : n_oblique), split_ridge_(split_ridge), oblique_rows_(oblique_rows),
        oob_choice_(oob_choice), tree_choice_(tree_choice),
        min_leaf_size_(min_leaf_size < 1 ? 1 : static_cast<size_t>(min_leaf_size)), cox_step_(cox_step),
        min_node_events_(min_node_events < 0 ? 0 : min_node_events), rivals_(rivals),
        oblique_stop_(oblique_stop < 0 ? 0 : oblique_stop), max_bins_(max_bins) {}
  bool uses_oob() const override { return oob_choice_; }
  // the tree choice's rivals (`rivals`, bits): a structure grown with axis
  // cuts alone, one that keeps every hyperplane that wins in-bag
  static constexpr int kAxisRival = 1, kObliqueRival = 2;
  // with tree_choice, each tree is also grown by the rivals on its sample,
  // and the structure that predicts its out-of-bag rows best is kept:
  // rival() is the first of rivals() (the classification and regression
  // forests weigh one)
  std::unique_ptr<Splitter> rival() const override;
  std::vector<std::unique_ptr<Splitter>> rivals() const override;
  // the node and tree choices read out-of-bag rows of their own (Forest.cpp)
  double choosing_share() const override;
  bool fits_regression() const override { return true; }
  bool fits_any_outcome() const override { return true; }
  bool uses_column_ranks() const override { return true; }
  size_t column_bins() const override { return max_bins_; }
  size_t min_node_size() const override { return min_node_size_; }
  static std::unique_ptr<Splitter> create(const Params& params);
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;

 private:
  int mtry_;          // predictors of the axis candidates; <= 0: sqrt(p)
  int oblique_mtry_;  // predictors of the oblique candidates (the axis ones and more); <= 0: 2 * mtry
  size_t min_node_size_;
  int n_oblique_;
  double split_ridge_;
  double oblique_rows_;  // oblique candidates only in nodes of at least this many rows per drawn predictor
  bool oob_choice_;      // an oblique rule beats the best axis rule only on the node's out-of-bag rows too
  bool tree_choice_;
  size_t min_leaf_size_;  // cuts that ask for it: the fewest rows on a side
  bool cox_step_;         // hyperplanes: a Newton step of the outcome's likelihood, where it has one
  int min_node_events_;   // outcomes with events: nodes with fewer are leaves
  int rivals_;            // the tree choice's rivals: kAxisRival, kObliqueRival or both
  int oblique_stop_;      // > 0: no hyperplanes below this many axis cuts in a row (NodeContext::axis_run)
  size_t max_bins_;       // > 0: axis cuts of nodes of more rows than a column's bins at bin edges
};

}  // namespace svf
#endif
