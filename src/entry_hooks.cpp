// Test hooks of delayed entry (core/outcome/DelayedEntry.h): Harrell's C
// with its pseudo-values, and a node's log-rank statistic and martingale
// scores, on plain vectors, for tests against survival::concordance() and
// coxph()'s score test; the competing-risks statistics likewise.
#include <Rcpp.h>

#include <cmath>
#include <vector>

#include "core/outcome/DelayedEntry.h"
#include "core/outcome/competing/CompetingEntry.h"

using Rcpp::List;
using Rcpp::Named;

// [[Rcpp::export(.svf_harrell_c_entry)]]
List svf_harrell_c_entry(Rcpp::NumericVector time, Rcpp::IntegerVector status, Rcpp::NumericVector entry,
                         Rcpp::NumericVector risk) {
  const size_t m = time.size();
  if (static_cast<size_t>(status.size()) != m || static_cast<size_t>(risk.size()) != m ||
      static_cast<size_t>(entry.size()) != m)
    Rcpp::stop("internal: lengths");
  std::vector<int> rows(m);
  for (size_t i = 0; i < m; ++i) rows[i] = static_cast<int>(i);
  std::vector<double> loss;
  const double c = svf::harrell_c_entry(time.begin(), status.begin(), entry.begin(), rows.data(), m, risk.begin(), &loss);
  return List::create(Named("c") = std::isnan(c) ? NA_REAL : c, Named("row_loss") = Rcpp::wrap(loss));
}

// [[Rcpp::export(.svf_entry_logrank)]]
List svf_entry_logrank(Rcpp::NumericVector time, Rcpp::IntegerVector status, Rcpp::NumericVector entry,
                       Rcpp::LogicalVector left) {
  const size_t n = time.size();
  if (static_cast<size_t>(status.size()) != n || static_cast<size_t>(entry.size()) != n ||
      static_cast<size_t>(left.size()) != n)
    Rcpp::stop("internal: lengths");
  std::vector<int> time_index, rows(n);
  const std::vector<double> grid = svf::event_grid(time.begin(), status.begin(), n, time_index);
  const std::vector<int> entry_index = svf::entry_grid_index(grid, entry.begin(), n);
  svf::TrainingData data;
  data.time = time.begin();
  data.status = status.begin();
  data.time_index = time_index.data();
  data.num_times = static_cast<int>(grid.size());
  data.entry = entry.begin();
  data.entry_index = entry_index.data();
  for (size_t i = 0; i < n; ++i) rows[i] = static_cast<int>(i);
  svf::SurvivalTable table;
  svf::build_survival_table(data, rows.data(), n, table);
  std::vector<char> in_left(n);
  for (size_t i = 0; i < n; ++i) in_left[i] = left[i] ? 1 : 0;
  const std::unique_ptr<svf::CutScan> scan = svf::logrank_cut_scan(table);
  scan->reset();
  const size_t n_left = svf::add_marked_rows(*scan, in_left, n);
  std::vector<double> scores(n);
  svf::martingale_scores(table, scores.data());
  return List::create(Named("statistic") = svf::logrank_statistic(table, in_left),
                      Named("scan") = scan->gain(n_left), Named("at_risk") = Rcpp::wrap(table.at_risk),
                      Named("martingale") = Rcpp::wrap(scores));
}

// Competing risks with delayed entry (core/outcome/competing/CompetingEntry.h):
// the per-cause log-rank statistics and composite of a two-group split, the
// composite by the cut scan, and the per-cause martingale targets (n x K).
// [[Rcpp::export(.svf_competing_entry_logrank)]]
List svf_competing_entry_logrank(Rcpp::NumericVector time, Rcpp::IntegerVector cause, Rcpp::NumericVector entry,
                                 Rcpp::LogicalVector left, int n_causes) {
  const size_t n = time.size();
  if (static_cast<size_t>(cause.size()) != n || static_cast<size_t>(entry.size()) != n ||
      static_cast<size_t>(left.size()) != n || n_causes < 1)
    Rcpp::stop("internal: lengths");
  for (size_t i = 0; i < n; ++i)
    if (cause[i] < 0 || cause[i] > n_causes || !(entry[i] < time[i])) Rcpp::stop("internal: causes or entry times");
  std::vector<int> time_index, rows(n);
  const std::vector<double> grid = svf::event_grid(time.begin(), cause.begin(), n, time_index);
  const std::vector<int> entry_index = svf::entry_grid_index(grid, entry.begin(), n);
  svf::CompetingRows data;
  data.time_index = time_index.data();
  data.cause = cause.begin();
  data.n_causes = n_causes;
  data.grid_size = static_cast<int>(grid.size());
  data.entry_index = entry_index.data();
  for (size_t i = 0; i < n; ++i) rows[i] = static_cast<int>(i);
  svf::CompetingTable table;
  svf::build_competing_table_of(data, rows.data(), n, table);
  std::vector<char> in_left(n);
  for (size_t i = 0; i < n; ++i) in_left[i] = left[i] ? 1 : 0;
  std::vector<double> per_cause;
  const double composite = svf::competing_logrank_of(table, in_left, per_cause);
  const std::unique_ptr<svf::CutScan> scan = svf::competing_cut_scan_of(table);
  scan->reset();
  const size_t n_left = svf::add_marked_rows(*scan, in_left, n);
  Rcpp::NumericMatrix target(static_cast<int>(n), n_causes);
  for (int k = 0; k < n_causes; ++k) {
    std::vector<double> weights(n_causes, 0.0), out(n);
    weights[k] = 1.0;
    svf::competing_target_of(table, weights, out.data());
    for (size_t i = 0; i < n; ++i) target(static_cast<int>(i), k) = out[i];
  }
  return List::create(Named("per_cause") = Rcpp::wrap(per_cause), Named("composite") = composite,
                      Named("scan") = scan->gain(n_left), Named("at_risk") = Rcpp::wrap(table.at_risk),
                      Named("target") = target);
}
