// Grows one tree's structure: splits the in-bag rows depth-first with a
// Splitter, records each leaf's rows and class counts. Leaf models are fitted
// afterwards (see Forest.cpp) so that leaves can be fitted in parallel.
// Splitters that judge splits on out-of-bag rows (RSVF) get the node's OOB
// rows, routed by the plain rule; a rule with a band (RSVF's delta_tau) sends
// in-bag rows within the band to both children, so leaves may share rows.
#ifndef SVFOREST_TREEGROWER_H
#define SVFOREST_TREEGROWER_H

#include <vector>

#include "common/Random.h"
#include "common/TaskRunner.h"
#include "data/TrainingData.h"
#include "splitting/Splitter.h"
#include "tree/Tree.h"

namespace svf {

struct GrowOptions {
  size_t max_depth = 0;  // 0: unlimited
  bool split_pure = false;
  // route the out-of-bag rows to the leaves (GrownTree::oob_rows) even
  // where the splitter does not read them (a tree choice scores them)
  bool route_oob = false;
};

struct GrownTree {
  Tree tree;                      // structure; leaves have only their size
  std::vector<int> leaf_counts;   // num_classes x leaves, column-major (empty for regression)
  std::vector<int> rows;          // in-bag rows, grouped by leaf
  std::vector<size_t> leaf_begin; // leaf l owns rows[leaf_begin[l] .. leaf_begin[l + 1])
  // when oob_routed: the out-of-bag rows grouped by the leaf the grower's
  // rules sent them to (the leaf route() finds: RowRouter.h), as rows
  bool oob_routed = false;
  std::vector<int> oob_rows;
  std::vector<size_t> oob_leaf_begin;
  // every split sent each row to one child (no band): each in-bag row is in
  // exactly the one leaf predict() routes it to
  bool one_leaf_per_row = true;
};

// `rows` (in-bag rows) and `oob` (out-of-bag rows, used only when the
// splitter asks for them) are taken over. `inner` is handed to the splitter
// for work inside a node.
void grow_tree(const TrainingData& data, std::vector<int> rows, std::vector<int> oob,
               const Splitter& splitter, const GrowOptions& options, Rng& rng, TaskRunner& inner,
               GrownTree& out);

// Records `rule` at `node` with its two children (shared with TD-SVM's leaf merging).
void set_split(Tree& tree, int node, int kind, const int* ints, size_t n_ints, const double* reals,
               size_t n_reals, int left, int right);

}  // namespace svf
#endif
