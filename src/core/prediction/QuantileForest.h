// A prediction strategy: quantiles of a regression forest's leaf-weighted
// distribution of training outcomes (Meinshausen's quantile regression
// forest). A row to predict gives each training row the weight
// (1 / trees used) * (1 / rows in the leaf) for every tree where both reach
// the same leaf; its tau-quantile is the smallest training outcome whose
// cumulative weight reaches tau. The forest itself is not needed: only the
// leaves (ids per tree) the training rows and the new rows reach.
#ifndef SVFOREST_QUANTILEFOREST_H
#define SVFOREST_QUANTILEFOREST_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/TaskRunner.h"

namespace svf {

// The rows to score: m rows reaching leaves `leaves` (m x ntree,
// column-major); `tree_bits` (when set) restricts row i to the trees t
// whose bit is set in its `bit_words` words (tree_bits[i * bit_words + t /
// 64], bit t % 64: a bit a row and tree, not a list of trees, to keep the
// out-of-bag query small); `keep` (when set) to the trees t with keep[t] ==
// keep_value among those; self: row i is training row i, left out of its
// own distribution. Copies share the bits.
struct QuantileQuery {
  const int* leaves = nullptr;
  size_t m = 0;
  bool self = false;
  std::shared_ptr<const std::vector<uint64_t>> tree_bits;
  size_t bit_words = 0;
  const std::vector<char>* keep = nullptr;
  char keep_value = 1;
};

// The leaves of one tree that the index holds, numbered 0, 1, ... in leaf
// id order (their slots): a bit per leaf id and a count per 64 ids, so the
// index's offsets take a slot per leaf held, not an entry per node id.
class LeafSlots {
 public:
  // marks the ids leaves[0..count) between 0 and max_leaf
  void mark(const int* leaves, size_t count, int max_leaf);
  int size() const { return size_; }
  // the slot of leaf id `leaf`, -1 when the index does not hold it
  int of(int leaf) const {
    if (leaf < 0 || static_cast<size_t>(leaf >> 6) >= bits_.size()) return -1;
    const uint64_t word = bits_[leaf >> 6], bit = uint64_t(1) << (leaf & 63);
    return (word & bit) ? before_[leaf >> 6] + __builtin_popcountll(word & (bit - 1)) : -1;
  }

 private:
  std::vector<uint64_t> bits_;
  std::vector<int> before_;  // the marked ids of the words before
  int size_ = 0;
};

class QuantileForest {
 public:
  // train_leaves: n x ntree leaf ids (column-major) of the training rows,
  // each from 0 to 2n (a tree grown on n rows has fewer than 2n nodes),
  // kept by pointer for out_of_bag_query(); y: their outcomes, n >= 1. smooth > 0 spreads
  // each distinct outcome's weight evenly towards the midpoints to its
  // neighbouring distinct outcomes (scaled by smooth), so quantiles of
  // discrete outcomes fall between values. Throws std::invalid_argument on
  // a leaf id out of range.
  QuantileForest(const int* train_leaves, std::vector<double> y, size_t ntree, double smooth);

  // The same forest indexed for m new rows alone (new_leaves: m x ntree leaf
  // ids, column-major, read in place while the forest is used): only the
  // leaves they reach are indexed, so the index holds the training rows of
  // those leaves, not all n rows of every tree; new_rows_query() is the
  // query of those rows. The quantiles are the full index's.
  QuantileForest(const int* train_leaves, std::vector<double> y, size_t ntree, double smooth, const int* new_leaves,
                 size_t m);
  QuantileQuery new_rows_query() const;

  // Quantiles at increasing levels `tau` in (0, 1): q.m x tau.size(),
  // column-major, NaN for a row with no usable tree. Parallel over blocks of
  // rows.
  std::vector<double> quantiles(const QuantileQuery& q, const std::vector<double>& tau, TaskRunner& runner) const;

  // The same for rows `rows` of the query alone (0-based; rows.size() x
  // tau.size()).
  std::vector<double> quantiles_of_rows(const QuantileQuery& q, const std::vector<int>& rows,
                                        const std::vector<double>& tau, TaskRunner& runner) const;

  // quantiles_of_rows() of query `q` (q.keep unset) and of its halves, the
  // trees t with keep[t] == 1 and those with keep[t] == 0, into out[0],
  // out[1] and out[2]: each row's leaves are gathered (and, on many
  // training rows, sorted) once for the three, with the same results.
  void quantiles_of_rows_halves(const QuantileQuery& q, const std::vector<char>& keep, const std::vector<int>& rows,
                                const std::vector<double>& tau, TaskRunner& runner, std::vector<double> out[3]) const;

  // Whether row i of the query has a usable tree (its quantiles are not NaN).
  bool usable(const QuantileQuery& q, size_t i) const;

  // The query for out-of-bag quantiles of the training rows: row i scored by
  // the trees it is out of bag in (oob_rows: per tree, 0-based rows; throws
  // std::invalid_argument on a row out of range), its own outcome left out.
  QuantileQuery out_of_bag_query(const std::vector<std::vector<int>>& oob_rows) const;
  // The same from the caller's arrays: tree t's rows rows[t][0..counts[t]),
  // numbered from `base` (0 or 1).
  QuantileQuery out_of_bag_query(const std::vector<const int*>& rows, const std::vector<size_t>& counts,
                                 int base) const;

  size_t n_rows() const { return sorted_y_.size(); }
  size_t n_trees() const { return offsets_.size(); }

 private:
  void rank_outcomes(const std::vector<double>& y);
  void index_leaves(const int* train_leaves, const int* new_leaves, size_t m);
  int row_weights(const QuantileQuery& q, size_t i, std::vector<std::pair<int, double>>& w, std::vector<double>& acc,
                  std::vector<uint64_t>& present) const;
  // Calls visit(t, start, size) for each tree t the query gives row i whose
  // leaf holds rows besides the row itself (members_[t][start..) of `size`
  // others, the row's own entry included when q.self), in tree order, until
  // visit returns false.
  template <class Visit>
  void visit_leaves(const QuantileQuery& q, size_t i, Visit visit) const {
    const uint64_t* bits = q.tree_bits ? q.tree_bits->data() + i * q.bit_words : nullptr;
    for (size_t t = 0; t < offsets_.size(); ++t) {
      if (bits && !((bits[t >> 6] >> (t & 63)) & 1)) continue;
      if (q.keep && (*q.keep)[t] != q.keep_value) continue;
      const int slot = slots_[t].of(q.leaves[t * q.m + i]);
      if (slot < 0) continue;
      const std::vector<int>& off = offsets_[t];
      const int size = off[slot + 1] - off[slot] - (q.self ? 1 : 0);  // a training row is always in its own leaf
      if (size <= 0) continue;
      if (!visit(t, off[slot], size)) return;
    }
  }
  void row_quantiles(const std::vector<std::pair<int, double>>& w, int used, const std::vector<double>& tau,
                     double* out, size_t m) const;

  const int* train_leaves_;
  double smooth_;
  // training outcomes in increasing order, with the span each one's weight
  // is spread over
  std::vector<int> row_of_rank_, rank_of_row_;
  std::vector<double> sorted_y_, lo_, hi_;
  // per tree: the leaves held, each one's start in members (a slot's, plus
  // one past the last), and the outcome ranks of the training rows grouped
  // by leaf, increasing in a leaf
  std::vector<LeafSlots> slots_;
  std::vector<std::vector<int>> offsets_, members_;
  // an index of new rows' leaves alone: their leaves (m x ntree)
  const int* new_leaves_ = nullptr;
  size_t new_m_ = 0;
};

}  // namespace svf
#endif
