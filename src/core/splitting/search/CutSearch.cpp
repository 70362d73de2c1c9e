#include "CutSearch.h"

#include <algorithm>
#include <cmath>

#include "splitting/SortedValues.h"

namespace svf {

namespace {

// The bin codes of the node's rows (row r's at code[r * stride]) into
// out[0..n), and the rows per bin added to count[].
template <class Code>
void gather_codes(const Code* code, size_t stride, const int* rows, size_t n, uint16_t* out, size_t* count) {
  for (size_t i = 0; i < n; ++i) {
    const uint16_t b = code[static_cast<size_t>(rows[i]) * stride];
    out[i] = b;
    ++count[b];
  }
}

}  // namespace

bool search_cut(CutScan& scan, const SortedValues& sorted, size_t min_leaf, double& cut, double& gain) {
  CutSearch search;
  return search.along_sorted(scan, sorted, min_leaf, cut, gain);
}

namespace {

// The node's rows in increasing value as CutSearch::along_order() reads
// them: (value, position) pairs, or (rank << 32 | position) keys of a
// ranked column, whose ranks compare as the values do and give the value
// only where a cut is placed.
struct SortedOrder {
  const std::pair<double, int>* sorted;
  bool greater(size_t a, size_t b) const { return sorted[a].first > sorted[b].first; }
  int position(size_t k) const { return sorted[k].second; }
  double value(size_t k) const { return sorted[k].first; }
};
struct RankOrder {
  const uint64_t* key;
  const double* distinct;
  bool greater(size_t a, size_t b) const { return (key[a] >> 32) > (key[b] >> 32); }
  int position(size_t k) const { return static_cast<int>(key[k] & 0xffffffffULL); }
  double value(size_t k) const { return distinct[key[k] >> 32]; }
};

}  // namespace

template <class Order>
bool CutSearch::along_order(CutScan& scan, const Order& order, size_t n, size_t min_leaf, double& cut, double& gain,
                            bool sides) {
  sides_known_ = false;
  if (n < 2 || !order.greater(n - 1, 0) || !scan.any_cut()) return false;
  scan.reset();
  min_leaf = scan.min_leaf(min_leaf);
  // the boundaries between distinct values leaving min_leaf rows either
  // side (at: the rows on the left), the rows in order
  positions_.resize(n);
  at_.resize(n);
  size_t m = 0;
  for (size_t k = 0; k + 1 < n; ++k) {
    positions_[k] = order.position(k);
    at_[m] = k + 1;
    m += order.greater(k + 1, k) ? 1 : 0;
  }
  positions_[n - 1] = order.position(n - 1);
  // (at_ increases: min_leaf trims its ends)
  size_t first = 0;
  while (first < m && at_[first] < min_leaf) ++first;
  while (m > first && n - at_[m - 1] < min_leaf) --m;
  if (first == m) return false;
  gains_.resize(m);
  scan.gains(positions_.data(), at_.data() + first, m - first, gains_.data());
  bool found = false;
  size_t best_at = 0;
  // (the values either side are read only for a gain that counts)
  for (size_t j = first; j < m; ++j)
    if (gains_[j - first] > gain && take_cut(gains_[j - first], order.value(at_[j] - 1), order.value(at_[j]), cut, gain)) {
      found = true;
      best_at = at_[j];
    }
  if (found && sides && keep_sides_) {  // the rows before the boundary go left
    sides_.assign(n, 0);
    for (size_t k = 0; k < best_at; ++k) sides_[static_cast<size_t>(positions_[k])] = 1;
    sides_known_ = true;
  }
  return found;
}

bool CutSearch::along_sorted(CutScan& scan, const SortedValues& sorted, size_t min_leaf, double& cut, double& gain) {
  return along_order(scan, SortedOrder{sorted.data()}, sorted.size(), min_leaf, cut, gain);
}

bool CutSearch::along_values(CutScan& scan, const double* values, size_t n, size_t min_leaf, double& cut,
                             double& gain) {
  sort_with_positions(values, n, sorted_, keys_);
  return along_sorted(scan, sorted_, min_leaf, cut, gain);
}

bool CutSearch::along_column(CutScan& scan, const ColumnRanks& ranks, size_t col, const int* rows, size_t n,
                             size_t min_leaf, double& cut, double& gain) {
  const uint64_t* key = ranks.sort_keys(col, rows, n, rank_keys_);
  return along_order(scan, RankOrder{key, ranks.distinct(col)}, n, min_leaf, cut, gain, ranks.routes(col));
}

bool CutSearch::along_bins(CutScan& scan, const ColumnRanks& ranks, size_t col, const int* rows, size_t n,
                           size_t min_leaf, double& cut, double& gain, size_t min_occupied) {
  sides_known_ = false;
  if (n < 2 || !scan.any_cut()) return false;
  const size_t B = ranks.bins(col);
  node_code_.resize(n);
  bin_count_.assign(B, 0);
  if (ranks.narrow_codes()) {
    gather_codes(ranks.codes8(col), ranks.code_stride(), rows, n, node_code_.data(), bin_count_.data());
  } else {
    gather_codes(ranks.codes16(col), ranks.code_stride(), rows, n, node_code_.data(), bin_count_.data());
  }
  // rows of one bin: cut between their values, as the exact search (a node
  // never stops splitting along a column for its bins)
  if (bin_count_[node_code_[0]] == n) return along_column(scan, ranks, col, rows, n, min_leaf, cut, gain);
  // rows in fewer than min_occupied bins (a node within a narrow range of
  // the column): too few candidates, so exactly
  if (min_occupied > 0) {
    size_t occupied = 0;
    for (size_t b = 0; b < B && occupied < min_occupied; ++b) occupied += bin_count_[b] > 0 ? 1 : 0;
    if (occupied < min_occupied) return along_column(scan, ranks, col, rows, n, min_leaf, cut, gain);
  }
  return scan_bins(scan, n, B, ranks.bin_highs(col), ranks.bin_lows(col), min_leaf, cut, gain, ranks.routes(col));
}

bool CutSearch::along_buckets(CutScan& scan, const double* values, size_t n, size_t buckets, size_t min_leaf,
                              double& cut, double& gain) {
  sides_known_ = false;
  if (n < 2 || !scan.any_cut()) return false;
  double lo = values[0] + 0.0, hi = lo;
  for (size_t i = 1; i < n; ++i) {
    lo = std::min(lo, values[i] + 0.0);
    hi = std::max(hi, values[i] + 0.0);
  }
  if (!(hi > lo)) return false;
  // bucket(v) = floor((v - lo) / width), never decreasing in v: the buckets
  // keep the values' order, and each keeps its smallest and largest value
  const double width = (hi - lo) / static_cast<double>(buckets);
  node_code_.resize(n);
  bin_count_.assign(buckets, 0);
  bucket_low_.assign(buckets, HUGE_VAL);
  bucket_high_.assign(buckets, -HUGE_VAL);
  for (size_t i = 0; i < n; ++i) {
    const double v = values[i] + 0.0;
    size_t b = static_cast<size_t>((v - lo) / width);
    if (b >= buckets) b = buckets - 1;
    node_code_[i] = static_cast<uint16_t>(b);
    ++bin_count_[b];
    bucket_low_[b] = std::min(bucket_low_[b], v);
    bucket_high_[b] = std::max(bucket_high_[b], v);
  }
  // (all in one bucket: the width underflowed or overflowed) exactly
  if (bin_count_[node_code_[0]] == n) return along_values(scan, values, n, min_leaf, cut, gain);
  return scan_bins(scan, n, buckets, bucket_high_.data(), bucket_low_.data(), min_leaf, cut, gain);
}

bool CutSearch::scan_bins(CutScan& scan, size_t n, size_t B, const double* high, const double* low, size_t min_leaf,
                          double& cut, double& gain, bool sides) {
  scan.reset();
  min_leaf = scan.min_leaf(min_leaf);
  const bool additive = scan.additive();
  if (additive) {
    scan.add_histogram(node_code_.data(), B);
  } else {
    // the node's positions in bin order (stable: by position within a bin)
    bin_begin_.resize(B + 1);
    bin_begin_[0] = 0;
    for (size_t b = 0; b < B; ++b) bin_begin_[b + 1] = bin_begin_[b] + bin_count_[b];
    order_.resize(n);
    for (size_t i = 0; i < n; ++i) order_[bin_begin_[node_code_[i]]++] = static_cast<int>(i);
    for (size_t b = B; b > 0; --b) bin_begin_[b] = bin_begin_[b - 1];  // back to each bin's start
    bin_begin_[0] = 0;
  }
  size_t n_left = 0, prev = 0, best_prev = 0;
  bool found = false;
  for (size_t b = 0; b < B && n_left < n; ++b) {
    if (bin_count_[b] == 0) continue;
    // the boundary below bin b: the bins before it on the left
    if (n_left > 0 && n_left >= min_leaf && n - n_left >= min_leaf &&
        take_cut(scan.gain(n_left), high[prev], low[b], cut, gain)) {
      found = true;
      best_prev = prev;
    }
    if (additive) {
      scan.add_bin(b);
    } else {
      for (size_t k = bin_begin_[b]; k < bin_begin_[b] + bin_count_[b]; ++k) scan.add(order_[k]);
    }
    n_left += bin_count_[b];
    prev = b;
  }
  if (found && sides && keep_sides_) {  // the rows of the bins up to the boundary go left
    sides_.resize(n);
    for (size_t i = 0; i < n; ++i) sides_[i] = node_code_[i] <= best_prev ? 1 : 0;
    sides_known_ = true;
  }
  return found;
}

}  // namespace svf
