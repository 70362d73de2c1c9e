#include "model_convert.h"

#include <cmath>
#include <string>

using Rcpp::List;
using Rcpp::stop;

namespace {

SEXP element(const List& list, const char* name, const std::string& where) {
  if (!list.containsElementNamed(name)) stop("%s: element '%s' is missing", where, name);
  return list[name];
}

const int* int_field(const List& list, const char* name, R_xlen_t length, const std::string& where,
                     R_xlen_t* actual = nullptr) {
  SEXP v = element(list, name, where);
  if (TYPEOF(v) != INTSXP) stop("%s: element '%s' must be an integer vector", where, name);
  if (actual) *actual = XLENGTH(v);
  else if (XLENGTH(v) != length)
    stop("%s: element '%s' has length %d, expected %d", where, name, (int)XLENGTH(v), (int)length);
  return INTEGER(v);
}

const double* real_field(const List& list, const char* name, R_xlen_t length,
                         const std::string& where, R_xlen_t* actual = nullptr) {
  SEXP v = element(list, name, where);
  if (TYPEOF(v) != REALSXP) stop("%s: element '%s' must be a double vector", where, name);
  if (actual) *actual = XLENGTH(v);
  else if (XLENGTH(v) != length)
    stop("%s: element '%s' has length %d, expected %d", where, name, (int)XLENGTH(v), (int)length);
  return REAL(v);
}

int int_scalar(const List& list, const char* name, const std::string& where) {
  SEXP v = element(list, name, where);
  if (TYPEOF(v) != INTSXP || XLENGTH(v) != 1 || INTEGER(v)[0] == NA_INTEGER)
    stop("%s: element '%s' must be a single integer", where, name);
  return INTEGER(v)[0];
}

void check_csc(const int* i, const int* p, R_xlen_t nnz, int nrow, int ncol, const char* what) {
  if (p[0] != 0 || p[ncol] != nnz) stop("%s: malformed sparse matrix pointers", what);
  for (int j = 0; j < ncol; ++j) {
    if (p[j + 1] < p[j]) stop("%s: malformed sparse matrix pointers", what);
    for (int k = p[j]; k < p[j + 1]; ++k)
      if (i[k] < 0 || i[k] >= nrow || (k > p[j] && i[k] <= i[k - 1]))
        stop("%s: sparse matrix indices out of range or unsorted", what);
  }
}

}  // namespace

std::unique_ptr<svf::DataView> data_view_from_r(const List& data) {
  const std::string type = Rcpp::as<std::string>(data["type"]);
  if (type == "dense") {
    SEXP x = data["x"];
    if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x)) stop("internal: dense data must be a double matrix");
    return std::unique_ptr<svf::DataView>(new svf::DenseView(REAL(x), Rf_nrows(x), Rf_ncols(x)));
  }
  if (type == "sparse") {
    const int nrow = int_scalar(data, "nrow", "data"), ncol = int_scalar(data, "ncol", "data");
    R_xlen_t nnz;
    const int* i = int_field(data, "i", 0, "data", &nnz);
    const int* p = int_field(data, "p", ncol + 1, "data");
    const double* x = real_field(data, "x", nnz, "data");
    check_csc(i, p, nnz, nrow, ncol, "data");
    return std::unique_ptr<svf::DataView>(new svf::SparseView(i, p, x, nrow, ncol));
  }
  stop("internal: unknown data type '%s'", type);
}

std::unique_ptr<svf::RowSource> row_source_from_r(const List& data, size_t& n_cols) {
  const std::string type = Rcpp::as<std::string>(data["type"]);
  if (type == "dense") {
    SEXP x = data["x"];
    if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x)) stop("internal: dense data must be a double matrix");
    n_cols = Rf_ncols(x);
    return std::unique_ptr<svf::RowSource>(new svf::DenseRows(REAL(x), Rf_nrows(x)));
  }
  if (type == "csr") {
    const int nrow = int_scalar(data, "nrow", "data"), ncol = int_scalar(data, "ncol", "data");
    R_xlen_t nnz;
    const int* j = int_field(data, "j", 0, "data", &nnz);
    const int* p = int_field(data, "p", nrow + 1, "data");
    const double* x = real_field(data, "x", nnz, "data");
    check_csc(j, p, nnz, ncol, nrow, "data");  // CSR is the CSC of the transpose
    n_cols = ncol;
    return std::unique_ptr<svf::RowSource>(new svf::CsrRows(j, p, x, nrow));
  }
  stop("internal: unknown data type '%s'", type);
}

List tree_to_r(const svf::Tree& t) {
  using namespace Rcpp;
  // more elements than List::create() takes; each value is stored (and so
  // protected) as soon as it is made
  List out(31);
  CharacterVector names(31);
  int k = 0;
  auto set = [&](const char* name, SEXP value) {
    out[k] = value;
    names[k++] = name;
  };
  set("split_var", wrap(t.split_var));
  set("split_value", wrap(t.split_value));
  set("left_child", wrap(t.left_child));
  set("right_child", wrap(t.right_child));
  set("leaf_id", wrap(t.leaf_id));
  set("split_coef_start", wrap(t.split_coef_start));
  set("split_coef_count", wrap(t.split_coef_count));
  set("split_index", wrap(t.split_index));
  set("split_weight", wrap(t.split_weight));
  set("leaf_size", wrap(t.leaf_size));
  set("leaf_counts", wrap(t.leaf_counts));
  set("leaf_type", wrap(t.leaf_type));
  set("leaf_cost", wrap(t.leaf_cost));
  set("leaf_coef_start", wrap(t.leaf_coef_start));
  set("coef", wrap(t.coef));
  // transformation splits
  set("tf_start", wrap(t.tf_start));
  set("tf_rank", wrap(t.tf_rank));
  set("tf_dim", wrap(t.tf_dim));
  set("tf_values", wrap(t.tf_values));
  // kernel SVM leaves
  set("leaf_gamma", wrap(t.leaf_gamma));
  set("leaf_sv_start", wrap(t.leaf_sv_start));
  set("leaf_sv_count", wrap(t.leaf_sv_count));
  set("leaf_class_start", wrap(t.leaf_class_start));
  set("leaf_class_count", wrap(t.leaf_class_count));
  set("leaf_rho_start", wrap(t.leaf_rho_start));
  set("svm_class", wrap(t.svm_class));
  set("svm_class_sv", wrap(t.svm_class_sv));
  set("svm_rho", wrap(t.svm_rho));
  set("sv_ptr", wrap(t.sv_ptr));
  set("sv_index", wrap(t.sv_index));
  set("sv_value", wrap(t.sv_value));
  if (k != out.size()) stop("internal: tree_to_r element count");
  out.attr("names") = names;
  return out;
}

svf::TreeView tree_view_from_r(const List& tree, int num_classes, size_t p, int index,
                               int svm_min_rows) {
  const std::string where = "tree " + std::to_string(index + 1);
  svf::TreeView v;
  R_xlen_t n_nodes, n_leaves, coef_len;
  v.split_var = int_field(tree, "split_var", 0, where, &n_nodes);
  v.split_value = real_field(tree, "split_value", n_nodes, where);
  v.left_child = int_field(tree, "left_child", n_nodes, where);
  v.right_child = int_field(tree, "right_child", n_nodes, where);
  v.leaf_id = int_field(tree, "leaf_id", n_nodes, where);
  R_xlen_t split_coef_len;
  v.split_coef_start = int_field(tree, "split_coef_start", n_nodes, where);
  v.split_coef_count = int_field(tree, "split_coef_count", n_nodes, where);
  v.split_index = int_field(tree, "split_index", 0, where, &split_coef_len);
  v.split_weight = real_field(tree, "split_weight", split_coef_len, where);
  v.split_coef_len = split_coef_len;
  v.leaf_size = int_field(tree, "leaf_size", 0, where, &n_leaves);
  v.leaf_counts = int_field(tree, "leaf_counts", n_leaves * num_classes, where);
  v.leaf_type = int_field(tree, "leaf_type", n_leaves, where);
  real_field(tree, "leaf_cost", n_leaves, where);
  v.leaf_coef_start = int_field(tree, "leaf_coef_start", n_leaves, where);
  v.coef = real_field(tree, "coef", 0, where, &coef_len);
  v.n_nodes = n_nodes;
  v.n_leaves = n_leaves;
  v.coef_len = coef_len;
  v.svm_min_rows = svm_min_rows;
  R_xlen_t tf_len;
  v.tf_start = int_field(tree, "tf_start", n_nodes, where);
  v.tf_rank = int_field(tree, "tf_rank", n_nodes, where);
  v.tf_dim = int_field(tree, "tf_dim", n_nodes, where);
  v.tf_values = real_field(tree, "tf_values", 0, where, &tf_len);
  v.tf_len = tf_len;
  v.tf_cols = p;
  // kernel SVM leaves: the arrays are absent in models saved before they existed
  if (tree.containsElementNamed("leaf_gamma")) {
    R_xlen_t n_sv_ptr, sv_nnz, n_class, n_rho;
    v.leaf_gamma = real_field(tree, "leaf_gamma", n_leaves, where);
    v.leaf_sv_start = int_field(tree, "leaf_sv_start", n_leaves, where);
    v.leaf_sv_count = int_field(tree, "leaf_sv_count", n_leaves, where);
    v.leaf_class_start = int_field(tree, "leaf_class_start", n_leaves, where);
    v.leaf_class_count = int_field(tree, "leaf_class_count", n_leaves, where);
    v.leaf_rho_start = int_field(tree, "leaf_rho_start", n_leaves, where);
    v.svm_class = int_field(tree, "svm_class", 0, where, &n_class);
    v.svm_class_sv = int_field(tree, "svm_class_sv", n_class, where);
    v.svm_rho = real_field(tree, "svm_rho", 0, where, &n_rho);
    v.sv_ptr = int_field(tree, "sv_ptr", 0, where, &n_sv_ptr);
    if (n_sv_ptr < 1) stop("%s: element 'sv_ptr' must not be empty", where);
    v.sv_index = int_field(tree, "sv_index", 0, where, &sv_nnz);
    v.sv_value = real_field(tree, "sv_value", sv_nnz, where);
    v.n_sv = n_sv_ptr - 1;
    v.sv_nnz = sv_nnz;
    v.n_svm_class = n_class;
    v.n_rho = n_rho;
  }
  const std::string problem = svf::validate_tree(v, num_classes, p);
  if (!problem.empty()) stop("%s is damaged: %s", where, problem);
  return v;
}

void forest_from_r(const List& forest, ForestHandle& out) {
  const std::string where = "forest";
  const int K = int_scalar(forest, "num_classes", where);
  const int p = int_scalar(forest, "num_features", where);
  if (K < 2 || p < 1) stop("forest: num_classes or num_features out of range");
  const int svm_min_rows = int_scalar(forest, "svm_min_rows", where);
  if (svm_min_rows < 1) stop("forest: svm_min_rows out of range");
  const double* center = real_field(forest, "scale_center", p, where);
  const double* factor = real_field(forest, "scale_factor", p, where);
  out.scaling.center.assign(center, center + p);
  out.scaling.factor.assign(factor, factor + p);
  SEXP trees = element(forest, "trees", where);
  if (TYPEOF(trees) != VECSXP || XLENGTH(trees) < 1) stop("forest: 'trees' must be a non-empty list");
  List tree_list(trees);
  out.view.num_classes = K;
  out.view.num_features = p;
  out.view.scaling = &out.scaling;
  out.view.trees.clear();
  for (R_xlen_t t = 0; t < tree_list.size(); ++t) {
    SEXP tree = tree_list[t];
    if (TYPEOF(tree) != VECSXP) stop("forest: tree %d is not a list", (int)t + 1);
    out.view.trees.push_back(tree_view_from_r(List(tree), K, p, (int)t, svm_min_rows));
  }
}
