// Everything a tree needs to read while it grows: the raw predictors (for
// splits), integer class labels, and the scaled rows (for SVM leaves).
#ifndef SVFOREST_TRAININGDATA_H
#define SVFOREST_TRAININGDATA_H

#include <vector>

#include "ColumnRanks.h"
#include "DataView.h"
#include "Scaling.h"
#include "ScaledRows.h"

namespace svf {

struct TrainingData {
  const DataView* x = nullptr;
  // classification: the class of each row, 0 .. num_classes - 1
  const int* y = nullptr;
  int num_classes = 0;
  // regression (num_classes 0): the numeric outcome of each row, on the
  // model's scale (standardised in R)
  const double* response = nullptr;
  bool regression() const { return response != nullptr; }
  // survival (num_classes 0, no response): each row's time, its event
  // status (1 event, 0 censored) and the index of the last of the
  // training event times (the forest's time grid, num_times of them) at or
  // before its time (-1 when before the first)
  const double* time = nullptr;
  const int* status = nullptr;
  const int* time_index = nullptr;
  int num_times = 0;
  bool survival() const { return status != nullptr; }
  // delayed entry (counting-process outcomes, Surv(entry, exit, event);
  // outcome/DelayedEntry.h): each row's entry time, before its time, and
  // the index of the last event time at or before it (-1 before the
  // first): the row is at risk at event time g when entry_index < g <=
  // time_index. nullptr: every row at risk from time 0 (right-censored).
  const double* entry = nullptr;
  const int* entry_index = nullptr;
  bool has_entry() const { return entry_index != nullptr; }
  // subjects (`id`): each row's subject 0..num_subjects - 1, drawn into or
  // out of a tree's sample with all their rows (forest/SubjectSampler.h);
  // nullptr: rows are drawn one by one
  const int* subject = nullptr;
  int num_subjects = 0;
  // competing risks (a survival outcome with num_causes > 0): `status`
  // holds each row's cause, 0 censored or 1..num_causes, and the grid
  // holds the event times of every cause; `grid_times` are the grid's
  // times (a cause's time lost integrates its incidence over them)
  int num_causes = 0;
  const double* grid_times = nullptr;
  bool competing() const { return num_causes > 0; }
  // the grid the leaves' curves, the out-of-bag tallies and predictions
  // live on (`ntime`): `num_curve_times` of the event times, `curve_times`,
  // and per event time (0..num_times) the index of the first curve time at
  // or after it (`curve_of_time`). Unset (0, nullptr): the curves live on
  // every event time. Splits and the tree choice read the event times.
  int num_curve_times = 0;
  const double* curve_times = nullptr;
  const int* curve_of_time = nullptr;
  int curve_size() const { return num_curve_times > 0 ? num_curve_times : num_times; }
  const double* curve_grid() const { return curve_times ? curve_times : grid_times; }
  // case weights (positive, one per row) or nullptr: they act through the
  // rows each tree draws (Sampler.h), so every model sees them as row
  // multiplicities
  const double* weights = nullptr;
  Scaling scaling;
  ScaledRows scaled;  // filled only when a component asks for it
  // factor columns of level codes 1..L, coded per tree
  // (forest/LevelValues.h): their columns and numbers of levels
  std::vector<int> factor_cols, factor_levels;
  // the numeric predictors' ranks (ColumnRanks.h), when a splitter asked
  // for them; owned by the trainer
  const ColumnRanks* ranks = nullptr;
};

}  // namespace svf
#endif
