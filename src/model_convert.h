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
// in model format 2). Both are read.
const int kCompactLayout = 1;
Rcpp::List tree_to_r(const svf::Tree& tree, size_t p);
Rcpp::List tree_to_r_plain(const svf::Tree& tree);
bool tree_is_compact(const Rcpp::List& tree);
// Decodes a compact tree list (an R error when it is damaged); `where`
// names it in messages. Returns the view of `out`, whose doubles point to
// the list's (without copy_reals `out` holds none).
svf::TreeView expand_tree_from_r(const Rcpp::List& tree, size_t p, const std::string& where, svf::Tree& out,
                                 bool copy_reals = true);

// Checked view of one tree list, of either layout. A compact tree is decoded
// into `storage`; the view points into the list or into `storage`, which
// must stay alive while the view is used.
svf::TreeView tree_view_from_r(const Rcpp::List& tree, const svf::OutcomeShape& shape, int index,
                               svf::Tree& storage);

// A forest list's trees and scaling, checked.
struct ForestHandle {
  svf::Scaling scaling;
  std::vector<svf::Tree> storage;  // decoded compact trees
  svf::ForestView view;
};
void forest_from_r(const Rcpp::List& forest, ForestHandle& out);

// A fit's out-of-bag results (core/forest/Forest.h) as R data, for n rows;
// `cause_names`: a competing-risks outcome's causes (NULL otherwise), the
// tally's third dimension (model_convert.cpp lists each outcome's elements).
Rcpp::List oob_to_r(const svf::OobResult& oob, size_t n, int num_classes, SEXP cause_names);

#endif
