// A tree's nodes packed one struct per node for prediction: routing a row
// then reads one cache line per node (the saved layout spreads a node over
// eight arrays), with an axis split's column and threshold inline.
#ifndef SVFOREST_FLATTREE_H
#define SVFOREST_FLATTREE_H

#include <algorithm>
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

// The sums of four oblique splits' projections (split_projection()), one row
// each (ints, reals: the splits' payloads; x: the rows' values). Each sum
// adds its terms in their own order, as split_projection() does; the four
// run side by side so that one's additions do not wait on another's.
inline void oblique_sums4(const int* const* ints, const double* const* reals, const double* const* x, double* s) {
  const int len = std::min(std::min(ints[0][0], ints[1][0]), std::min(ints[2][0], ints[3][0]));
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (int k = 1; k <= len; ++k) {
    s0 += reals[0][k] * x[0][ints[0][k]];
    s1 += reals[1][k] * x[1][ints[1][k]];
    s2 += reals[2][k] * x[2][ints[2][k]];
    s3 += reals[3][k] * x[3][ints[3][k]];
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  for (int i = 0; i < 4; ++i)
    for (int k = len + 1; k <= ints[i][0]; ++k) s[i] += reals[i][k] * x[i][ints[i][k]];
}

// The leaves of m rows (row b's values at x + b * p, routed when use[b])
// written to leaf[b] (-1 for rows not routed), with the comparisons of
// route() (Route.h). The rows go down together, one level per pass, so the reads
// of their next nodes overlap instead of each waiting for the one before,
// and the rows at oblique nodes are summed four at a time (oblique_sums4).
// `row`, `node` and `waiting` have room for m entries each.
inline void route_flat_rows(const FlatNode* nodes, const TreeView& t, size_t p, const double* x, const char* use,
                            size_t m, int* leaf, int* row, int* node, int* waiting, std::vector<double>& scratch) {
  size_t active = 0;
  for (size_t b = 0; b < m; ++b) {
    leaf[b] = -1;
    if (use[b]) {
      row[active] = static_cast<int>(b);
      node[active++] = 0;
    }
  }
  const int* ints[4];
  const double* reals[4];
  const double* xs[4];
  double sums[4];
  while (active > 0) {
    size_t kept = 0, n_waiting = 0;
    for (size_t j = 0; j < active; ++j) {
      const int b = row[j];
      const FlatNode& n = nodes[node[j]];
      if (n.leaf >= 0) {
        leaf[b] = n.leaf;
        continue;
      }
      const double* xb = x + static_cast<size_t>(b) * p;
      row[kept] = b;
      if (n.kind == kSplitOblique) {  // decided below
        node[kept] = node[j];
        waiting[n_waiting++] = static_cast<int>(kept++);
        continue;
      }
      const bool left = n.kind == kSplitAxis ? xb[n.column] <= n.threshold
                                             : split_goes_left(n.kind, t.split_int + n.column,
                                                               t.split_real + n.real_start, p,
                                                               [xb](int col) { return xb[col]; }, scratch);
      node[kept++] = left ? n.left : n.right;
    }
    for (size_t g = 0; g < n_waiting; g += 4) {
      const size_t in_group = std::min<size_t>(4, n_waiting - g);
      for (size_t i = 0; i < 4; ++i) {  // a short group repeats its first row
        const int k = waiting[g + (i < in_group ? i : 0)];
        const FlatNode& n = nodes[node[k]];
        ints[i] = t.split_int + n.column;
        reals[i] = t.split_real + n.real_start;
        xs[i] = x + static_cast<size_t>(row[k]) * p;
      }
      oblique_sums4(ints, reals, xs, sums);
      for (size_t i = 0; i < in_group; ++i) {
        const int k = waiting[g + i];
        const FlatNode& n = nodes[node[k]];
        node[k] = sums[i] <= reals[i][0] ? n.left : n.right;
      }
    }
    active = kept;
  }
}

}  // namespace svf
#endif
