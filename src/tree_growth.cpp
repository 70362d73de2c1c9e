// The engine's tree growth rule (core/forest/TreeGrowth.h) asked from R:
// svforest_future() grows a forest in parts and reads the rule on the
// parts' merged out-of-bag tallies, at the counts of trees the engine reads
// it at, so that it grows the trees svforest() grows.
#include <Rcpp.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/forest/Aggregation.h"
#include "core/forest/TreeGrowth.h"

using Rcpp::List;

namespace {

template <typename V>
V tally_part(const List& tally, const char* name, size_t n) {
  if (!tally.containsElementNamed(name)) Rcpp::stop(std::string("internal: the tally has no ") + name);
  V out = Rcpp::as<V>(tally[name]);
  if (out.size() != n) Rcpp::stop(std::string("internal: length of the tally's ") + name);
  return out;
}

// An engine tally of n rows from R (the `oob` list of .svf_fit(), or tallies
// of parts merged in R).
svf::OobResult read_tally(const List& tally, size_t n, int K) {
  svf::OobResult out;
  out.count = tally_part<std::vector<int>>(tally, "count", n);
  if (K == 0) {
    out.sum_whole = tally_part<std::vector<double>>(tally, "sum_whole", n);
    out.sum_fraction = tally_part<std::vector<double>>(tally, "sum_fraction", n);
    return out;
  }
  out.votes = tally_part<std::vector<int>>(tally, "votes", n * K);
  out.shares = tally_part<std::vector<double>>(tally, "shares", n * K);
  if (tally.containsElementNamed("confident_class") && !Rf_isNull(tally["confident_class"]))
    out.confident_class = tally_part<std::vector<int>>(tally, "confident_class", n);
  return out;
}

}  // namespace

// Whether a forest grows on after T trees: `half` and `full` are its
// out-of-bag tallies after T / 2 and T trees, `y` the engine's outcome
// (0-based classes, or the standardised numbers with num_classes 0, or a
// Surv matrix of time and status with num_classes 0, or of time and cause),
// `rule` list(gain, gain_rows, z) (the fit's ntree_gain, ntree_gain_rows,
// ntree_gain_z).
// [[Rcpp::export(.svf_more_trees_help)]]
bool svf_more_trees_help(List half, List full, SEXP y, int num_classes, std::string aggregation, List rule) {
  svf::Aggregation a;
  try {
    a = svf::aggregation_named(aggregation);
  } catch (std::invalid_argument& e) {
    Rcpp::stop(e.what());
  }
  // a survival outcome: an n x 2 matrix of time and status (a Surv); a
  // competing-risks one (a multi-state Surv with its `states`, the causes)
  // keeps each row's cause as its status
  const bool survival = Rf_isMatrix(y) && Rf_ncols(y) == 2 && num_classes == 0;
  SEXP states = Rf_getAttrib(y, Rf_install("states"));
  const int causes = survival && TYPEOF(states) == STRSXP ? static_cast<int>(XLENGTH(states)) : 0;
  const size_t n = static_cast<size_t>(survival ? Rf_nrows(y) : XLENGTH(y));
  std::vector<double> response, time;
  std::vector<int> classes, status;
  if (survival) {
    const Rcpp::NumericMatrix m(y);
    for (size_t i = 0; i < n; ++i) {
      time.push_back(m(i, 0));
      status.push_back(causes > 0 ? static_cast<int>(m(i, 1)) : m(i, 1) == 1.0 ? 1 : 0);
    }
  } else if (num_classes == 0) {
    response = Rcpp::as<std::vector<double>>(y);
  } else {
    classes = Rcpp::as<std::vector<int>>(y);
  }
  if (a == svf::Aggregation::MaxConfidence && num_classes > 0 &&
      !(full.containsElementNamed("confident_class") && half.containsElementNamed("confident_class")))
    Rcpp::stop("internal: max_confidence tallies need each row's confident class");
  const svf::GrowthRule growth{Rcpp::as<double>(rule["gain"]), Rcpp::as<double>(rule["gain_rows"]),
                               Rcpp::as<double>(rule["z"])};
  if (survival) {
    // the rows' losses of the survival outcome (outcome/Survival.cpp) from
    // the tallies' risk sums (exact sums, as the engine's, in any grouping)
    svf::TrainingData td;
    td.time = time.data();
    td.status = status.data();
    td.num_causes = causes;
    svf::OobResult h, f;
    h.count = tally_part<std::vector<int>>(half, "count", n);
    h.risk_sum = tally_part<std::vector<double>>(half, "risk_sum", n);
    f.count = tally_part<std::vector<int>>(full, "count", n);
    f.risk_sum = tally_part<std::vector<double>>(full, "risk_sum", n);
    return svf::more_trees_help(svf::oob_row_losses(td, h), svf::oob_row_losses(td, f), growth);
  }
  return svf::more_trees_help(
      svf::tally_row_losses(read_tally(half, n, num_classes), a, num_classes, response, classes),
      svf::tally_row_losses(read_tally(full, n, num_classes), a, num_classes, response, classes), growth);
}
