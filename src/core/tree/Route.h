// The leaf a row reaches in a (validated) tree.
#ifndef SVFOREST_ROUTE_H
#define SVFOREST_ROUTE_H

#include <vector>

#include "SplitKinds.h"
#include "Tree.h"

namespace svf {

// get(col) returns the row's raw value of a predictor; p the number of
// predictors; scratch is reused between calls. Starts at `node` (the root
// by default).
template <typename Get>
int route(const TreeView& t, size_t p, Get get, std::vector<double>& scratch, int node = 0) {
  while (t.leaf_id[node] < 0) {
    const bool left = split_goes_left(t.split_kind[node], t.split_int + t.split_int_start[node],
                                      t.split_real + t.split_real_start[node], p, get, scratch);
    node = left ? t.left_child[node] : t.right_child[node];
  }
  return t.leaf_id[node];
}

}  // namespace svf
#endif
