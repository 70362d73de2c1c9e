// Conversions between R objects and the engine: input matrices to DataView /
// RowSource, fitted trees to R lists and back. Reading an R list checks every
// element's type and length and the tree's structure, so a damaged model
// raises an R error instead of reading out of bounds.
#ifndef SVFOREST_MODEL_CONVERT_H
#define SVFOREST_MODEL_CONVERT_H

#include <Rcpp.h>
#include <memory>
#include <string>
#include <vector>

#include "core/data/DataView.h"
#include "core/data/RowSource.h"
#include "core/forest/Forest.h"
#include "core/forest/Predictor.h"
#include "core/tree/Tree.h"
#include "core/tree/TreeCodec.h"

// data: list(type = "dense", x = matrix) or
//       list(type = "sparse", i =, p =, x =, nrow =, ncol =)  (CSC)
std::unique_ptr<svf::DataView> data_view_from_r(const Rcpp::List& data);
// As above, but for prediction; sparse data must be given as CSR:
//       list(type = "csr", j =, p =, x =, nrow =, ncol =)
std::unique_ptr<svf::RowSource> row_source_from_r(const Rcpp::List& data, size_t& n_cols);

// Case weights from R (checked there first): NULL gives nullptr, else n
// positive finite doubles (an error otherwise). The pointer is R's memory.
const double* case_weights_from_r(SEXP weights, size_t n);

// A tree on p predictors as saved in a model: the compact layout
// (core/tree/TreeCodec.h; element `layout` = kCompactLayout) when the tree is
// in the grower's order, else the plain layout (the 14 arrays of Tree.h, as
// in model format 2). Both are read. Compact layout 1 (model formats 3 and
// 4) stores every leaf's kind and payload lengths and a varint per node's
// split kind; layout 2 (format 5) one value when all leaves share it and
// split kinds in 2 bits a node (TreeCodec.h). Both are read.
const int kCompactLayout = 2;
const int kCompactLayoutPerLeaf = 1;
Rcpp::List tree_to_r(const svf::Tree& tree, size_t p);
Rcpp::List tree_to_r_plain(const svf::Tree& tree);
// The compact layout `c` as a tree list, with the factor level values of
// `levels` (the tree's, when it has any): what tree_to_r() gives the tree.
Rcpp::List compact_tree_to_r(const svf::CompactTree& c, const svf::Tree& levels);
bool tree_is_compact(const Rcpp::List& tree);
// Decodes a compact tree list (an R error when it is damaged); `where`
// names it in messages. Returns the view of `out`, whose doubles point to
// the list's (without copy_reals `out` holds none).
svf::TreeView expand_tree_from_r(const Rcpp::List& tree, size_t p, const std::string& where, svf::Tree& out,
                                 bool copy_reals = true);

// Checked view of one tree list, of either layout. A compact tree is decoded
// into `storage`; the view points into the list or into `storage`, which
// must stay alive while the view is used. `compact` (when given) receives
// a compact tree's layout (n_nodes 0 for a plain tree).
svf::TreeView tree_view_from_r(const Rcpp::List& tree, const svf::OutcomeShape& shape, int index,
                               svf::Tree& storage, svf::CompactTreeView* compact = nullptr);

// A forest list's trees and scaling, checked. With group_nodes > 0 its
// compact trees are decoded a group at a time (ForestView::groups: trees of
// at most group_nodes nodes in all, or one tree), the first group's at
// once; else every tree is decoded.
struct ForestHandle {
  svf::Scaling scaling;
  std::vector<svf::Tree> storage;  // decoded compact trees
  svf::ForestView view;
  std::unique_ptr<svf::TreeGroups> groups;
};
void forest_from_r(const Rcpp::List& forest, ForestHandle& out, size_t group_nodes = 0);

// Decodes compact layout `c` into `out` (an R error naming `where` when it
// is damaged); the view's doubles point to c's.
svf::TreeView decode_compact(const svf::CompactTreeView& c, size_t p, const std::string& where, svf::Tree& out,
                             bool copy_reals);

// The compact trees of a forest list decoded a group at a time
// (ForestView::groups, src/forest_groups.cpp): trees of at most
// `group_nodes` nodes in all (or one tree) form a group; the first group
// stays decoded as checked, the others' are released once checked and
// decoded when their group is read.
class CompactGroups : public svf::TreeGroups {
 public:
  CompactGroups(ForestHandle& handle, size_t group_nodes) : handle_(handle), group_nodes_(group_nodes) {}
  // The next tree, decoded and checked (`view`), of layout `c` (n_nodes 0
  // for a plain tree, read where R holds it).
  void add(const svf::CompactTreeView& c, const svf::TreeView& view);
  size_t group_end(size_t first) const override;
  void load(size_t first, size_t last) override;

 private:
  void release(size_t t);
  ForestHandle& handle_;
  size_t group_nodes_;
  std::vector<svf::CompactTreeView> compact_;
  std::vector<svf::TreeView> levels_;  // the views as checked: their level values point into R's list
  std::vector<char> loaded_;
};

// A fit's out-of-bag results (core/forest/Forest.h) as R data, for n rows;
// `cause_names`: a competing-risks outcome's causes (NULL otherwise), the
// tally's third dimension (model_convert.cpp lists each outcome's elements).
// A survival or competing-risks tally (`chf_sum`) is moved: released as it
// is copied, so it is never held twice.
Rcpp::List oob_to_r(svf::OobResult& oob, size_t n, int num_classes, SEXP cause_names);

#endif
