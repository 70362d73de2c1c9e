#include "KernelSvmLeaf.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <svm.h>

#include "ScaledRows.h"

namespace svf {

namespace {

struct ModelDeleter {
  void operator()(svm_model* m) const { svm_free_and_destroy_model(&m); }
};
using ModelPtr = std::unique_ptr<svm_model, ModelDeleter>;

ModelPtr train_libsvm(const svm_problem& prob, const KernelSvmOptions& opt) {
  svm_parameter param;
  std::memset(&param, 0, sizeof(param));
  param.svm_type = C_SVC;
  param.kernel_type = RBF;
  param.gamma = opt.gamma;
  param.C = opt.cost;
  param.eps = opt.tolerance;
  param.cache_size = opt.cache_mb;
  param.shrinking = 1;
  param.probability = 0;  // LIBSVM's probability fits draw from the C library's global generator
  const char* problem = svm_check_parameter(&prob, &param);
  if (problem != nullptr) throw std::invalid_argument(std::string("LIBSVM: ") + problem);
  svm_model* m = svm_train(&prob, &param);
  if (m == nullptr) throw std::runtime_error("LIBSVM failed to train a leaf SVM");
  return ModelPtr(m);
}

// Squared distance between a scaled row (1-based indices, predictors
// 1..p, then the bias node and the terminator) and a support vector
// (0-based indices), merging the two sorted index lists.
double squared_distance(const feature_node* x, size_t p, const int* idx, const double* val, int len) {
  double sum = 0.0;
  int k = 0;
  const int last = static_cast<int>(p);
  while (x->index != -1 && x->index <= last && k < len) {
    const int xi = x->index - 1;
    if (xi == idx[k]) {
      const double d = x->value - val[k];
      sum += d * d;
      ++x;
      ++k;
    } else if (xi > idx[k]) {
      sum += val[k] * val[k];
      ++k;
    } else {
      sum += x->value * x->value;
      ++x;
    }
  }
  for (; x->index != -1 && x->index <= last; ++x) sum += x->value * x->value;
  for (; k < len; ++k) sum += val[k] * val[k];
  return sum;
}

}  // namespace

void KernelSvmLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int* counts,
                             Rng&, LeafFit& out) const {
  out = LeafFit();
  const int K = data.num_classes;
  const int p = static_cast<int>(data.x->n_cols());
  std::vector<int> present;
  for (int k = 0; k < K; ++k)
    if (counts[k] > 0) present.push_back(k);
  if (present.size() < 2) return;  // homogeneous: predicts its class

  // The leaf's rows for LIBSVM: scaled predictors without the bias node.
  std::vector<svm_node> nodes;
  std::vector<size_t> start(n);
  for (size_t k = 0; k < n; ++k) {
    start[k] = nodes.size();
    for (const feature_node* f = data.scaled.row(rows[k]); f->index != -1; ++f)
      if (f->index <= p) nodes.push_back(svm_node{f->index, f->value});
    nodes.push_back(svm_node{-1, 0.0});
  }
  std::vector<svm_node*> x(n);
  for (size_t k = 0; k < n; ++k) x[k] = &nodes[start[k]];
  std::vector<double> y(n);
  svm_problem prob;
  prob.l = static_cast<int>(n);
  prob.y = y.data();
  prob.x = x.data();

  out.type = opt_.one_vs_one ? kLeafKernelOvo : kLeafKernelOvr;
  out.cost = opt_.cost;
  out.gamma = opt_.gamma;
  std::vector<int> sv_of_row(n, -1);  // leaf row -> support vector number
  auto add_sv = [&](int k) {
    if (sv_of_row[k] >= 0) return sv_of_row[k];
    sv_of_row[k] = static_cast<int>(out.sv_ptr.size()) - 1;
    for (const svm_node* f = x[k]; f->index != -1; ++f) {
      out.sv_index.push_back(f->index - 1);
      out.sv_value.push_back(f->value);
    }
    out.sv_ptr.push_back(static_cast<int>(out.sv_index.size()));
    return sv_of_row[k];
  };

  if (opt_.one_vs_one) {
    for (size_t k = 0; k < n; ++k) y[k] = data.y[rows[k]];
    ModelPtr m = train_libsvm(prob, opt_);
    const int nc = m->nr_class, l = m->l;
    for (int c = 0; c < nc; ++c) {
      out.classes.push_back(m->label[c]);
      out.class_sv.push_back(m->nSV[c]);
    }
    for (int s = 0; s < l; ++s) add_sv(m->sv_indices[s] - 1);  // SVs grouped by class
    out.coef.resize(static_cast<size_t>(nc - 1) * l);
    for (int j = 0; j < nc - 1; ++j)
      for (int s = 0; s < l; ++s) out.coef[static_cast<size_t>(j) * l + s] = m->sv_coef[j][s];
    out.rho.assign(m->rho, m->rho + nc * (nc - 1) / 2);
    return;
  }

  // One against others: one binary machine per class, decision value > 0 for
  // the class; the union of their support vectors is stored once.
  struct Machine {
    std::vector<int> sv;
    std::vector<double> coef;
  };
  std::vector<Machine> machines(present.size());
  for (size_t o = 0; o < present.size(); ++o) {
    for (size_t k = 0; k < n; ++k) y[k] = data.y[rows[k]] == present[o] ? 1.0 : -1.0;
    ModelPtr m = train_libsvm(prob, opt_);
    const double sign = m->label[0] == 1 ? 1.0 : -1.0;  // LIBSVM's first label is the + side
    for (int s = 0; s < m->l; ++s) {
      machines[o].sv.push_back(add_sv(m->sv_indices[s] - 1));
      machines[o].coef.push_back(sign * m->sv_coef[0][s]);
    }
    out.classes.push_back(present[o]);
    out.class_sv.push_back(m->l);
    out.rho.push_back(sign * m->rho[0]);
  }
  const size_t l = out.sv_ptr.size() - 1;
  out.coef.assign(present.size() * l, 0.0);
  for (size_t o = 0; o < present.size(); ++o)
    for (size_t s = 0; s < machines[o].sv.size(); ++s)
      out.coef[o * l + machines[o].sv[s]] = machines[o].coef[s];
}

int kernel_leaf_class(const TreeView& t, int leaf, size_t p, const feature_node* row) {
  const int l = t.leaf_sv_count[leaf], s0 = t.leaf_sv_start[leaf];
  const double gamma = t.leaf_gamma[leaf];
  std::vector<double> kv(l);
  for (int s = 0; s < l; ++s) {
    const int a = t.sv_ptr[s0 + s], b = t.sv_ptr[s0 + s + 1];
    kv[s] = std::exp(-gamma * squared_distance(row, p, t.sv_index + a, t.sv_value + a, b - a));
  }
  const int k = t.leaf_class_count[leaf];
  const int* cls = t.svm_class + t.leaf_class_start[leaf];
  const double* coef = t.coef + t.leaf_coef_start[leaf];
  const double* rho = t.svm_rho + t.leaf_rho_start[leaf];
  if (t.leaf_type[leaf] == kLeafKernelOvr) {
    int best = 0;
    double best_value = -HUGE_VAL;
    for (int o = 0; o < k; ++o) {
      double d = -rho[o];
      for (int s = 0; s < l; ++s) d += coef[static_cast<size_t>(o) * l + s] * kv[s];
      if (o == 0 || d > best_value) { best = o; best_value = d; }
    }
    return cls[best];
  }
  // One against one: machine (i, j) uses the SVs of classes i and j, with
  // coefficient rows j - 1 and i respectively; votes, ties to the lower i.
  const int* nsv = t.svm_class_sv + t.leaf_class_start[leaf];
  std::vector<int> first(k + 1, 0), votes(k, 0);
  for (int i = 0; i < k; ++i) first[i + 1] = first[i] + nsv[i];
  int machine = 0;
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j, ++machine) {
      double d = -rho[machine];
      const double* ci = coef + static_cast<size_t>(j - 1) * l;
      const double* cj = coef + static_cast<size_t>(i) * l;
      for (int s = first[i]; s < first[i + 1]; ++s) d += ci[s] * kv[s];
      for (int s = first[j]; s < first[j + 1]; ++s) d += cj[s] * kv[s];
      ++votes[d > 0 ? i : j];
    }
  int best = 0;
  for (int i = 1; i < k; ++i)
    if (votes[i] > votes[best]) best = i;
  return cls[best];
}

std::string validate_support_vectors(const TreeView& t, size_t p) {
  if (t.sv_ptr == nullptr) return "kernel SVM arrays are missing";
  if (t.sv_ptr[0] != 0 || static_cast<size_t>(t.sv_ptr[t.n_sv]) != t.sv_nnz)
    return "support vector pointers are out of range";
  for (size_t s = 0; s < t.n_sv; ++s) {
    if (t.sv_ptr[s + 1] < t.sv_ptr[s]) return "support vector pointers are out of range";
    for (int k = t.sv_ptr[s]; k < t.sv_ptr[s + 1]; ++k)
      if (t.sv_index[k] < 0 || static_cast<size_t>(t.sv_index[k]) >= p ||
          (k > t.sv_ptr[s] && t.sv_index[k] <= t.sv_index[k - 1]))
        return "support vector predictor indices are out of range or unsorted";
  }
  return "";
}

std::string validate_kernel_leaf(const TreeView& t, size_t leaf, int num_classes) {
  if (t.leaf_gamma == nullptr) return "a kernel SVM leaf has no support vector arrays";
  if (!std::isfinite(t.leaf_gamma[leaf]) || t.leaf_gamma[leaf] < 0) return "a kernel SVM leaf has a bad gamma";
  const long long s0 = t.leaf_sv_start[leaf], l = t.leaf_sv_count[leaf];
  if (s0 < 0 || l < 0 || static_cast<size_t>(s0 + l) > t.n_sv)
    return "support vectors of a kernel SVM leaf are out of range";
  const long long c0 = t.leaf_class_start[leaf], k = t.leaf_class_count[leaf];
  if (c0 < 0 || k < 2 || k > num_classes || static_cast<size_t>(c0 + k) > t.n_svm_class)
    return "classes of a kernel SVM leaf are out of range";
  std::vector<char> seen(num_classes, 0);
  long long total_sv = 0;
  for (long long c = c0; c < c0 + k; ++c) {
    const int cls = t.svm_class[c];
    if (cls < 0 || cls >= num_classes || seen[cls]) return "classes of a kernel SVM leaf are out of range";
    seen[cls] = 1;
    if (t.svm_class_sv[c] < 0) return "support vector counts of a kernel SVM leaf are negative";
    total_sv += t.svm_class_sv[c];
  }
  const bool ovo = t.leaf_type[leaf] == kLeafKernelOvo;
  if (ovo && total_sv != l) return "support vector counts of a kernel SVM leaf do not add up";
  const long long rows = ovo ? k - 1 : k, machines = ovo ? k * (k - 1) / 2 : k;
  const long long cs = t.leaf_coef_start[leaf], rs = t.leaf_rho_start[leaf];
  if (cs < 0 || static_cast<size_t>(cs + rows * l) > t.coef_len)
    return "SVM coefficients of a leaf are out of range";
  if (rs < 0 || static_cast<size_t>(rs + machines) > t.n_rho) return "rho of a kernel SVM leaf is out of range";
  return "";
}

}  // namespace svf
