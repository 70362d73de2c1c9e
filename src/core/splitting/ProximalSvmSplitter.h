// PSVM trees' oblique split (proximal SVM in randomized trees): the classes
// present in the node are shuffled and added to overlay group A until A holds
// at least half the rows; the rest is group B. m is drawn uniformly in
// 1..m_max and m distinct predictors at random; the proximal SVM
//   (I / nu + E'E) z = E' D e,  E = [A, -e],  z = (w, gamma)
// is solved on the (scaled) predictors, and rows with x'w - gamma > 0 go to
// one child, the others to the other. The node stays a leaf unless both
// groups have more than n_min rows and the hyperplane leaves rows on both
// sides. A plane on few predictors often puts every row on the majority
// group's side; such a draw is retried (new groups and predictors) up to
// kAttempts times before the node becomes a leaf, so trees grow unpruned as
// in the paper.
//
// Two extensions, off by default (the paper's node): with cut_at_gain the
// hyperplane's offset is not the proximal SVM's gamma but the cut along x'w of
// largest information gain (the direction is the proximal SVM's; the offset
// of a least-squares fit is poor when the groups are unbalanced); with
// tries > 1 each node draws `tries` (groups, predictors) in turn and keeps
// the split of largest information gain (Ho's random subspace search with K
// subsets; the paper uses K = 1).
#ifndef SVFOREST_PROXIMALSVMSPLITTER_H
#define SVFOREST_PROXIMALSVMSPLITTER_H

#include "ProximalSvm.h"
#include "Splitter.h"

namespace svf {

class ProximalSvmSplitter : public Splitter {
 public:
  ProximalSvmSplitter(double nu, size_t m_max, size_t n_min, bool cut_at_gain = false, int tries = 1)
      : nu_(nu), m_max_(m_max < 1 ? 1 : m_max), n_min_(n_min), cut_at_gain_(cut_at_gain),
        tries_(tries < 1 ? 1 : tries) {}
  size_t min_node_size() const override { return 2 * (n_min_ + 1); }
  static std::unique_ptr<Splitter> create(const Params& params);
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;

 private:
  static const int kAttempts = 10;
  bool try_split(const TrainingData& data, const int* rows, size_t n,
                 const std::vector<int>& counts, Rng& rng, SplitRule& rule, double& gain) const;
  double nu_;
  size_t m_max_, n_min_;
  bool cut_at_gain_;
  int tries_;
};

}  // namespace svf
#endif
