#include "SplitKinds.h"

#include <sstream>

namespace svf {

size_t split_int_length(int kind, const int* ints) {
  switch (kind) {
    case kSplitAxis: return 1;
    case kSplitOblique: return 1 + static_cast<size_t>(ints[0]);
    default: return 2;  // subspace, affine
  }
}

size_t split_real_length(int kind, const int* ints, size_t p) {
  switch (kind) {
    case kSplitAxis: return 1;
    case kSplitOblique: return 1 + static_cast<size_t>(ints[0]);
    case kSplitAffine:
      return p + static_cast<size_t>(ints[0]) * (p + 2 + 2 * static_cast<size_t>(ints[1]));
    default: return static_cast<size_t>(ints[0]) * (p + 2 * static_cast<size_t>(ints[1]));
  }
}

std::string check_split(int kind, const int* ints, size_t n_ints, const double*, size_t n_reals,
                        size_t p) {
  std::ostringstream err;
  switch (kind) {
    case kSplitAxis:
      if (n_ints < 1 || n_reals < 1) return "axis split values out of range";
      if (ints[0] < 0 || static_cast<size_t>(ints[0]) >= p) {
        err << "splits on predictor " << ints[0] << " out of range";
        return err.str();
      }
      return "";
    case kSplitOblique: {
      if (n_ints < 1 || ints[0] < 1) return "oblique split coefficients out of range";
      const size_t m = static_cast<size_t>(ints[0]);
      if (m + 1 > n_ints || m + 1 > n_reals) return "oblique split coefficients out of range";
      for (int k = 0; k < ints[0]; ++k)
        if (ints[1 + k] < 0 || static_cast<size_t>(ints[1 + k]) >= p) {
          err << "splits on predictor " << ints[1 + k] << " out of range";
          return err.str();
        }
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
    default:
      return "unknown split kind";
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

SplitRule SplitRule::subspace(int rank, int dim, std::vector<double> values) {
  return transform_rule(kSplitSubspace, rank, dim, std::move(values));
}

SplitRule SplitRule::affine(int rank, int dim, std::vector<double> values) {
  return transform_rule(kSplitAffine, rank, dim, std::move(values));
}

}  // namespace svf
