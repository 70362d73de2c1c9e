// R entry points for the conformal calibration of a regression forest
// (R/uncertainty.R): its score matrices have a column per level of the
// conformal grid (203), and a sort or a count per column from R costs more
// than the forest's out-of-bag quantiles themselves. Columns are independent:
// worker threads take them, touching no R data.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "RcppRunner.h"

// Each column of `m` sorted increasing (no NA).
// [[Rcpp::export(.svf_sort_columns)]]
Rcpp::NumericMatrix svf_sort_columns(Rcpp::NumericMatrix m, int num_threads) {
  Rcpp::NumericMatrix out = Rcpp::clone(m);
  const size_t n = static_cast<size_t>(out.nrow());
  for (double* v = out.begin(); v != out.end(); ++v)
    if (std::isnan(*v)) Rcpp::stop("conformal scores have missing values");
  double* first = out.begin();
  RcppRunner runner(num_threads, false);
  runner.run(static_cast<size_t>(out.ncol()), [first, n](size_t j) { std::sort(first + j * n, first + (j + 1) * n); });
  return out;
}

// Per column j of the sorted score matrices `all`, `even` and `odd` (the
// scores from all of a row's out-of-bag trees and from each half of them),
// the least value of all[, j] at which the extrapolated share
//   (1 + weight) F_all - weight (F_even + F_odd) / 2
// (F: the count of the column's scores at or below the value) reaches
// k[j] (to 1e-9); NA where it never does.
// [[Rcpp::export(.svf_extrapolated_order_statistics)]]
Rcpp::NumericVector svf_extrapolated_order_statistics(Rcpp::NumericMatrix all, Rcpp::NumericMatrix even,
                                                      Rcpp::NumericMatrix odd, double weight, Rcpp::NumericVector k,
                                                      int num_threads) {
  const int levels = all.ncol();
  if (even.ncol() != levels || odd.ncol() != levels || k.size() != levels)
    Rcpp::stop("score matrices of different levels");
  const size_t n = static_cast<size_t>(all.nrow()), ne = static_cast<size_t>(even.nrow()),
               no = static_cast<size_t>(odd.nrow());
  const double *a0 = all.begin(), *e0 = even.begin(), *o0 = odd.begin(), *k0 = k.begin();
  std::vector<double> out(static_cast<size_t>(levels), NA_REAL);
  RcppRunner runner(num_threads, false);
  runner.run(static_cast<size_t>(levels), [&](size_t j) {
    const double *a = a0 + j * n, *e = e0 + j * ne, *o = o0 + j * no;
    size_t ca = 0, ce = 0, co = 0;
    for (size_t i = 0; i < n; ++i) {
      while (ca < n && a[ca] <= a[i]) ++ca;
      while (ce < ne && e[ce] <= a[i]) ++ce;
      while (co < no && o[co] <= a[i]) ++co;
      const double share = (1 + weight) * static_cast<double>(ca) - weight * static_cast<double>(ce + co) / 2;
      if (share >= k0[j] - 1e-9) {
        out[j] = a[i];
        break;
      }
    }
  });
  return Rcpp::wrap(out);
}
