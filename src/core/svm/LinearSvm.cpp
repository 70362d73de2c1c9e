#include "LinearSvm.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace svf {

std::vector<double> train_binary_linear(const TrainingData& data, const int* rows, size_t m,
                                        int positive_class, double cost, bool balanced,
                                        double tolerance, const std::vector<double>& init,
                                        double pos_factor, double neg_factor, int solver_type) {
  const int n_features = static_cast<int>(data.x->n_cols()) + 1;  // + bias
  std::vector<double> y(m);
  std::vector<feature_node*> x(m);
  size_t n_pos = 0, first_pos = m;
  for (size_t k = 0; k < m; ++k) {
    const bool pos = data.y[rows[k]] == positive_class;
    y[k] = pos ? 1.0 : -1.0;
    x[k] = const_cast<feature_node*>(data.scaled.row(rows[k]));
    if (pos) { ++n_pos; if (first_pos == m) first_pos = k; }
  }
  if (n_pos == 0 || n_pos == m) throw std::logic_error("binary linear problem with one class");
  // LIBLINEAR orders labels by first appearance; a positive first row makes
  // its weights the decision function of the +1 side.
  std::swap(y[0], y[first_pos]);
  std::swap(x[0], x[first_pos]);

  problem prob;
  prob.l = static_cast<int>(m);
  prob.n = n_features;
  prob.y = y.data();
  prob.x = x.data();
  prob.bias = 1.0;

  int weight_label[2] = {1, -1};
  double weight[2] = {1.0, 1.0};
  if (balanced) {
    weight[0] = static_cast<double>(m) / (2.0 * n_pos);
    weight[1] = static_cast<double>(m) / (2.0 * (m - n_pos));
  }
  weight[0] *= pos_factor;
  weight[1] *= neg_factor;
  parameter param;
  std::memset(&param, 0, sizeof(param));
  param.solver_type = solver_type;  // primal trust-region Newton: draws no random numbers
  param.eps = tolerance;
  param.C = cost;
  param.nr_weight = 2;
  param.weight_label = weight_label;
  param.weight = weight;
  param.p = 0.1;
  std::vector<double> start(init);
  param.init_sol = start.size() == static_cast<size_t>(n_features) ? start.data() : nullptr;
#if LIBLINEAR_VERSION >= 240
  param.regularize_bias = 1;
#endif

  model* fitted = train(&prob, &param);
  if (fitted == nullptr) throw std::runtime_error("LIBLINEAR failed to train a linear model");
  std::vector<double> w(fitted->w, fitted->w + n_features);
  free_and_destroy_model(&fitted);
  return w;
}

std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init,
                                     double pos_factor, double neg_factor) {
  return train_binary_linear(data, rows, m, positive_class, cost, balanced, tolerance, init,
                             pos_factor, neg_factor, L2R_L2LOSS_SVC);
}

int linear_class(const double* w, const int* classes, size_t n_classes, size_t p,
                 const feature_node* row, double* decision) {
  if (n_classes == 2) {
    const double d = dot(w, row);
    *decision = std::fabs(d);
    return d > 0.0 ? classes[1] : classes[0];
  }
  size_t best = 0;
  double best_value = dot(w, row);
  for (size_t o = 1; o < n_classes; ++o) {
    const double d = dot(w + o * (p + 1), row);
    if (d > best_value) { best = o; best_value = d; }
  }
  *decision = best_value;
  return classes[best];
}

}  // namespace svf
