// The fit's out-of-bag tallies handed to R (declared in model_convert.h).
#include "model_convert.h"

#include <algorithm>
#include <cstdint>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

using Rcpp::List;

namespace {

// Moves `from` into `to` block by block, each copied block's whole pages
// given back to the system at once (Linux: madvise; they are never read
// again), then releases `from`: a tally of 480 MB (competing risks at
// 200,000 rows) is not held twice while R's copy is made.
void move_releasing(std::vector<double>& from, double* to) {
  const size_t block = size_t(1) << 21;  // 16 MB of doubles
#ifdef __linux__
  const long page_size = sysconf(_SC_PAGESIZE);
  const uintptr_t page = page_size > 0 ? static_cast<uintptr_t>(page_size) : 0;
  const uintptr_t start = reinterpret_cast<uintptr_t>(from.data());
  uintptr_t released = page ? (start + page - 1) / page * page : 0;  // the first whole page inside
#endif
  for (size_t a = 0; a < from.size(); a += block) {
    const size_t b = std::min(from.size(), a + block);
    std::copy(from.begin() + a, from.begin() + b, to + a);
#ifdef __linux__
    const uintptr_t end = page ? reinterpret_cast<uintptr_t>(from.data() + b) / page * page : 0;
    if (page && end > released) {
      madvise(reinterpret_cast<void*>(released), end - released, MADV_DONTNEED);
      released = end;
    }
#endif
  }
  std::vector<double>().swap(from);
}

}  // namespace

// The out-of-bag results (Forest.h) as R data: classification list(votes,
// shares (n x K), count, confidence and confident_class (max_confidence;
// class 0-based, -1 for none), even_votes, even_shares, even_count (the
// tally of the even-numbered trees; "vote" and "prob"), predicted, error,
// error_curve); regression
// list(sum_whole, sum_fraction, count, error, error_curve); survival below.
// `cause_names`: a competing-risks outcome's causes (NULL otherwise).
List oob_to_r(svf::OobResult& oob, size_t n, int num_classes, SEXP cause_names) {
  // survival: list(chf_sum (n x num_times), risk_sum, count, error, error_curve); competing
  // risks the same with each cause's CIF sums in chf_sum, an n x T x K array whose third
  // dimension is named by the causes: R keeps it as it comes, never reshaped (a copy)
  if (!oob.chf_sum.empty()) {
    // (not zero-filled first: its pages are touched only as the tally's are released)
    Rcpp::NumericMatrix chf =
        Rcpp::no_init_matrix(static_cast<int>(n), static_cast<int>(oob.chf_sum.size() / std::max<size_t>(n, 1)));
    move_releasing(oob.chf_sum, chf.begin());
    if (!Rf_isNull(cause_names)) {
      const int k = static_cast<int>(XLENGTH(cause_names));
      if (k < 1 || chf.ncol() % k != 0) Rcpp::stop("internal: the out-of-bag tally's causes");
      chf.attr("dim") = Rcpp::IntegerVector::create(static_cast<int>(n), chf.ncol() / k, k);
      chf.attr("dimnames") = List::create(R_NilValue, R_NilValue, cause_names);
    }
    return List::create(Rcpp::Named("chf_sum") = chf, Rcpp::Named("risk_sum") = Rcpp::wrap(oob.risk_sum),
                        Rcpp::Named("count") = Rcpp::wrap(oob.count), Rcpp::Named("error") = oob.error,
                        Rcpp::Named("error_curve") = Rcpp::wrap(oob.error_curve));
  }
  if (num_classes == 0) {
    return List::create(Rcpp::Named("sum_whole") = Rcpp::wrap(oob.sum_whole),
                        Rcpp::Named("sum_fraction") = Rcpp::wrap(oob.sum_fraction), Rcpp::Named("count") = Rcpp::wrap(oob.count),
                        Rcpp::Named("error") = oob.error, Rcpp::Named("error_curve") = Rcpp::wrap(oob.error_curve));
  }
  Rcpp::IntegerMatrix votes(static_cast<int>(n), num_classes);
  std::copy(oob.votes.begin(), oob.votes.end(), votes.begin());
  Rcpp::NumericMatrix shares(static_cast<int>(n), num_classes);
  std::copy(oob.shares.begin(), oob.shares.end(), shares.begin());
  List out = List::create(Rcpp::Named("votes") = votes, Rcpp::Named("shares") = shares, Rcpp::Named("count") = Rcpp::wrap(oob.count),
                          Rcpp::Named("error") = oob.error, Rcpp::Named("error_curve") = Rcpp::wrap(oob.error_curve),
                          Rcpp::Named("predicted") = Rcpp::wrap(oob.predicted));
  if (!oob.even_count.empty()) {
    Rcpp::IntegerMatrix even_votes(static_cast<int>(n), num_classes);
    std::copy(oob.even_votes.begin(), oob.even_votes.end(), even_votes.begin());
    Rcpp::NumericMatrix even_shares(static_cast<int>(n), num_classes);
    std::copy(oob.even_shares.begin(), oob.even_shares.end(), even_shares.begin());
    out["even_votes"] = even_votes;
    out["even_shares"] = even_shares;
    out["even_count"] = Rcpp::wrap(oob.even_count);
  }
  if (!oob.confidence.empty()) {
    out["confidence"] = Rcpp::wrap(oob.confidence);
    out["confident_class"] = Rcpp::wrap(oob.confident_class);
  }
  return out;
}
