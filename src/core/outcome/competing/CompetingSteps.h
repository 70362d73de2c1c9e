// What a competing-risks leaf stores and what reads it: each cause's
// Aalen-Johansen cumulative incidence (CIF) and cause-specific cumulative
// hazard (CHF) as step functions at the leaf's own event times, a cause's
// expected time lost up to the grid's last time (the integral of its CIF:
// the risk that orders rows), and Wolbers' concordance of such a risk.
#ifndef SVFOREST_COMPETING_STEPS_H
#define SVFOREST_COMPETING_STEPS_H

#include <cstddef>
#include <vector>

#include "CumulativeIncidence.h"

namespace svf {

// The curves of rows[0..n) as a leaf stores them: ints [m, the grid index of
// each of the m times where a row has an event, increasing], reals [the CIF
// of each of K causes at each (m x K, time-major), then the CHF likewise],
// each rounded to a multiple of 2^-32 (a change below 1e-10): sums of such
// numbers below 2^21 are exact in a double, so a forest's sums are the same
// in any grouping of its trees (combine()). m = 0: no events.
void competing_steps(const CompetingRows& data, const int* rows, size_t n, std::vector<int>& ints,
                     std::vector<double>& reals);

// The expected time lost to `cause` (1..K) of such steps: the integral of its
// CIF from 0 to the grid's last time, grid[0..T).
double steps_time_lost(const int* ints, const double* reals, int K, int cause, const double* grid, int T);

// Wolbers' concordance for `cause` of `risk` (higher: earlier event of the
// cause) on rows[0..m) (risk by position): a pair is comparable when one row
// has an event of the cause and the other is event-free longer or had
// another cause's event first; Harrell's C once rows of another cause are
// moved past every time, censored. NaN without pairs; row_loss as
// harrell_c() (outcome/SurvivalTable.h).
double wolbers_c(const double* time, const int* status, const int* rows, size_t m, const double* risk, int cause,
                 std::vector<double>* row_loss = nullptr);

}  // namespace svf
#endif
