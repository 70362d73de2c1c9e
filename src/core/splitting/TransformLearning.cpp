// Learning a transformation forest's T (TransformLearning.h): the node's rows
// as learning sees them, the nuclear-norm objective's terms and subgradient,
// the spectral-norm constraint, the groups' bases and their dimension, and
// the randomized range finder of the automatic rank.
#include "TransformLearning.h"

#include "Impurity.h"

#include <algorithm>
#include <cmath>

namespace svf {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// The columns M of one nuclear-norm term ||T M||_*; held as the Gram matrix
// M M' when M has at least as many columns as rows (then T M M' costs r p^2
// whatever the number of rows), else as M itself.
struct Term {
  bool gram = false;
  MatrixXd m;  // M M' (p x p) or M (p x cols)
};

Term make_term(const MatrixXd& M) {
  Term t;
  t.gram = M.cols() >= M.rows();
  if (t.gram) {
    t.m = MatrixXd::Zero(M.rows(), M.rows());
    t.m.selfadjointView<Eigen::Lower>().rankUpdate(M);
    t.m.triangularView<Eigen::StrictlyUpper>() = t.m.transpose();
  } else {
    t.m = M;
  }
  return t;
}

// Nonzero singular values (descending) and left singular vectors of T M,
// from the eigen-decomposition of the smaller of (T M)(T M)' and (T M)'(T M);
// also T M M' (r x p), which the subgradient needs.
struct LeftSvd {
  VectorXd sigma;
  MatrixXd U;
  MatrixXd tmm;
};

LeftSvd left_svd(const MatrixXd& T, const Term& g) {
  LeftSvd out;
  MatrixXd Z;  // T M, only when M is held as columns
  Eigen::SelfAdjointEigenSolver<MatrixXd> es;
  bool right = false;  // decomposed (T M)'(T M) rather than (T M)(T M)'
  if (g.gram) {
    out.tmm = T * g.m;
    es.compute(out.tmm * T.transpose());
  } else {
    Z = T * g.m;
    out.tmm = Z * g.m.transpose();
    right = Z.cols() < Z.rows();
    if (right) es.compute(Z.transpose() * Z);
    else es.compute(Z * Z.transpose());
  }
  const VectorXd& lam = es.eigenvalues();  // ascending
  const Eigen::Index s = lam.size();
  const double top = s > 0 ? lam(s - 1) : 0.0;
  // sigma^2 below 1e-12 of the largest: a zero singular value (rounding noise)
  Eigen::Index q = 0;
  while (q < s && top > 0.0 && lam(s - 1 - q) > 1e-12 * top) ++q;
  out.sigma.resize(q);
  out.U.resize(T.rows(), q);
  for (Eigen::Index j = 0; j < q; ++j) {
    out.sigma(j) = std::sqrt(lam(s - 1 - j));
    if (right) out.U.col(j) = Z * es.eigenvectors().col(s - 1 - j) / out.sigma(j);
    else out.U.col(j) = es.eigenvectors().col(s - 1 - j);
  }
  return out;
}

// Returns ||T M||_* and adds sign * U V' M' (its subgradient; V' = S^-1 U' T M) to grad.
double nuclear(const MatrixXd& T, const Term& g, double sign, MatrixXd* grad) {
  const LeftSvd svd = left_svd(T, g);
  if (grad && svd.sigma.size() > 0)
    *grad += sign * (svd.U * svd.sigma.cwiseInverse().asDiagonal()) * (svd.U.transpose() * svd.tmm);
  return svd.sigma.sum();
}

// Largest singular value of T by power iteration on T'T, warm-started from
// the previous call's vector v (the iterates change little between steps):
// O(r p) a step instead of an r x r eigen-decomposition.
double spectral_norm(const MatrixXd& T, VectorXd& v) {
  if (v.size() != T.cols()) v = VectorXd::Ones(T.cols());
  double sigma = 0.0;
  for (int it = 0; it < 200; ++it) {
    const double norm = v.norm();
    if (!(norm > 0.0)) return 0.0;
    v /= norm;
    const VectorXd w = T * v;
    const double next = w.norm();
    v = T.transpose() * w;
    if (std::abs(next - sigma) <= 1e-13 * next) return next;
    sigma = next;
  }
  return sigma;
}

}  // namespace

// Up to q top principal directions (uncentred: the caller centres) of the
// columns of X (p x n), as the rows of a q' x p matrix with orthonormal rows,
// q' <= q the directions with a singular value above 1e-10 of the largest.
// A randomized range finder (Halko, Martinsson & Tropp): a uniform sketch of
// q + 10 columns, two power iterations with re-orthonormalisation, then the
// exact SVD inside the sketch: O(p n q) instead of O(p^2 n + p^3).
MatrixXd top_directions(const MatrixXd& X, int q, Rng& rng) {
  const Eigen::Index p = X.rows(), n = X.cols();
  const Eigen::Index l = std::min<Eigen::Index>(std::min(p, n), q + 10);
  MatrixXd omega(n, l);
  for (Eigen::Index j = 0; j < l; ++j)
    for (Eigen::Index i = 0; i < n; ++i) omega(i, j) = rng.uniform() - 0.5;
  MatrixXd Y = X * omega;  // p x l
  auto orthonormal = [](MatrixXd& m) {
    Eigen::HouseholderQR<MatrixXd> qr(m);
    m = qr.householderQ() * MatrixXd::Identity(m.rows(), m.cols());
  };
  for (int it = 0; it < 2; ++it) {
    orthonormal(Y);
    MatrixXd Z = X.transpose() * Y;  // n x l
    orthonormal(Z);
    Y.noalias() = X * Z;
  }
  orthonormal(Y);
  // X's top directions inside span(Y): eigen-decomposition of (Y'X)(Y'X)'
  const MatrixXd small = Y.transpose() * X;  // l x n
  MatrixXd S = MatrixXd::Zero(l, l);
  S.selfadjointView<Eigen::Lower>().rankUpdate(small);
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  Eigen::SelfAdjointEigenSolver<MatrixXd> es(S);
  const VectorXd& lam = es.eigenvalues();  // ascending
  const double top = lam(l - 1);
  Eigen::Index k = 0;
  while (k < std::min<Eigen::Index>(q, l) && top > 0.0 && lam(l - 1 - k) > 1e-20 * top) ++k;
  MatrixXd P(k, p);
  for (Eigen::Index j = 0; j < k; ++j) P.row(j) = (Y * es.eigenvectors().col(l - 1 - j)).transpose();
  return P;
}

// Routing of the columns of Y (classes cls, weights w or nullptr: 1 each)
// by the rules z = T y to the closer of za + span(UA[:, :d]) and
// zb + span(UB[:, :d]) (ties: A), for d = 1..UA.cols(): the information gain
// of each (index d - 1; with weights, of the weighted class counts; without,
// entropy_gain()'s) and the columns sent to A. The bases are nested, so
// every d costs O(columns).
void gains_by_dim(const MatrixXd& T, const VectorXd& za, const VectorXd& zb, const MatrixXd& UA,
                  const MatrixXd& UB, const MatrixXd& Y, const std::vector<int>& cls, const double* w, int K,
                  std::vector<double>& gain, std::vector<size_t>& n_left) {
  const int dim = static_cast<int>(UA.cols());
  const size_t n = static_cast<size_t>(Y.cols());
  gain.assign(dim, 0.0);
  n_left.assign(dim, 0);
  std::vector<double> counts(K, 0.0), left_counts(K);
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double wi = w ? w[i] : 1.0;
    counts[cls[i]] += wi;
    total += wi;
  }
  auto xlogx = [](double v) { return v > 0.0 ? v * std::log(v) : 0.0; };
  const MatrixXd Z = T * Y;
  const MatrixXd DA = Z.colwise() - za, DB = Z.colwise() - zb;
  const MatrixXd PA = UA.transpose() * DA, PB = UB.transpose() * DB;
  VectorXd ea = DA.colwise().squaredNorm().transpose(), eb = DB.colwise().squaredNorm().transpose();
  for (int d = 1; d <= dim; ++d) {
    std::fill(left_counts.begin(), left_counts.end(), 0.0);
    size_t nl = 0;
    double wl = 0.0;
    for (size_t i = 0; i < n; ++i) {
      ea(i) -= PA(d - 1, i) * PA(d - 1, i);
      eb(i) -= PB(d - 1, i) * PB(d - 1, i);
      if (ea(i) <= eb(i)) {
        const double wi = w ? w[i] : 1.0;
        left_counts[cls[i]] += wi;
        wl += wi;
        ++nl;
      }
    }
    n_left[d - 1] = nl;
    if (!(total > 0.0)) continue;
    // as entropy_gain(): total * gain = xlogx(W) - xlogx(W_l) - xlogx(W_r) + sum over classes
    double g = xlogx(total) - xlogx(wl) - xlogx(total - wl);
    for (int k = 0; k < K; ++k) g += xlogx(left_counts[k]) + xlogx(counts[k] - left_counts[k]) - xlogx(counts[k]);
    gain[d - 1] = g / total;
  }
}

// The d (1..gain.size()) of largest gain among those whose routing of the
// node's n rows (n_left of them to A) sends rows both ways; ties: the
// smaller d; 0 when none does.
int best_dim(const std::vector<double>& gain, const std::vector<size_t>& n_left, size_t n) {
  int best = 0;
  double top = -HUGE_VAL;
  for (size_t d = 1; d <= gain.size(); ++d) {
    if (n_left[d - 1] == 0 || n_left[d - 1] == n) continue;
    if (gain[d - 1] > top + 1e-12) {
      top = gain[d - 1];
      best = static_cast<int>(d);
    }
  }
  return best;
}

LearnedTransform learn_transform(const MatrixXd& A, const MatrixXd& B, int rank, int iterations,
                                 double step, bool center_groups) {
  const Eigen::Index p = A.rows();
  MatrixXd AB(p, A.cols() + B.cols());
  AB << A, B;
  Term ta, tb, tab;
  if (center_groups) {
    const VectorXd ma = A.rowwise().mean(), mb = B.rowwise().mean();
    ta = make_term(A.colwise() - ma);
    tb = make_term(B.colwise() - mb);
    if (ta.gram && tb.gram) {
      tab.gram = true;
      tab.m = ta.m + tb.m;
      tab.m.noalias() += static_cast<double>(A.cols()) * ma * ma.transpose();
      tab.m.noalias() += static_cast<double>(B.cols()) * mb * mb.transpose();
    } else {
      tab = make_term(AB);
    }
  } else {
    ta = make_term(A);
    tb = make_term(B);
    if (ta.gram && tb.gram) {
      tab.gram = true;
      tab.m = ta.m + tb.m;
    } else {
      tab = make_term(AB);
    }
  }

  LearnedTransform out;
  MatrixXd T;
  if (rank <= 0 || rank >= p) {
    T = MatrixXd::Identity(p, p);
  } else {
    // fat T: the identity on the top `rank` principal directions of the node
    MatrixXd C = tab.gram ? tab.m : MatrixXd(AB * AB.transpose());
    Eigen::SelfAdjointEigenSolver<MatrixXd> es(C);
    T = es.eigenvectors().rightCols(rank).rowwise().reverse().transpose();
  }

  auto objective = [&](const MatrixXd& t, MatrixXd* grad) {
    return nuclear(t, ta, 1.0, grad) + nuclear(t, tb, 1.0, grad) - nuclear(t, tab, -1.0, grad);
  };
  MatrixXd grad(T.rows(), p);
  VectorXd top;  // power-iteration vector of spectral_norm()
  double best = HUGE_VAL;
  for (int it = 0;; ++it) {
    grad.setZero();
    const double f = objective(T, it < iterations ? &grad : nullptr);
    out.objective.push_back(f);
    if (f < best) {  // subgradient steps need not descend: keep the best iterate
      best = f;
      out.T = T;
    }
    if (it == iterations) break;
    T -= step * grad;
    const double norm = spectral_norm(T, top);
    if (!(norm > 0.0) || !std::isfinite(norm)) break;
    T /= norm;  // projection onto ||T||_2 = 1
  }
  return out;
}

MatrixXd group_basis(const MatrixXd& T, const MatrixXd& M, int dim) {
  const LeftSvd svd = left_svd(T, make_term(M));
  MatrixXd U = MatrixXd::Zero(T.rows(), dim);
  const Eigen::Index q = std::min<Eigen::Index>(dim, svd.U.cols());
  U.leftCols(q) = svd.U.leftCols(q);
  return U;
}

// (TransformSplitter.h)
void node_columns(const TrainingData& data, const int* rows, size_t n, bool affine_kind, NodeColumns& nc) {
  const size_t p = data.x->n_cols();
  MatrixXd& X = nc.X;
  X.resize(p, n);
  std::vector<double> col(n);
  nc.shift.assign(p, 0.0);
  nc.factor.assign(p, 1.0);
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, col.data());
    bool varies = false;
    for (size_t i = 1; i < n && !varies; ++i) varies = col[i] != col[0];
    if (!varies) {
      nc.constant.push_back(j);
      nc.shift[j] = col[0];
      nc.factor[j] = 0.0;
      for (size_t i = 0; i < n; ++i) X(j, i) = 0.0;
      continue;
    }
    if (affine_kind) {
      double mean = 0.0;
      for (size_t i = 0; i < n; ++i) mean += col[i];
      mean /= static_cast<double>(n);
      double ss = 0.0;
      for (size_t i = 0; i < n; ++i) ss += (col[i] - mean) * (col[i] - mean);
      const double sd = std::sqrt(ss / static_cast<double>(n));
      if (!(sd > 0.0) || !std::isfinite(sd) || !std::isfinite(1.0 / sd)) {
        nc.constant.push_back(j);  // spread too small (or too large) to scale
        nc.shift[j] = mean;
        nc.factor[j] = 0.0;
        for (size_t i = 0; i < n; ++i) X(j, i) = 0.0;
        continue;
      }
      nc.shift[j] = mean;
      nc.factor[j] = 1.0 / sd;
      for (size_t i = 0; i < n; ++i) X(j, i) = (col[i] - mean) / sd;
    } else {
      for (size_t i = 0; i < n; ++i) X(j, i) = col[i];
    }
  }
  nc.varying = p - nc.constant.size();
  if (nc.varying == 0) return;
  if (affine_kind) {
    const double s = std::sqrt(static_cast<double>(n) * static_cast<double>(nc.varying));
    X /= s;
    for (double& f : nc.factor) f /= s;
  } else {
    for (size_t i = 0; i < n; ++i) {
      const double norm = X.col(i).norm();
      if (norm > 0.0) X.col(i) /= norm * std::sqrt(static_cast<double>(n));
    }
  }
}

// (TransformSplitter.h)
void node_oob(const TrainingData& data, const NodeContext& node, const NodeColumns& nc, NodeOob& no) {
  const size_t p = data.x->n_cols(), m = node.n_oob;
  no.Xo.resize(p, m);
  std::vector<double> ocol(m);
  for (size_t j = 0; j < p; ++j) {
    if (nc.factor[j] == 0.0) {
      no.Xo.row(j).setZero();
      continue;
    }
    data.x->gather(j, node.oob, m, ocol.data());
    for (size_t i = 0; i < m; ++i) no.Xo(j, i) = (ocol[i] - nc.shift[j]) * nc.factor[j];
  }
  no.oob_class.resize(m);
  for (size_t i = 0; i < m; ++i) no.oob_class[i] = data.y[node.oob[i]];
  if (data.weights) {  // in-bag rows carry their weights as copies; out-of-bag rows as weights
    no.oob_weight.resize(m);
    for (size_t i = 0; i < m; ++i) no.oob_weight[i] = data.weights[node.oob[i]];
  }
}

}  // namespace svf
