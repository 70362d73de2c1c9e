#include "NewtonSvm.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace svf {

namespace {

// Exact line search on the convex piecewise quadratic phi(t) = f(w + t s):
// safeguarded Newton on phi'(t) (slope(t, &phi'') returns phi'(t)),
// bracketed in [lo, hi] with phi'(lo) < 0. ws = w's, ss = s's.
template <class Slope>
double exact_step(double ws, double ss, Slope slope) {
  double lo = 0.0, hi = -1.0, t = 1.0, curv;
  bool found = false;
  for (int k = 0; k < 30 && !found; ++k) {
    const double d1 = slope(t, &curv);
    if (std::fabs(d1) <= 1e-12 * (std::fabs(ws) + ss)) { found = true; break; }
    if (d1 < 0.0) lo = t; else hi = t;
    double next = t - d1 / curv;
    if (hi >= 0.0 && (next <= lo || next >= hi)) next = 0.5 * (lo + hi);
    if (hi < 0.0 && next <= lo) next = 2.0 * t;
    if (next == t) { found = true; break; }
    t = next;
  }
  // phi decreases on [0, lo]: fall back to lo if the search did not settle
  if (!found && lo > 0.0) t = lo;
  return t;
}

}  // namespace

// f(w) = w'w / 2 + sum_i c_i max(0, 1 - y_i w'x_i)^2
// g    = w - 2 sum_{i active} c_i (1 - y_i w'x_i) y_i x_i
// H    = I + 2 sum_{i active} c_i x_i x_i'
std::vector<double> train_binary_svm_newton(const TrainingData& data, const int* rows,
                                            const int* mult, size_t m, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init, double pos_factor,
                                            double neg_factor) {
  const int d = static_cast<int>(data.x->n_cols()) + 1;  // + bias
  std::vector<const feature_node*> x(m);
  std::vector<double> y(m), c(m);
  double n_pos = 0.0, n_all = 0.0;
  for (size_t i = 0; i < m; ++i) {
    const double k = mult ? mult[i] : 1.0;
    x[i] = data.scaled.row(rows[i]);
    y[i] = data.y[rows[i]] == positive_class ? 1.0 : -1.0;
    n_pos += y[i] > 0 ? k : 0.0;
    n_all += k;
  }
  const double n_neg = n_all - n_pos;
  if (n_pos == 0.0 || n_neg == 0.0) throw std::logic_error("binary SVM problem with one class");
  const double c_pos = pos_factor * cost * (balanced ? n_all / (2.0 * n_pos) : 1.0);
  const double c_neg = neg_factor * cost * (balanced ? n_all / (2.0 * n_neg) : 1.0);
  for (size_t i = 0; i < m; ++i) c[i] = (mult ? mult[i] : 1.0) * (y[i] > 0 ? c_pos : c_neg);

  // LIBLINEAR's rule: stop when |g| <= eps * max(min(pos, neg), 1) / l * |g at w = 0|
  Eigen::VectorXd g0 = Eigen::VectorXd::Zero(d);
  for (size_t i = 0; i < m; ++i)
    for (const feature_node* e = x[i]; e->index != -1; ++e) g0[e->index - 1] -= 2.0 * c[i] * y[i] * e->value;
  const double stop = tolerance * std::max(std::min(n_pos, n_neg), 1.0) / n_all * g0.norm();

  Eigen::VectorXd w = Eigen::VectorXd::Zero(d);
  if (init.size() == static_cast<size_t>(d)) w = Eigen::Map<const Eigen::VectorXd>(init.data(), d);
  std::vector<double> z(m), u(m);  // w'x_i and s'x_i
  for (size_t i = 0; i < m; ++i) z[i] = dot(w.data(), x[i]);

  Eigen::VectorXd g(d), s(d);
  Eigen::MatrixXd H(d, d);
  // Dense rows: the Hessian is summed in blocks of rows (a rank-k update,
  // vectorised); sparse rows: entry by entry over their non-zeros.
  const bool blocked = !data.x->is_sparse();
  const int kBlock = 64;
  Eigen::MatrixXd block(blocked ? d : 0, blocked ? kBlock : 0);
  int filled = 0;
  auto flush = [&]() {
    if (filled == 0) return;
    H.selfadjointView<Eigen::Lower>().rankUpdate(block.leftCols(filled));
    filled = 0;
  };
  const int kMaxIter = 100;
  for (int iter = 0; iter < kMaxIter; ++iter) {
    g = w;
    H.setIdentity();
    for (size_t i = 0; i < m; ++i) {
      const double margin = 1.0 - y[i] * z[i];
      if (margin <= 0.0) continue;
      const double a = -2.0 * c[i] * margin * y[i], h = 2.0 * c[i];
      if (blocked) {
        const double root = std::sqrt(h);
        Eigen::Ref<Eigen::VectorXd> col = block.col(filled);
        col.setZero();
        for (const feature_node* e = x[i]; e->index != -1; ++e) {
          g[e->index - 1] += a * e->value;
          col[e->index - 1] = root * e->value;
        }
        if (++filled == kBlock) flush();
        continue;
      }
      for (const feature_node* e = x[i]; e->index != -1; ++e) {
        g[e->index - 1] += a * e->value;
        const double he = h * e->value;
        for (const feature_node* f = x[i]; f <= e; ++f) H(e->index - 1, f->index - 1) += he * f->value;
      }
    }
    flush();
    if (g.norm() <= stop) break;
    s = -H.selfadjointView<Eigen::Lower>().llt().solve(g);
    for (size_t i = 0; i < m; ++i) u[i] = dot(s.data(), x[i]);
    // phi'(t) and phi''(t) of phi(t) = f(w + t s)
    const double ws = w.dot(s), ss = s.squaredNorm();
    auto slope = [&](double t, double* curvature) {
      double d1 = ws + t * ss, d2 = ss;
      for (size_t i = 0; i < m; ++i) {
        const double margin = 1.0 - y[i] * (z[i] + t * u[i]);
        if (margin <= 0.0) continue;
        d1 -= 2.0 * c[i] * margin * y[i] * u[i];
        d2 += 2.0 * c[i] * u[i] * u[i];
      }
      *curvature = d2;
      return d1;
    };
    const double t = exact_step(ws, ss, slope);
    w += t * s;
    for (size_t i = 0; i < m; ++i) z[i] += t * u[i];
  }
  return std::vector<double>(w.data(), w.data() + d);
}

Eigen::MatrixXd gather_scaled_rows(const TrainingData& data, const int* rows, size_t m) {
  const int d = static_cast<int>(data.x->n_cols()) + 1;
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(m), d);
  for (size_t i = 0; i < m; ++i)
    for (const feature_node* e = data.scaled.row(rows[i]); e->index != -1; ++e)
      X(static_cast<Eigen::Index>(i), e->index - 1) = e->value;
  return X;
}

std::vector<double> train_binary_svm_newton_dense(const Eigen::MatrixXd& X,
                                                  const Eigen::VectorXd& y,
                                                  const Eigen::VectorXd& cost, double tolerance,
                                                  const std::vector<double>& init) {
  const Eigen::Index m = X.rows(), d = X.cols();
  const double n_pos = static_cast<double>((y.array() > 0.0).count());
  if (n_pos == 0.0 || n_pos == static_cast<double>(m))
    throw std::logic_error("binary SVM problem with one class");
  const Eigen::VectorXd cy = cost.cwiseProduct(y);
  const double stop = tolerance * std::max(std::min(n_pos, m - n_pos), 1.0) / m *
                      (2.0 * X.transpose() * cy).norm();

  Eigen::VectorXd w = Eigen::VectorXd::Zero(d);
  if (init.size() == static_cast<size_t>(d)) w = Eigen::Map<const Eigen::VectorXd>(init.data(), d);
  Eigen::VectorXd z = X * w, u(m), a(m), g(d), s(d);
  Eigen::MatrixXd H(d, d), active(d, m);  // active rows, scaled, as columns
  const int kMaxIter = 100;
  for (int iter = 0; iter < kMaxIter; ++iter) {
    Eigen::Index k = 0;
    for (Eigen::Index i = 0; i < m; ++i) {
      const double margin = 1.0 - y[i] * z[i];
      a[i] = margin > 0.0 ? -2.0 * margin * cy[i] : 0.0;
      if (margin > 0.0) active.col(k++) = std::sqrt(2.0 * cost[i]) * X.row(i).transpose();
    }
    g.noalias() = w + X.transpose() * a;
    if (g.norm() <= stop) break;
    H.setIdentity();
    if (k > 0) H.selfadjointView<Eigen::Lower>().rankUpdate(active.leftCols(k));
    s = -H.selfadjointView<Eigen::Lower>().llt().solve(g);
    u.noalias() = X * s;
    // phi'(t) and phi''(t) of phi(t) = f(w + t s)
    const double ws = w.dot(s), ss = s.squaredNorm();
    auto slope = [&](double t, double* curvature) {
      double d1 = ws + t * ss, d2 = ss;
      for (Eigen::Index i = 0; i < m; ++i) {
        const double margin = 1.0 - y[i] * (z[i] + t * u[i]);
        if (margin <= 0.0) continue;
        d1 -= 2.0 * margin * cy[i] * u[i];
        d2 += 2.0 * cost[i] * u[i] * u[i];
      }
      *curvature = d2;
      return d1;
    };
    const double t = exact_step(ws, ss, slope);
    w += t * s;
    z += t * u;
  }
  return std::vector<double>(w.data(), w.data() + d);
}

std::vector<double> train_binary_svm_newton(const TrainingData& data, const int* rows,
                                            const int* mult, size_t m, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init) {
  return train_binary_svm_newton(data, rows, mult, m, positive_class, cost, balanced, tolerance,
                                 init, 1.0, 1.0);
}

}  // namespace svf
