// A fitted tree, in one format for every method: flat arrays, node i's
// children always have larger indices (so walking a tree always ends).
//
// Nodes: an internal node has a split kind and the offsets of its payload in
// split_int / split_real; each split kind owns its payload's layout and its
// routing (SplitKinds.h). A leaf node has split_kind -1 and a leaf number.
// Leaves: a leaf kind, its in-bag and out-of-bag rows, and the offsets of its payload in
// leaf_int / leaf_real; each leaf kind owns that layout and its prediction
// (leaves/). A saved model holds these arrays, the same whatever the method.
#ifndef SVFOREST_TREE_H
#define SVFOREST_TREE_H

#include <cstddef>
#include <string>
#include <vector>

namespace svf {

struct Tree {
  // nodes
  std::vector<int> left_child, right_child;  // -1 at leaves
  std::vector<int> leaf_id;                  // -1 at internal nodes
  std::vector<int> split_kind;               // SplitKind, -1 at leaves
  std::vector<int> split_int_start, split_real_start;  // -1 at leaves
  std::vector<int> split_int;
  std::vector<double> split_real;
  // leaves
  std::vector<int> leaf_kind;   // see leaves/LeafKinds.h
  std::vector<int> leaf_size;   // in-bag rows
  // out-of-bag rows (choosing and scoring) that reach each leaf; empty in
  // trees saved before the counts were kept
  std::vector<int> leaf_oob;
  std::vector<int> leaf_int_start, leaf_real_start;
  std::vector<int> leaf_int;
  std::vector<double> leaf_real;
  // factor columns coded by this tree (data/LevelValues.h): pairs (column,
  // number of levels L), and per pair L + 1 values; empty without them
  std::vector<int> factor_int;
  std::vector<double> factor_real;

  int add_node() {
    left_child.push_back(-1);
    right_child.push_back(-1);
    leaf_id.push_back(-1);
    split_kind.push_back(-1);
    split_int_start.push_back(-1);
    split_real_start.push_back(-1);
    return static_cast<int>(left_child.size()) - 1;
  }

  // Frees the arrays' spare capacity (push_back doubles it): a forest of
  // large trees would otherwise hold up to twice its size until it is
  // copied to R.
  void shrink_to_fit() {
    for (std::vector<int>* v : {&left_child, &right_child, &leaf_id, &split_kind, &split_int_start,
                                &split_real_start, &split_int, &leaf_kind, &leaf_size, &leaf_oob,
                                &leaf_int_start, &leaf_real_start, &leaf_int, &factor_int})
      v->shrink_to_fit();
    split_real.shrink_to_fit();
    leaf_real.shrink_to_fit();
    factor_real.shrink_to_fit();
  }
};

// Non-owning view of a tree's arrays, whether they live in a Tree or in an R
// list. Prediction trusts only views that passed validate_tree() and the
// leaf kinds' checks.
struct TreeView {
  size_t n_nodes = 0, n_leaves = 0;
  const int* left_child = nullptr;
  const int* right_child = nullptr;
  const int* leaf_id = nullptr;
  const int* split_kind = nullptr;
  const int* split_int_start = nullptr;
  const int* split_real_start = nullptr;
  const int* split_int = nullptr;
  const double* split_real = nullptr;
  size_t n_split_int = 0, n_split_real = 0;
  const int* leaf_kind = nullptr;
  const int* leaf_size = nullptr;
  const int* leaf_oob = nullptr;  // null when the tree has no out-of-bag counts
  const int* leaf_int_start = nullptr;
  const int* leaf_real_start = nullptr;
  const int* leaf_int = nullptr;
  const double* leaf_real = nullptr;
  size_t n_leaf_int = 0, n_leaf_real = 0;
  const int* factor_int = nullptr;
  const double* factor_real = nullptr;
  size_t n_factor_int = 0, n_factor_real = 0;
};

TreeView view_of(const Tree& tree);

// A leaf's payload: from its offsets to the end of the tree's arrays (a leaf
// kind reads its own length from its payload and checks it fits).
struct LeafPayload {
  int kind = 0;
  const int* ints = nullptr;
  size_t n_ints = 0;
  const double* reals = nullptr;
  size_t n_reals = 0;
};

inline LeafPayload leaf_payload(const TreeView& t, int leaf) {
  LeafPayload l;
  l.kind = t.leaf_kind[leaf];
  l.ints = t.leaf_int + t.leaf_int_start[leaf];
  l.n_ints = t.n_leaf_int - static_cast<size_t>(t.leaf_int_start[leaf]);
  l.reals = t.leaf_real + t.leaf_real_start[leaf];
  l.n_reals = t.n_leaf_real - static_cast<size_t>(t.leaf_real_start[leaf]);
  return l;
}

// Empty when the arrays form a valid tree on p predictors (structure, split
// payloads, leaf offsets); otherwise what is wrong. Leaf payloads are checked
// by their kinds (leaves/LeafKinds.h).
std::string validate_tree(const TreeView& t, size_t p);
// The factor part (factor_int, factor_real) alone; validate_tree() checks it.
std::string validate_level_values(const TreeView& t, size_t p);

}  // namespace svf
#endif
