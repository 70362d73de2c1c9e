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
  NewtonDesign design;
  build_newton_design(data, rows, mult, m, design);
  return train_binary_svm_newton(design, positive_class, cost, balanced, tolerance, init, pos_factor,
                                 neg_factor);
}

void build_newton_design(const TrainingData& data, const int* rows, const int* mult, size_t m,
                         NewtonDesign& design) {
  const Eigen::Index d = static_cast<Eigen::Index>(data.x->n_cols()) + 1;  // + bias
  design.xt.setZero(d, static_cast<Eigen::Index>(m));
  design.weight.resize(m);
  design.label.resize(m);
  for (size_t i = 0; i < m; ++i) {
    double* col = design.xt.col(static_cast<Eigen::Index>(i)).data();
    for (const feature_node* e = data.scaled.row(rows[i]); e->index != -1; ++e) col[e->index - 1] = e->value;
    design.weight[i] = mult ? mult[i] : 1.0;
    design.label[i] = data.y[rows[i]];
  }
}

void collapse_repeats(const int* rows, size_t n, std::vector<int>& distinct, std::vector<int>& mult) {
  std::vector<int> sorted(rows, rows + n);
  std::sort(sorted.begin(), sorted.end());
  distinct.clear();
  mult.clear();
  for (int r : sorted) {
    if (!distinct.empty() && distinct.back() == r) { ++mult.back(); continue; }
    distinct.push_back(r);
    mult.push_back(1);
  }
}

void sum_design_classes(NewtonDesign& design, int num_classes) {
  design.class_sum.setZero(design.xt.rows(), num_classes);
  for (Eigen::Index i = 0; i < design.xt.cols(); ++i)
    design.class_sum.col(design.label[i]).noalias() += design.weight[i] * design.xt.col(i);
}

namespace {

// The Newton direction s = -H^-1 g with the full Hessian H = I + 2 X_A' C_A
// X_A over the active rows (a != 0), summed in blocks of rows (rank-k
// updates of `block`'s width); root_c = sqrt(2 c).
void full_newton_direction(const Eigen::MatrixXd& xt, const Eigen::VectorXd& a, const Eigen::VectorXd& root_c,
                           const Eigen::VectorXd& g, Eigen::MatrixXd& H, Eigen::MatrixXd& block, Eigen::VectorXd& s) {
  const Eigen::Index m = xt.cols(), kBlock = block.cols();
  H.setIdentity();
  Eigen::Index filled = 0;
  for (Eigen::Index i = 0; i < m; ++i) {
    if (a[i] == 0.0) continue;
    block.col(filled) = root_c[i] * xt.col(i);
    if (++filled == kBlock) {
      H.selfadjointView<Eigen::Lower>().rankUpdate(block);
      filled = 0;
    }
  }
  if (filled > 0) H.selfadjointView<Eigen::Lower>().rankUpdate(block.leftCols(filled));
  s = -H.selfadjointView<Eigen::Lower>().llt().solve(g);
}

// Scratch of cg_newton_direction() (d predictors, m rows).
struct CgBuffers {
  Eigen::MatrixXd active;
  Eigen::VectorXd ca, tmp, precond, r, zc, dir, hd;
  CgBuffers(Eigen::Index d, Eigen::Index m)
      : active(d, m), ca(m), tmp(m), precond(d), r(d), zc(d), dir(d), hd(d) {}
};

// Many predictors: H s = -g by conjugate gradients with H v = v + 2 X_A' C_A
// X_A v over the active rows (gathered once per step), diagonally
// preconditioned, to a residual of 0.1 |g| (LIBLINEAR's TRON).
void cg_newton_direction(const Eigen::MatrixXd& xt, const Eigen::VectorXd& a, const Eigen::VectorXd& c,
                         const Eigen::VectorXd& g, CgBuffers& b, Eigen::VectorXd& s) {
  const Eigen::Index d = xt.rows(), m = xt.cols();
  Eigen::Index k = 0;
  for (Eigen::Index i = 0; i < m; ++i) {
    if (a[i] == 0.0) continue;
    b.active.col(k) = xt.col(i);
    b.ca[k++] = 2.0 * c[i];
  }
  const auto xa = b.active.leftCols(k);
  const auto cak = b.ca.head(k);
  b.precond.setOnes();
  if (k > 0) b.precond.noalias() += xa.cwiseAbs2() * cak;
  s.setZero();
  b.r = -g;
  b.zc = b.r.cwiseQuotient(b.precond);
  b.dir = b.zc;
  double rz = b.r.dot(b.zc);
  const double cg_stop = 0.1 * g.norm();
  for (Eigen::Index cg = 0; cg < 2 * d && b.r.norm() > cg_stop; ++cg) {
    b.hd = b.dir;
    if (k > 0) {
      b.tmp.head(k).noalias() = xa.transpose() * b.dir;
      b.tmp.head(k).array() *= cak.array();
      b.hd.noalias() += xa * b.tmp.head(k);
    }
    const double alpha = rz / b.dir.dot(b.hd);
    s += alpha * b.dir;
    b.r -= alpha * b.hd;
    b.zc = b.r.cwiseQuotient(b.precond);
    const double rz_new = b.r.dot(b.zc);
    b.dir = b.zc + (rz_new / rz) * b.dir;
    rz = rz_new;
  }
}

}  // namespace

std::vector<double> train_binary_svm_newton(const NewtonDesign& design, int positive_class,
                                            double cost, bool balanced, double tolerance,
                                            const std::vector<double>& init, double pos_factor,
                                            double neg_factor, int max_iter, const double* init_z) {
  const Eigen::MatrixXd& xt = design.xt;
  const Eigen::Index d = xt.rows(), m = xt.cols();
  Eigen::VectorXd y(m), c(m);
  double n_pos = 0.0, n_all = 0.0;
  for (Eigen::Index i = 0; i < m; ++i) {
    const double k = design.weight[i];
    y[i] = design.label[i] == positive_class ? 1.0 : -1.0;
    n_pos += y[i] > 0 ? k : 0.0;
    n_all += k;
  }
  const double n_neg = n_all - n_pos;
  if (n_pos == 0.0 || n_neg == 0.0) throw std::logic_error("binary SVM problem with one class");
  const double c_pos = pos_factor * cost * (balanced ? n_all / (2.0 * n_pos) : 1.0);
  const double c_neg = neg_factor * cost * (balanced ? n_all / (2.0 * n_neg) : 1.0);
  for (Eigen::Index i = 0; i < m; ++i) c[i] = design.weight[i] * (y[i] > 0 ? c_pos : c_neg);
  const Eigen::VectorXd cy = c.cwiseProduct(y);

  // LIBLINEAR's rule: stop when |g| <= eps * max(min(pos, neg), 1) / l * |g at w = 0|
  // (with class sums: X'Cy = c_pos S_pos - c_neg (S_all - S_pos))
  const bool sums = design.class_sum.rows() == d && positive_class < design.class_sum.cols();
  double g0_norm;
  if (sums) {
    const auto s_pos = design.class_sum.col(positive_class);
    g0_norm = (2.0 * (c_pos * s_pos - c_neg * (design.class_sum.rowwise().sum() - s_pos))).norm();
  } else {
    g0_norm = (2.0 * (xt * cy)).norm();
  }
  const double stop = tolerance * std::max(std::min(n_pos, n_neg), 1.0) / n_all * g0_norm;

  Eigen::VectorXd w = Eigen::VectorXd::Zero(d);
  const bool started = init.size() == static_cast<size_t>(d);
  if (started) w = Eigen::Map<const Eigen::VectorXd>(init.data(), d);
  Eigen::VectorXd z(m), u(m), a(m), g(d), s(d);  // z = X w, u = X s
  if (started && init_z) z = Eigen::Map<const Eigen::VectorXd>(init_z, m);
  else z.noalias() = xt.transpose() * w;
  // few predictors: the full Hessian, summed in blocks of active rows (a
  // rank-k update); many: conjugate gradients on Hessian-vector products
  const bool full = d <= kNewtonMaxDim;
  const Eigen::Index kBlock = 64;
  Eigen::MatrixXd H(full ? d : 0, full ? d : 0), block(full ? d : 0, full ? kBlock : 0);
  CgBuffers cg(full ? 0 : d, full ? 0 : m);
  // sqrt(2 c_i), the scale of an active row's Hessian term (computed once)
  Eigen::VectorXd root_c(full ? m : 0);
  if (full) root_c = (2.0 * c).cwiseSqrt();
  // the rows that can be active along the step, their values copied side by
  // side so that the line search reads them contiguously
  Eigen::VectorXd live_y(m), live_z(m), live_u(m), live_c(m), live_cy(m);
  for (int iter = 0; iter < max_iter; ++iter) {
    for (Eigen::Index i = 0; i < m; ++i) {
      const double margin = 1.0 - y[i] * z[i];
      a[i] = margin > 0.0 ? -2.0 * margin * cy[i] : 0.0;
    }
    g = w;
    g.noalias() += xt * a;
    if (g.norm() <= stop) break;
    if (full) {
      full_newton_direction(xt, a, root_c, g, H, block, s);
    } else {
      cg_newton_direction(xt, a, c, g, cg, s);
    }
    u.noalias() = xt.transpose() * s;
    // phi'(t) and phi''(t) of phi(t) = f(w + t s); only rows active now or
    // moving towards their margin (y u < 0) can be active for t > 0
    Eigen::Index n_live = 0;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (!(a[i] != 0.0 || y[i] * u[i] < 0.0)) continue;
      live_y[n_live] = y[i];
      live_z[n_live] = z[i];
      live_u[n_live] = u[i];
      live_c[n_live] = c[i];
      live_cy[n_live++] = cy[i];
    }
    const double ws = w.dot(s), ss = s.squaredNorm();
    auto slope = [&](double t, double* curvature) {
      double d1 = ws + t * ss, d2 = ss;
      for (Eigen::Index i = 0; i < n_live; ++i) {
        const double margin = 1.0 - live_y[i] * (live_z[i] + t * live_u[i]);
        if (margin <= 0.0) continue;
        d1 -= 2.0 * margin * live_cy[i] * live_u[i];
        d2 += 2.0 * live_c[i] * live_u[i] * live_u[i];
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
