// A prediction strategy: a survival forest's cumulative hazard (CHF). A
// row's CHF is the mean over trees of their leaves' step functions on the
// grid of training event times (outcome/SurvivalTable.h,
// nelson_aalen_steps()): the mean of Nelson-Aalen estimates is itself a
// cumulative hazard (non-decreasing, zero at the start) and survival is
// exp(-CHF), in [0, 1] and non-increasing by construction. Its risk is the
// sum of the CHF over the grid (ranger's "mortality").
#ifndef SVFOREST_SURVIVALPREDICTION_H
#define SVFOREST_SURVIVALPREDICTION_H

#include <cstddef>
#include <vector>

#include "common/TaskRunner.h"
#include "data/RowSource.h"
#include "forest/Importance.h"
#include "tree/Tree.h"

namespace svf {

// A row's leaf in `tree`, routed as tree_predict() routes it.
int tree_leaf_of_row(const TreeView& tree, size_t p, const RowSource& rows, size_t row, std::vector<double>& scratch);

// Adds a (checked) survival leaf's CHF at each of the T grid times to
// out[j * stride]: tree by tree, out-of-bag sums of parts of a forest then
// add up exactly to the whole forest's (combine()).
void add_leaf_chf(const TreeView& tree, int leaf, size_t T, double* out, size_t stride);

// The forest's CHF of each row of `rows` at each of the T grid times (n x T,
// column-major, into `out`): a row reads each tree's leaf once and adds its
// steps (the increase at each grid time), in O(its event times) instead of
// the whole grid per tree.
void predict_chf(const std::vector<TreeView>& trees, size_t p, size_t T, const RowSource& rows, TaskRunner& runner,
                 double* out);

// Permutation importance by concordance (forest/Importance.h, its rows and
// permutation streams): per tree, Harrell's C of its leaves' risk on its
// rows, minus the same with the group's columns permuted among them; the
// mean over trees with comparable pairs. `time`, `status`: per row of `rows`.
void concordance_importance(const ForestView& forest, const RowSource& rows, const double* time, const int* status,
                            const std::vector<std::vector<int>>& groups, const ImportanceOptions& options,
                            TaskRunner& runner, ImportanceResult& out);

}  // namespace svf
#endif
