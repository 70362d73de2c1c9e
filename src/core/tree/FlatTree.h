// A tree's nodes packed one struct per node for prediction: routing a row
// then reads one cache line per node (the saved layout spreads a node over
// eight arrays), with an axis split's column and threshold inline.
#ifndef SVFOREST_FLATTREE_H
#define SVFOREST_FLATTREE_H

#include <vector>

#include "SplitKinds.h"
#include "Tree.h"

namespace svf {

struct FlatNode {
  double threshold;  // axis splits
  int column;        // axis splits; other kinds: the start of their integers
  int real_start;    // other kinds: the start of their doubles
  int left, right;
  int leaf;          // the leaf number, or -1 for a split
  int kind;
};

inline std::vector<FlatNode> flatten(const TreeView& t) {
  std::vector<FlatNode> nodes(t.n_nodes);
  for (size_t i = 0; i < t.n_nodes; ++i) {
    FlatNode& f = nodes[i];
    f.leaf = t.leaf_id[i];
    f.left = t.left_child[i];
    f.right = t.right_child[i];
    f.kind = f.leaf >= 0 ? -1 : t.split_kind[i];
    f.column = f.leaf >= 0 ? 0 : t.split_int_start[i];
    f.real_start = f.leaf >= 0 ? 0 : t.split_real_start[i];
    f.threshold = 0.0;
    if (f.kind == kSplitAxis) {
      f.column = t.split_int[t.split_int_start[i]];
      f.threshold = t.split_real[t.split_real_start[i]];
    }
  }
  return nodes;
}

// The leaf a row with values `x` reaches: as route() (Route.h), the same
// comparisons.
inline int route_flat(const FlatNode* nodes, const TreeView& t, size_t p, const double* x,
                      std::vector<double>& scratch) {
  const FlatNode* n = nodes;
  while (n->leaf < 0) {
    const bool left = n->kind == kSplitAxis
                          ? x[n->column] <= n->threshold
                          : split_goes_left(n->kind, t.split_int + n->column, t.split_real + n->real_start, p,
                                            [x](int col) { return x[col]; }, scratch);
    n = nodes + (left ? n->left : n->right);
  }
  return n->leaf;
}

}  // namespace svf
#endif
