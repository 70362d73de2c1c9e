#include "KernelSvmLeaf.h"

#include <cmath>

#include "svm/KernelSvm.h"

namespace svf {

namespace {

// A fitted kernel leaf before it is packed into its payload.
struct KernelParts {
  std::vector<int> classes, class_sv;
  std::vector<double> rho, coef;
  std::vector<int> sv_ptr{0}, sv_index;
  std::vector<double> sv_value;
};

void pack(const KernelParts& k, const int* counts, int num_classes, bool ovo, double cost, double gamma,
          LeafFit& out) {
  out = LeafFit();
  out.kind = KernelSvmLeafModel::kKind;
  out.ints.assign(counts, counts + num_classes);
  out.ints.push_back(ovo ? 1 : 0);
  out.ints.push_back(static_cast<int>(k.classes.size()));
  out.ints.insert(out.ints.end(), k.classes.begin(), k.classes.end());
  out.ints.insert(out.ints.end(), k.class_sv.begin(), k.class_sv.end());
  out.ints.push_back(static_cast<int>(k.sv_ptr.size()) - 1);
  out.ints.insert(out.ints.end(), k.sv_ptr.begin(), k.sv_ptr.end());
  out.ints.insert(out.ints.end(), k.sv_index.begin(), k.sv_index.end());
  out.reals.push_back(cost);
  out.reals.push_back(gamma);
  out.reals.insert(out.reals.end(), k.rho.begin(), k.rho.end());
  out.reals.insert(out.reals.end(), k.coef.begin(), k.coef.end());
  out.reals.insert(out.reals.end(), k.sv_value.begin(), k.sv_value.end());
}

// Pointers into a kernel leaf's payload (see KernelSvmLeaf.h).
struct KernelView {
  bool ovo;
  int k, l;
  const int *classes, *class_sv, *sv_ptr, *sv_index;
  double cost, gamma;
  const double *rho, *coef, *sv_value;
  long machines() const { return ovo ? static_cast<long>(k) * (k - 1) / 2 : k; }
  long rows() const { return ovo ? k - 1 : k; }
};

// Reads the layout; with `check`, returns false when it does not fit.
bool read_kernel(const LeafPayload& leaf, int K, KernelView& v, bool check) {
  const size_t ni = leaf.n_ints, nr = leaf.n_reals;
  const int* in = leaf.ints;
  if (check && ni < static_cast<size_t>(K) + 2) return false;
  v.ovo = in[K] != 0;
  v.k = in[K + 1];
  if (check && (in[K] < 0 || in[K] > 1 || v.k < 2 || v.k > K ||
                static_cast<size_t>(K) + 3 + 2 * static_cast<size_t>(v.k) > ni))
    return false;
  v.classes = in + K + 2;
  v.class_sv = v.classes + v.k;
  v.l = v.class_sv[v.k];
  const size_t ptr_at = static_cast<size_t>(K) + 3 + 2 * static_cast<size_t>(v.k);
  if (check && (v.l < 0 || ptr_at + static_cast<size_t>(v.l) + 1 > ni)) return false;
  v.sv_ptr = in + ptr_at;
  const long nnz = v.sv_ptr[v.l];
  if (check && (nnz < 0 || ptr_at + static_cast<size_t>(v.l) + 1 + static_cast<size_t>(nnz) > ni)) return false;
  v.sv_index = v.sv_ptr + v.l + 1;
  if (check && nr < 2) return false;
  v.cost = leaf.reals[0];
  v.gamma = leaf.reals[1];
  const size_t need = 2 + static_cast<size_t>(v.machines()) + static_cast<size_t>(v.rows()) * v.l +
                      static_cast<size_t>(nnz);
  if (check && need > nr) return false;
  v.rho = leaf.reals + 2;
  v.coef = v.rho + v.machines();
  v.sv_value = v.coef + static_cast<size_t>(v.rows()) * v.l;
  return true;
}

}  // namespace

void KernelSvmLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int* counts,
                             Rng&, LeafFit& out) const {
  const int K = data.num_classes;
  constant_leaf(counts, K, out);
  std::vector<int> present;
  for (int k = 0; k < K; ++k)
    if (counts[k] > 0) present.push_back(k);
  if (present.size() < 2) return;  // homogeneous: predicts its class

  // The leaf's rows for LIBSVM: scaled predictors without the bias node.
  LibsvmRows lr(data, rows, n);
  std::vector<svm_node*>& x = lr.x;
  std::vector<double>& y = lr.y;
  const svm_problem& prob = lr.problem;
  RbfSvmSettings settings;
  settings.cost = opt_.cost;
  settings.gamma = opt_.gamma;
  settings.tolerance = opt_.tolerance;
  settings.cache_mb = opt_.cache_mb;

  KernelParts parts;
  std::vector<int> sv_of_row(n, -1);  // leaf row -> support vector number
  auto add_sv = [&](int k) {
    if (sv_of_row[k] >= 0) return sv_of_row[k];
    sv_of_row[k] = static_cast<int>(parts.sv_ptr.size()) - 1;
    for (const svm_node* f = x[k]; f->index != -1; ++f) {
      parts.sv_index.push_back(f->index - 1);
      parts.sv_value.push_back(f->value);
    }
    parts.sv_ptr.push_back(static_cast<int>(parts.sv_index.size()));
    return sv_of_row[k];
  };

  if (opt_.one_vs_one) {
    for (size_t k = 0; k < n; ++k) y[k] = data.y[rows[k]];
    LibsvmModel m = train_rbf_svm(prob, settings);
    const int nc = m->nr_class, l = m->l;
    for (int c = 0; c < nc; ++c) {
      parts.classes.push_back(m->label[c]);
      parts.class_sv.push_back(m->nSV[c]);
    }
    for (int s = 0; s < l; ++s) add_sv(m->sv_indices[s] - 1);  // SVs grouped by class
    parts.coef.resize(static_cast<size_t>(nc - 1) * l);
    for (int j = 0; j < nc - 1; ++j)
      for (int s = 0; s < l; ++s) parts.coef[static_cast<size_t>(j) * l + s] = m->sv_coef[j][s];
    parts.rho.assign(m->rho, m->rho + nc * (nc - 1) / 2);
    pack(parts, counts, K, true, opt_.cost, opt_.gamma, out);
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
    LibsvmModel m = train_rbf_svm(prob, settings);
    const double sign = m->label[0] == 1 ? 1.0 : -1.0;  // LIBSVM's first label is the + side
    for (int s = 0; s < m->l; ++s) {
      machines[o].sv.push_back(add_sv(m->sv_indices[s] - 1));
      machines[o].coef.push_back(sign * m->sv_coef[0][s]);
    }
    parts.classes.push_back(present[o]);
    parts.class_sv.push_back(m->l);
    parts.rho.push_back(sign * m->rho[0]);
  }
  const size_t l = parts.sv_ptr.size() - 1;
  parts.coef.assign(present.size() * l, 0.0);
  for (size_t o = 0; o < present.size(); ++o)
    for (size_t s = 0; s < machines[o].sv.size(); ++s)
      parts.coef[o * l + machines[o].sv[s]] = machines[o].coef[s];
  pack(parts, counts, K, false, opt_.cost, opt_.gamma, out);
}

void KernelSvmLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape,
                                 const feature_node* row, double* out, double* confidence) const {
  const int K = shape.num_classes;
  KernelView v;
  read_kernel(leaf, K, v, false);
  std::vector<double> kv(v.l);
  for (int s = 0; s < v.l; ++s) {
    const int a = v.sv_ptr[s], b = v.sv_ptr[s + 1];
    kv[s] = std::exp(-v.gamma * rbf_squared_distance(row, shape.p, v.sv_index + a, v.sv_value + a, b - a));
  }
  const int l = v.l, k = v.k;
  int cls;
  if (!v.ovo) {
    int best = 0;
    double best_value = -HUGE_VAL;
    for (int o = 0; o < k; ++o) {
      double d = -v.rho[o];
      for (int s = 0; s < l; ++s) d += v.coef[static_cast<size_t>(o) * l + s] * kv[s];
      if (o == 0 || d > best_value) { best = o; best_value = d; }
    }
    cls = v.classes[best];
  } else {
    // One against one: machine (i, j) uses the SVs of classes i and j, with
    // coefficient rows j - 1 and i respectively; votes, ties to the lower i.
    std::vector<int> first(k + 1, 0), votes(k, 0);
    for (int i = 0; i < k; ++i) first[i + 1] = first[i] + v.class_sv[i];
    int machine = 0;
    for (int i = 0; i < k; ++i)
      for (int j = i + 1; j < k; ++j, ++machine) {
        double d = -v.rho[machine];
        const double* ci = v.coef + static_cast<size_t>(j - 1) * l;
        const double* cj = v.coef + static_cast<size_t>(i) * l;
        for (int s = first[i]; s < first[i + 1]; ++s) d += ci[s] * kv[s];
        for (int s = first[j]; s < first[j + 1]; ++s) d += cj[s] * kv[s];
        ++votes[d > 0 ? i : j];
      }
    int best = 0;
    for (int i = 1; i < k; ++i)
      if (votes[i] > votes[best]) best = i;
    cls = v.classes[best];
  }
  for (int c = 0; c < K; ++c) out[c] = 0.0;
  out[cls] = 1.0;
  if (confidence) {
    // the leaf's share of the predicted class (no decision value is comparable across leaves)
    double total = 0.0;
    for (int c = 0; c < K; ++c) total += leaf.ints[c];
    *confidence = 2.0 * leaf.ints[cls] / total - 1.0;
  }
}

std::string KernelSvmLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  const std::string counts = check_class_counts(leaf, shape);
  if (!counts.empty()) return counts;
  const int K = shape.num_classes;
  KernelView v;
  if (!read_kernel(leaf, K, v, true)) return "kernel SVM values of a leaf are out of range";
  if (!std::isfinite(v.gamma) || v.gamma < 0) return "a kernel SVM leaf has a bad gamma";
  std::vector<char> seen(K, 0);
  long total_sv = 0;
  for (int c = 0; c < v.k; ++c) {
    const int cls = v.classes[c];
    if (cls < 0 || cls >= K || seen[cls]) return "classes of a kernel SVM leaf are out of range";
    seen[cls] = 1;
    if (v.class_sv[c] < 0) return "support vector counts of a kernel SVM leaf are negative";
    total_sv += v.class_sv[c];
  }
  if (v.ovo && total_sv != v.l) return "support vector counts of a kernel SVM leaf do not add up";
  if (v.sv_ptr[0] != 0) return "support vector pointers are out of range";
  for (int s = 0; s < v.l; ++s) {
    if (v.sv_ptr[s + 1] < v.sv_ptr[s]) return "support vector pointers are out of range";
    for (int q = v.sv_ptr[s]; q < v.sv_ptr[s + 1]; ++q)
      if (v.sv_index[q] < 0 || static_cast<size_t>(v.sv_index[q]) >= shape.p ||
          (q > v.sv_ptr[s] && v.sv_index[q] <= v.sv_index[q - 1]))
        return "support vector predictor indices are out of range or unsorted";
  }
  return "";
}

// Support vectors a row evaluates in the leaf (the NSV of TD-SVM).
int KernelSvmLeafModel::support_vectors(const LeafPayload& leaf, const OutcomeShape& shape) const {
  KernelView v;
  read_kernel(leaf, shape.num_classes, v, false);
  return v.l;
}

void KernelSvmLeafModel::describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const {
  const int K = shape.num_classes;
  KernelView v;
  read_kernel(leaf, K, v, false);
  const int* in = leaf.ints;
  const double* re = leaf.reals;
  describe_class_counts(leaf, shape, out);
  out.flag("one_vs_one", v.ovo, K);
  out.ints("n_classes", in, K + 1, 1);
  out.ints("classes", in, v.classes - in, static_cast<size_t>(v.k));
  out.ints("class_sv", in, v.class_sv - in, static_cast<size_t>(v.k));
  out.ints("n_sv", in, v.class_sv + v.k - in, 1);
  out.ints("sv_ptr", in, v.sv_ptr - in, static_cast<size_t>(v.l) + 1);
  out.ints("sv_index", in, v.sv_index - in, static_cast<size_t>(v.sv_ptr[v.l]));
  out.reals("cost", re, 0, 1);
  out.reals("gamma", re, 1, 1);
  out.reals("rho", re, 2, static_cast<size_t>(v.machines()));
  // coefficients are stored row-major (rows x l): as R's column-major, l x rows
  out.matrix("coef", re, v.coef - re, v.l, static_cast<int>(v.rows()));
  out.reals("sv_value", re, v.sv_value - re, static_cast<size_t>(v.sv_ptr[v.l]));
}

KernelSvmOptions kernel_svm_options(const Params& params) {
  KernelSvmOptions o;
  o.cost = params.numbers("cost").at(0);
  o.gamma = params.numbers("gamma").at(0);
  o.one_vs_one = params.text("multiclass") == "ovo";
  o.tolerance = params.number("svm_tolerance");
  o.cache_mb = params.number("cache_size");
  return o;
}

std::unique_ptr<LeafModel> KernelSvmLeafModel::create(const Params* params) {
  return std::unique_ptr<LeafModel>(
      new KernelSvmLeafModel(params ? kernel_svm_options(*params) : KernelSvmOptions()));
}

}  // namespace svf
