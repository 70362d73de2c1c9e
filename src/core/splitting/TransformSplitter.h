// Transformation forests' split (Qiu & Sapiro, "Learning transformations for
// classification forests"): the classes present in the node are divided at
// random into two groups A and B; a linear transform T (r x p) is learned by
// projected subgradient descent on
//   f(T) = ||T A||_* + ||T B||_* - ||T [A, B]||_*   subject to ||T||_2 = 1
// (columns of A, B are the groups' rows), which makes each group low-rank and
// pushes the groups' subspaces apart (f >= 0, f = 0 when they are orthogonal).
// Each group is then modelled by the top `dim` left singular vectors of its
// transformed rows, and a row goes to the group whose subspace reconstructs
// T x with the smaller residual.
//
// Inputs are used raw (no min-max scaling): subspaces pass through the origin
// and a shift would destroy that structure. Each row is divided by its norm
// for learning (every row weighs the same in the nuclear norms); routing is
// invariant to the scale of a row, so prediction needs no scaling at all.
//
// Cost: a group with m >= p rows is handled through its p x p Gram matrix
// (built once per node, m p^2), so an iteration costs O(r p^2 + r^3),
// independent of the number of rows; smaller groups work on their rows
// directly, O(r p m + min(r, m)^3).
#ifndef SVFOREST_TRANSFORMSPLITTER_H
#define SVFOREST_TRANSFORMSPLITTER_H

#include "Splitter.h"
#include "TransformLearning.h"

namespace svf {

struct TransformOptions {
  // rows of T; >= p: square T (identity start); 2 .. p - 1: a fat T learned
  // freely from the node's top principal directions; <= 0 (R's NA,
  // automatic): square when the node has at most kAutoRank varying
  // predictors, else T = W P with P the node's top kAutoRank principal
  // directions (a randomized range finder) and W square, learned
  int rank = 0;
  // true: affine subspaces on node-standardised predictors (each group's
  // subspace passes through its mean); false: the paper's linear subspaces
  // through the origin on raw predictors, rows of unit norm
  bool center = true;
  int dim = 10;         // subspace dimension of each group (the cap when dim_per_class > 0)
  // > 0: a node's subspace dimension is dim_per_class x (classes in the node) / 2,
  // at most dim; <= 0 (R's NA): always dim
  int dim_per_class = 0;
  int iterations = 30;  // subgradient steps
  double step = 0.5;    // step size (rows are unit norm and divided by sqrt(node size))
  // random class divisions tried per node (each with its own T); the best by
  // information gain of the node's rows is kept. 1: the first usable one.
  int tries = 1;
  size_t min_node_size = 5;
  // true ("oob"): the node's split is chosen among the learned T and the
  // identity T (the start of learning), each with subspace dimensions
  // 1..dim, by the information gain of their routing of the node's
  // out-of-bag rows (when the node has at least kMinOob of them; else as
  // false); false ("inbag", the paper): the learned T, its dimension (affine
  // kind) chosen by the gain of its routing of the node's own rows
  bool oob_choice = true;
};

class TransformSplitter : public Splitter {
 public:
  explicit TransformSplitter(const TransformOptions& o) : o_(o) {}
  size_t min_node_size() const override { return o_.min_node_size; }
  static std::unique_ptr<Splitter> create(const Params& params);
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;
  bool uses_oob() const override { return o_.oob_choice; }

 private:
  static const int kAttempts = 3;  // new class groups when a rule sends every row one way
  // The best split of one kind (affine or through the origin) and, when
  // need_gain or node_tries > 1, its information gain.
  bool split_kind(const NodeContext& node, Rng& rng, bool affine_kind, bool need_gain, SplitRule& rule,
                  double& best_gain) const;
  TransformOptions o_;
};

}  // namespace svf
#endif
