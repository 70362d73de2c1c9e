#include "TransformSplitter.h"

#include "Impurity.h"

#include <algorithm>
#include <cmath>

namespace svf {

std::unique_ptr<Splitter> TransformSplitter::create(const Params& params) {
  TransformOptions o;
  o.rank = params.integer("transform_rank");
  o.dim = params.integer("subspace_dim");
  o.dim_per_class = params.integer("dim_per_class");
  o.iterations = params.integer("transform_iter");
  o.step = params.number("transform_step");
  o.tries = params.integer("node_tries");
  o.min_node_size = params.integer("min_node_size");
  return std::unique_ptr<Splitter>(new TransformSplitter(o));
}

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

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

LearnedTransform learn_transform(const MatrixXd& A, const MatrixXd& B, int rank, int iterations,
                                 double step) {
  const Eigen::Index p = A.rows();
  MatrixXd AB(p, A.cols() + B.cols());
  AB << A, B;
  const Term ta = make_term(A), tb = make_term(B);
  Term tab;
  if (ta.gram && tb.gram) {
    tab.gram = true;
    tab.m = ta.m + tb.m;
  } else {
    tab = make_term(AB);
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

bool TransformSplitter::find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  const int K = data.num_classes;
  const size_t p = data.x->n_cols();
  const int r = (o_.rank <= 0 || static_cast<size_t>(o_.rank) >= p) ? static_cast<int>(p) : o_.rank;
  const int dim_cap = std::min(o_.dim, r - 1);  // dim = r would reconstruct every row exactly
  if (dim_cap < 1) return false;
  std::vector<int> present, counts(K, 0);
  for (size_t i = 0; i < n; ++i) ++counts[data.y[rows[i]]];
  for (int k = 0; k < K; ++k)
    if (counts[k] > 0) present.push_back(k);
  if (present.size() < 2) return false;

  // node rows as columns, each of unit norm, all divided by sqrt(n) so that
  // the objective and the step size mean the same at every node size
  MatrixXd X(p, n);
  std::vector<double> col(n);
  // a predictor constant in the node is never used: its row of X is zero and
  // its column of T is zeroed after learning, so routing ignores it
  std::vector<size_t> constant;
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, col.data());
    bool varies = false;
    for (size_t i = 1; i < n && !varies; ++i) varies = col[i] != col[0];
    if (!varies) {
      constant.push_back(j);
      for (size_t i = 0; i < n; ++i) X(j, i) = 0.0;
      continue;
    }
    for (size_t i = 0; i < n; ++i) X(j, i) = col[i];
  }
  if (constant.size() == p) return false;
  for (size_t i = 0; i < n; ++i) {
    const double norm = X.col(i).norm();
    if (norm > 0.0) X.col(i) /= norm * std::sqrt(static_cast<double>(n));
  }

  // Randomized node optimisation (Criminisi & Shotton): `tries` random
  // divisions, each with its own T and subspaces, drawn in a fixed order from
  // the tree's generator; the one whose routing of the node's rows has the
  // highest information gain wins (ties: the earlier). tries = 1 takes the
  // first usable rule without scoring it.
  const int tries = std::max(1, o_.tries);
  std::vector<int> left_counts(K, 0);
  std::vector<char> in_a(K, 0), to_left(n);
  SplitRule candidate;
  bool found = false;
  double best_gain = -HUGE_VAL;
  for (int t = 0; t < tries; ++t) {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      // random division of the classes into two non-empty groups
      bool mixed = false;
      while (!mixed) {
        for (int k : present) in_a[k] = static_cast<char>(rng.below(2));
        for (int k : present) mixed = mixed || in_a[k] != in_a[present[0]];
      }
      size_t n_a = 0;
      for (size_t i = 0; i < n; ++i) n_a += in_a[data.y[rows[i]]];
      // both groups get the same dimension (a bigger subspace reconstructs
      // everything better, so unequal ones would bias routing); with
      // dim_per_class it grows with the classes in the node, each class
      // adding its own low-dimensional subspace (faces: about 9 dimensions)
      int dim = dim_cap;
      if (o_.dim_per_class > 0)
        dim = static_cast<int>(std::min<double>(
            dim_cap, std::ceil(0.5 * o_.dim_per_class * static_cast<double>(present.size()))));
      MatrixXd A(p, n_a), B(p, n - n_a);
      for (size_t i = 0, a = 0, b = 0; i < n; ++i) {
        if (in_a[data.y[rows[i]]]) A.col(a++) = X.col(i);
        else B.col(b++) = X.col(i);
      }

      LearnedTransform lt = learn_transform(A, B, r, o_.iterations, o_.step);
      for (size_t j : constant) lt.T.col(static_cast<Eigen::Index>(j)).setZero();
      const MatrixXd UA = group_basis(lt.T, A, dim), UB = group_basis(lt.T, B, dim);

      std::vector<double> values;
      values.reserve(static_cast<size_t>(r) * (p + 2 * dim));
      values.assign(lt.T.data(), lt.T.data() + lt.T.size());
      values.insert(values.end(), UA.data(), UA.data() + UA.size());
      values.insert(values.end(), UB.data(), UB.data() + UB.size());
      candidate = SplitRule::subspace(r, dim, std::move(values));
      size_t left = 0;
      for (size_t i = 0; i < n; ++i) {
        to_left[i] = candidate.goes_left([&](int c) { return data.x->get(rows[i], c); }, p);
        left += to_left[i];
      }
      if (left == 0 || left == n) continue;  // every row one way: draw again
      if (tries == 1) {
        rule = std::move(candidate);
        return true;
      }
      std::fill(left_counts.begin(), left_counts.end(), 0);
      for (size_t i = 0; i < n; ++i)
        if (to_left[i]) ++left_counts[data.y[rows[i]]];
      const double gain = entropy_gain(counts.data(), left_counts.data(), K, n, left);
      if (gain > best_gain) {
        best_gain = gain;
        rule = std::move(candidate);
        found = true;
      }
      break;
    }
  }
  return found;
}

}  // namespace svf
