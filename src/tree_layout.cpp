// The saved layouts of a tree (model_convert.h): R's tree accessors read a
// tree's node arrays through these, whichever layout it is saved in.
#include <Rcpp.h>

#include "core/tree/TreeCodec.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

namespace {

// A compact tree's varint array `name` of n values (shared_ok: one value may
// stand for all, compact layout 2).
std::vector<int> varints(const List& tree, const char* name, long n, bool shared_ok = false) {
  SEXP v = tree[name];
  if (TYPEOF(v) != RAWSXP) Rcpp::stop("tree: element '%s' must be a raw vector", name);
  svf::Bytes b;
  b.data = RAW(v);
  b.size = XLENGTH(v);
  std::vector<int> out;
  if (!svf::get_leaf_varints(b, n, shared_ok, out)) Rcpp::stop("tree is damaged: element '%s'", name);
  return out;
}

}  // namespace

// The node and leaf arrays of a tree list of either layout: left_child,
// right_child, leaf_id, split_kind (per node, from 0, -1 where not
// applicable), leaf_kind and leaf_size (per leaf), and leaf_oob (per leaf)
// when the tree has out-of-bag counts. No payloads are read.
// [[Rcpp::export(.svf_tree_nodes)]]
List svf_tree_nodes(List tree) {
  const bool has_oob = tree.containsElementNamed("leaf_oob");
  if (!tree_is_compact(tree)) {
    List out = List::create(Named("left_child") = tree["left_child"], Named("right_child") = tree["right_child"],
                            Named("leaf_id") = tree["leaf_id"], Named("split_kind") = tree["split_kind"],
                            Named("leaf_kind") = tree["leaf_kind"], Named("leaf_size") = tree["leaf_size"]);
    if (has_oob) out["leaf_oob"] = tree["leaf_oob"];
    return out;
  }
  const int n_nodes = Rcpp::as<int>(tree["n_nodes"]), n_leaves = Rcpp::as<int>(tree["n_leaves"]);
  const bool shared_ok = Rcpp::as<int>(tree["layout"]) == kCompactLayout;
  if (n_nodes < 1 || n_leaves < 1) Rcpp::stop("tree is damaged: node or leaf count out of range");
  std::vector<int> kind;
  SEXP kinds = tree["split_kind"];
  if (TYPEOF(kinds) != RAWSXP) Rcpp::stop("tree: element 'split_kind' must be a raw vector");
  const svf::Bytes kb{RAW(kinds), static_cast<size_t>(XLENGTH(kinds))};
  if (!svf::get_split_kinds(kb, n_nodes, shared_ok, kind)) Rcpp::stop("tree is damaged: element 'split_kind'");
  std::vector<int> left, right, leaf_id;
  const std::string problem = svf::derive_nodes(kind, n_leaves, left, right, leaf_id);
  if (!problem.empty()) Rcpp::stop("tree is damaged: %s", problem);
  List out = List::create(Named("left_child") = Rcpp::wrap(left), Named("right_child") = Rcpp::wrap(right),
                          Named("leaf_id") = Rcpp::wrap(leaf_id), Named("split_kind") = Rcpp::wrap(kind),
                          Named("leaf_kind") = Rcpp::wrap(varints(tree, "leaf_kind", n_leaves, shared_ok)),
                          Named("leaf_size") = Rcpp::wrap(varints(tree, "leaf_size", n_leaves)));
  if (has_oob) out["leaf_oob"] = Rcpp::wrap(varints(tree, "leaf_oob", n_leaves));
  return out;
}

// A tree list of either layout on p predictors (num_classes 0: regression),
// checked, in the given layout: "plain" (the 14 arrays of model format 2)
// or "compact" (the plain layout when the tree is not in the grower's order).
// `index` (from 1) names the tree in error messages.
// [[Rcpp::export(.svf_tree_layout)]]
List svf_tree_layout(List tree, int num_classes, int p, std::string layout, int index = 1, int num_times = 0,
                     int num_causes = 0) {
  svf::OutcomeShape shape;
  shape.num_classes = num_classes;
  shape.num_times = num_times;  // > 0: a survival forest's time grid
  shape.num_causes = num_causes;  // > 0: competing risks on that grid
  shape.p = static_cast<size_t>(p);
  if (num_classes == 1 || num_classes < 0 || p < 1) Rcpp::stop("internal: num_classes or p out of range");
  svf::Tree storage;
  const svf::TreeView v = tree_view_from_r(tree, shape, index - 1, storage);
  svf::Tree full;  // the view's arrays (in the list, in `storage` or both)
  full.left_child.assign(v.left_child, v.left_child + v.n_nodes);
  full.right_child.assign(v.right_child, v.right_child + v.n_nodes);
  full.leaf_id.assign(v.leaf_id, v.leaf_id + v.n_nodes);
  full.split_kind.assign(v.split_kind, v.split_kind + v.n_nodes);
  full.split_int_start.assign(v.split_int_start, v.split_int_start + v.n_nodes);
  full.split_real_start.assign(v.split_real_start, v.split_real_start + v.n_nodes);
  full.split_int.assign(v.split_int, v.split_int + v.n_split_int);
  full.split_real.assign(v.split_real, v.split_real + v.n_split_real);
  full.leaf_kind.assign(v.leaf_kind, v.leaf_kind + v.n_leaves);
  full.leaf_size.assign(v.leaf_size, v.leaf_size + v.n_leaves);
  if (v.leaf_oob) full.leaf_oob.assign(v.leaf_oob, v.leaf_oob + v.n_leaves);
  full.leaf_int_start.assign(v.leaf_int_start, v.leaf_int_start + v.n_leaves);
  full.leaf_real_start.assign(v.leaf_real_start, v.leaf_real_start + v.n_leaves);
  full.leaf_int.assign(v.leaf_int, v.leaf_int + v.n_leaf_int);
  full.leaf_real.assign(v.leaf_real, v.leaf_real + v.n_leaf_real);
  full.factor_int.assign(v.factor_int, v.factor_int + v.n_factor_int);
  full.factor_real.assign(v.factor_real, v.factor_real + v.n_factor_real);
  if (layout == "plain") return tree_to_r_plain(full);
  if (layout == "compact") return tree_to_r(full, shape.p);
  Rcpp::stop("internal: layout must be \"plain\" or \"compact\"");
}
