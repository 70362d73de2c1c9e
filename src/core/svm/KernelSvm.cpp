#include "KernelSvm.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace svf {

LibsvmRows::LibsvmRows(const TrainingData& data, const int* rows, size_t n) : x(n), y(n) {
  const int p = static_cast<int>(data.x->n_cols());
  std::vector<size_t> start(n);
  for (size_t k = 0; k < n; ++k) {
    start[k] = nodes.size();
    for (const feature_node* f = data.scaled.row(rows[k]); f->index != -1; ++f)
      if (f->index <= p) nodes.push_back(svm_node{f->index, f->value});
    nodes.push_back(svm_node{-1, 0.0});
  }
  for (size_t k = 0; k < n; ++k) x[k] = &nodes[start[k]];
  problem.l = static_cast<int>(n);
  problem.y = y.data();
  problem.x = x.data();
}

LibsvmModel train_rbf_svm(const svm_problem& prob, const RbfSvmSettings& s) {
  svm_parameter param;
  std::memset(&param, 0, sizeof(param));
  param.svm_type = s.svm_type;
  param.kernel_type = RBF;
  param.gamma = s.gamma;
  param.C = s.cost;
  param.p = s.epsilon;
  param.eps = s.tolerance;
  param.cache_size = s.cache_mb;
  param.shrinking = 1;
  param.probability = 0;  // LIBSVM's probability fits draw from the C library's global generator
  const char* problem = svm_check_parameter(&prob, &param);
  if (problem != nullptr) throw std::invalid_argument(std::string("LIBSVM: ") + problem);
  svm_model* m = svm_train(&prob, &param);
  if (m == nullptr) throw std::runtime_error("LIBSVM failed to train a leaf SVM");
  return LibsvmModel(m);
}

double rbf_squared_distance(const feature_node* x, size_t p, const int* idx, const double* val, int len) {
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

}  // namespace svf
