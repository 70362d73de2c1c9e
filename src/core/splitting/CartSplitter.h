// CART split with entropy gain (TD-SVM's decomposition tree; variance reduction
// for regression): the best cut
// over all features, rows with x[var] <= value going left. A node with fewer
// than `sigma` rows (the ceiling size) is a leaf; so is a node where no cut
// has positive gain. The rule is deterministic (draws no random numbers), so
// a tree grown with a larger sigma is the same tree with the nodes below
// that size merged into leaves (see TdSvm.h).
#ifndef SVFOREST_CARTSPLITTER_H
#define SVFOREST_CARTSPLITTER_H

#include "Splitter.h"

namespace svf {

class CartSplitter : public Splitter {
 public:
  explicit CartSplitter(size_t sigma) : sigma_(sigma < 2 ? 2 : sigma) {}
  bool fits_regression() const override { return true; }
  size_t min_node_size() const override { return sigma_; }
  // Ties in gain keep the lowest feature, then the lowest cut; the cut is the
  // midpoint between two consecutive distinct values.
  static std::unique_ptr<Splitter> create(const Params& params);
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;

 private:
  // regression: the largest reduction of squared error (variance reduction)
  bool find_regression_split(const NodeContext& node, SplitRule& rule) const;
  size_t sigma_;
};

}  // namespace svf
#endif
