#include "LinearSvmLeaf.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "svm/LinearSvm.h"
#include "svm/NewtonSvm.h"

namespace svf {

namespace {

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

// C by stratified k-fold cross-validation inside the leaf (folds from the
// leaf's generator): the grid index with the most held-out rows right (ties:
// the smaller C), and each output's mean fold solution at it (refit_start).
size_t LinearSvmLeafModel::choose_cost(const TrainingData& data, const int* rows, size_t n,
                                       const std::vector<int>& present, const std::vector<int>& positive,
                                       double f_pos, double f_neg, bool newton, const Eigen::MatrixXd& x_leaf,
                                       Rng& rng, std::vector<std::vector<double>>& refit_start) const {
  const std::vector<double>& grid = opt_.cost_grid;
  const int folds = opt_.cv_folds;
  const size_t n_out = positive.size();
  size_t best = 0;
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
          w = train_binary_linear(data, train_rows.data(), train_rows.size(), positive[o],
                                  grid[g], opt_.balanced, opt_.cv_tolerance, start, f_pos, f_neg,
                                  liblinear_solver());
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
        correct[g] += class_from_decisions(dec_row.data(), present.data(), present.size()) ==
                      data.y[test_rows[t]];
      }
  }
  for (size_t g = 1; g < grid.size(); ++g)
    if (correct[g] > correct[best]) best = g;  // ties keep the smaller C
  for (size_t o = 0; o < n_out; ++o) {
    std::vector<double>& m = mean[best * n_out + o];
    for (double& v : m) v /= used_folds;
    refit_start[o] = m;
  }
  return best;
}

void LinearSvmLeafModel::fit(const TrainingData& data, const int* rows, size_t n,
                             const int* counts, Rng& rng, LeafFit& out) const {
  const int K = data.num_classes;
  constant_leaf(counts, K, out);  // unless an SVM is fitted below
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
  const bool newton = squared_hinge() && static_cast<int>(data.x->n_cols()) + 1 <= kNewtonMaxDim;
  // The leaf's rows gathered once (they are scattered over the data); the
  // folds' matrices are copied from here.
  Eigen::MatrixXd x_leaf;
  if (newton) x_leaf = gather_scaled_rows(data, rows, n);
  size_t best = 0;
  const int folds = opt_.cv_folds;
  std::vector<std::vector<double>> refit_start(n_out);
  if (grid.size() > 1 && folds > 1)
    best = choose_cost(data, rows, n, present, positive, f_pos, f_neg, newton, x_leaf, rng, refit_start);

  out.kind = kind();
  out.ints.assign(counts, counts + K);  // the payload starts with the full class counts
  out.ints.push_back(static_cast<int>(present.size()));
  out.ints.insert(out.ints.end(), present.begin(), present.end());
  out.reals.assign(1, grid[best]);
  out.reals.reserve(1 + n_out * (data.x->n_cols() + 1));
  // The leaf's SVM is LIBLINEAR's solution. With few predictors LIBLINEAR
  // starts from the Newton solver's solution of the same problem, so that
  // it mostly verifies optimality instead of iterating. With many predictors
  // and dense data likewise from the Newton solver's conjugate-gradient
  // steps on the leaf's distinct rows as one dense design (bootstrap
  // duplicates as weights): LIBLINEAR's passes over feature_node rows took
  // about 80% of an isolet tree; dense matrix-vector products are cheaper.
  // (not on leaves whose dense copy would pass 2^24 values, 128 MB: a big
  // leaf of a million-row fit would hold a second copy of its rows)
  const bool wide_dense = squared_hinge() && !newton && !data.x->is_sparse() &&
                          static_cast<double>(n) * data.x->n_cols() <= 16777216.0;
  NewtonDesign leaf_design;
  if (wide_dense) {
    std::vector<int> distinct, mult;
    collapse_repeats(rows, n, distinct, mult);
    build_newton_design(data, distinct.data(), mult.data(), distinct.size(), leaf_design);
    if (n_out > 2) sum_design_classes(leaf_design, K);
  }
  Eigen::VectorXd y_leaf, c_leaf;
  for (size_t o = 0; o < n_out; ++o) {
    std::vector<double> start = refit_start[o];
    if (newton || wide_dense) {
      std::vector<double> solved;
      if (newton) {
        binary_problem(data, rows, n, positive[o], opt_.balanced, f_pos, f_neg, y_leaf, c_leaf);
        solved = train_binary_svm_newton_dense(x_leaf, y_leaf, grid[best] * c_leaf, opt_.tolerance, start);
      } else {
        solved = train_binary_svm_newton(leaf_design, positive[o], grid[best], opt_.balanced, opt_.tolerance,
                                         start, f_pos, f_neg);
      }
      if (std::all_of(solved.begin(), solved.end(), [](double v) { return std::isfinite(v); }))
        start = std::move(solved);
    }
    std::vector<double> w = train_binary_linear(data, rows, n, positive[o], grid[best], opt_.balanced,
                                                opt_.tolerance, start, f_pos, f_neg, liblinear_solver());
    out.reals.insert(out.reals.end(), w.begin(), w.end());
  }
}

int LinearSvmLeafModel::liblinear_solver() const { return L2R_L2LOSS_SVC; }

LinearSvmOptions linear_svm_options(const Params& params) {
  LinearSvmOptions o;
  o.cost_grid = params.numbers("cost");
  o.cv_folds = params.has("cv_folds") ? params.integer("cv_folds") : 1;
  o.min_class_rows = params.integer("min_class_rows");
  o.balanced = params.flag("balanced");
  o.tolerance = params.has("tolerance") ? params.number("tolerance") : o.tolerance;
  o.cv_tolerance = params.has("cv_tolerance") ? params.number("cv_tolerance") : o.cv_tolerance;
  o.rare_as_negative = params.text("rare_classes") == "negative";
  o.class_factor = params.numbers("class_factor");
  return o;
}

std::unique_ptr<LeafModel> LinearSvmLeafModel::create(const Params* params) {
  return std::unique_ptr<LeafModel>(
      new LinearSvmLeafModel(params ? linear_svm_options(*params) : LinearSvmOptions()));
}

std::string check_linear_payload(const LeafPayload& leaf, const OutcomeShape& shape) {
  const std::string counts = check_class_counts(leaf, shape);
  if (!counts.empty()) return counts;
  const size_t K = static_cast<size_t>(shape.num_classes);
  if (leaf.n_ints < K + 1) return "SVM classes of a leaf are out of range";
  const long c = leaf.ints[K];
  if (c < 2 || c > static_cast<long>(K) || K + 1 + static_cast<size_t>(c) > leaf.n_ints)
    return "SVM classes of a leaf are out of range";
  const int* classes = leaf.ints + K + 1;
  for (long k = 0; k < c; ++k)
    if (classes[k] < 0 || classes[k] >= shape.num_classes || (k > 0 && classes[k] <= classes[k - 1]))
      return "SVM classes of a leaf are out of range";
  if (1 + linear_outputs(static_cast<size_t>(c)) * (shape.p + 1) > leaf.n_reals)
    return "SVM coefficients of a leaf are out of range";
  return "";
}

int linear_payload_class(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
                         double* decision) {
  const int K = shape.num_classes;
  return linear_class(leaf.reals + 1, leaf.ints + K + 1, static_cast<size_t>(leaf.ints[K]), shape.p,
                      row, decision);
}

void LinearSvmLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape,
                                 const feature_node* row, double* out, double* confidence) const {
  double decision;
  const int cls = linear_payload_class(leaf, shape, row, &decision);
  for (int k = 0; k < shape.num_classes; ++k) out[k] = 0.0;
  out[cls] = 1.0;
  if (confidence) *confidence = decision;
}

std::string LinearSvmLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  return check_linear_payload(leaf, shape);
}

bool LinearSvmLeafModel::linear_terms(const LeafPayload& leaf, const OutcomeShape& shape, LinearTerms& out) const {
  const int K = shape.num_classes;
  out.n_classes = leaf.ints[K];
  out.classes = leaf.ints + K + 1;
  out.outputs = static_cast<int>(linear_outputs(static_cast<size_t>(out.n_classes)));
  out.weights = leaf.reals + 1;
  return true;
}

void LinearSvmLeafModel::describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const {
  const int K = shape.num_classes;
  describe_class_counts(leaf, shape, out);
  LinearTerms lt;
  linear_terms(leaf, shape, lt);
  out.ints("n_classes", leaf.ints, K, 1);
  out.ints("classes", leaf.ints, K + 1, static_cast<size_t>(lt.n_classes));
  out.reals("cost", leaf.reals, 0, 1);
  out.matrix("coef", leaf.reals, 1, static_cast<int>(shape.p) + 1, lt.outputs);
}

}  // namespace svf
