#include "KernelSvrLeaf.h"

#include <cmath>

#include "MeanLeaf.h"
#include "svm/KernelSvm.h"

namespace svf {

std::unique_ptr<LeafModel> KernelSvrLeafModel::create(const Params* params) {
  KernelSvrOptions o;
  if (params) {
    o.cost = params->numbers("cost").at(0);
    o.gamma = params->numbers("gamma").at(0);
    o.epsilon = params->number("epsilon");
    o.tolerance = params->number("svm_tolerance");
    o.cache_mb = params->number("cache_size");
  }
  return std::unique_ptr<LeafModel>(new KernelSvrLeafModel(o));
}

void KernelSvrLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&,
                             LeafFit& out) const {
  mean_leaf(data, rows, n, out);  // unless an SVR is fitted below
  bool constant = true;
  for (size_t k = 1; k < n && constant; ++k) constant = data.response[rows[k]] == data.response[rows[0]];
  if (n < 2 || constant) return;
  LibsvmRows lr(data, rows, n);
  for (size_t k = 0; k < n; ++k) lr.y[k] = data.response[rows[k]];
  RbfSvmSettings s;
  s.svm_type = EPSILON_SVR;
  s.cost = opt_.cost;
  s.gamma = opt_.gamma;
  s.epsilon = opt_.epsilon;
  s.tolerance = opt_.tolerance;
  s.cache_mb = opt_.cache_mb;
  LibsvmModel m = train_rbf_svm(lr.problem, s);
  const int l = m->l;
  out = LeafFit();
  out.kind = kKind;
  out.ints.push_back(l);
  std::vector<int> index;
  std::vector<double> value;
  out.ints.push_back(0);
  for (int sv = 0; sv < l; ++sv) {
    for (const svm_node* f = lr.x[m->sv_indices[sv] - 1]; f->index != -1; ++f) {
      index.push_back(f->index - 1);
      value.push_back(f->value);
    }
    out.ints.push_back(static_cast<int>(index.size()));
  }
  out.ints.insert(out.ints.end(), index.begin(), index.end());
  out.reals = {opt_.cost, opt_.gamma, m->rho[0]};
  out.reals.insert(out.reals.end(), m->sv_coef[0], m->sv_coef[0] + l);
  out.reals.insert(out.reals.end(), value.begin(), value.end());
}

void KernelSvrLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
                                 double* out, double* confidence) const {
  const int l = leaf.ints[0];
  const int* ptr = leaf.ints + 1;
  const int* index = ptr + l + 1;
  const double gamma = leaf.reals[1], rho = leaf.reals[2];
  const double* coef = leaf.reals + 3;
  const double* value = coef + l;
  double f = -rho;
  for (int s = 0; s < l; ++s)
    f += coef[s] * std::exp(-gamma * rbf_squared_distance(row, shape.p, index + ptr[s], value + ptr[s],
                                                          ptr[s + 1] - ptr[s]));
  out[0] = f;
  if (confidence) *confidence = 0.0;
}

void KernelSvrLeafModel::describe(const LeafPayload& leaf, const OutcomeShape&, PayloadDescription& out) const {
  const int l = leaf.ints[0];
  const int nnz = leaf.ints[1 + l];
  out.ints("n_sv", leaf.ints, 0, 1);
  out.ints("sv_ptr", leaf.ints, 1, static_cast<size_t>(l) + 1);
  out.ints("sv_index", leaf.ints, 2 + l, static_cast<size_t>(nnz));
  out.reals("cost", leaf.reals, 0, 1);
  out.reals("gamma", leaf.reals, 1, 1);
  out.reals("rho", leaf.reals, 2, 1);
  out.reals("coef", leaf.reals, 3, static_cast<size_t>(l));
  out.reals("sv_value", leaf.reals, 3 + l, static_cast<size_t>(nnz));
}

std::string KernelSvrLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (!shape.regression()) return "a regression leaf in a classification model";
  if (leaf.n_ints < 2) return "support vectors of a kernel SVR leaf are out of range";
  const long l = leaf.ints[0];
  if (l < 0 || static_cast<size_t>(l) + 2 > leaf.n_ints) return "support vectors of a kernel SVR leaf are out of range";
  const int* ptr = leaf.ints + 1;
  const long nnz = ptr[l];
  if (ptr[0] != 0 || nnz < 0 || static_cast<size_t>(l) + 2 + static_cast<size_t>(nnz) > leaf.n_ints ||
      3 + static_cast<size_t>(l) + static_cast<size_t>(nnz) > leaf.n_reals)
    return "support vectors of a kernel SVR leaf are out of range";
  if (!std::isfinite(leaf.reals[1]) || leaf.reals[1] < 0) return "a kernel SVR leaf has a bad gamma";
  const int* index = ptr + l + 1;
  for (long s = 0; s < l; ++s) {
    if (ptr[s + 1] < ptr[s]) return "support vector pointers are out of range";
    for (int q = ptr[s]; q < ptr[s + 1]; ++q)
      if (index[q] < 0 || static_cast<size_t>(index[q]) >= shape.p || (q > ptr[s] && index[q] <= index[q - 1]))
        return "support vector predictor indices are out of range or unsorted";
  }
  return "";
}

}  // namespace svf
