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

namespace {

// Everything one division's candidate rule needs: the node's data, the space
// T is learned in (Y: the rows in it, P: the principal directions when
// reduced) and the out-of-bag rows.
struct DivisionContext {
  const NodeColumns& nc;
  const NodeOob& no;
  const MatrixXd& Y;
  const MatrixXd& Yo;
  const MatrixXd& P;
  bool reduce, affine_kind;
  int r, K;
  size_t n, p;
  double step;
  const std::vector<int>& row_class;
};

// The out-of-bag choice: the learned T and the identity T (no learning),
// each with dimensions 1..dim, judged by the information gain of their
// routing of the node's out-of-bag rows (dimensions sending every in-bag row
// one way are skipped). The transform is the one with the larger mean gain
// over its dimensions (a steadier comparison than the best of 2 x dim noisy
// gains; ties: the identity), its dimension the one with the largest gain
// (ties: the smaller). False when every candidate sends every row one way.
bool oob_candidate(const DivisionContext& c, const MatrixXd& A, const MatrixXd& B, const LearnedTransform& lt,
                   int dim, SplitRule& candidate, double& oob_gain) {
  LearnedTransform l0 = learn_transform(A, B, c.reduce ? 0 : c.r, 0, c.step, c.affine_kind);
  if (!c.reduce)
    for (size_t j : c.nc.constant) l0.T.col(static_cast<Eigen::Index>(j)).setZero();
  const MatrixXd* Ts[2] = {&l0.T, &lt.T};
  const Eigen::Index q = c.Y.rows();
  VectorXd ma = VectorXd::Zero(q), mb = VectorXd::Zero(q);
  if (c.affine_kind) {
    ma = A.rowwise().mean();
    mb = B.rowwise().mean();
  }
  const MatrixXd Ac = c.affine_kind ? MatrixXd(A.colwise() - ma) : A;
  const MatrixXd Bc = c.affine_kind ? MatrixXd(B.colwise() - mb) : B;
  MatrixXd UAs[2], UBs[2];
  VectorXd zas[2], zbs[2];
  int best_c = -1, best_d = 0;
  double best_mean = -HUGE_VAL, best_score = -HUGE_VAL;
  std::vector<double> g_in, g_oob;
  std::vector<size_t> nl_in, nl_oob;
  for (int t = 0; t < 2; ++t) {
    const MatrixXd& Tc = *Ts[t];
    UAs[t] = group_basis(Tc, Ac, dim);
    UBs[t] = group_basis(Tc, Bc, dim);
    zas[t] = Tc * ma;
    zbs[t] = Tc * mb;
    gains_by_dim(Tc, zas[t], zbs[t], UAs[t], UBs[t], c.Y, c.row_class, nullptr, c.K, g_in, nl_in);
    gains_by_dim(Tc, zas[t], zbs[t], UAs[t], UBs[t], c.Yo, c.no.oob_class,
                 c.no.oob_weight.empty() ? nullptr : c.no.oob_weight.data(), c.K, g_oob, nl_oob);
    double sum = 0.0, top = -HUGE_VAL;
    int usable = 0, top_d = 0;
    for (int d = 1; d <= dim; ++d) {
      if (nl_in[d - 1] == 0 || nl_in[d - 1] == c.n) continue;
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
      best_c = t;
      best_d = top_d;
    }
  }
  if (best_c < 0) return false;
  oob_gain = best_score;
  dim = best_d;
  MatrixXd T = c.reduce ? MatrixXd(*Ts[best_c] * c.P) : *Ts[best_c];
  for (size_t j : c.nc.constant) T.col(static_cast<Eigen::Index>(j)).setZero();
  MatrixXd UA = UAs[best_c].leftCols(dim), UB = UBs[best_c].leftCols(dim);
  if (c.affine_kind) {
    for (size_t j = 0; j < c.p; ++j) T.col(static_cast<Eigen::Index>(j)) *= c.nc.factor[j];
    candidate = SplitRule::affine(c.r, dim, affine_payload(c.nc.shift, T, zas[best_c], zbs[best_c], UA, UB), c.p);
  } else {
    candidate = SplitRule::subspace(c.r, dim, subspace_payload(T, UA, UB), c.p);
  }
  return true;
}

// The in-bag rule (the paper's): the learned T (full: T, in Y's space:
// lt.T); the affine kind's dimension chosen by the gain of its routing of
// the node's own rows. False when every dimension sends every row one way.
bool inbag_candidate(const DivisionContext& c, const MatrixXd& A, const MatrixXd& B, const LearnedTransform& lt,
                     MatrixXd T, int dim, SplitRule& candidate) {
  if (!c.affine_kind) {
    const MatrixXd UA = group_basis(lt.T, A, dim), UB = group_basis(lt.T, B, dim);
    candidate = SplitRule::subspace(c.r, dim, subspace_payload(T, UA, UB), c.p);
    return true;
  }
  const VectorXd ma = A.rowwise().mean(), mb = B.rowwise().mean();
  MatrixXd UA = group_basis(lt.T, A.colwise() - ma, dim);
  MatrixXd UB = group_basis(lt.T, B.colwise() - mb, dim);
  const VectorXd za = lt.T * ma, zb = lt.T * mb;
  // The subspaces' dimension: the d in 1..dim (both groups the same)
  // whose routing of the node's rows has the largest information gain
  // (ties: the smaller d). The bases are nested, so every d costs O(n).
  std::vector<double> gain;
  std::vector<size_t> n_left;
  gains_by_dim(lt.T, za, zb, UA, UB, c.Y, c.row_class, nullptr, c.K, gain, n_left);
  const int best_d = best_dim(gain, n_left, c.n);
  if (best_d == 0) return false;
  dim = best_d;
  UA.conservativeResize(Eigen::NoChange, dim);
  UB.conservativeResize(Eigen::NoChange, dim);
  for (size_t j = 0; j < c.p; ++j) T.col(static_cast<Eigen::Index>(j)) *= c.nc.factor[j];
  candidate = SplitRule::affine(c.r, dim, affine_payload(c.nc.shift, T, za, zb, UA, UB), c.p);
  return true;
}

// The space T is learned in: all p predictors (square or free fat T), or,
// with the automatic rank on more than kAutoRank varying predictors
// (reduce), the node's top kAutoRank principal directions P (q x p,
// orthonormal rows; T = W P, W square) and the node's rows in it, XP = P X.
// Returns T's rank r.
int learning_space(const MatrixXd& X, bool reduce, int rank, Rng& rng, MatrixXd& P, MatrixXd& XP) {
  const size_t p = static_cast<size_t>(X.rows());
  if (!reduce) return (rank <= 0 || static_cast<size_t>(rank) >= p) ? static_cast<int>(p) : rank;
  Rng sketch(rng.next(), 0);
  P = top_directions(X, kAutoRank, sketch);
  XP.noalias() = P * X;
  return static_cast<int>(P.rows());
}

// A random division of the node's classes (present) into two non-empty
// groups (in_a per class), and the columns of Y (the node's rows, classes
// row_class) of each group: A and B.
void draw_division(const std::vector<int>& present, const std::vector<int>& row_class, const MatrixXd& Y, Rng& rng,
                   std::vector<char>& in_a, MatrixXd& A, MatrixXd& B) {
  bool mixed = false;
  while (!mixed) {
    for (int k : present) in_a[k] = static_cast<char>(rng.below(2));
    for (int k : present) mixed = mixed || in_a[k] != in_a[present[0]];
  }
  const size_t n = row_class.size();
  size_t n_a = 0;
  for (size_t i = 0; i < n; ++i) n_a += in_a[row_class[i]];
  A.resize(Y.rows(), static_cast<Eigen::Index>(n_a));
  B.resize(Y.rows(), static_cast<Eigen::Index>(n - n_a));
  for (size_t i = 0, a = 0, b = 0; i < n; ++i) {
    if (in_a[row_class[i]]) A.col(a++) = Y.col(i);
    else B.col(b++) = Y.col(i);
  }
}

}  // namespace

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
  NodeColumns nc;
  node_columns(data, rows, n, affine_kind, nc);
  if (nc.varying == 0) return false;
  const bool use_oob = o_.oob_choice && node.n_oob >= kMinOob;
  std::vector<int> row_class(n);
  for (size_t i = 0; i < n; ++i) row_class[i] = data.y[rows[i]];
  NodeOob no;
  if (use_oob) node_oob(data, node, nc, no);

  // The space T is learned in (see learning_space())
  const bool reduce = o_.rank <= 0 && nc.varying > static_cast<size_t>(kAutoRank);
  MatrixXd P, XP;
  const int r = learning_space(nc.X, reduce, o_.rank, rng, P, XP);
  const MatrixXd* Y = reduce ? &XP : &nc.X;
  const int dim_cap = std::min(o_.dim, r - 1);  // dim = r would reconstruct every row exactly
  if (dim_cap < 1) return false;
  // both groups get the same dimension (a bigger subspace reconstructs
  // everything better, so unequal ones would bias routing); with
  // dim_per_class it grows with the classes in the node, each class
  // adding its own low-dimensional subspace (faces: about 9 dimensions)
  int dim_start = dim_cap;
  if (o_.dim_per_class > 0)
    dim_start = static_cast<int>(
        std::min<double>(dim_cap, std::ceil(0.5 * o_.dim_per_class * static_cast<double>(present.size()))));
  MatrixXd Yo;  // the out-of-bag rows in the space of Y
  if (use_oob) Yo = reduce ? MatrixXd(P * no.Xo) : no.Xo;
  const DivisionContext context{nc, no, *Y, Yo, P, reduce, affine_kind, r, K, n, p, o_.step, row_class};

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
      MatrixXd A, B;
      draw_division(present, row_class, *Y, rng, in_a, A, B);

      LearnedTransform lt = learn_transform(A, B, reduce ? 0 : r, o_.iterations, o_.step, affine_kind);
      // lt.T acts on the columns of Y: the full transform is lt.T P when reduced
      MatrixXd T = reduce ? MatrixXd(lt.T * P) : lt.T;
      for (size_t j : nc.constant) T.col(static_cast<Eigen::Index>(j)).setZero();
      if (!reduce)
        for (size_t j : nc.constant) lt.T.col(static_cast<Eigen::Index>(j)).setZero();

      double oob_gain = 0.0;
      const bool usable = use_oob ? oob_candidate(context, A, B, lt, dim_start, candidate, oob_gain)
                                  : inbag_candidate(context, A, B, lt, T, dim_start, candidate);
      if (!usable) continue;  // every dimension sends every row one way: draw again
      size_t left = 0;
      for (size_t i = 0; i < n; ++i) {
        to_left[i] = candidate.goes_left([&](int c) { return data.x->value(rows[i], c); }, p);
        left += to_left[i];
      }
      if (left == 0 || left == n) continue;  // every row one way: draw again
      if (tries == 1 && !need_gain) {  // the first usable rule
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
