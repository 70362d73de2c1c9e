// A fitted tree as flat arrays (node i's children always have larger indices,
// so walking a tree always ends), and a non-owning view of the same arrays
// used for prediction, whether they live in a Tree or in an R list.
#ifndef SVFOREST_TREE_H
#define SVFOREST_TREE_H

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

// Leaf reached by a row; get(col) returns the row's raw value of a predictor.
template <typename Get>
int route(const TreeView& t, Get get) {
  int node = 0;
  while (t.leaf_id[node] < 0) {
    double value;
    const int start = t.split_coef_start[node];
    if (start < 0) {
      value = get(t.split_var[node]);
    } else {
      value = 0.0;
      for (int k = start; k < start + t.split_coef_count[node]; ++k)
        value += t.split_weight[k] * get(t.split_index[k]);
    }
    node = value <= t.split_value[node] ? t.left_child[node] : t.right_child[node];
  }
  return t.leaf_id[node];
}

// Class predicted by a leaf for a scaled row (p features + bias).
int leaf_class(const TreeView& t, int leaf, int num_classes, size_t p, const feature_node* row);

// The leaf's class distribution: its class frequencies for a constant leaf,
// the SVM's predicted class (one-hot) for a linear leaf.
void leaf_distribution(const TreeView& t, int leaf, int num_classes, size_t p,
                       const feature_node* row, double* out);

// Empty when the arrays form a valid tree for num_classes classes and p
// predictors; otherwise what is wrong. Prediction trusts only checked trees.
std::string validate_tree(const TreeView& t, int num_classes, size_t p);

}  // namespace svf
#endif
