// CART split with entropy gain (TD-SVM's decomposition tree): the best cut
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
  size_t min_node_size() const override { return sigma_; }
  // Ties in gain keep the lowest feature, then the lowest cut; the cut is the
  // midpoint between two consecutive distinct values.
  bool find_split(const TrainingData& data, const int* rows, size_t n, Rng& rng,
                  SplitRule& rule) const override;

 private:
  size_t sigma_;
};

// Entropy gain (natural log) of splitting class counts `total` into `left`
// and total - left; n = sum(total), n_left = sum(left).
double entropy_gain(const int* total, const int* left, int num_classes, size_t n, size_t n_left);

}  // namespace svf
#endif
