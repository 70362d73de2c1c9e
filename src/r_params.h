// The engine's parameters read from the checked R list of a fit.
#ifndef SVFOREST_R_PARAMS_H
#define SVFOREST_R_PARAMS_H

#include <Rcpp.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/Params.h"

class RParams : public svf::Params {
 public:
  explicit RParams(const Rcpp::List& list) : list_(list) {}
  bool has(const std::string& name) const override { return list_.containsElementNamed(name.c_str()); }
  std::vector<double> numbers(const std::string& name) const override {
    SEXP v = get(name);
    if (TYPEOF(v) == LGLSXP || TYPEOF(v) == INTSXP) {
      // NA of a logical or integer is R's "automatic" value: NaN here
      std::vector<double> out(XLENGTH(v));
      const int* p = TYPEOF(v) == LGLSXP ? LOGICAL(v) : INTEGER(v);
      for (R_xlen_t i = 0; i < XLENGTH(v); ++i) out[i] = p[i] == NA_INTEGER ? NAN : p[i];
      return out;
    }
    if (TYPEOF(v) != REALSXP) throw std::invalid_argument("internal: parameter '" + name + "' is not a number");
    return std::vector<double>(REAL(v), REAL(v) + XLENGTH(v));
  }
  std::string text(const std::string& name) const override {
    SEXP v = get(name);
    if (TYPEOF(v) != STRSXP || XLENGTH(v) != 1) throw std::invalid_argument("internal: parameter '" + name + "' is not a string");
    return CHAR(STRING_ELT(v, 0));
  }

 private:
  SEXP get(const std::string& name) const {
    if (!has(name)) throw std::invalid_argument("internal: parameter '" + name + "' missing");
    return list_[name];
  }
  Rcpp::List list_;
};

#endif
