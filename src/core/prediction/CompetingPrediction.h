// A prediction strategy: a competing-risks forest's cumulative incidence
// (CIF) and cause-specific cumulative hazard (CHF) of each cause. A row's
// curves are the means over trees of their leaves' step functions on the
// grid of training event times (outcome/competing/CompetingSteps.h): a
// mean of Aalen-Johansen estimates is itself one (each CIF non-decreasing
// from 0, their sum at most 1), so the event-free survival is 1 minus the
// sum of the causes' CIFs.
#ifndef SVFOREST_COMPETINGPREDICTION_H
#define SVFOREST_COMPETINGPREDICTION_H

#include <cstddef>
#include <vector>

#include "common/TaskRunner.h"
#include "data/RowSource.h"
#include "tree/Tree.h"

namespace svf {

// Adds a (checked) competing-risks leaf's CIF of each of K causes at each
// of the T grid times to out[(k * T + j) * stride] (k from 0): tree by
// tree, so out-of-bag sums of parts of a forest add up to the whole's.
void add_leaf_cif(const TreeView& tree, int leaf, size_t T, int K, double* out, size_t stride);

// The forest's CIF and CHF of each row of `rows` for each cause at each grid
// time: n x T x K arrays, column-major (row fastest), into `cif` and `chf`.
// A row reads each tree's leaf once and adds its steps.
void predict_competing(const std::vector<TreeView>& trees, size_t p, size_t T, int K, const RowSource& rows,
                       TaskRunner& runner, double* cif, double* chf);

}  // namespace svf
#endif
