// Grows one tree's structure: partitions the in-bag rows depth-first with a
// Splitter, records each leaf's rows and class counts. Leaf models are fitted
// afterwards (see Forest.cpp) so that leaves can be fitted in parallel.
#ifndef SVFOREST_TREEGROWER_H
#define SVFOREST_TREEGROWER_H

#include <vector>

#include "Random.h"
#include "Splitter.h"
#include "TaskRunner.h"
#include "Tree.h"
#include "TrainingData.h"

namespace svf {

struct GrowOptions {
  size_t max_depth = 0;  // 0: unlimited
  bool split_pure = false;
};

struct GrownTree {
  Tree tree;
  std::vector<int> rows;          // in-bag rows, grouped by leaf
  std::vector<size_t> leaf_begin; // leaf l owns rows[leaf_begin[l] .. leaf_begin[l + 1])
};

// `rows` (in-bag row indices) is taken over and reordered.
void grow_tree(const TrainingData& data, std::vector<int> rows, const Splitter& splitter,
               const GrowOptions& options, Rng& rng, GrownTree& out);

// The same for splitters that use out-of-bag rows (Splitter::uses_oob()):
// `oob` rows are routed down with the plain rule, in-bag rows in a rule's
// band go to both children (so leaves may share rows). `inner` is handed to
// the splitter for work inside a node.
void grow_tree(const TrainingData& data, std::vector<int> rows, std::vector<int> oob,
               const Splitter& splitter, const GrowOptions& options, Rng& rng,
               TaskRunner& inner, GrownTree& out);

}  // namespace svf
#endif
