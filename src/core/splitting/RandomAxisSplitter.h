// RSVT's totally random axis split: a feature drawn uniformly among those not
// constant in the node and a cut drawn uniformly along it.
//
// Admissible mode (default): the cut is drawn uniformly between the
// min_leaf-th smallest and the min_leaf-th largest value, so both children
// keep at least min_leaf rows and trees grow until leaves hold between
// min_leaf and 2 * min_leaf - 1 rows. A feature whose admissible range is
// empty (ties) is dropped and another drawn.
//
// Published mode: the cut is uniform between the node's min and max; when a
// child would get fewer than min_leaf rows the node gives up and becomes a
// leaf (the published code's behaviour, which leaves trees with few leaves).
#ifndef SVFOREST_RANDOMAXISSPLITTER_H
#define SVFOREST_RANDOMAXISSPLITTER_H

#include "Splitter.h"

namespace svf {

class RandomAxisSplitter : public Splitter {
 public:
  RandomAxisSplitter(size_t min_leaf, bool published)
      : min_leaf_(min_leaf < 1 ? 1 : min_leaf), published_(published) {}
  bool fits_regression() const override { return true; }
  size_t min_node_size() const override { return 2 * min_leaf_; }
  static std::unique_ptr<Splitter> create(const Params& params);
  bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const override;

 private:
  size_t min_leaf_;
  bool published_;
};

}  // namespace svf
#endif
