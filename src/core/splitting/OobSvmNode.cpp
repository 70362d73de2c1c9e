// The OOB-SVM splitter's node SVMs (one per class against the rest, or one
// for two classes) and the out-of-bag error kernel that counts their errors.
#include "OobSvmNode.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "svm/LinearSvm.h"
#include "svm/NewtonSvm.h"

namespace svf {

int NodeSvm::predict(const feature_node* row, size_t p) const {
  if (classes.size() < 2) return constant;
  double decision;
  return linear_class(w.data(), classes.data(), classes.size(), p, row, &decision);
}

namespace {

// Four dot products side by side, each summed in index order as a single
// loop would sum it: out[i] = sum_j w[i][j] * x[i][j].
inline void four_dots(const double* const w[4], const double* const x[4], size_t len, double out[4]) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (size_t j = 0; j < len; ++j) {
    s0 += w[0][j] * x[0][j];
    s1 += w[1][j] * x[1][j];
    s2 += w[2][j] * x[2][j];
    s3 += w[3][j] * x[3][j];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

// One binary SVM: the full-Hessian Newton solver on the node's dense design
// for few predictors, else LIBLINEAR on the rows repeated as often as they
// were drawn. negative >= 0: a two-class SVM, whose sides get opt.class_factor.
std::vector<double> binary_svm(const TrainingData& data, const NewtonDesign* design, const int* rows,
                               const int* mult, size_t n, int positive, int negative,
                               const OobSvmOptions& opt, const std::vector<double>& init,
                               const double* init_z = nullptr) {
  const bool factors = negative >= 0 && !opt.class_factor.empty();
  const double f_pos = factors ? opt.class_factor[positive] : 1.0;
  const double f_neg = factors ? opt.class_factor[negative] : 1.0;
  if (design)
    return train_binary_svm_newton(*design, positive, opt.cost, opt.balanced, opt.tolerance, init, f_pos,
                                   f_neg, opt.max_iter, init_z);
  if (!mult)
    return train_binary_svm(data, rows, n, positive, opt.cost, opt.balanced, opt.tolerance, init,
                            f_pos, f_neg);
  std::vector<int> expanded;
  for (size_t k = 0; k < n; ++k) expanded.insert(expanded.end(), mult[k], rows[k]);
  return train_binary_svm(data, expanded.data(), expanded.size(), positive, opt.cost,
                          opt.balanced, opt.tolerance, init, f_pos, f_neg);
}

}  // namespace

NodeSvm fit_node_svm(const TrainingData& data, const int* rows, const int* mult, size_t n,
                     const OobSvmOptions& opt, const std::vector<std::vector<double>>* warm,
                     std::vector<std::vector<double>>* solutions, const NewtonDesign* from,
                     const int* from_pos, const std::vector<std::vector<double>>* from_z) {
  const int K = data.num_classes;
  const size_t p1 = data.x->n_cols() + 1;
  std::vector<int> counts(K, 0);
  for (size_t k = 0; k < n; ++k) counts[data.y[rows[k]]] += mult ? mult[k] : 1;
  NodeSvm svm;
  // the constant class is the leaf's majority class (first on ties), as in leaf_class()
  svm.constant = static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  if (solutions) solutions->assign(K, std::vector<double>());
  bool constant = false;
  for (int k = 0; k < K; ++k) {
    if (counts[k] <= 0) continue;
    if (counts[k] < opt.min_class_rows) {
      if (!opt.rare_as_negative) constant = true;
      continue;
    }
    svm.classes.push_back(k);
  }
  if (constant || svm.classes.size() < 2) {
    svm.classes.clear();
    return svm;
  }
  // the rows as one dense design, shared by the class SVMs (Newton solver;
  // LIBLINEAR only for sparse data with many predictors)
  NewtonDesign design;
  const bool newton = static_cast<int>(p1) <= kNewtonMaxDim || !data.x->is_sparse();
  if (newton && from && from_pos && from->xt.rows() == static_cast<Eigen::Index>(p1)) {
    design.xt.resize(static_cast<Eigen::Index>(p1), static_cast<Eigen::Index>(n));
    design.weight.resize(n);
    design.label.resize(n);
    for (size_t i = 0; i < n; ++i) {
      design.xt.col(static_cast<Eigen::Index>(i)) = from->xt.col(from_pos[i]);
      design.weight[i] = mult ? mult[i] : 1.0;
      design.label[i] = data.y[rows[i]];
    }
  } else if (newton) {
    build_newton_design(data, rows, mult, n, design);
  }
  const NewtonDesign* dp = newton ? &design : nullptr;
  static const std::vector<double> none;
  auto start = [&](int k) -> const std::vector<double>& {
    return warm && !(*warm)[k].empty() ? (*warm)[k] : none;
  };
  // Newton solver: the one-vs-rest problems' gradients at 0 from per-class
  // sums (one pass over the rows for all), and the starting decision values
  // from the node's (from_z), not recomputed: two matrix-vector products
  // over the rows per class saved (7% of an RSVF fit on letter, same model)
  if (newton && svm.classes.size() > 2) sum_design_classes(design, K);
  std::vector<double> z_start;
  auto start_z = [&](int k, double sign) -> const double* {
    if (!newton || !from || !from_pos || !from_z || (*from_z)[k].empty() || start(k).empty()) return nullptr;
    z_start.resize(n);
    for (size_t i = 0; i < n; ++i) z_start[i] = sign * (*from_z)[k][from_pos[i]];
    return z_start.data();
  };
  if (svm.classes.size() == 2) {
    const int pos = svm.classes[1], neg = svm.classes[0];
    std::vector<double> init = start(pos);
    const double* init_z = start_z(pos, 1.0);
    if (init.empty() && !start(neg).empty()) {
      init = start(neg);
      for (double& v : init) v = -v;
      init_z = start_z(neg, -1.0);
    }
    svm.w = binary_svm(data, dp, rows, mult, n, pos, neg, opt, init, init_z);
    if (solutions) {
      (*solutions)[pos] = svm.w;
      (*solutions)[neg] = svm.w;
      for (double& v : (*solutions)[neg]) v = -v;
    }
    return svm;
  }
  svm.w.reserve(svm.classes.size() * p1);
  for (int k : svm.classes) {
    std::vector<double> w = binary_svm(data, dp, rows, mult, n, k, -1, opt, start(k), start_z(k, 1.0));
    svm.w.insert(svm.w.end(), w.begin(), w.end());
    if (solutions) (*solutions)[k] = std::move(w);
  }
  return svm;
}

size_t count_errors(const NodeSvm& svm, const TrainingData& data, const int* rows, size_t n) {
  const size_t p = data.x->n_cols();
  size_t wrong = 0;
  for (size_t k = 0; k < n; ++k)
    wrong += svm.predict(data.scaled.row(rows[k]), p) != data.y[rows[k]];
  return wrong;
}

void gather_oob_rows(const TrainingData& data, const int* oob, size_t n, OobRows& out) {
  out.ids = oob;
  out.n = n;
  out.p1 = data.x->n_cols() + 1;
  out.x.assign(n * out.p1, 0.0);
  for (size_t k = 0; k < n; ++k) {
    double* row = out.x.data() + k * out.p1;
    for (const feature_node* e = data.scaled.row(oob[k]); e->index != -1; ++e) row[e->index - 1] = e->value;
  }
}

size_t count_errors(const NodeSvm& svm, const TrainingData& data, const OobRows& rows, const int* at,
                    size_t n) {
  const size_t p1 = rows.p1;
  const int* y = data.y;
  if (svm.classes.size() < 2) {
    size_t wrong = 0;
    for (size_t k = 0; k < n; ++k) wrong += svm.constant != y[rows.ids[at[k]]];
    return wrong;
  }
  // Each decision value is summed in column order, as dot() sums a row's
  // non-zero entries (a zero entry adds +-0, which leaves the sum as it is),
  // so the classes are those of count_errors(); four sums run side by side.
  size_t wrong = 0;
  const double* w = svm.w.data();
  if (svm.classes.size() == 2) {
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
      const double* const ws[4] = {w, w, w, w};
      const double* const xs[4] = {&rows.x[at[k] * p1], &rows.x[at[k + 1] * p1], &rows.x[at[k + 2] * p1],
                                   &rows.x[at[k + 3] * p1]};
      double s[4];
      four_dots(ws, xs, p1, s);
      for (size_t i = 0; i < 4; ++i)
        wrong += (s[i] > 0.0 ? svm.classes[1] : svm.classes[0]) != y[rows.ids[at[k + i]]];
    }
    for (; k < n; ++k) {
      const double* x = &rows.x[at[k] * p1];
      double s = 0.0;
      for (size_t j = 0; j < p1; ++j) s += w[j] * x[j];
      wrong += (s > 0.0 ? svm.classes[1] : svm.classes[0]) != y[rows.ids[at[k]]];
    }
    return wrong;
  }
  const size_t n_out = svm.classes.size();
  std::vector<double> dec(n_out);
  for (size_t k = 0; k < n; ++k) {
    const double* x = &rows.x[at[k] * p1];
    size_t o = 0;
    for (; o + 4 <= n_out; o += 4) {
      const double* const ws[4] = {w + o * p1, w + (o + 1) * p1, w + (o + 2) * p1, w + (o + 3) * p1};
      const double* const xs[4] = {x, x, x, x};
      four_dots(ws, xs, p1, &dec[o]);
    }
    for (; o < n_out; ++o) {
      const double* wo = w + o * p1;
      double s = 0.0;
      for (size_t j = 0; j < p1; ++j) s += wo[j] * x[j];
      dec[o] = s;
    }
    size_t best = 0;
    for (size_t c = 1; c < n_out; ++c)
      if (dec[c] > dec[best]) best = c;
    wrong += svm.classes[best] != y[rows.ids[at[k]]];
  }
  return wrong;
}

}  // namespace svf
