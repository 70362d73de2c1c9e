// Compact storage of a tree (model format 3). A saved tree keeps only what
// cannot be derived:
//   - per node its split kind (-1 at a leaf). The grower numbers nodes as it
//     splits them in preorder (root 0; a node split k-th gets children
//     2k + 1, 2k + 2) and appends split payloads in that order, and numbers
//     leaves in preorder; so children, leaf numbers and payload offsets follow
//     from the kinds (and each split kind's payload length).
//   - per leaf its kind, size and payload lengths (the offsets are their
//     running sums), and its out-of-bag count when the tree has them. A
//     kind or payload length that every leaf shares (a regression tree's
//     all do) is stored once (a tenth of a large tree); `shared_ok` says
//     whether a reader may expand such a one-value array (the layout that
//     writes them; the earlier one stores every leaf's). That layout also
//     packs the split kinds of a tree of more than one node in 2 bits a
//     node (kind + 1, low bits first, the last byte's spare bits 0) when
//     every kind is at most 2: a quarter of the bytes, told from varints
//     (a byte or more a node) by the length.
//   - the payloads: integers as zigzag varints (1 byte for values in
//     -64..63, most of them: predictor numbers, class numbers and counts;
//     an oblique split's ascending predictors, on at most 31, as one bit
//     mask), doubles as they are (routing and predictions stay bit for bit).
// A tree not in that order (no grower writes one, but a model could hold
// one) is saved in the plain layout of Tree.h instead; both are read.
#ifndef SVFOREST_TREECODEC_H
#define SVFOREST_TREECODEC_H

#include <cstddef>
#include <string>
#include <vector>

#include "Tree.h"

namespace svf {

struct CompactTree {
  int n_nodes = 0, n_leaves = 0;
  // varint-coded integers
  std::vector<unsigned char> split_kind, split_int, leaf_kind, leaf_size, leaf_int_length,
      leaf_real_length, leaf_int;
  std::vector<unsigned char> leaf_oob;  // empty: the tree has no out-of-bag counts
  std::vector<double> split_real, leaf_real;
};

// Non-owning view of a compact tree (e.g. in an R list).
struct Bytes {
  const unsigned char* data = nullptr;
  size_t size = 0;
};
struct CompactTreeView {
  long n_nodes = 0, n_leaves = 0;
  bool shared_ok = true;  // layout 2: one value for all leaves (leaf_kind, leaf_int_length,
                          // leaf_real_length), split kinds packed
  Bytes split_kind, split_int, leaf_kind, leaf_size, leaf_int_length, leaf_real_length, leaf_int;
  Bytes leaf_oob;  // size 0: no out-of-bag counts
  const double* split_real = nullptr;
  size_t n_split_real = 0;
  const double* leaf_real = nullptr;
  size_t n_leaf_real = 0;
};

CompactTreeView view_of(const CompactTree& c);

// The compact form of a tree on p predictors; false when the tree is not in
// the grower's order (decoding would not give it back exactly).
bool compact_tree(const Tree& tree, size_t p, CompactTree& out);

// Decodes a compact tree on p predictors: empty when it succeeded, else what
// is wrong (the decoded tree still needs validate_tree() and the leaf
// kinds' checks). Without copy_reals the doubles are left out of `out`
// (split_real, leaf_real empty): a view of the tree then points to c's.
std::string expand_tree(const CompactTreeView& c, size_t p, Tree& out, bool copy_reals = true);

// The nodes' children and leaf numbers from their split kinds alone (no
// payloads); empty or what is wrong.
std::string derive_nodes(const std::vector<int>& split_kind, long n_leaves, std::vector<int>& left,
                         std::vector<int>& right, std::vector<int>& leaf_id);

// Varints: zigzag-coded, 7 bits a byte, low bits first.
void put_varint(std::vector<unsigned char>& out, int value);
// Decodes all of `b` (n values when n >= 0, checked); false when the bytes
// are malformed or their count is not n.
bool get_varints(const Bytes& b, long n, std::vector<int>& out);
// A tree's n split kinds: varints, or (when `shared_ok`) packed in 2 bits.
bool get_split_kinds(const Bytes& b, long n, bool shared_ok, std::vector<int>& out);
// As get_varints(), but one value (when `shared_ok`) stands for all n.
bool get_leaf_varints(const Bytes& b, long n, bool shared_ok, std::vector<int>& out);

}  // namespace svf
#endif
