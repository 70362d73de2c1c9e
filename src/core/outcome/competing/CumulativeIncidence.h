// Competing risks on a node's rows: each row has a time (its index on the
// forest's global grid of training event times, any cause) and a cause
// (0 = censored, 1..K). The node's curves: each cause's Aalen-Johansen
// cumulative incidence (CIF) and cause-specific Nelson-Aalen cumulative
// hazard (CHF), and the event-free survival, kept only at the grid indices
// where the node has an event (a leaf stores these, not the whole grid).
#ifndef SVFOREST_CUMULATIVE_INCIDENCE_H
#define SVFOREST_CUMULATIVE_INCIDENCE_H

#include <cstddef>
#include <vector>

namespace svf {

// A row's grid index: the last grid time at or before its time (-1 before
// the first). A row is at risk at grid index j when its index is >= j; an
// event row's time is a grid time, so it has its event at its own index.
struct CompetingRows {
  const int* time_index = nullptr;
  const int* cause = nullptr;      // 0 censored, 1..n_causes
  const double* weight = nullptr;  // case weights (positive) or nullptr
  // delayed entry (CompetingEntry.h): each row's entry grid index (at risk
  // at grid index j when entry_index < j <= time_index), or nullptr
  const int* entry_index = nullptr;
  int n_causes = 0;
  int grid_size = 0;  // number of grid times: every time_index < grid_size
  double weight_of(int r) const { return weight ? weight[r] : 1.0; }
};

// The curves, step functions right-continuous at `at` (grid indices,
// increasing); cif and chf are n_at x n_causes, at-major (cif[a * K + k]).
struct CompetingCurves {
  int n_causes = 0;
  std::vector<int> at;
  std::vector<double> survival, cif, chf;
  size_t n_at() const { return at.size(); }
  // the curves' values at a grid index: the last stored change at or before it
  double cif_at(int cause, int grid_index) const;  // cause 1..K
  double chf_at(int cause, int grid_index) const;
  double survival_at(int grid_index) const;

 private:
  long position(int grid_index) const;  // -1 before the first change
};

// The node's curves from its rows (0-based row numbers), O(n log n) by
// grouping rows by their grid index (the rows' own indices, not the grid).
CompetingCurves competing_curves(const CompetingRows& data, const int* rows, size_t n);

}  // namespace svf
#endif
