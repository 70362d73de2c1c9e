#include "model_convert.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/leaves/LeafKinds.h"
#include "core/tree/TreeCodec.h"

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

namespace {

SEXP raw_of(const std::vector<unsigned char>& bytes) {
  Rcpp::RawVector out(bytes.size());
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

// A list of named elements (more than List::create() takes); each value is
// stored (and so protected) as soon as it is made.
class NamedList {
 public:
  explicit NamedList(int n) : out_(n), names_(n) {}
  void set(const char* name, SEXP value) {
    out_[k_] = value;
    names_[k_++] = name;
  }
  List done() {
    if (k_ != out_.size()) stop("internal: tree list element count");
    out_.attr("names") = names_;
    return out_;
  }

 private:
  List out_;
  Rcpp::CharacterVector names_;
  int k_ = 0;
};

// A tree's factor level values (forest/LevelValues.h), when it has any.
void set_level_values(const svf::Tree& t, NamedList& out) {
  if (t.factor_int.empty()) return;
  out.set("factor_int", Rcpp::wrap(t.factor_int));
  out.set("factor_real", Rcpp::wrap(t.factor_real));
}

// Fields a tree list has beyond the layout's own: its factor level values
// and out-of-bag counts, when it has them.
int optional_fields(const svf::Tree& t) { return (t.factor_int.empty() ? 0 : 2) + (t.leaf_oob.empty() ? 0 : 1); }

}  // namespace

List tree_to_r_plain(const svf::Tree& t) {
  using Rcpp::wrap;
  NamedList out(14 + optional_fields(t));
  out.set("left_child", wrap(t.left_child));
  out.set("right_child", wrap(t.right_child));
  out.set("leaf_id", wrap(t.leaf_id));
  out.set("split_kind", wrap(t.split_kind));
  out.set("split_int_start", wrap(t.split_int_start));
  out.set("split_real_start", wrap(t.split_real_start));
  out.set("split_int", wrap(t.split_int));
  out.set("split_real", wrap(t.split_real));
  out.set("leaf_kind", wrap(t.leaf_kind));
  out.set("leaf_size", wrap(t.leaf_size));
  out.set("leaf_int_start", wrap(t.leaf_int_start));
  out.set("leaf_real_start", wrap(t.leaf_real_start));
  out.set("leaf_int", wrap(t.leaf_int));
  out.set("leaf_real", wrap(t.leaf_real));
  set_level_values(t, out);
  if (!t.leaf_oob.empty()) out.set("leaf_oob", wrap(t.leaf_oob));
  return out.done();
}

List tree_to_r(const svf::Tree& t, size_t p) {
  svf::CompactTree c;
  if (!svf::compact_tree(t, p, c)) return tree_to_r_plain(t);
  return compact_tree_to_r(c, t);
}

List compact_tree_to_r(const svf::CompactTree& c, const svf::Tree& levels) {
  using Rcpp::wrap;
  NamedList out(12 + (levels.factor_int.empty() ? 0 : 2) + (c.leaf_oob.empty() ? 0 : 1));
  out.set("layout", wrap(kCompactLayout));
  out.set("n_nodes", wrap(c.n_nodes));
  out.set("n_leaves", wrap(c.n_leaves));
  out.set("split_kind", raw_of(c.split_kind));
  out.set("split_int", raw_of(c.split_int));
  out.set("split_real", wrap(c.split_real));
  out.set("leaf_kind", raw_of(c.leaf_kind));
  out.set("leaf_size", raw_of(c.leaf_size));
  out.set("leaf_int_length", raw_of(c.leaf_int_length));
  out.set("leaf_real_length", raw_of(c.leaf_real_length));
  out.set("leaf_int", raw_of(c.leaf_int));
  out.set("leaf_real", wrap(c.leaf_real));
  set_level_values(levels, out);
  if (!c.leaf_oob.empty()) out.set("leaf_oob", raw_of(c.leaf_oob));
  return out.done();
}

bool tree_is_compact(const List& tree) { return tree.containsElementNamed("layout"); }

svf::Bytes bytes_field(const List& list, const char* name, const std::string& where) {
  SEXP v = element(list, name, where);
  if (TYPEOF(v) != RAWSXP) stop("%s: element '%s' must be a raw vector", where, name);
  svf::Bytes b;
  b.data = RAW(v);
  b.size = XLENGTH(v);
  return b;
}

namespace {

// The compact layout of a tree list (its elements checked for type).
svf::CompactTreeView compact_view_from_r(const List& tree, const std::string& where) {
  const int layout = int_scalar(tree, "layout", where);
  if (layout != kCompactLayout && layout != kCompactLayoutPerLeaf) stop("%s: unknown tree layout", where);
  svf::CompactTreeView c;
  c.shared_ok = layout == kCompactLayout;
  c.n_nodes = int_scalar(tree, "n_nodes", where);
  c.n_leaves = int_scalar(tree, "n_leaves", where);
  c.split_kind = bytes_field(tree, "split_kind", where);
  c.split_int = bytes_field(tree, "split_int", where);
  R_xlen_t len;
  c.split_real = real_field(tree, "split_real", 0, where, &len);
  c.n_split_real = len;
  c.leaf_kind = bytes_field(tree, "leaf_kind", where);
  c.leaf_size = bytes_field(tree, "leaf_size", where);
  c.leaf_int_length = bytes_field(tree, "leaf_int_length", where);
  c.leaf_real_length = bytes_field(tree, "leaf_real_length", where);
  c.leaf_int = bytes_field(tree, "leaf_int", where);
  // trees saved before the out-of-bag counts were kept have none
  if (tree.containsElementNamed("leaf_oob")) {
    c.leaf_oob = bytes_field(tree, "leaf_oob", where);
    if (c.leaf_oob.size == 0) stop("%s is damaged: element 'leaf_oob' is empty", where);
  }
  c.leaf_real = real_field(tree, "leaf_real", 0, where, &len);
  c.n_leaf_real = len;
  return c;
}

}  // namespace

// Decodes `c` into `out` (an R error when it is damaged); the view's
// doubles point to c's.
svf::TreeView decode_compact(const svf::CompactTreeView& c, size_t p, const std::string& where, svf::Tree& out,
                             bool copy_reals) {
  const std::string problem = svf::expand_tree(c, p, out, copy_reals);
  if (!problem.empty()) stop("%s is damaged: %s", where, problem);
  svf::TreeView v = svf::view_of(out);
  v.split_real = c.split_real;
  v.n_split_real = c.n_split_real;
  v.leaf_real = c.leaf_real;
  v.n_leaf_real = c.n_leaf_real;
  return v;
}

svf::TreeView expand_tree_from_r(const List& tree, size_t p, const std::string& where, svf::Tree& out,
                                 bool copy_reals) {
  return decode_compact(compact_view_from_r(tree, where), p, where, out, copy_reals);
}

// The tree list's factor level values, when it has them (older models and
// trees without factor columns do not), into the view; checked by
// validate_tree().
void read_level_values(const List& tree, const std::string& where, svf::TreeView& v) {
  if (!tree.containsElementNamed("factor_int")) return;
  R_xlen_t len;
  v.factor_int = int_field(tree, "factor_int", 0, where, &len);
  v.n_factor_int = len;
  v.factor_real = real_field(tree, "factor_real", 0, where, &len);
  v.n_factor_real = len;
}

svf::TreeView tree_view_from_r(const List& tree, const svf::OutcomeShape& shape, int index, svf::Tree& storage,
                               svf::CompactTreeView* compact) {
  const std::string where = "tree " + std::to_string(index + 1);
  if (tree_is_compact(tree)) {
    // the doubles, most of a tree, are read where R holds them
    const svf::CompactTreeView c = compact_view_from_r(tree, where);
    if (compact) *compact = c;
    svf::TreeView v = decode_compact(c, shape.p, where, storage, false);
    read_level_values(tree, where, v);
    std::string problem = svf::validate_tree(v, shape.p);
    if (problem.empty()) problem = svf::validate_leaves(v, shape);
    if (!problem.empty()) stop("%s is damaged: %s", where, problem);
    return v;
  }
  // the plain layout (model format 2, and trees not in the grower's order)
  svf::TreeView v;
  R_xlen_t n_nodes, n_leaves, len;
  v.left_child = int_field(tree, "left_child", 0, where, &n_nodes);
  v.right_child = int_field(tree, "right_child", n_nodes, where);
  v.leaf_id = int_field(tree, "leaf_id", n_nodes, where);
  v.split_kind = int_field(tree, "split_kind", n_nodes, where);
  v.split_int_start = int_field(tree, "split_int_start", n_nodes, where);
  v.split_real_start = int_field(tree, "split_real_start", n_nodes, where);
  v.split_int = int_field(tree, "split_int", 0, where, &len);
  v.n_split_int = len;
  v.split_real = real_field(tree, "split_real", 0, where, &len);
  v.n_split_real = len;
  v.leaf_kind = int_field(tree, "leaf_kind", 0, where, &n_leaves);
  v.leaf_size = int_field(tree, "leaf_size", n_leaves, where);
  v.leaf_int_start = int_field(tree, "leaf_int_start", n_leaves, where);
  if (tree.containsElementNamed("leaf_oob")) v.leaf_oob = int_field(tree, "leaf_oob", n_leaves, where);
  v.leaf_real_start = int_field(tree, "leaf_real_start", n_leaves, where);
  v.leaf_int = int_field(tree, "leaf_int", 0, where, &len);
  v.n_leaf_int = len;
  v.leaf_real = real_field(tree, "leaf_real", 0, where, &len);
  v.n_leaf_real = len;
  v.n_nodes = n_nodes;
  v.n_leaves = n_leaves;
  read_level_values(tree, where, v);
  std::string problem = svf::validate_tree(v, shape.p);
  if (problem.empty()) problem = svf::validate_leaves(v, shape);
  if (!problem.empty()) stop("%s is damaged: %s", where, problem);
  return v;
}

void forest_from_r(const List& forest, ForestHandle& out, size_t group_nodes) {
  const std::string where = "forest";
  const int K = int_scalar(forest, "num_classes", where);
  const int p = int_scalar(forest, "num_features", where);
  // num_classes 0: a regression forest
  if (K == 1 || K < 0 || p < 1) stop("forest: num_classes or num_features out of range");
  const double* center = real_field(forest, "scale_center", p, where);
  const double* factor = real_field(forest, "scale_factor", p, where);
  out.scaling.center.assign(center, center + p);
  out.scaling.factor.assign(factor, factor + p);
  SEXP trees = element(forest, "trees", where);
  if (TYPEOF(trees) != VECSXP || XLENGTH(trees) < 1) stop("forest: 'trees' must be a non-empty list");
  List tree_list(trees);
  out.view.shape.num_classes = K;
  out.view.shape.p = p;
  // a survival forest's leaves are step functions on its event-time grid
  out.view.shape.num_times = 0;
  if (forest.containsElementNamed("times")) {
    SEXP times = forest["times"];
    if (K != 0 || TYPEOF(times) != REALSXP || XLENGTH(times) < 1) stop("forest: 'times' of a survival forest");
    out.view.shape.num_times = static_cast<int>(XLENGTH(times));
  }
  // a competing-risks forest's leaves hold each cause's curves on that grid
  out.view.shape.num_causes = 0;
  if (forest.containsElementNamed("num_causes")) {
    const int causes = int_scalar(forest, "num_causes", where);
    if (causes < 1 || out.view.shape.num_times < 1) stop("forest: 'num_causes' of a competing-risks forest");
    out.view.shape.num_causes = causes;
  }
  out.view.scaling = &out.scaling;
  out.view.readers = svf::all_leaf_readers();
  out.view.trees.clear();
  // decoded compact trees live here while the views are used (sized once:
  // the views point into these trees' arrays)
  out.storage.clear();
  out.storage.resize(tree_list.size());
  CompactGroups* groups = group_nodes > 0 ? new CompactGroups(out, group_nodes) : nullptr;
  out.groups.reset(groups);
  out.view.groups = groups;
  for (R_xlen_t t = 0; t < tree_list.size(); ++t) {
    SEXP tree = tree_list[t];
    if (TYPEOF(tree) != VECSXP) stop("forest: tree %d is not a list", (int)t + 1);
    svf::CompactTreeView c;  // n_nodes 0: a plain tree, read where R holds it
    out.view.trees.push_back(tree_view_from_r(List(tree), out.view.shape, (int)t, out.storage[t], &c));
    // beyond the first group, a checked tree is decoded again when its group is read
    if (groups) groups->add(c, out.view.trees.back());
  }
}

const double* case_weights_from_r(SEXP weights, size_t n) {
  if (Rf_isNull(weights)) return nullptr;
  if (TYPEOF(weights) != REALSXP || static_cast<size_t>(XLENGTH(weights)) != n) Rcpp::stop("internal: weights");
  for (R_xlen_t i = 0; i < XLENGTH(weights); ++i)
    if (!(REAL(weights)[i] > 0.0) || !std::isfinite(REAL(weights)[i])) Rcpp::stop("internal: weights must be positive");
  return REAL(weights);
}
