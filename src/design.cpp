// Column summaries of the training matrix for R/missing.R, computed without
// the n x p temporaries (and garbage) that R-level code would make: a
// million-row fit must not hold several copies of its data.
#include <Rcpp.h>

#include <algorithm>
#include <vector>

using Rcpp::NumericVector;

namespace {

// mean(c(a, b)) as R computes it: a long double sum, then one refinement pass.
double r_mean2(double a, double b) {
  long double s = (static_cast<long double>(a) + b) / 2.0L;
  if (R_FINITE(static_cast<double>(s))) {
    const long double t = (a - s) + (b - s);
    s += t / 2.0L;
  }
  return static_cast<double>(s);
}

}  // namespace

// Median of each column's non-missing values (0 for a column with none),
// equal to stats::median().
// [[Rcpp::export(.svf_column_medians)]]
NumericVector svf_column_medians(SEXP x) {
  // a plain SEXP: Rcpp's NumericMatrix would copy the data
  if (!Rf_isReal(x) || !Rf_isMatrix(x)) Rcpp::stop("internal: a double matrix is needed");
  const R_xlen_t n = Rf_nrows(x), p = Rf_ncols(x);
  NumericVector out(p);
  std::vector<double> v;
  v.reserve(static_cast<size_t>(n));
  for (R_xlen_t j = 0; j < p; ++j) {
    v.clear();
    const double* col = REAL(x) + j * n;  // (no bounds check: n may be 0)
    for (R_xlen_t i = 0; i < n; ++i)
      if (!ISNAN(col[i])) v.push_back(col[i]);
    const size_t m = v.size();
    if (m == 0) continue;
    const size_t half = (m + 1) / 2;  // 1-based, as in stats::median
    std::nth_element(v.begin(), v.begin() + (half - 1), v.end());
    const double lower = v[half - 1];
    if (m % 2 == 1) {
      out[j] = lower;
    } else {
      const double upper = *std::min_element(v.begin() + half, v.end());
      out[j] = r_mean2(lower, upper);
    }
  }
  return out;
}
