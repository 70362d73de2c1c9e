// Competing risks with delayed entry (left truncation, Surv(entry, exit,
// event) with an event factor; issue #59): a row is at risk at event time t
// when entry < t <= exit. The competing table then holds per row the first
// of the node's event times it is at risk at (`start`) besides the first it
// no longer is (`limit`), and what reads the table reads both: the
// composite cause-specific log-rank scan, the per-cause martingale targets,
// the Aalen-Johansen leaf curves and Wolbers' C over the pairs comparable
// under truncation. Right-censored outcomes never reach this file (the
// `_of` functions branch on the rows' entry indices), so their forests are
// unchanged.
#ifndef SVFOREST_COMPETING_ENTRY_H
#define SVFOREST_COMPETING_ENTRY_H

#include <cstddef>
#include <memory>
#include <vector>

#include "CompetingLogRank.h"
#include "CumulativeIncidence.h"
#include "outcome/CutScan.h"

namespace svf {

// build_competing_table() with `start` (data.entry_index required): the
// node times at or before the row's entry; at risk at start <= j < limit.
void build_entry_competing_table(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table);
// build_competing_table() or build_entry_competing_table(), as the rows have entry times.
void build_competing_table_of(const CompetingRows& data, const int* rows, size_t n, CompetingTable& table);

// The composite statistic as the split search reads it, for tables with or
// without `start`; the per-cause statistics of a two-group split likewise.
std::unique_ptr<CutScan> competing_cut_scan_of(const CompetingTable& table);
double competing_logrank_of(const CompetingTable& table, const std::vector<char>& left, std::vector<double>& per_cause);

// competing_target() with the hazards' increments over (entry, exit]:
// sum_k w_k (1[cause_i = k] - (H_k(T_i) - H_k(E_i))); for tables with or without `start`.
void competing_target_of(const CompetingTable& table, const std::vector<double>& cause_weights, double* out);

// competing_curves() with the risk sets entry < t <= exit (data.entry_index required).
CompetingCurves entry_competing_curves(const CompetingRows& data, const int* rows, size_t n);
// competing_steps() (CompetingSteps.h), with delayed entry when the rows have entry times.
void competing_steps_of(const CompetingRows& data, const int* rows, size_t n, std::vector<int>& ints,
                        std::vector<double>& reals);

// Wolbers' C (as wolbers_c()) over the pairs comparable under truncation:
// the other row had entered by the event's time (entry < t). `entry`
// nullptr: wolbers_c().
double wolbers_c_of(const double* time, const int* status, const double* entry, const int* rows, size_t m,
                    const double* risk, int cause, std::vector<double>* row_loss = nullptr);

}  // namespace svf
#endif
