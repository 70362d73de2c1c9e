#include "SplitKinds.h"

#include <string>

namespace svf {

size_t split_int_length(int kind, const int* ints) {
  switch (kind) {
    case kSplitAxis: return 1;
    case kSplitOblique: return 1 + static_cast<size_t>(ints[0]);
    default: return 2;  // subspace, affine, projected
  }
}

size_t split_real_length(int kind, const int* ints, size_t p) {
  switch (kind) {
    case kSplitAxis: return 1;
    case kSplitOblique: return 1 + static_cast<size_t>(ints[0]);
    case kSplitAffine:
      return p + static_cast<size_t>(ints[0]) * (p + 2 + 2 * static_cast<size_t>(ints[1]));
    case kSplitProjected: return 2 * static_cast<size_t>(ints[1]) * p;
    case kSplitProjectedAffine: return p + 1 + 2 * static_cast<size_t>(ints[1]) * (p + 1);
    default: return static_cast<size_t>(ints[0]) * (p + 2 * static_cast<size_t>(ints[1]));
  }
}

std::string check_split(int kind, const int* ints, size_t n_ints, const double*, size_t n_reals,
                        size_t p) {
  // (called for every split of every tree each time a model is read: the
  // message is built only when there is one)
  switch (kind) {
    case kSplitAxis:
      if (n_ints < 1 || n_reals < 1) return "axis split values out of range";
      if (ints[0] < 0 || static_cast<size_t>(ints[0]) >= p)
        return "splits on predictor " + std::to_string(ints[0]) + " out of range";
      return "";
    case kSplitOblique: {
      if (n_ints < 1 || ints[0] < 1) return "oblique split coefficients out of range";
      const size_t m = static_cast<size_t>(ints[0]);
      if (m + 1 > n_ints || m + 1 > n_reals) return "oblique split coefficients out of range";
      for (int k = 0; k < ints[0]; ++k)
        if (ints[1 + k] < 0 || static_cast<size_t>(ints[1 + k]) >= p)
          return "splits on predictor " + std::to_string(ints[1 + k]) + " out of range";
      return "";
    }
    case kSplitSubspace: {
      if (n_ints < 2) return "transformation split values out of range";
      const long long rank = ints[0], dim = ints[1];
      if (rank < 1 || dim < 1 || dim > rank ||
          static_cast<unsigned long long>(rank) * (p + 2ULL * static_cast<unsigned long long>(dim)) > n_reals)
        return "transformation split values out of range";
      return "";
    }
    case kSplitAffine: {
      if (n_ints < 2) return "affine transformation split values out of range";
      const long long rank = ints[0], dim = ints[1];
      if (rank < 1 || dim < 1 || dim > rank ||
          p + static_cast<unsigned long long>(rank) * (p + 2ULL + 2ULL * static_cast<unsigned long long>(dim)) > n_reals)
        return "affine transformation split values out of range";
      return "";
    }
    case kSplitProjected:
    case kSplitProjectedAffine: {
      if (n_ints < 2) return "projected transformation split values out of range";
      const long long rank = ints[0], dim = ints[1];
      const unsigned long long need =
          kind == kSplitProjected ? 2ULL * static_cast<unsigned long long>(dim) * p
                                  : p + 1ULL + 2ULL * static_cast<unsigned long long>(dim) * (p + 1ULL);
      // (the rank of T, at most p, is kept for the record)
      if (rank < 1 || rank > static_cast<long long>(p) || dim < 1 || dim > rank || need > n_reals)
        return "projected transformation split values out of range";
      return "";
    }
    default:
      return "unknown split kind";
  }
}

std::vector<std::pair<std::string, int>> split_kinds() {
  return {{"axis", kSplitAxis},
          {"oblique", kSplitOblique},
          {"transform", kSplitSubspace},
          {"affine_transform", kSplitAffine},
          {"projected_transform", kSplitProjected},
          {"projected_affine_transform", kSplitProjectedAffine}};
}

bool split_reads_columns(int kind, const int* ints, const double* reals, const std::vector<char>& in_group) {
  bool reads = false;
  if (!split_weights(kind, ints, reals, [&](int col, double) { reads = reads || in_group[col]; })) return true;
  return reads;
}

void describe_split(int kind, const int* ints, const double* reals, size_t p, PayloadDescription& out) {
  const int P = static_cast<int>(p);
  switch (kind) {
    case kSplitAxis:
      out.ints("var", ints, 0, 1);
      out.reals("value", reals, 0, 1);
      return;
    case kSplitOblique:
      out.ints("n_vars", ints, 0, 1);
      out.ints("vars", ints, 1, static_cast<size_t>(ints[0]));
      out.reals("value", reals, 0, 1);
      out.reals("weights", reals, 1, static_cast<size_t>(ints[0]));
      return;
    case kSplitSubspace: {
      const int r = ints[0], k = ints[1];
      out.ints("rank", ints, 0, 1);
      out.ints("dim", ints, 1, 1);
      out.flag("affine", false);
      out.matrix("transform", reals, 0, r, P);
      out.matrix("left", reals, static_cast<long>(r) * P, r, k);
      out.matrix("right", reals, static_cast<long>(r) * (P + k), r, k);
      return;
    }
    case kSplitAffine: {
      const int r = ints[0], k = ints[1];
      const long at = P + static_cast<long>(r) * P;  // after c and T
      out.ints("rank", ints, 0, 1);
      out.ints("dim", ints, 1, 1);
      out.flag("affine", true);
      out.reals("center", reals, 0, p);
      out.matrix("transform", reals, P, r, P);
      out.reals("left_mean", reals, at, static_cast<size_t>(r));
      out.reals("right_mean", reals, at + r, static_cast<size_t>(r));
      out.matrix("left", reals, at + 2 * r, r, k);
      out.matrix("right", reals, at + 2 * r + static_cast<long>(r) * k, r, k);
      return;
    }
    case kSplitProjected: {
      const int k = ints[1];
      out.ints("rank", ints, 0, 1);
      out.ints("dim", ints, 1, 1);
      out.flag("affine", false);
      out.matrix("left_projection", reals, 0, k, P);
      out.matrix("right_projection", reals, static_cast<long>(k) * P, k, P);
      return;
    }
    case kSplitProjectedAffine: {
      const int k = ints[1];
      const long at = P + 1 + 2 * k;  // after w, e, b_A, b_B
      out.ints("rank", ints, 0, 1);
      out.ints("dim", ints, 1, 1);
      out.flag("affine", true);
      out.reals("mean_direction", reals, 0, p);
      out.reals("offset", reals, P, 1);
      out.reals("left_shift", reals, P + 1, static_cast<size_t>(k));
      out.reals("right_shift", reals, P + 1 + k, static_cast<size_t>(k));
      out.matrix("left_projection", reals, at, k, P);
      out.matrix("right_projection", reals, at + static_cast<long>(k) * P, k, P);
      return;
    }
    default:
      return;
  }
}

SplitRule SplitRule::axis(int var, double value) {
  SplitRule r;
  r.kind = kSplitAxis;
  r.ints.assign(1, var);
  r.reals.assign(1, value);
  return r;
}

SplitRule SplitRule::oblique(const std::vector<int>& index, const std::vector<double>& weight, double value) {
  SplitRule r;
  r.kind = kSplitOblique;
  r.ints.reserve(index.size() + 1);
  r.ints.push_back(static_cast<int>(index.size()));
  r.ints.insert(r.ints.end(), index.begin(), index.end());
  r.reals.reserve(weight.size() + 1);
  r.reals.push_back(value);
  r.reals.insert(r.reals.end(), weight.begin(), weight.end());
  return r;
}

// Both transformation split kinds store (rank, dim) and their values.
static SplitRule transform_rule(int kind, int rank, int dim, std::vector<double> values) {
  SplitRule r;
  r.kind = kind;
  r.ints = {rank, dim};
  r.reals = std::move(values);
  return r;
}

namespace {

// P = U' T (k x p, column-major) of an r x k basis U and r x p transform T.
std::vector<double> fold(const double* u, const double* t, int r, int k, size_t p) {
  std::vector<double> out(static_cast<size_t>(k) * p, 0.0);
  for (size_t j = 0; j < p; ++j)
    for (int c = 0; c < k; ++c) {
      double s = 0.0;
      for (int i = 0; i < r; ++i) s += u[static_cast<size_t>(c) * r + i] * t[j * r + i];
      out[j * k + c] = s;
    }
  return out;
}

}  // namespace

SplitRule SplitRule::subspace(int rank, int dim, std::vector<double> values, size_t p) {
  const size_t r = static_cast<size_t>(rank), k = static_cast<size_t>(dim);
  if (2 * k * p >= r * (p + 2 * k)) return transform_rule(kSplitSubspace, rank, dim, std::move(values));
  const double* t = values.data();
  std::vector<double> folded = fold(t + r * p, t, rank, dim, p);
  const std::vector<double> pb = fold(t + r * p + r * k, t, rank, dim, p);
  folded.insert(folded.end(), pb.begin(), pb.end());
  SplitRule out;
  out.kind = kSplitProjected;
  out.ints = {rank, dim};
  out.reals = std::move(folded);
  return out;
}

SplitRule SplitRule::affine(int rank, int dim, std::vector<double> values, size_t p) {
  const size_t r = static_cast<size_t>(rank), k = static_cast<size_t>(dim);
  if (p + 1 + 2 * k * (p + 1) >= p + r * (p + 2 + 2 * k))
    return transform_rule(kSplitAffine, rank, dim, std::move(values));
  const double* c = values.data();
  const double* t = c + p;
  const double* ma = t + r * p;
  const double* mb = ma + r;
  const double* ua = mb + r;
  const double* ub = ua + r * k;
  const std::vector<double> pa = fold(ua, t, rank, dim, p), pb = fold(ub, t, rank, dim, p);
  // w = T' (m_A - m_B); e = 2 c' w + ||m_A||^2 - ||m_B||^2
  std::vector<double> w(p, 0.0);
  double e = 0.0;
  for (size_t j = 0; j < p; ++j) {
    for (size_t i = 0; i < r; ++i) w[j] += t[j * r + i] * (ma[i] - mb[i]);
    e += 2.0 * c[j] * w[j];
  }
  for (size_t i = 0; i < r; ++i) e += ma[i] * ma[i] - mb[i] * mb[i];
  // b = P c + U' m
  auto shift = [&](const std::vector<double>& proj, const double* u, const double* m) {
    std::vector<double> b(k, 0.0);
    for (size_t q = 0; q < k; ++q) {
      for (size_t j = 0; j < p; ++j) b[q] += proj[j * k + q] * c[j];
      for (size_t i = 0; i < r; ++i) b[q] += u[q * r + i] * m[i];
    }
    return b;
  };
  const std::vector<double> ba = shift(pa, ua, ma), bb = shift(pb, ub, mb);
  SplitRule out;
  out.kind = kSplitProjectedAffine;
  out.ints = {rank, dim};
  out.reals = std::move(w);
  out.reals.reserve(p + 1 + 2 * k * (p + 1));
  out.reals.push_back(e);
  out.reals.insert(out.reals.end(), ba.begin(), ba.end());
  out.reals.insert(out.reals.end(), bb.begin(), bb.end());
  out.reals.insert(out.reals.end(), pa.begin(), pa.end());
  out.reals.insert(out.reals.end(), pb.begin(), pb.end());
  return out;
}

}  // namespace svf
