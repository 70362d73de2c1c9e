#include "Tree.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "KernelSvmLeaf.h"
#include "ScaledRows.h"

namespace svf {

TreeView view_of(const Tree& tree) {
  TreeView v;
  v.n_nodes = tree.split_var.size();
  v.n_leaves = tree.leaf_size.size();
  v.coef_len = tree.coef.size();
  v.split_var = tree.split_var.data();
  v.split_value = tree.split_value.data();
  v.left_child = tree.left_child.data();
  v.right_child = tree.right_child.data();
  v.leaf_id = tree.leaf_id.data();
  v.split_coef_start = tree.split_coef_start.data();
  v.split_coef_count = tree.split_coef_count.data();
  v.split_index = tree.split_index.data();
  v.split_weight = tree.split_weight.data();
  v.split_coef_len = tree.split_index.size();
  v.leaf_size = tree.leaf_size.data();
  v.leaf_counts = tree.leaf_counts.data();
  v.leaf_type = tree.leaf_type.data();
  v.leaf_coef_start = tree.leaf_coef_start.data();
  v.coef = tree.coef.data();
  v.svm_min_rows = tree.svm_min_rows;
  v.tf_start = tree.tf_start.data();
  v.tf_rank = tree.tf_rank.data();
  v.tf_dim = tree.tf_dim.data();
  v.tf_values = tree.tf_values.data();
  v.tf_len = tree.tf_values.size();
  v.tf_cols = tree.tf_cols;
  if (!tree.leaf_gamma.empty()) {
    v.n_sv = tree.sv_ptr.size() - 1;
    v.sv_nnz = tree.sv_index.size();
    v.n_svm_class = tree.svm_class.size();
    v.n_rho = tree.svm_rho.size();
    v.leaf_gamma = tree.leaf_gamma.data();
    v.leaf_sv_start = tree.leaf_sv_start.data();
    v.leaf_sv_count = tree.leaf_sv_count.data();
    v.leaf_class_start = tree.leaf_class_start.data();
    v.leaf_class_count = tree.leaf_class_count.data();
    v.leaf_rho_start = tree.leaf_rho_start.data();
    v.svm_class = tree.svm_class.data();
    v.svm_class_sv = tree.svm_class_sv.data();
    v.svm_rho = tree.svm_rho.data();
    v.sv_ptr = tree.sv_ptr.data();
    v.sv_index = tree.sv_index.data();
    v.sv_value = tree.sv_value.data();
  }
  return v;
}

int linear_leaf_outputs(const int* counts, int num_classes, int min_rows) {
  int present = 0;
  for (int k = 0; k < num_classes; ++k) present += counts[k] >= min_rows && counts[k] > 0;
  if (present < 2) return 0;  // not a valid linear leaf
  return present == 2 ? 1 : present;
}

static int majority_class(const int* counts, int num_classes) {
  int best = 0;
  for (int k = 1; k < num_classes; ++k)
    if (counts[k] > counts[best]) best = k;
  return best;
}

int leaf_class(const TreeView& t, int leaf, int num_classes, size_t p, const feature_node* row) {
  const int* counts = t.leaf_counts + static_cast<size_t>(leaf) * num_classes;
  if (is_kernel_leaf(t.leaf_type[leaf])) return kernel_leaf_class(t, leaf, p, row);
  if (t.leaf_type[leaf] != kLeafLinear) return majority_class(counts, num_classes);
  const double* w = t.coef + t.leaf_coef_start[leaf];
  const size_t stride = p + 1;
  const int min_rows = std::max(1, t.svm_min_rows);
  if (linear_leaf_outputs(counts, num_classes, min_rows) == 1) {
    // binary leaf: positive side is the second SVM class
    int first = -1, second = -1;
    for (int k = 0; k < num_classes; ++k)
      if (counts[k] >= min_rows) { if (first < 0) first = k; else { second = k; break; } }
    return dot(w, row) > 0.0 ? second : first;
  }
  int best = -1, o = 0;
  double best_value = -HUGE_VAL;
  for (int k = 0; k < num_classes; ++k) {
    if (counts[k] < min_rows) continue;
    const double d = dot(w + o * stride, row);
    if (best < 0 || d > best_value) { best = k; best_value = d; }
    ++o;
  }
  return best;
}

int leaf_class_confidence(const TreeView& t, int leaf, int num_classes, size_t p,
                          const feature_node* row, double* confidence) {
  const int* counts = t.leaf_counts + static_cast<size_t>(leaf) * num_classes;
  const int cls = leaf_class(t, leaf, num_classes, p, row);
  if (t.leaf_type[leaf] != kLeafLinear) {
    double total = 0.0;
    for (int k = 0; k < num_classes; ++k) total += counts[k];
    *confidence = 2.0 * counts[cls] / total - 1.0;
    return cls;
  }
  const double* w = t.coef + t.leaf_coef_start[leaf];
  const int min_rows = std::max(1, t.svm_min_rows);
  if (linear_leaf_outputs(counts, num_classes, min_rows) == 1) {
    *confidence = std::fabs(dot(w, row));
    return cls;
  }
  int o = 0;  // output of class cls: its rank among the SVM classes
  for (int k = 0; k < cls; ++k) o += counts[k] >= min_rows && counts[k] > 0;
  *confidence = dot(w + o * (p + 1), row);
  return cls;
}

void leaf_distribution(const TreeView& t, int leaf, int num_classes, size_t p,
                       const feature_node* row, double* out) {
  const int* counts = t.leaf_counts + static_cast<size_t>(leaf) * num_classes;
  for (int k = 0; k < num_classes; ++k) out[k] = 0.0;
  if (t.leaf_type[leaf] != kLeafConstant) {
    out[leaf_class(t, leaf, num_classes, p, row)] = 1.0;
    return;
  }
  double total = 0.0;
  for (int k = 0; k < num_classes; ++k) total += counts[k];
  for (int k = 0; k < num_classes; ++k) out[k] = counts[k] / total;
}

std::string validate_tree(const TreeView& t, int num_classes, size_t p) {
  std::ostringstream err;
  if (t.n_nodes == 0) return "a tree has no nodes";
  if (t.n_leaves == 0) return "a tree has no leaves";
  std::vector<char> seen(t.n_leaves, 0);
  for (size_t i = 0; i < t.n_nodes; ++i) {
    const int leaf = t.leaf_id[i];
    if (leaf >= 0) {
      if (static_cast<size_t>(leaf) >= t.n_leaves || seen[leaf]) {
        err << "node " << i << " names leaf " << leaf << " out of range or twice";
        return err.str();
      }
      seen[leaf] = 1;
    } else {
      const long start = t.split_coef_start[i], count = t.split_coef_count[i];
      const long tf = t.tf_start[i], rank = t.tf_rank[i], dim = t.tf_dim[i];
      if (tf >= 0) {
        // T (r x p) and two r x k bases must lie inside tf_values
        if (start != -1 || rank < 1 || dim < 1 || dim > rank || t.tf_cols != p ||
            static_cast<size_t>(tf) + static_cast<size_t>(rank) * (p + 2 * dim) > t.tf_len) {
          err << "node " << i << " has transformation split values out of range";
          return err.str();
        }
      } else if (tf != -1) {
        err << "node " << i << " has a negative transformation offset";
        return err.str();
      } else if (start >= 0) {
        if (count < 1 || static_cast<size_t>(start + count) > t.split_coef_len) {
          err << "node " << i << " has oblique split coefficients out of range";
          return err.str();
        }
        for (long k = start; k < start + count; ++k)
          if (t.split_index[k] < 0 || static_cast<size_t>(t.split_index[k]) >= p) {
            err << "node " << i << " splits on predictor " << t.split_index[k] << " out of range";
            return err.str();
          }
      } else if (leaf != -1 || start != -1 || t.split_var[i] < 0 ||
                 static_cast<size_t>(t.split_var[i]) >= p) {
        err << "node " << i << " splits on predictor " << t.split_var[i] << " out of range";
        return err.str();
      }
      const int l = t.left_child[i], r = t.right_child[i];
      if (l <= static_cast<int>(i) || r <= static_cast<int>(i) ||
          static_cast<size_t>(l) >= t.n_nodes || static_cast<size_t>(r) >= t.n_nodes) {
        err << "node " << i << " has children out of range";
        return err.str();
      }
    }
  }
  if (t.leaf_gamma != nullptr) {
    const std::string problem = validate_support_vectors(t, p);
    if (!problem.empty()) return problem;
  }
  for (size_t leaf = 0; leaf < t.n_leaves; ++leaf) {
    if (!seen[leaf]) return "a leaf is not reached by any node";
    const int* counts = t.leaf_counts + leaf * num_classes;
    long total = 0;
    for (int k = 0; k < num_classes; ++k) {
      if (counts[k] < 0) return "negative class count in a leaf";
      total += counts[k];
    }
    if (total <= 0) return "a leaf has no rows";
    if (t.leaf_type[leaf] == kLeafLinear) {
      const int outputs = linear_leaf_outputs(counts, num_classes, std::max(1, t.svm_min_rows));
      const long start = t.leaf_coef_start[leaf];
      if (outputs < 1 || start < 0 ||
          static_cast<size_t>(start) + static_cast<size_t>(outputs) * (p + 1) > t.coef_len)
        return "SVM coefficients of a leaf are out of range";
    } else if (is_kernel_leaf(t.leaf_type[leaf])) {
      const std::string problem = validate_kernel_leaf(t, leaf, num_classes);
      if (!problem.empty()) return problem;
    } else if (t.leaf_type[leaf] != kLeafConstant) {
      return "unknown leaf type";
    }
  }
  return "";
}

}  // namespace svf
