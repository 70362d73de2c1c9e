// Delayed entry (left truncation; counting-process outcomes Surv(entry,
// exit, event), issue #59): a row is at risk at event time t when
// entry < t <= exit. The survival table of a node then holds per row the
// first of the node's event times it is at risk at (`start`) besides the
// first it no longer is (`limit`), and what reads the table reads both:
// the log-rank scan (EntryLogRankScan), the martingale scores, the
// Nelson-Aalen leaf (whose at-risk counts come from the table), and
// Harrell's C over the pairs comparable under truncation. Right-censored
// outcomes never reach this file (SurvivalTable.cpp branches on
// TrainingData::has_entry()), so their forests are unchanged.
#ifndef SVFOREST_DELAYEDENTRY_H
#define SVFOREST_DELAYEDENTRY_H

#include <cstddef>
#include <memory>
#include <vector>

#include "CutScan.h"
#include "SurvivalTable.h"
#include "data/TrainingData.h"

namespace svf {

// Each row's index in the event grid `grid` of its entry time: the last
// grid time at or before it (-1 before the first).
std::vector<int> entry_grid_index(const std::vector<double>& grid, const double* entry, size_t n);

// The survival table of rows[0..n) with delayed entry: build_survival_table()'s
// times, limits and events, `start` (the node times at or before the row's
// entry: it is at risk at node times start <= j < limit) and the at-risk
// counts of those intervals.
void build_entry_survival_table(const TrainingData& data, const int* rows, size_t n, SurvivalTable& table);

// The log-rank chi-square statistic of a growing left group whose rows are
// at risk over intervals [start, limit) of the node's times, O(log T) per
// row: the variance's square term sum_j e_j Y_j^2 grows by
// e-weighted overlaps of the new row's interval with the left rows',
// which Fenwick trees over the left rows' starts and limits give.
std::unique_ptr<CutScan> entry_logrank_cut_scan(const SurvivalTable& table);
double entry_logrank_statistic(const SurvivalTable& table, const std::vector<char>& left);

// score_i = status_i - (H(exit_i) - H(entry_i)), H the node's Nelson-Aalen
// hazard with delayed entry.
void entry_martingale_scores(const SurvivalTable& table, double* out);

// Harrell's C (as harrell_c(), same arguments and pseudo-values) over the
// pairs comparable under truncation: an event at t_a and a row b with
// t_b > t_a that had entered by then (entry_b < t_a).
double harrell_c_entry(const double* time, const int* status, const double* entry, const int* rows, size_t m,
                       const double* risk, std::vector<double>* row_loss = nullptr);

// harrell_c() or harrell_c_entry(), as the training data have entry times.
double harrell_c_of(const TrainingData& data, const int* rows, size_t m, const double* risk,
                    std::vector<double>* row_loss = nullptr);

}  // namespace svf
#endif
