#include "Tree.h"

#include <cmath>
#include <sstream>

#include "SplitKinds.h"

namespace svf {

TreeView view_of(const Tree& tree) {
  TreeView v;
  v.n_nodes = tree.left_child.size();
  v.n_leaves = tree.leaf_kind.size();
  v.left_child = tree.left_child.data();
  v.right_child = tree.right_child.data();
  v.leaf_id = tree.leaf_id.data();
  v.split_kind = tree.split_kind.data();
  v.split_int_start = tree.split_int_start.data();
  v.split_real_start = tree.split_real_start.data();
  v.split_int = tree.split_int.data();
  v.split_real = tree.split_real.data();
  v.n_split_int = tree.split_int.size();
  v.n_split_real = tree.split_real.size();
  v.leaf_kind = tree.leaf_kind.data();
  v.leaf_size = tree.leaf_size.data();
  v.leaf_oob = tree.leaf_oob.empty() ? nullptr : tree.leaf_oob.data();
  v.leaf_int_start = tree.leaf_int_start.data();
  v.leaf_real_start = tree.leaf_real_start.data();
  v.leaf_int = tree.leaf_int.data();
  v.leaf_real = tree.leaf_real.data();
  v.n_leaf_int = tree.leaf_int.size();
  v.n_leaf_real = tree.leaf_real.size();
  v.factor_int = tree.factor_int.data();
  v.factor_real = tree.factor_real.data();
  v.n_factor_int = tree.factor_int.size();
  v.n_factor_real = tree.factor_real.size();
  return v;
}

std::string validate_tree(const TreeView& t, size_t p) {
  std::ostringstream err;
  if (t.n_nodes == 0) return "a tree has no nodes";
  if (t.n_leaves == 0) return "a tree has no leaves";
  std::vector<char> seen(t.n_leaves, 0);
  for (size_t i = 0; i < t.n_nodes; ++i) {
    const int leaf = t.leaf_id[i];
    if (leaf >= 0) {
      if (static_cast<size_t>(leaf) >= t.n_leaves || seen[leaf] || t.split_kind[i] != -1) {
        err << "node " << i << " names leaf " << leaf << " out of range or twice";
        return err.str();
      }
      seen[leaf] = 1;
      continue;
    }
    if (leaf != -1) {
      err << "node " << i << " has a negative leaf number";
      return err.str();
    }
    const long is = t.split_int_start[i], rs = t.split_real_start[i];
    if (is < 0 || rs < 0 || static_cast<size_t>(is) > t.n_split_int ||
        static_cast<size_t>(rs) > t.n_split_real) {
      err << "node " << i << " has split values out of range";
      return err.str();
    }
    const std::string problem = check_split(t.split_kind[i], t.split_int + is, t.n_split_int - is,
                                            t.split_real + rs, t.n_split_real - rs, p);
    if (!problem.empty()) {
      err << "node " << i << ": " << problem;
      return err.str();
    }
    const int l = t.left_child[i], r = t.right_child[i];
    if (l <= static_cast<int>(i) || r <= static_cast<int>(i) || static_cast<size_t>(l) >= t.n_nodes ||
        static_cast<size_t>(r) >= t.n_nodes) {
      err << "node " << i << " has children out of range";
      return err.str();
    }
  }
  for (size_t leaf = 0; leaf < t.n_leaves; ++leaf) {
    if (!seen[leaf]) return "a leaf is not reached by any node";
    const long is = t.leaf_int_start[leaf], rs = t.leaf_real_start[leaf];
    if (is < 0 || rs < 0 || static_cast<size_t>(is) > t.n_leaf_int || static_cast<size_t>(rs) > t.n_leaf_real)
      return "leaf values out of range";
    if (t.leaf_size[leaf] < 0) return "a leaf has a negative size";
    if (t.leaf_oob && t.leaf_oob[leaf] < 0) return "a leaf has a negative out-of-bag count";
  }
  return validate_level_values(t, p);
}

std::string validate_level_values(const TreeView& t, size_t p) {
  if (t.n_factor_int % 2 != 0) return "the factor columns are damaged";
  size_t values = 0;
  for (size_t f = 0; f < t.n_factor_int; f += 2) {
    const int col = t.factor_int[f], levels = t.factor_int[f + 1];
    if (col < 0 || static_cast<size_t>(col) >= p || levels < 1) return "a factor column is out of range";
    for (size_t g = 0; g < f; g += 2)
      if (t.factor_int[g] == col) return "a factor column is coded twice";
    values += static_cast<size_t>(levels) + 1;
  }
  if (values != t.n_factor_real) return "the factor level values do not match the factor columns";
  for (size_t k = 0; k < t.n_factor_real; ++k)
    if (!std::isfinite(t.factor_real[k])) return "a factor level value is not finite";
  return "";
}

}  // namespace svf
