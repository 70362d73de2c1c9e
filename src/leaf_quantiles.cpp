// Quantiles of a regression forest's leaf-weighted distribution of training
// outcomes (Meinshausen's quantile regression forest): a new row gives each
// training row the weight (1 / ntree) * (1 / rows in the leaf) for every tree
// where both reach the same leaf; its tau-quantile is the smallest training
// outcome whose cumulative weight reaches tau. Worker threads touch no R data.
#include <Rcpp.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "RcppRunner.h"

namespace {

// Training rows by tree and leaf, each leaf's rows in increasing order of
// their outcome (as ranks into the sorted outcomes).
struct LeafIndex {
  std::vector<std::vector<int>> offsets;  // per tree: leaf id -> start in members (size max leaf + 2)
  std::vector<std::vector<int>> members;  // per tree: outcome ranks, grouped by leaf
};

LeafIndex build_index(const int* leaves, int n, int ntree, const std::vector<int>& row_of_rank) {
  LeafIndex ix;
  ix.offsets.resize(ntree);
  ix.members.resize(ntree);
  for (int t = 0; t < ntree; ++t) {
    const int* col = leaves + static_cast<size_t>(t) * n;
    int max_leaf = 0;
    for (int i = 0; i < n; ++i) {
      if (col[i] < 0) Rcpp::stop("leaf ids must be non-negative");
      max_leaf = std::max(max_leaf, col[i]);
    }
    std::vector<int>& off = ix.offsets[t];
    off.assign(max_leaf + 2, 0);
    for (int i = 0; i < n; ++i) ++off[col[i] + 1];
    for (int l = 0; l <= max_leaf; ++l) off[l + 1] += off[l];
    std::vector<int> fill(off.begin(), off.end() - 1);
    std::vector<int>& mem = ix.members[t];
    mem.resize(n);
    // visiting rows in outcome order keeps each leaf's list sorted
    for (int r = 0; r < n; ++r) mem[fill[col[row_of_rank[r]]]++] = r;
  }
  return ix;
}

// The quantiles at increasing levels `tau` of one row's weighted outcome
// ranks `w` (sorted by rank; weights summing to `used`), written to out[j * m].
void row_quantiles(const std::vector<std::pair<int, double>>& w, int used, const std::vector<double>& tau,
                   double smooth, const std::vector<double>& sorted_y, const std::vector<double>& lo,
                   const std::vector<double>& hi, double* out, int m) {
  double cum = 0;
  size_t k = 0;
  for (size_t j = 0; j < tau.size(); ++j) {
    // the smallest outcome whose cumulative weight reaches tau
    const double target = tau[j] * used * (1 - 1e-12);
    double value;
    if (smooth <= 0) {
      while (k < w.size() && cum + w[k].second < target) cum += w[k++].second;
      value = sorted_y[w[std::min(k, w.size() - 1)].first];
    } else {
      // the group of entries with the same outcome value that holds target
      for (;;) {
        size_t e = k;
        double mass = 0;
        while (e < w.size() && sorted_y[w[e].first] == sorted_y[w[k].first]) mass += w[e++].second;
        if (cum + mass >= target || e >= w.size()) {
          const int r = w[k].first;
          value = lo[r] + (hi[r] - lo[r]) * std::min(1.0, std::max(0.0, (target - cum) / mass));
          break;
        }
        cum += mass;
        k = e;
      }
    }
    out[j * static_cast<size_t>(m)] = value;
  }
}

// Training outcomes in increasing order, with the span each one's weight is
// spread over (`smooth`: each distinct outcome's weight spread evenly between
// the midpoints to its neighbouring distinct training outcomes, so quantiles
// of discrete outcomes (counts, grades) fall between values and the weighted
// distribution has no atoms; continuous outcomes barely move).
struct OutcomeRanks {
  std::vector<int> row_of_rank, rank_of_row;
  std::vector<double> sorted_y, lo, hi;
};

OutcomeRanks rank_outcomes(const Rcpp::NumericVector& y, double smooth) {
  const int n = y.size();
  OutcomeRanks o;
  o.row_of_rank.resize(n);
  for (int i = 0; i < n; ++i) o.row_of_rank[i] = i;
  std::vector<double> yv(y.begin(), y.end());
  std::stable_sort(o.row_of_rank.begin(), o.row_of_rank.end(), [&](int a, int b) { return yv[a] < yv[b]; });
  o.rank_of_row.resize(n);
  o.sorted_y.resize(n);
  for (int r = 0; r < n; ++r) {
    o.rank_of_row[o.row_of_rank[r]] = r;
    o.sorted_y[r] = yv[o.row_of_rank[r]];
  }
  o.lo.resize(n);
  o.hi.resize(n);
  for (int r = 0; r < n;) {
    int e = r;
    while (e < n && o.sorted_y[e] == o.sorted_y[r]) ++e;
    const double below = r > 0 ? o.sorted_y[r] - smooth * (o.sorted_y[r] - o.sorted_y[r - 1]) : o.sorted_y[r];
    const double above = e < n ? o.sorted_y[r] + smooth * (o.sorted_y[e] - o.sorted_y[r]) : o.sorted_y[r];
    for (int k = r; k < e; ++k) {
      o.lo[k] = below;
      o.hi[k] = above;
    }
    r = e;
  }
  return o;
}

// Sorts one row's (rank, weight) entries by rank, adding up those of a rank.
// Ordering through a table of all ranks beats sorting when the training rows
// are few next to the row's leaf entries: weights add up by rank, and a bit
// per rank marks those present, read back in rank order a 64-rank word at a
// time. acc and present are the caller's scratch (all zero between calls).
void order_weights(std::vector<std::pair<int, double>>& w, int n, std::vector<double>& acc,
                   std::vector<uint64_t>& present) {
  if (static_cast<size_t>(n) > 8 * w.size()) {
    std::sort(w.begin(), w.end());
    return;
  }
  if (acc.empty()) {
    acc.assign(n, 0.0);
    present.assign((static_cast<size_t>(n) + 63) / 64, 0);
  }
  for (const auto& e : w) {
    acc[e.first] += e.second;
    present[static_cast<size_t>(e.first) >> 6] |= uint64_t(1) << (e.first & 63);
  }
  w.clear();
  for (size_t word = 0; word < present.size(); ++word) {
    for (uint64_t bits = present[word]; bits != 0; bits &= bits - 1) {
      const int r = static_cast<int>(word * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      if (acc[r] != 0) w.emplace_back(r, acc[r]);
      acc[r] = 0;
    }
    present[word] = 0;
  }
}

// The rows to score: m rows reaching leaves `leaves` (m x ntree); `trees`
// (when not empty) restricts row i to trees[tree_start[i]..tree_start[i+1]);
// self: row i is training row i, left out of its own distribution.
struct QueryRows {
  const int* leaves;
  int m;
  bool self;
  std::vector<int> tree_start, trees;
};

// Quantiles (m x taus, NA for a row with no usable tree), parallel over
// blocks of rows.
std::vector<double> query_quantiles(const LeafIndex& ix, const OutcomeRanks& o, int ntree, const QueryRows& q,
                                    const std::vector<double>& tau, double smooth, int num_threads) {
  const int n = static_cast<int>(o.sorted_y.size()), m = q.m;
  const bool restricted = !q.trees.empty() || !q.tree_start.empty();
  std::vector<double> out(static_cast<size_t>(m) * tau.size(), NA_REAL);
  const int block = 256;
  auto task = [&](size_t b) {
    std::vector<std::pair<int, double>> w;
    std::vector<double> acc;
    std::vector<uint64_t> present;
    for (int i = static_cast<int>(b) * block; i < std::min(m, static_cast<int>(b + 1) * block); ++i) {
      w.clear();
      int used = 0;
      const int first = restricted ? q.tree_start[i] : 0, last = restricted ? q.tree_start[i + 1] : ntree;
      for (int k = first; k < last; ++k) {
        const int t = restricted ? q.trees[k] : k;
        const int leaf = q.leaves[static_cast<size_t>(t) * m + i];
        const std::vector<int>& off = ix.offsets[t];
        if (leaf < 0 || leaf + 1 >= static_cast<int>(off.size())) continue;
        const int start = off[leaf], end = off[leaf + 1];
        const int size = end - start - (q.self ? 1 : 0);  // a training row is always in its own leaf
        if (size <= 0) continue;
        ++used;
        const double share = 1.0 / size;
        for (int e = start; e < end; ++e) {
          const int r = ix.members[t][e];
          if (q.self && r == o.rank_of_row[i]) continue;
          w.emplace_back(r, share);
        }
      }
      if (used == 0) continue;
      order_weights(w, n, acc, present);
      row_quantiles(w, used, tau, smooth, o.sorted_y, o.lo, o.hi, &out[i], m);
    }
  };
  RcppRunner runner(num_threads, false);
  runner.run((m + block - 1) / block, task);
  return out;
}

Rcpp::NumericMatrix as_matrix(const std::vector<double>& v, int m, int nt) {
  Rcpp::NumericMatrix res(m, nt);
  std::copy(v.begin(), v.end(), res.begin());
  return res;
}

}  // namespace

// train_leaves: n x ntree leaf ids of the training rows (as predict(type =
// "leaf") - 1); y: their outcomes; new_leaves: m x ntree leaf ids of the rows
// to predict; taus: increasing levels in (0, 1). self: for m == n, row i of
// new_leaves is training row i, left out of its own distribution (-1: none).
// [[Rcpp::export(.svf_leaf_quantiles)]]
Rcpp::NumericMatrix svf_leaf_quantiles(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y,
                                       Rcpp::IntegerMatrix new_leaves, Rcpp::NumericVector taus, bool self,
                                       double smooth, int num_threads) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol(), m = new_leaves.nrow(), nt = taus.size();
  if (y.size() != n || new_leaves.ncol() != ntree || n < 1) Rcpp::stop("leaf matrices and outcomes do not match");
  if (self && m != n) Rcpp::stop("self = TRUE needs the training rows' own leaves");
  const OutcomeRanks o = rank_outcomes(y, smooth);
  const LeafIndex ix = build_index(train_leaves.begin(), n, ntree, o.row_of_rank);
  QueryRows q{new_leaves.begin(), m, self, {}, {}};
  const std::vector<double> tau(taus.begin(), taus.end());
  return as_matrix(query_quantiles(ix, o, ntree, q, tau, smooth, num_threads), m, nt);
}

// Out-of-bag quantiles of the training rows (the quantile forest as a
// stand-in for new rows, for conformal scores): row i's distribution from
// the trees that row i scored out of bag alone (oob_rows: per tree, the
// 1-based rows), with row i's own outcome left out of it. A row out of bag
// in no tree gets NA.
// [[Rcpp::export(.svf_oob_leaf_quantiles)]]
Rcpp::NumericMatrix svf_oob_leaf_quantiles(Rcpp::IntegerMatrix train_leaves, Rcpp::NumericVector y,
                                           Rcpp::List oob_rows, Rcpp::NumericVector taus, double smooth,
                                           int num_threads) {
  const int n = train_leaves.nrow(), ntree = train_leaves.ncol(), nt = taus.size();
  if (y.size() != n || n < 1 || oob_rows.size() != ntree) Rcpp::stop("leaf matrix, outcomes and out-of-bag rows do not match");
  // per row, the trees it is out of bag in (compressed rows, trees increasing)
  QueryRows q{train_leaves.begin(), n, true, std::vector<int>(n + 1, 0), {}};
  std::vector<Rcpp::IntegerVector> rows(ntree);
  for (int t = 0; t < ntree; ++t) {
    rows[t] = Rcpp::as<Rcpp::IntegerVector>(oob_rows[t]);
    for (int r : rows[t]) {
      if (r == NA_INTEGER || r < 1 || r > n) Rcpp::stop("out-of-bag rows must be between 1 and the number of rows");
      ++q.tree_start[r];
    }
  }
  for (int i = 0; i < n; ++i) q.tree_start[i + 1] += q.tree_start[i];
  q.trees.resize(q.tree_start[n]);
  std::vector<int> fill(q.tree_start.begin(), q.tree_start.end() - 1);
  for (int t = 0; t < ntree; ++t) for (int r : rows[t]) q.trees[fill[r - 1]++] = t;
  const OutcomeRanks o = rank_outcomes(y, smooth);
  const LeafIndex ix = build_index(train_leaves.begin(), n, ntree, o.row_of_rank);
  const std::vector<double> tau(taus.begin(), taus.end());
  return as_matrix(query_quantiles(ix, o, ntree, q, tau, smooth, num_threads), n, nt);
}
