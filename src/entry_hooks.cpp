// Test hooks of delayed entry (core/outcome/DelayedEntry.h): Harrell's C
// with its pseudo-values, and a node's log-rank statistic and martingale
// scores, on plain vectors, for tests against survival::concordance() and
// coxph()'s score test.
#include <Rcpp.h>

#include <cmath>
#include <vector>

#include "core/outcome/DelayedEntry.h"

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
  size_t n_left = 0;
  for (size_t i = 0; i < n; ++i)
    if (in_left[i]) {
      scan->add(static_cast<int>(i));
      ++n_left;
    }
  std::vector<double> scores(n);
  svf::martingale_scores(table, scores.data());
  return List::create(Named("statistic") = svf::logrank_statistic(table, in_left),
                      Named("scan") = scan->gain(n_left), Named("at_risk") = Rcpp::wrap(table.at_risk),
                      Named("martingale") = Rcpp::wrap(scores));
}
