#include "LinearSvmLeaf.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "NewtonSvm.h"
#include "ScaledRows.h"

namespace svf {

std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init,
                                     double pos_factor, double neg_factor) {
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
  if (n_pos == 0 || n_pos == m) throw std::logic_error("binary SVM problem with one class");
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
  param.solver_type = L2R_L2LOSS_SVC;  // primal trust-region Newton: draws no random numbers
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
  if (fitted == nullptr) throw std::runtime_error("LIBLINEAR failed to train a leaf SVM");
  std::vector<double> w(fitted->w, fitted->w + n_features);
  free_and_destroy_model(&fitted);
  return w;
}

std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init) {
  return train_binary_svm(data, rows, m, positive_class, cost, balanced, tolerance, init, 1.0, 1.0);
}

namespace {

// Class from the decision values of a leaf's outputs (see leaf_class()).
int class_from_decisions(const double* dec, const std::vector<int>& present) {
  if (present.size() == 2) return dec[0] > 0.0 ? present[1] : present[0];
  size_t best = 0;
  for (size_t o = 1; o < present.size(); ++o)
    if (dec[o] > dec[best]) best = o;
  return present[best];
}

// Labels (+1 / -1) and per-row costs at C = 1 of the binary problem
// "positive_class against the rest" on rows, weighted as train_binary_svm().
void binary_problem(const TrainingData& data, const int* rows, size_t n_rows, int positive_class,
                    bool balanced, double pos_factor, double neg_factor, Eigen::VectorXd& y,
                    Eigen::VectorXd& cost) {
  const Eigen::Index m = static_cast<Eigen::Index>(n_rows);
  y.resize(m);
  cost.resize(m);
  double n_pos = 0.0;
  for (Eigen::Index i = 0; i < m; ++i) {
    y[i] = data.y[rows[i]] == positive_class ? 1.0 : -1.0;
    n_pos += y[i] > 0.0;
  }
  const double w_pos = pos_factor * (balanced && n_pos > 0.0 ? m / (2.0 * n_pos) : 1.0);
  const double w_neg = neg_factor * (balanced && n_pos < m ? m / (2.0 * (m - n_pos)) : 1.0);
  for (Eigen::Index i = 0; i < m; ++i) cost[i] = y[i] > 0.0 ? w_pos : w_neg;
}

void select_rows(const Eigen::MatrixXd& from, const std::vector<int>& at, Eigen::MatrixXd& to) {
  to.resize(static_cast<Eigen::Index>(at.size()), from.cols());
  for (Eigen::Index j = 0; j < from.cols(); ++j)
    for (size_t i = 0; i < at.size(); ++i) to(static_cast<Eigen::Index>(i), j) = from(at[i], j);
}

}  // namespace

void LinearSvmLeafModel::fit(const TrainingData& data, const int* rows, size_t n,
                             const int* counts, Rng& rng, LeafFit& out) const {
  out = LeafFit();
  const int K = data.num_classes;
  std::vector<int> present;  // classes with an SVM output
  for (int k = 0; k < K; ++k) {
    if (counts[k] <= 0) continue;
    if (counts[k] < opt_.min_class_rows) {
      if (!opt_.rare_as_negative) return;  // too few rows to learn this class
      continue;
    }
    present.push_back(k);
  }
  if (present.size() < 2) return;
  const size_t n_out = present.size() == 2 ? 1 : present.size();
  // positive class of each output
  std::vector<int> positive(n_out);
  for (size_t o = 0; o < n_out; ++o) positive[o] = n_out == 1 ? present[1] : present[o];

  // class factors apply to two-class leaves (one output), in the
  // cross-validation and the final fit alike
  const bool factors = n_out == 1 && !opt_.class_factor.empty();
  const double f_pos = factors ? opt_.class_factor[present[1]] : 1.0;
  const double f_neg = factors ? opt_.class_factor[present[0]] : 1.0;

  const std::vector<double>& grid = opt_.cost_grid;
  // Few predictors: the Newton solver does the cheap work (see below).
  const bool newton = static_cast<int>(data.x->n_cols()) + 1 <= kNewtonMaxDim;
  // The leaf's rows gathered once (they are scattered over the data); the
  // folds' matrices are copied from here.
  Eigen::MatrixXd x_leaf;
  if (newton) x_leaf = gather_scaled_rows(data, rows, n);
  size_t best = 0;
  const int folds = opt_.cv_folds;
  std::vector<std::vector<double>> refit_start(n_out);
  if (grid.size() > 1 && folds > 1) {
    // Stratified folds: shuffle, group by class, deal out round-robin.
    std::vector<int> order(n);
    for (size_t k = 0; k < n; ++k) order[k] = static_cast<int>(k);
    rng.shuffle(order.data(), n);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return data.y[rows[a]] < data.y[rows[b]]; });
    std::vector<int> fold(n);
    for (size_t k = 0; k < n; ++k) fold[order[k]] = static_cast<int>(k % folds);

    // Warm starts: along the C path within a fold; the first C of a fold
    // starts from the previous fold's solution; the final refit starts from
    // the folds' mean solution at the chosen C. CV solves stop at the looser
    // cv_tolerance: only their held-out accuracy is used.
    std::vector<std::vector<double>> warm(grid.size() * n_out);  // last fold's solutions
    std::vector<std::vector<double>> mean(grid.size() * n_out);
    std::vector<long> correct(grid.size(), 0);
    std::vector<int> train_rows, test_rows, train_at, test_at;  // row ids, positions in the leaf
    std::vector<double> dec, dec_row(n_out);
    Eigen::MatrixXd x_train, x_test;
    Eigen::VectorXd y_train, c_base;
    int used_folds = 0;
    for (int f = 0; f < folds; ++f) {
      train_rows.clear();
      test_rows.clear();
      train_at.clear();
      test_at.clear();
      for (size_t k = 0; k < n; ++k) {
        (fold[k] == f ? test_rows : train_rows).push_back(rows[k]);
        (fold[k] == f ? test_at : train_at).push_back(static_cast<int>(k));
      }
      if (test_rows.empty()) continue;
      ++used_folds;
      const size_t nt = test_rows.size();
      dec.assign(grid.size() * n_out * nt, 0.0);
      // These solves only score C values. For few predictors the fold's rows
      // are gathered once into dense matrices and solved by the full-Hessian
      // Newton solver (same objective; LIBLINEAR's per-call set-up and CG
      // steps dominate on leaf-sized problems). The leaf's own SVM below is
      // always fitted by LIBLINEAR.
      if (newton) {
        select_rows(x_leaf, train_at, x_train);
        select_rows(x_leaf, test_at, x_test);
      }
      for (size_t o = 0; o < n_out; ++o) {
        if (newton)
          binary_problem(data, train_rows.data(), train_rows.size(), positive[o], opt_.balanced,
                         f_pos, f_neg, y_train, c_base);
        std::vector<double> w;
        for (size_t g = 0; g < grid.size(); ++g) {
          std::vector<double>& slot = warm[g * n_out + o];
          const std::vector<double>& start = w.empty() ? slot : w;
          double* out_dec = &dec[(g * n_out + o) * nt];
          if (newton) {
            w = train_binary_svm_newton_dense(x_train, y_train, grid[g] * c_base,
                                              opt_.cv_tolerance, start);
            Eigen::Map<Eigen::VectorXd>(out_dec, nt) =
                x_test * Eigen::Map<const Eigen::VectorXd>(w.data(), w.size());
          } else {
            w = train_binary_svm(data, train_rows.data(), train_rows.size(), positive[o],
                                 grid[g], opt_.balanced, opt_.cv_tolerance, start, f_pos, f_neg);
            for (size_t t = 0; t < nt; ++t) out_dec[t] = dot(w.data(), data.scaled.row(test_rows[t]));
          }
          slot = w;
          std::vector<double>& m = mean[g * n_out + o];
          if (m.empty()) m.assign(w.size(), 0.0);
          for (size_t k = 0; k < w.size(); ++k) m[k] += w[k];
        }
      }
      for (size_t g = 0; g < grid.size(); ++g)
        for (size_t t = 0; t < nt; ++t) {
          for (size_t o = 0; o < n_out; ++o) dec_row[o] = dec[(g * n_out + o) * nt + t];
          correct[g] += class_from_decisions(dec_row.data(), present) == data.y[test_rows[t]];
        }
    }
    for (size_t g = 1; g < grid.size(); ++g)
      if (correct[g] > correct[best]) best = g;  // ties keep the smaller C
    for (size_t o = 0; o < n_out; ++o) {
      std::vector<double>& m = mean[best * n_out + o];
      for (double& v : m) v /= used_folds;
      refit_start[o] = m;
    }
  }

  out.type = kLeafLinear;
  out.cost = grid[best];
  out.coef.reserve(n_out * (data.x->n_cols() + 1));
  // The leaf's SVM is LIBLINEAR's solution. With few predictors LIBLINEAR
  // starts from the Newton solver's solution of the same problem, so that
  // it mostly verifies optimality instead of iterating.
  Eigen::VectorXd y_leaf, c_leaf;
  for (size_t o = 0; o < n_out; ++o) {
    std::vector<double> start = refit_start[o];
    if (newton) {
      binary_problem(data, rows, n, positive[o], opt_.balanced, f_pos, f_neg, y_leaf, c_leaf);
      std::vector<double> solved = train_binary_svm_newton_dense(
          x_leaf, y_leaf, grid[best] * c_leaf, opt_.tolerance, start);
      if (std::all_of(solved.begin(), solved.end(), [](double v) { return std::isfinite(v); }))
        start = std::move(solved);
    }
    std::vector<double> w = train_binary_svm(data, rows, n, positive[o], grid[best],
                                             opt_.balanced, opt_.tolerance, start, f_pos, f_neg);
    out.coef.insert(out.coef.end(), w.begin(), w.end());
  }
}

}  // namespace svf
