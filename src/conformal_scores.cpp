// R entry points for the conformal calibration of a regression forest
// (R/uncertainty.R): its score matrices have a column per level of the
// conformal grid (203), and a sort or a count per column from R costs more
// than the forest's out-of-bag quantiles themselves on small data.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>

// Each column of `m` sorted increasing (no NA).
// [[Rcpp::export(.svf_sort_columns)]]
Rcpp::NumericMatrix svf_sort_columns(Rcpp::NumericMatrix m) {
  Rcpp::NumericMatrix out = Rcpp::clone(m);
  const R_xlen_t n = out.nrow();
  for (double* v = out.begin(); v != out.end(); ++v)
    if (std::isnan(*v)) Rcpp::stop("conformal scores have missing values");
  for (int j = 0; j < out.ncol(); ++j) std::sort(out.begin() + j * n, out.begin() + (j + 1) * n);
  return out;
}

// For each value of `at`, the count of values of the same column of `ref`
// at or below it (findInterval(at[, j], ref[, j]) per column); the columns
// of both sorted increasing.
// [[Rcpp::export(.svf_count_at_or_below)]]
Rcpp::IntegerMatrix svf_count_at_or_below(Rcpp::NumericMatrix ref, Rcpp::NumericMatrix at) {
  if (ref.ncol() != at.ncol()) Rcpp::stop("score matrices of different levels");
  const R_xlen_t nr = ref.nrow(), na = at.nrow();
  Rcpp::IntegerMatrix out(na, at.ncol());
  for (int j = 0; j < at.ncol(); ++j) {
    const double* r = ref.begin() + j * nr;
    const double* a = at.begin() + j * na;
    int* o = out.begin() + j * na;
    R_xlen_t k = 0;
    for (R_xlen_t i = 0; i < na; ++i) {
      while (k < nr && r[k] <= a[i]) ++k;
      o[i] = static_cast<int>(k);
    }
  }
  return out;
}
