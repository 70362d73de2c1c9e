// RSVF's split (randomized support vector forest): a split is good when the
// linear SVMs of its two children make fewer out-of-bag errors than the
// node's own SVM.
//
// Candidates phi = (theta, omega, tau): theta is proj_dim distinct predictors,
// omega weights uniform in [0, 1] on the scaled predictors, tau the
// projection of a random in-bag row of the node. All candidates are drawn
// first from the tree's generator, then scored independently (in parallel
// when the caller's runner has threads), so the result does not depend on
// thread scheduling. A candidate is scored by training linear SVMs (the leaf
// model's rules, C = cost, no CV) on each child's in-bag rows, where in-bag
// rows within delta_tau of tau (a share of the node's projection range) go to
// both children, and counting their errors on each child's out-of-bag rows,
// which are routed by the plain rule, as at prediction time:
//   delta_e = e - (p_l e_l + p_r e_r) = (E - E_l - E_r) / n_oob,
// E the OOB errors of the node's own SVM. The best candidate (fewest child
// errors, first drawn on ties) splits the node if delta_e > 0. Child SVMs
// start from the node's solution and take at most max_iter Newton steps;
// candidates that cannot win are abandoned after their first child. With
// screen_fraction < 1, all candidates are first scored (without abandoning)
// on a random share of the node's distinct in-bag rows, drawn from the
// tree's generator, and only the screen_keep best are scored in full.
#ifndef SVFOREST_OOBSVMSPLITTER_H
#define SVFOREST_OOBSVMSPLITTER_H

#include "OobSvmNode.h"
#include "Splitter.h"

namespace svf {

// Screening is skipped when the subsample would have fewer rows: on smaller
// subsamples the ranking of candidates is too noisy (with 25% of the rows,
// screening every node cost 3-6 points on glass, urban land cover and wine
// quality; nodes of fewer than 2,000 rows are cheap to score in full anyway).
const size_t kMinScreenRows = 500;

class OobSvmSplitter : public Splitter {
 public:
  static std::unique_ptr<Splitter> create(const Params& params);
  explicit OobSvmSplitter(const OobSvmOptions& options);
  size_t min_node_size() const override { return 2 * opt_.min_leaf; }
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;
  bool uses_oob() const override { return true; }
  bool fits_regression() const override { return true; }
  bool parallel_inside() const override { return true; }
  bool needs_scaled_rows() const override { return true; }

  private:
  // Regression: candidates scored by the out-of-bag squared error of the
  // children's ridge models (lambda = 1 / cost), the node's own ridge model
  // being the error to beat.
  bool find_regression_split(const NodeContext& node, const std::vector<int>& unique,
                             const std::vector<int>& mult, Rng& rng, SplitRule& rule) const;
  OobSvmOptions opt_;
};

}  // namespace svf
#endif
