// A fitted tree as flat arrays (node i's children always have larger indices,
// so walking a tree always ends), and a non-owning view of the same arrays
// used for prediction, whether they live in a Tree or in an R list.
#ifndef SVFOREST_TREE_H
#define SVFOREST_TREE_H

#include <algorithm>
#include <string>
#include <vector>
#include <linear.h>

namespace svf {

enum LeafType { kLeafConstant = 0, kLeafLinear = 1, kLeafKernelOvo = 2, kLeafKernelOvr = 3 };

inline bool is_kernel_leaf(int type) { return type == kLeafKernelOvo || type == kLeafKernelOvr; }

struct Tree {
  // nodes
  std::vector<int> split_var;       // -1 at leaves
  std::vector<double> split_value;  // rows with x[split_var] <= split_value go left
  std::vector<int> left_child, right_child;  // -1 at leaves
  std::vector<int> leaf_id;         // -1 at internal nodes
  // oblique splits: rows with sum_k split_weight[s + k] * x[split_index[s + k]]
  // <= split_value go left, s = split_coef_start (-1 for axis splits and leaves)
  std::vector<int> split_coef_start, split_coef_count;
  std::vector<int> split_index;
  std::vector<double> split_weight;
  // leaves
  std::vector<int> leaf_size;        // in-bag rows
  std::vector<int> leaf_counts;      // num_classes x leaves, column-major
  std::vector<int> leaf_type;        // LeafType
  std::vector<double> leaf_cost;     // chosen C (NaN for constant leaves)
  std::vector<int> leaf_coef_start;  // offset into coef, -1 for constant leaves
  std::vector<double> coef;          // (p + 1) weights per output, last = bias
  // classes with at least this many rows in a linear leaf have an SVM output
  int svm_min_rows = 1;
  // transformation (subspace) splits: node i with tf_start[i] >= 0 keeps, from
  // tf_values[tf_start[i]], T (tf_rank x p), then the bases of groups A and B
  // (tf_rank x tf_dim each), all column-major; see subspace_goes_left()
  std::vector<int> tf_start, tf_rank, tf_dim;  // per node; -1 / 0 / 0 otherwise
  std::vector<double> tf_values;
  size_t tf_cols = 0;  // p, set when the tree has transformation splits
  // kernel (RBF) SVM leaves, see KernelSvmLeaf.h. Per leaf (NaN / -1 / 0 for
  // other leaves): gamma, the leaf's support vectors sv_start .. + sv_count,
  // its SVM classes svm_class[class_start .. + class_count] (LIBSVM's order)
  // with svm_class_sv support vectors each (one-against-one), its rho values
  // from rho_start, and its coefficients in `coef` from leaf_coef_start
  // (rows x sv_count, row-major; rows = classes - 1 for one-against-one,
  // classes for one-against-others).
  std::vector<double> leaf_gamma;
  std::vector<int> leaf_sv_start, leaf_sv_count;
  std::vector<int> leaf_class_start, leaf_class_count, leaf_rho_start;
  std::vector<int> svm_class, svm_class_sv;
  std::vector<double> svm_rho;
  // support vectors as scaled sparse rows: vector s has predictors
  // sv_index[sv_ptr[s] .. sv_ptr[s + 1]) (0-based, increasing) and values sv_value
  std::vector<int> sv_ptr{0};
  std::vector<int> sv_index;
  std::vector<double> sv_value;

  int add_node() {
    split_var.push_back(-1);
    split_value.push_back(0.0);
    left_child.push_back(-1);
    right_child.push_back(-1);
    leaf_id.push_back(-1);
    split_coef_start.push_back(-1);
    split_coef_count.push_back(0);
    tf_start.push_back(-1);
    tf_rank.push_back(0);
    tf_dim.push_back(0);
    return static_cast<int>(split_var.size()) - 1;
  }
};

struct TreeView {
  size_t n_nodes = 0, n_leaves = 0, coef_len = 0, split_coef_len = 0;
  int svm_min_rows = 1;
  const int* split_var = nullptr;
  const double* split_value = nullptr;
  const int* left_child = nullptr;
  const int* right_child = nullptr;
  const int* leaf_id = nullptr;
  const int* split_coef_start = nullptr;
  const int* split_coef_count = nullptr;
  const int* split_index = nullptr;
  const double* split_weight = nullptr;
  const int* leaf_size = nullptr;
  const int* leaf_counts = nullptr;
  const int* leaf_type = nullptr;
  const int* leaf_coef_start = nullptr;
  const double* coef = nullptr;
  // transformation splits (see Tree)
  const int* tf_start = nullptr;
  const int* tf_rank = nullptr;
  const int* tf_dim = nullptr;
  const double* tf_values = nullptr;
  size_t tf_len = 0, tf_cols = 0;
  // kernel SVM leaves (null when the model has none)
  size_t n_sv = 0, sv_nnz = 0, n_svm_class = 0, n_rho = 0;
  const double* leaf_gamma = nullptr;
  const int* leaf_sv_start = nullptr;
  const int* leaf_sv_count = nullptr;
  const int* leaf_class_start = nullptr;
  const int* leaf_class_count = nullptr;
  const int* leaf_rho_start = nullptr;
  const int* svm_class = nullptr;
  const int* svm_class_sv = nullptr;
  const double* svm_rho = nullptr;
  const int* sv_ptr = nullptr;
  const int* sv_index = nullptr;
  const double* sv_value = nullptr;
};

TreeView view_of(const Tree& tree);

// Number of SVM outputs of a linear leaf with these class counts: the leaf's
// SVM classes are those with at least min_rows rows; one output for two such
// classes, one per class (one-vs-rest) for more.
int linear_leaf_outputs(const int* counts, int num_classes, int min_rows);

// Transformation split: with z = T x (T is r x p), the row goes left (group A)
// when basis A reconstructs z at least as well as basis B, i.e.
// ||z - U_A U_A' z|| <= ||z - U_B U_B' z||, which for orthonormal (or zero)
// basis columns is ||U_A' z||^2 >= ||U_B' z||^2. The rule is invariant to the
// scale of x. v = [T, U_A, U_B] column-major; z is scratch of length r.
template <typename Get>
bool subspace_goes_left(const double* v, int r, int k, size_t p, Get get, double* z) {
  std::fill(z, z + r, 0.0);
  for (size_t j = 0; j < p; ++j) {
    const double xj = get(static_cast<int>(j));
    if (xj == 0.0) continue;
    const double* tj = v + j * r;
    for (int i = 0; i < r; ++i) z[i] += tj[i] * xj;
  }
  const double* ua = v + p * r;
  const double* ub = ua + static_cast<size_t>(r) * k;
  double ea = 0.0, eb = 0.0;
  for (int c = 0; c < k; ++c) {
    double sa = 0.0, sb = 0.0;
    for (int i = 0; i < r; ++i) {
      sa += ua[c * r + i] * z[i];
      sb += ub[c * r + i] * z[i];
    }
    ea += sa * sa;
    eb += sb * sb;
  }
  return ea >= eb;
}

// Leaf reached by a row; get(col) returns the row's raw value of a predictor.
template <typename Get>
int route(const TreeView& t, Get get) {
  int node = 0;
  std::vector<double> z;  // scratch of transformation splits, allocated on first use
  while (t.leaf_id[node] < 0) {
    bool left;
    const int start = t.split_coef_start[node];
    if (start >= 0) {
      double value = 0.0;
      for (int k = start; k < start + t.split_coef_count[node]; ++k)
        value += t.split_weight[k] * get(t.split_index[k]);
      left = value <= t.split_value[node];
    } else if (t.tf_start[node] < 0) {
      left = get(t.split_var[node]) <= t.split_value[node];
    } else {
      z.resize(t.tf_rank[node]);
      left = subspace_goes_left(t.tf_values + t.tf_start[node], t.tf_rank[node], t.tf_dim[node],
                                t.tf_cols, get, z.data());
    }
    node = left ? t.left_child[node] : t.right_child[node];
  }
  return t.leaf_id[node];
}

// Class predicted by a leaf for a scaled row (p features + bias).
int leaf_class(const TreeView& t, int leaf, int num_classes, size_t p, const feature_node* row);

// Class predicted by a leaf and its confidence in it (max-confidence
// aggregation): the SVM decision value of that class (|w'x| for a binary
// leaf, the largest one-vs-rest value otherwise); for a constant leaf
// 2 * f - 1, f the majority class's frequency (1 for a pure leaf, the value
// of an SVM row on its margin).
int leaf_class_confidence(const TreeView& t, int leaf, int num_classes, size_t p,
                          const feature_node* row, double* confidence);

// The leaf's class distribution: its class frequencies for a constant leaf,
// the SVM's predicted class (one-hot) for a linear leaf.
void leaf_distribution(const TreeView& t, int leaf, int num_classes, size_t p,
                       const feature_node* row, double* out);

// Empty when the arrays form a valid tree for num_classes classes and p
// predictors; otherwise what is wrong. Prediction trusts only checked trees.
std::string validate_tree(const TreeView& t, int num_classes, size_t p);

}  // namespace svf
#endif
