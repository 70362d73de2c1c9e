#include "LinearSvmLeaf.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ScaledRows.h"

namespace svf {

std::vector<double> train_binary_svm(const TrainingData& data, const int* rows, size_t m,
                                     int positive_class, double cost, bool balanced,
                                     double tolerance, const std::vector<double>& init) {
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

namespace {

// Class from the decision values of a leaf's outputs (see leaf_class()).
int class_from_decisions(const double* dec, const std::vector<int>& present) {
  if (present.size() == 2) return dec[0] > 0.0 ? present[1] : present[0];
  size_t best = 0;
  for (size_t o = 1; o < present.size(); ++o)
    if (dec[o] > dec[best]) best = o;
  return present[best];
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

  const std::vector<double>& grid = opt_.cost_grid;
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
    std::vector<int> train_rows, test_rows;
    std::vector<double> dec, dec_row(n_out);
    int used_folds = 0;
    for (int f = 0; f < folds; ++f) {
      train_rows.clear();
      test_rows.clear();
      for (size_t k = 0; k < n; ++k) (fold[k] == f ? test_rows : train_rows).push_back(rows[k]);
      if (test_rows.empty()) continue;
      ++used_folds;
      const size_t nt = test_rows.size();
      dec.assign(grid.size() * n_out * nt, 0.0);
      for (size_t o = 0; o < n_out; ++o) {
        std::vector<double> w;
        for (size_t g = 0; g < grid.size(); ++g) {
          std::vector<double>& slot = warm[g * n_out + o];
          const std::vector<double>& start = w.empty() ? slot : w;
          w = train_binary_svm(data, train_rows.data(), train_rows.size(), positive[o], grid[g],
                               opt_.balanced, opt_.cv_tolerance, start);
          slot = w;
          std::vector<double>& m = mean[g * n_out + o];
          if (m.empty()) m.assign(w.size(), 0.0);
          for (size_t k = 0; k < w.size(); ++k) m[k] += w[k];
          for (size_t t = 0; t < nt; ++t)
            dec[(g * n_out + o) * nt + t] = dot(w.data(), data.scaled.row(test_rows[t]));
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
  for (size_t o = 0; o < n_out; ++o) {
    std::vector<double> w = train_binary_svm(data, rows, n, positive[o], grid[best],
                                             opt_.balanced, opt_.tolerance, refit_start[o]);
    out.coef.insert(out.coef.end(), w.begin(), w.end());
  }
}

}  // namespace svf
