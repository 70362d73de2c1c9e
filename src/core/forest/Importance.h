// Permutation importance of predictor groups over a fitted forest.
//
// For each tree, its rows are the out-of-bag rows regenerated from the tree's
// own generator (the sampler's draw is the first use of Rng(seed,
// stream_id(tree, -1)), see Forest.h; the choosing rows, its second use,
// are left out) or all rows of the data passed. The
// tree's score on those rows is compared with its score when the columns of
// one group are permuted together among the same rows; the importance of a
// group is the mean over trees (trees without rows are skipped) of that
// decrease. Permutations come from Rng(seed, stream_id(tree, -3)), one
// shuffle per group in group order, so the result is the same for any number
// of threads. PermutedRows reads the group's columns from the donor row
// without copying the data; when a tree's rows x predictors fit in 4M values
// (kDenseValues), the tree's rows are copied row-major so that each
// permuted row walks its stored path and is routed again only from the node
// where its side changes (TreeRows in Importance.cpp), with the same result.
#ifndef SVFOREST_IMPORTANCE_H
#define SVFOREST_IMPORTANCE_H

#include <cstdint>
#include <vector>

#include "Predictor.h"
#include "Sampler.h"
#include "common/TaskRunner.h"
#include "data/RowSource.h"

namespace svf {

// A RowSource whose rows are positions 0..m-1 of `rows` in `base`; the
// columns flagged in `in_group` are read from row donor[k] instead of
// rows[k]. `group` lists those columns in increasing order.
class PermutedRows : public RowSource {
 public:
  PermutedRows(const RowSource& base, const std::vector<int>& rows, const std::vector<int>& donor,
               const std::vector<char>& in_group, const std::vector<int>& group)
      : base_(base), rows_(rows), donor_(donor), in_group_(in_group), group_(group) {}
  size_t n_rows() const override { return rows_.size(); }
  double get(size_t k, size_t col) const override {
    return base_.get(static_cast<size_t>(in_group_[col] ? donor_[k] : rows_[k]), col);
  }
  // The row's scaled entries outside the group, with the donor's scaled
  // values of the group spliced in, in index order, then bias and terminator.
  const feature_node* scaled_row(size_t k, const Scaling& scaling,
                                 std::vector<feature_node>& buffer) const override;

 private:
  const RowSource& base_;
  const std::vector<int>& rows_;
  const std::vector<int>& donor_;
  const std::vector<char>& in_group_;
  const std::vector<int>& group_;
  mutable std::vector<feature_node> own_;
};

// The outcome the importance measures: classification scores accuracy,
// regression the squared error (importance = increase of the mean squared
// error, on the engine's standardised scale).
enum class ImportanceOutcome { Classification = 0, Regression = 1 };

struct ImportanceOptions {
  ImportanceOutcome outcome = ImportanceOutcome::Classification;
  const double* response = nullptr;  // regression: each row's outcome (y is then unused)
  // Per tree: the seed and global index it was grown with.
  std::vector<uint64_t> tree_seed;
  std::vector<uint64_t> tree_index;
  bool out_of_bag = false;  // rows: regenerated out-of-bag rows (else all rows)
  SamplerType sampler = SamplerType::All;
  double sample_fraction = 1.0;
  const double* weights = nullptr;  // the fit's case weights (for out_of_bag), or nullptr
  bool weights_draw_rows = false;    // as the outcome drew them (Outcome::weights_draw_rows())
  // the share of its out-of-bag rows each tree held out to choose its
  // structure (Splitter::choosing_share()): drawn again and left out, so
  // that out_of_bag rows are the rows that scored the tree
  double choosing_share = 0.0;
  bool per_class = false;
  // survival with delayed entry (outcome/DelayedEntry.h): each row's entry
  // time, so that a tree's Harrell's C counts the pairs comparable under
  // truncation; nullptr: right-censored
  const double* entry = nullptr;
  // the fast routes of TreeRows (off: every permuted row is routed anew, for
  // tests that both give the same result)
  bool fast = true;
};

struct ImportanceResult {
  std::vector<double> importance;  // one per group (NaN when no tree had rows)
  std::vector<double> per_class;   // groups x K, column-major, with per_class
  size_t trees_used = 0;           // trees with at least one row
};

// y: class of each row of `rows` (0 .. K-1). groups: column sets (each sorted,
// in range, disjoint or not).
void permutation_importance(const ForestView& forest, const RowSource& rows, const int* y,
                            const std::vector<std::vector<int>>& groups, const ImportanceOptions& options,
                            TaskRunner& runner, ImportanceResult& out);

// Tree t's rows for the importance (out-of-bag rows drawn again, or all n).
std::vector<int> importance_rows(const ImportanceOptions& opt, size_t t, size_t n);

// One tree's drops (groups; per class with per_class), and whether it had rows.
struct TreeImportance {
  bool used = false;
  std::vector<double> drop;        // groups
  std::vector<double> drop_class;  // groups x K
  std::vector<char> has_class;     // K
};

// The mean over trees (in tree order) of the trees' drops (NaN without trees).
void mean_over_trees(const std::vector<TreeImportance>& per_tree, size_t G, int K, bool per_class,
                     ImportanceResult& out);

// Whether routing or a leaf of the tree can read any column of `in_group`
// (if not, permuting the group cannot change the tree's predictions).
bool tree_reads_columns(const TreeView& tree, const LeafReaders& readers, const std::vector<char>& in_group);

}  // namespace svf
#endif
