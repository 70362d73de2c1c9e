// How a node is split. A splitter looks at the node and proposes one rule
// (tree/SplitKinds.h), or declines (the node becomes a leaf). The grower
// (forest/TreeGrower.h) does the rest.
#ifndef SVFOREST_SPLITTER_H
#define SVFOREST_SPLITTER_H

#include <cstddef>
#include <memory>
#include <vector>
#include <string>

#include "common/Params.h"
#include "common/Random.h"
#include "common/TaskRunner.h"
#include "data/TrainingData.h"
#include "tree/SplitKinds.h"

namespace svf {

// What a splitter sees of a node: its in-bag rows and, for splitters that
// judge a split on the tree's out-of-bag rows (RSVF), the node's out-of-bag
// rows; `inner` may run independent work of the node in parallel (a serial
// runner when trees already run in parallel). `axis_run`: the axis cuts in
// a row that lead to the node from the root or from the nearest split of
// another kind above it (0 at the root and below such a split).
struct NodeContext {
  const TrainingData* data = nullptr;
  const int* rows = nullptr;
  size_t n = 0;
  const int* oob = nullptr;
  size_t n_oob = 0;
  TaskRunner* inner = nullptr;
  size_t axis_run = 0;
  // Where a splitter that already knows which side of its rule each of the
  // node's rows takes may leave them (n, 1: left; exactly the sides
  // RowRouter gives), so the grower need not route the rows again; the
  // grower empties it before asking, and nullptr asks for none.
  std::vector<char>* sides = nullptr;
};

class Splitter {
 public:
  virtual ~Splitter() {}
  // Nodes with fewer rows are leaves without asking the splitter.
  virtual size_t min_node_size() const = 0;
  virtual bool find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const = 0;
  // The grower routes the tree's out-of-bag rows down with the in-bag rows.
  virtual bool uses_oob() const { return false; }
  // The splitter handles a numeric outcome (TrainingData::regression()).
  virtual bool fits_regression() const { return false; }
  // The splitter reads the outcome only through its unit (outcome/Outcome.h),
  // so it splits every outcome (time-to-event ones too).
  virtual bool fits_any_outcome() const { return false; }
  // The splitter reads the scaled rows (data.scaled).
  virtual bool needs_scaled_rows() const { return false; }
  // Whether it orders nodes along predictors through the forest's rank
  // index (TrainingData::ranks), which the trainer then builds once.
  virtual bool uses_column_ranks() const { return false; }
  // With uses_column_ranks(): the most bins per column of the index (0:
  // exact ranks alone; data/ColumnRanks.h).
  virtual size_t column_bins() const { return 0; }
  // Work inside a node can use threads (worth it when trees are fewer than threads).
  virtual bool parallel_inside() const { return false; }
  // A rival splitter, or nullptr: each tree is then grown by both on the
  // same sample, and the forest keeps the structure that predicts the tree's
  // out-of-bag rows better (forest/TreeChoice.h).
  virtual std::unique_ptr<Splitter> rival() const { return nullptr; }
  // The rivals each tree is also grown by (forest/Forest.cpp keeps the
  // structure of lowest loss, Outcome::structure_loss()): by default
  // rival()'s alone.
  virtual std::vector<std::unique_ptr<Splitter>> rivals() const {
    std::vector<std::unique_ptr<Splitter>> out;
    if (std::unique_ptr<Splitter> r = rival()) out.push_back(std::move(r));
    return out;
  }
  // Share of each tree's out-of-bag rows that choose its structure (handed
  // to the splitter, uses_oob(), and to the choice against the rival); the
  // other out-of-bag rows score the tree and never choose. 0: every
  // out-of-bag row scores (splitters that read none, and RSVF, whose paper
  // judges splits on all of them: its out-of-bag figures are optimistic).
  virtual double choosing_share() const { return 0.0; }
};

// A splitter built from its parameters; throws std::invalid_argument for an
// unknown name. The registry is splitting/Splitters.cpp.
std::unique_ptr<Splitter> make_splitter(const std::string& name, const Params& params);
// The names make_splitter() knows.
std::vector<std::string> splitter_names();
// The CART splitter with minimum node size sigma (TD-SVM's search grows its
// first tree with it; CartSplitter.cpp).
std::unique_ptr<Splitter> make_cart_splitter(size_t sigma);

}  // namespace svf
#endif
