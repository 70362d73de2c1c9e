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
#include <vector>

#include "common/TaskRunner.h"

namespace svf {

// The rows to score: m rows reaching leaves `leaves` (m x ntree,
// column-major); `tree_start` and `trees` (when not empty) restrict row i to
// trees[tree_start[i]..tree_start[i+1]); self: row i is training row i,
// left out of its own distribution.
struct QuantileQuery {
  const int* leaves = nullptr;
  size_t m = 0;
  bool self = false;
  std::vector<int> tree_start, trees;
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

  // Quantiles at increasing levels `tau` in (0, 1): q.m x tau.size(),
  // column-major, NaN for a row with no usable tree. Parallel over blocks of
  // rows.
  std::vector<double> quantiles(const QuantileQuery& q, const std::vector<double>& tau, TaskRunner& runner) const;

  // The query for out-of-bag quantiles of the training rows: row i scored by
  // the trees it is out of bag in (oob_rows: per tree, 0-based rows; throws
  // std::invalid_argument on a row out of range), its own outcome left out.
  QuantileQuery out_of_bag_query(const std::vector<std::vector<int>>& oob_rows) const;

  size_t n_rows() const { return sorted_y_.size(); }
  size_t n_trees() const { return offsets_.size(); }

 private:
  void rank_outcomes(const std::vector<double>& y);
  void index_leaves(const int* train_leaves);
  void row_quantiles(const std::vector<std::pair<int, double>>& w, int used, const std::vector<double>& tau,
                     double* out, size_t m) const;

  const int* train_leaves_;
  double smooth_;
  // training outcomes in increasing order, with the span each one's weight
  // is spread over
  std::vector<int> row_of_rank_, rank_of_row_;
  std::vector<double> sorted_y_, lo_, hi_;
  // per tree: leaf id -> start in members (max leaf + 2 entries), and the
  // outcome ranks of the training rows grouped by leaf, increasing in a leaf
  std::vector<std::vector<int>> offsets_, members_;
};

}  // namespace svf
#endif
