#include "TransformSplitter.h"

#include "Impurity.h"

#include <algorithm>
#include <cmath>

namespace svf {

std::unique_ptr<Splitter> TransformSplitter::create(const Params& params) {
  TransformOptions o;
  o.rank = params.integer("transform_rank");
  o.center = params.flag("transform_center");
  o.dim = params.integer("subspace_dim");
  o.dim_per_class = params.integer("dim_per_class");
  o.iterations = params.integer("transform_iter");
  o.step = params.number("transform_step");
  o.tries = params.integer("node_tries");
  o.min_node_size = params.integer("min_node_size");
  o.oob_choice = !params.has("transform_choice") || params.text("transform_choice") != "inbag";
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

// The payloads of the two split kinds (tree/SplitKinds.h): an affine split's
// shift, T (already divided by the node's scale), the groups' transformed
// means and bases; a subspace split's T and bases.
std::vector<double> affine_payload(const std::vector<double>& shift, const MatrixXd& T, const VectorXd& za,
                                   const VectorXd& zb, const MatrixXd& UA, const MatrixXd& UB) {
  std::vector<double> values;
  values.reserve(shift.size() + T.size() + za.size() + zb.size() + UA.size() + UB.size());
  values.assign(shift.begin(), shift.end());
  values.insert(values.end(), T.data(), T.data() + T.size());
  values.insert(values.end(), za.data(), za.data() + za.size());
  values.insert(values.end(), zb.data(), zb.data() + zb.size());
  values.insert(values.end(), UA.data(), UA.data() + UA.size());
  values.insert(values.end(), UB.data(), UB.data() + UB.size());
  return values;
}

std::vector<double> subspace_payload(const MatrixXd& T, const MatrixXd& UA, const MatrixXd& UB) {
  std::vector<double> values;
  values.reserve(T.size() + UA.size() + UB.size());
  values.assign(T.data(), T.data() + T.size());
  values.insert(values.end(), UA.data(), UA.data() + UA.size());
  values.insert(values.end(), UB.data(), UB.data() + UB.size());
  return values;
}

}  // namespace

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

bool TransformSplitter::find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const {
  double gain;
  return split_kind(node, rng, o_.center, o_.tries > 1, rule, gain);
}

bool TransformSplitter::split_kind(const NodeContext& node, Rng& rng, bool affine_kind, bool need_gain,
                                   SplitRule& rule, double& best_gain) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  const int K = data.num_classes;
  const size_t p = data.x->n_cols();
  std::vector<int> present, counts(K, 0);
  for (size_t i = 0; i < n; ++i) ++counts[data.y[rows[i]]];
  for (int k = 0; k < K; ++k)
    if (counts[k] > 0) present.push_back(k);
  if (present.size() < 2) return false;

  // node rows as columns. The paper's way (center = false): raw predictors,
  // each row of unit norm. Affine (center = true): each predictor centred at
  // its node mean and divided by its node standard deviation. Either way all
  // is divided so that ||X||_F = 1 (the mean squared row norm is 1 / n), so
  // the objective and the step size mean the same at every node size.
  MatrixXd X(p, n);
  std::vector<double> col(n);
  // a predictor constant in the node is never used: its row of X is zero and
  // its column of T is zeroed after learning, so routing ignores it
  std::vector<size_t> constant;
  std::vector<double> shift(p, 0.0), factor(p, 1.0);  // affine: x -> (x - shift) * factor
  for (size_t j = 0; j < p; ++j) {
    data.x->gather(j, rows, n, col.data());
    bool varies = false;
    for (size_t i = 1; i < n && !varies; ++i) varies = col[i] != col[0];
    if (!varies) {
      constant.push_back(j);
      shift[j] = col[0];
      factor[j] = 0.0;
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
        constant.push_back(j);  // spread too small (or too large) to scale
        shift[j] = mean;
        factor[j] = 0.0;
        for (size_t i = 0; i < n; ++i) X(j, i) = 0.0;
        continue;
      }
      shift[j] = mean;
      factor[j] = 1.0 / sd;
      for (size_t i = 0; i < n; ++i) X(j, i) = (col[i] - mean) / sd;
    } else {
      for (size_t i = 0; i < n; ++i) X(j, i) = col[i];
    }
  }
  const size_t varying = p - constant.size();
  if (varying == 0) return false;
  if (affine_kind) {
    const double s = std::sqrt(static_cast<double>(n) * static_cast<double>(varying));
    X /= s;
    for (double& f : factor) f /= s;
  } else {
    for (size_t i = 0; i < n; ++i) {
      const double norm = X.col(i).norm();
      if (norm > 0.0) X.col(i) /= norm * std::sqrt(static_cast<double>(n));
    }
  }

  // The node's out-of-bag rows (transform_choice = "oob"), mapped as its
  // rows are: x -> (x - shift) * factor (the paper's kind: raw, constant
  // predictors zeroed; routing does not depend on a row's scale)
  const bool use_oob = o_.oob_choice && node.n_oob >= kMinOob;
  MatrixXd Xo;
  std::vector<int> oob_class, row_class(n);
  for (size_t i = 0; i < n; ++i) row_class[i] = data.y[rows[i]];
  std::vector<double> oob_weight;
  if (use_oob) {
    const size_t m = node.n_oob;
    Xo.resize(p, m);
    std::vector<double> ocol(m);
    for (size_t j = 0; j < p; ++j) {
      if (factor[j] == 0.0) {
        Xo.row(j).setZero();
        continue;
      }
      data.x->gather(j, node.oob, m, ocol.data());
      for (size_t i = 0; i < m; ++i) Xo(j, i) = (ocol[i] - shift[j]) * factor[j];
    }
    oob_class.resize(m);
    for (size_t i = 0; i < m; ++i) oob_class[i] = data.y[node.oob[i]];
    if (data.weights) {  // in-bag rows carry their weights as copies; out-of-bag rows as weights
      oob_weight.resize(m);
      for (size_t i = 0; i < m; ++i) oob_weight[i] = data.weights[node.oob[i]];
    }
  }

  // The space T is learned in: all p predictors (square or free fat T), or,
  // with the automatic rank on more than kAutoRank varying predictors, the
  // node's top kAutoRank principal directions P (T = W P, W square).
  const bool reduce = o_.rank <= 0 && varying > static_cast<size_t>(kAutoRank);
  MatrixXd P;  // q x p, orthonormal rows
  const MatrixXd* Y = &X;
  MatrixXd XP;
  int r;
  if (reduce) {
    Rng sketch(rng.next(), 0);
    P = top_directions(X, kAutoRank, sketch);
    XP.noalias() = P * X;
    Y = &XP;
    r = static_cast<int>(P.rows());
  } else {
    r = (o_.rank <= 0 || static_cast<size_t>(o_.rank) >= p) ? static_cast<int>(p) : o_.rank;
  }
  const int dim_cap = std::min(o_.dim, r - 1);  // dim = r would reconstruct every row exactly
  if (dim_cap < 1) return false;
  const Eigen::Index q = Y->rows();
  MatrixXd Yo;  // the out-of-bag rows in the space of Y
  if (use_oob) Yo = reduce ? MatrixXd(P * Xo) : Xo;

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
  best_gain = -HUGE_VAL;
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
      MatrixXd A(q, n_a), B(q, n - n_a);
      for (size_t i = 0, a = 0, b = 0; i < n; ++i) {
        if (in_a[data.y[rows[i]]]) A.col(a++) = Y->col(i);
        else B.col(b++) = Y->col(i);
      }

      LearnedTransform lt = learn_transform(A, B, reduce ? 0 : r, o_.iterations, o_.step, affine_kind);
      // lt.T acts on the columns of Y: the full transform is lt.T P when reduced
      MatrixXd T = reduce ? MatrixXd(lt.T * P) : lt.T;
      for (size_t j : constant) T.col(static_cast<Eigen::Index>(j)).setZero();
      if (!reduce)
        for (size_t j : constant) lt.T.col(static_cast<Eigen::Index>(j)).setZero();

      double oob_gain = 0.0;
      if (use_oob) {
        // Honest choice: the learned T and the identity T (no learning), each
        // with dimensions 1..dim, judged by the information gain of their
        // routing of the node's out-of-bag rows (dimensions sending every
        // in-bag row one way are skipped). The transform is the one with the
        // larger mean gain over its dimensions (a steadier comparison than
        // the best of 2 x dim noisy gains; ties: the identity), its dimension
        // the one with the largest gain (ties: the smaller).
        LearnedTransform l0 = learn_transform(A, B, reduce ? 0 : r, 0, o_.step, affine_kind);
        if (!reduce)
          for (size_t j : constant) l0.T.col(static_cast<Eigen::Index>(j)).setZero();
        const MatrixXd* Ts[2] = {&l0.T, &lt.T};
        VectorXd ma = VectorXd::Zero(q), mb = VectorXd::Zero(q);
        if (affine_kind) {
          ma = A.rowwise().mean();
          mb = B.rowwise().mean();
        }
        const MatrixXd Ac = affine_kind ? MatrixXd(A.colwise() - ma) : A;
        const MatrixXd Bc = affine_kind ? MatrixXd(B.colwise() - mb) : B;
        MatrixXd UAs[2], UBs[2];
        VectorXd zas[2], zbs[2];
        int best_c = -1, best_d = 0;
        double best_mean = -HUGE_VAL, best_score = -HUGE_VAL;
        std::vector<double> g_in, g_oob;
        std::vector<size_t> nl_in, nl_oob;
        for (int c = 0; c < 2; ++c) {
          const MatrixXd& Tc = *Ts[c];
          UAs[c] = group_basis(Tc, Ac, dim);
          UBs[c] = group_basis(Tc, Bc, dim);
          zas[c] = Tc * ma;
          zbs[c] = Tc * mb;
          gains_by_dim(Tc, zas[c], zbs[c], UAs[c], UBs[c], *Y, row_class, nullptr, K, g_in, nl_in);
          gains_by_dim(Tc, zas[c], zbs[c], UAs[c], UBs[c], Yo, oob_class,
                       oob_weight.empty() ? nullptr : oob_weight.data(), K, g_oob, nl_oob);
          double sum = 0.0, top = -HUGE_VAL;
          int usable = 0, top_d = 0;
          for (int d = 1; d <= dim; ++d) {
            if (nl_in[d - 1] == 0 || nl_in[d - 1] == n) continue;
            sum += g_oob[d - 1];
            ++usable;
            if (g_oob[d - 1] > top + 1e-12) {
              top = g_oob[d - 1];
              top_d = d;
            }
          }
          if (usable == 0) continue;
          const double mean = sum / usable;
          if (best_c < 0 || mean > best_mean + 1e-12) {
            best_mean = mean;
            best_score = top;
            best_c = c;
            best_d = top_d;
          }
        }
        if (best_c < 0) continue;  // every candidate sends every row one way: draw again
        oob_gain = best_score;
        dim = best_d;
        T = reduce ? MatrixXd(*Ts[best_c] * P) : *Ts[best_c];
        for (size_t j : constant) T.col(static_cast<Eigen::Index>(j)).setZero();
        MatrixXd UA = UAs[best_c].leftCols(dim), UB = UBs[best_c].leftCols(dim);
        if (affine_kind) {
          for (size_t j = 0; j < p; ++j) T.col(static_cast<Eigen::Index>(j)) *= factor[j];
          candidate = SplitRule::affine(r, dim, affine_payload(shift, T, zas[best_c], zbs[best_c], UA, UB), p);
        } else {
          candidate = SplitRule::subspace(r, dim, subspace_payload(T, UA, UB), p);
        }
      } else if (affine_kind) {
        const VectorXd ma = A.rowwise().mean(), mb = B.rowwise().mean();
        MatrixXd UA = group_basis(lt.T, A.colwise() - ma, dim);
        MatrixXd UB = group_basis(lt.T, B.colwise() - mb, dim);
        const VectorXd za = lt.T * ma, zb = lt.T * mb;
        // The subspaces' dimension: the d in 1..dim (both groups the same)
        // whose routing of the node's rows has the largest information gain
        // (ties: the smaller d). The bases are nested, so every d costs O(n).
        std::vector<double> gain;
        std::vector<size_t> n_left;
        gains_by_dim(lt.T, za, zb, UA, UB, *Y, row_class, nullptr, K, gain, n_left);
        const int best_d = best_dim(gain, n_left, n);
        if (best_d == 0) continue;  // every dimension sends every row one way: draw again
        dim = best_d;
        UA.conservativeResize(Eigen::NoChange, dim);
        UB.conservativeResize(Eigen::NoChange, dim);
        for (size_t j = 0; j < p; ++j) T.col(static_cast<Eigen::Index>(j)) *= factor[j];
        candidate = SplitRule::affine(r, dim, affine_payload(shift, T, za, zb, UA, UB), p);
      } else {
        const MatrixXd UA = group_basis(lt.T, A, dim), UB = group_basis(lt.T, B, dim);
        candidate = SplitRule::subspace(r, dim, subspace_payload(T, UA, UB), p);
      }
      size_t left = 0;
      for (size_t i = 0; i < n; ++i) {
        to_left[i] = candidate.goes_left([&](int c) { return data.x->get(rows[i], c); }, p);
        left += to_left[i];
      }
      if (left == 0 || left == n) continue;  // every row one way: draw again
      if (tries == 1 && !need_gain) {
        rule = std::move(candidate);
        return true;
      }
      std::fill(left_counts.begin(), left_counts.end(), 0);
      for (size_t i = 0; i < n; ++i)
        if (to_left[i]) ++left_counts[data.y[rows[i]]];
      const double gain = use_oob ? oob_gain : entropy_gain(counts.data(), left_counts.data(), K, n, left);
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
