// The split kinds: each owns its payload layout (in a tree's split_int /
// split_real, from the node's offsets) and its routing. Rows for which
// goes_left() is true go to the left child.
//
//   axis      int [var]          real [value]
//             x[var] <= value
//   oblique   int [m, index_1..index_m]   real [value, weight_1..weight_m]
//             sum_k weight_k x[index_k] <= value (summed in that order)
//   subspace  int [rank, dim]    real [T (rank x p), U_A (rank x dim), U_B (rank x dim)]
//             column-major; with z = T x the row goes left when basis A
//             reconstructs z at least as well as basis B (||U_A' z|| >= ||U_B' z||
//             for orthonormal or zero columns). Invariant to the scale of x.
//   affine    int [rank, dim]    real [c (p), T (rank x p), m_A (rank), m_B (rank),
//                                      U_A (rank x dim), U_B (rank x dim)]
//             column-major; with z = T (x - c) the row goes left when the
//             affine subspace m_A + span(U_A) is at least as close to z as
//             m_B + span(U_B): ||z - m_A||^2 - ||U_A' (z - m_A)||^2 <= the
//             same for B. (T holds the node's scaling of the predictors.)
//   projected int [rank, dim]    real [P_A (dim x p), P_B (dim x p)]
//             the subspace rule with T folded into the bases, P = U' T:
//             left when ||P_A x|| >= ||P_B x||.
//   projected_affine  int [rank, dim]
//             real [w (p), e, b_A (dim), b_B (dim), P_A (dim x p), P_B (dim x p)]
//             the affine rule folded: with P = U' T, b = P c + U' m,
//             w = T' (m_A - m_B) and e = 2 c' w + ||m_A||^2 - ||m_B||^2, left when
//             e - 2 w' x - ||P_A x - b_A||^2 + ||P_B x - b_B||^2 <= 0.
//   The projected kinds store 2 dim p values against rank (p + 2 dim): the
//   transformation splits are written in the smaller form (SplitRule). Their
//   rank (of the T folded in) is kept for the record; routing does not read it.
//
// A new split kind is a new code here, its layout, routing and check.
#ifndef SVFOREST_SPLITKINDS_H
#define SVFOREST_SPLITKINDS_H

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "Payload.h"

namespace svf {

enum SplitKind {
  kSplitAxis = 0,
  kSplitOblique = 1,
  kSplitSubspace = 2,
  kSplitAffine = 3,
  kSplitProjected = 4,
  kSplitProjectedAffine = 5
};

// Subspace rule on payload v = [T, U_A, U_B]; z is scratch of length r.
template <typename Get>
bool subspace_goes_left(const double* v, int r, int k, size_t p, Get get, double* z) {
  std::fill(z, z + r, 0.0);
  for (size_t j = 0; j < p; ++j) {
    const double xj = get(static_cast<int>(j));
    if (xj == 0.0) continue;
    const double* tj = v + j * r;
    for (int i = 0; i < r; ++i) z[i] += tj[i] * xj;
  }
  const double* ua = v + p * r;
  const double* ub = ua + static_cast<size_t>(r) * k;
  double ea = 0.0, eb = 0.0;
  for (int c = 0; c < k; ++c) {
    double sa = 0.0, sb = 0.0;
    for (int i = 0; i < r; ++i) {
      sa += ua[c * r + i] * z[i];
      sb += ub[c * r + i] * z[i];
    }
    ea += sa * sa;
    eb += sb * sb;
  }
  return ea >= eb;
}

// Affine subspace rule on payload v = [c, T, m_A, m_B, U_A, U_B]; z is
// scratch of length r.
template <typename Get>
bool affine_goes_left(const double* v, int r, int k, size_t p, Get get, double* z) {
  std::fill(z, z + r, 0.0);
  const double* t = v + p;
  for (size_t j = 0; j < p; ++j) {
    const double xj = get(static_cast<int>(j)) - v[j];
    const double* tj = t + j * r;
    for (int i = 0; i < r; ++i) z[i] += tj[i] * xj;
  }
  const double* ma = t + p * r;
  const double* mb = ma + r;
  const double* ua = mb + r;
  const double* ub = ua + static_cast<size_t>(r) * k;
  // squared residual of z to the affine subspace m + span(U)
  auto residual = [&](const double* m, const double* u) {
    double e = 0.0;
    for (int i = 0; i < r; ++i) e += (z[i] - m[i]) * (z[i] - m[i]);
    for (int c = 0; c < k; ++c) {
      double s = 0.0;
      for (int i = 0; i < r; ++i) s += u[c * r + i] * (z[i] - m[i]);
      e -= s * s;
    }
    return e;
  };
  return residual(ma, ua) <= residual(mb, ub);
}

// Adds the row's projections through P_A and P_B (dim x p each,
// column-major) to a[0..k) and a[k..2k), and returns the squared norms of
// the two sums in ea and eb. Zero values are skipped (sparse rows).
template <typename Get>
void projected_norms(const double* pa, const double* pb, int k, size_t p, Get get, double* a, double& ea,
                     double& eb) {
  for (size_t j = 0; j < p; ++j) {
    const double xj = get(static_cast<int>(j));
    if (xj == 0.0) continue;
    const double* aj = pa + j * k;
    const double* bj = pb + j * k;
    for (int i = 0; i < k; ++i) {
      a[i] += aj[i] * xj;
      a[k + i] += bj[i] * xj;
    }
  }
  ea = eb = 0.0;
  for (int i = 0; i < k; ++i) {
    ea += a[i] * a[i];
    eb += a[k + i] * a[k + i];
  }
}

// Projected rule on payload v = [P_A, P_B] (dim x p each, column-major);
// a is scratch of length 2 dim.
template <typename Get>
bool projected_goes_left(const double* v, int k, size_t p, Get get, double* a) {
  std::fill(a, a + 2 * k, 0.0);
  double ea, eb;
  projected_norms(v, v + p * k, k, p, get, a, ea, eb);
  return ea >= eb;
}

// Projected affine rule on payload v = [w, e, b_A, b_B, P_A, P_B]; a is
// scratch of length 2 dim.
template <typename Get>
bool projected_affine_goes_left(const double* v, int k, size_t p, Get get, double* a) {
  const double* w = v;
  const double e = v[p];
  const double* ba = v + p + 1;
  const double* bb = ba + k;
  const double* pa = bb + k;
  for (int i = 0; i < k; ++i) {
    a[i] = -ba[i];
    a[k + i] = -bb[i];
  }
  double wx = 0.0;
  for (size_t j = 0; j < p; ++j) {
    const double xj = get(static_cast<int>(j));
    if (xj != 0.0) wx += w[j] * xj;
  }
  double ea, eb;
  projected_norms(pa, pa + p * k, k, p, get, a, ea, eb);
  return e - 2.0 * wx - ea + eb <= 0.0;
}

// The projection compared with the threshold by axis and oblique splits.
template <typename Get>
double split_projection(int kind, const int* ints, const double* reals, Get get) {
  if (kind == kSplitAxis) return get(ints[0]);
  double s = 0.0;
  for (int k = 0; k < ints[0]; ++k) s += reals[1 + k] * get(ints[1 + k]);
  return s;
}

// Routing of one row; get(col) returns its raw value of a predictor, p the
// number of predictors, scratch is reused between calls.
template <typename Get>
bool split_goes_left(int kind, const int* ints, const double* reals, size_t p, Get get,
                     std::vector<double>& scratch) {
  if (kind == kSplitSubspace) {
    scratch.resize(ints[0]);
    return subspace_goes_left(reals, ints[0], ints[1], p, get, scratch.data());
  }
  if (kind == kSplitAffine) {
    scratch.resize(ints[0]);
    return affine_goes_left(reals, ints[0], ints[1], p, get, scratch.data());
  }
  if (kind == kSplitProjected) {
    scratch.resize(2 * static_cast<size_t>(ints[1]));
    return projected_goes_left(reals, ints[1], p, get, scratch.data());
  }
  if (kind == kSplitProjectedAffine) {
    scratch.resize(2 * static_cast<size_t>(ints[1]));
    return projected_affine_goes_left(reals, ints[1], p, get, scratch.data());
  }
  return split_projection(kind, ints, reals, get) <= reals[0];
}

// Names and codes of the split kinds (for R's tree accessors).
std::vector<std::pair<std::string, int>> split_kinds();

// Whether a split of this kind is a linear projection compared with a
// threshold (axis, oblique: split_projection() and split_weights() answer).
inline bool split_has_projection(int kind) { return kind == kSplitAxis || kind == kSplitOblique; }

// The columns a split reads, as weights of its projection: add(col, weight)
// for each term (a column may come twice; weights add up). False, adding
// nothing, for a kind that is no projection (it reads every column).
template <typename Add>
bool split_weights(int kind, const int* ints, const double* reals, Add add) {
  if (kind == kSplitAxis) {
    add(ints[0], 1.0);
    return true;
  }
  if (kind == kSplitOblique) {
    for (int k = 0; k < ints[0]; ++k) add(ints[1 + k], reals[1 + k]);
    return true;
  }
  return false;
}

// Whether a split reads any column flagged in `in_group` (p flags).
bool split_reads_columns(int kind, const int* ints, const double* reals, const std::vector<char>& in_group);

// The named fields of a (checked) split payload on p predictors.
void describe_split(int kind, const int* ints, const double* reals, size_t p, PayloadDescription& out);

// Payload lengths of a node's split (the payload must have passed
// check_split()).
size_t split_int_length(int kind, const int* ints);
size_t split_real_length(int kind, const int* ints, size_t p);

// Empty when a split of this kind fits in n_ints / n_reals entries from its
// offsets and names predictors below p; otherwise what is wrong.
std::string check_split(int kind, const int* ints, size_t n_ints, const double* reals,
                        size_t n_reals, size_t p);

// A split rule while a tree grows: its kind and payload, and RSVF's
// relaxation band (in-bag rows whose projection lies in (value - band,
// value + band] go to both children; prediction and out-of-bag rows use the
// plain rule). Splitters build rules with the constructors below.
struct SplitRule {
  int kind = -1;
  std::vector<int> ints;
  std::vector<double> reals;
  double band = 0.0;
  mutable std::vector<double> scratch;

  static SplitRule axis(int var, double value);
  static SplitRule oblique(const std::vector<int>& index, const std::vector<double>& weight, double value);
  // values = [T, U_A, U_B] as in the layout above, on p predictors; the
  // projected kind when that is smaller
  static SplitRule subspace(int rank, int dim, std::vector<double> values, size_t p);
  // values = [c, T, m_A, m_B, U_A, U_B] as in the layout above; the
  // projected affine kind when that is smaller
  static SplitRule affine(int rank, int dim, std::vector<double> values, size_t p);

  bool has_projection() const { return kind == kSplitAxis || kind == kSplitOblique; }
  double threshold() const { return reals[0]; }
  template <typename Get>
  double projection(Get get) const {
    return split_projection(kind, ints.data(), reals.data(), get);
  }
  template <typename Get>
  bool goes_left(Get get, size_t p) const {
    return split_goes_left(kind, ints.data(), reals.data(), p, get, scratch);
  }
};

}  // namespace svf
#endif
