#include "ColumnRanks.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace svf {

namespace {

// Below this many rows, comparison sorting of (rank, position) keys is as
// fast as counting, but for columns of fewer distinct values than rows.
const size_t kCountMinRows = 64;
// Radix passes over the ranks take at most this many bits at a time: 8,
// or up to 11 for a node of at least kWideRadixRows rows, where a pass fewer
// (two instead of three for 100,000 distinct values) saves more than the
// larger count table costs (issue #58).
const int kRadixBits = 8, kWideRadixBits = 11;
const size_t kWideRadixRows = 256;

// Sorts the (rank << 32 | position) keys key[0..n) by rank, some bits of it
// per pass (LSD radix sort: stable, so ties stay in position order; the
// keys differ, so their order is the one whatever the passes), as many
// passes as the largest rank `top` needs; `out` is a buffer of n. Returns
// whichever of the two holds the result.
uint64_t* radix_sort_ranks(uint64_t* key, uint64_t* out, size_t n, uint64_t top) {
  int top_bits = 0;
  while (top_bits < 32 && (top >> top_bits) > 0) ++top_bits;
  const int most = n >= kWideRadixRows ? kWideRadixBits : kRadixBits;
  const int passes = (top_bits + most - 1) / most;
  if (passes == 0) return key;
  const int bits = (top_bits + passes - 1) / passes;  // (as even as the passes allow)
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  size_t count[(size_t(1) << kWideRadixBits) + 1];
  for (int shift = 32; shift < 32 + top_bits; shift += bits) {
    std::fill(count, count + mask + 2, size_t(0));
    for (size_t i = 0; i < n; ++i) ++count[((key[i] >> shift) & mask) + 1];
    if (count[((key[0] >> shift) & mask) + 1] == n) continue;  // one bucket: nothing moves
    for (size_t b = 1; b <= mask + 1; ++b) count[b] += count[b - 1];
    for (size_t i = 0; i < n; ++i) out[count[(key[i] >> shift) & mask]++] = key[i];
    std::swap(key, out);
  }
  return key;
}

}  // namespace

ColumnRanks::ColumnRanks(const DataView& x, const std::vector<int>& skip, size_t max_bins) {
  if (x.is_sparse()) return;
  const size_t n = x.n_rows(), p = x.n_cols();
  n_rows_ = n;
  rank_.assign(n * p, 0);
  distinct_.assign(p, std::vector<double>());
  nan_free_.assign(p, 0);
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::vector<double> values(n);
  std::vector<int> order(n);
  std::vector<size_t> rows_of_rank;
  if (max_bins >= 2) bins_.assign(p, Bins());
  code_stride_ = p;
  if (max_bins >= 2 && skip.empty()) {  // (factor columns are coded per tree: none then)
    row_values_.resize(n * p);
    for (size_t col = 0; col < p; ++col) {
      x.gather(col, all.data(), n, values.data());
      for (size_t i = 0; i < n; ++i) row_values_[i * p + col] = values[i];
    }
  }
  for (size_t col = 0; col < p; ++col) {
    if (std::find(skip.begin(), skip.end(), static_cast<int>(col)) != skip.end()) continue;
    x.gather(col, all.data(), n, values.data());
    for (double& v : values) v += 0.0;  // -0.0 is 0.0, as in sort_with_positions()
    nan_free_[col] = std::none_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }) ? 1 : 0;
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&values](int a, int b) { return values[a] < values[b]; });
    std::vector<double>& d = distinct_[col];
    uint32_t* rank = rank_.data() + col;  // (row r's at rank[r * p])
    for (size_t k = 0; k < n; ++k) {
      const double v = values[order[k]];
      if (d.empty() || v > d.back()) d.push_back(v);
      rank[static_cast<size_t>(order[k]) * p] = static_cast<uint32_t>(d.size() - 1);
    }
    if (n == 0) d.push_back(0.0);  // has() is true for every ranked column
    if (max_bins >= 2 && d.size() > max_bins) {
      rows_of_rank.assign(d.size(), 0);
      for (size_t k = 0; k < n; ++k) ++rows_of_rank[rank[k * p]];
      bin_column(col, rows_of_rank, max_bins);
    }
  }
}

// Bin b of distinct value r: the quantile of the rows below r and half of
// r's own (so a heavy value is a bin of its own), in max_bins parts; the
// codes are then renumbered over the bins that hold a value.
void ColumnRanks::bin_column(size_t col, const std::vector<size_t>& rows_of_rank, size_t max_bins) {
  const size_t D = rows_of_rank.size();
  const std::vector<double>& d = distinct_[col];
  std::vector<uint16_t> bin_of_rank(D);
  Bins& bins = bins_[col];
  double below = 0.0;
  long last = -1;
  for (size_t r = 0; r < D; ++r) {
    const double mid = below + 0.5 * static_cast<double>(rows_of_rank[r]);
    long b = static_cast<long>(mid * static_cast<double>(max_bins) / static_cast<double>(n_rows_));
    if (b >= static_cast<long>(max_bins)) b = static_cast<long>(max_bins) - 1;
    if (b != last) {  // a new bin begins at distinct value r
      bins.low.push_back(d[r]);
      bins.high.push_back(d[r]);
      last = b;
    }
    bins.high.back() = d[r];
    bin_of_rank[r] = static_cast<uint16_t>(bins.low.size() - 1);
    below += static_cast<double>(rows_of_rank[r]);
  }
  // (the codes' table is allocated with the first binned column)
  const size_t p = code_stride_;
  const uint32_t* rank = rank_.data() + col;
  if (max_bins <= 256) {
    if (code8_.empty()) code8_.assign(n_rows_ * p, 0);
    uint8_t* code = code8_.data() + col;
    for (size_t i = 0; i < n_rows_; ++i) code[i * p] = static_cast<uint8_t>(bin_of_rank[rank[i * p]]);
  } else {
    if (code16_.empty()) code16_.assign(n_rows_ * p, 0);
    uint16_t* code = code16_.data() + col;
    for (size_t i = 0; i < n_rows_; ++i) code[i * p] = bin_of_rank[rank[i * p]];
  }
}

long ColumnRanks::bin_at_most(size_t col, double t) const {
  if (!binned(col)) return -1;
  const std::vector<double>& high = bins_[col].high;
  const std::vector<double>& low = bins_[col].low;
  // k bins wholly at most t; t must lie below bin k's smallest value
  const size_t k = static_cast<size_t>(std::upper_bound(high.begin(), high.end(), t) - high.begin());
  if (k == 0 || (k < low.size() && !(t < low[k]))) return -1;
  return static_cast<long>(k) - 1;
}

bool ColumnRanks::varies(size_t col, const int* rows, size_t n) const {
  if (n == 0) return false;
  const size_t p = code_stride_;
  const uint32_t* rank = rank_.data() + col;
  const uint32_t first = rank[static_cast<size_t>(rows[0]) * p];
  for (size_t i = 1; i < n; ++i)
    if (rank[static_cast<size_t>(rows[i]) * p] != first) return true;
  return false;
}

const uint64_t* ColumnRanks::sort_keys(size_t col, const int* rows, size_t n, std::vector<uint64_t>& scratch) const {
  const size_t p = code_stride_;
  const uint32_t* rank = rank_.data() + col;
  const size_t D = distinct_[col].size();
  // counting where the column has few distinct values against the node's
  // rows (in a small node: no more than its rows, as 0/1 indicators)
  const bool count = n >= kCountMinRows ? D <= 4 * n : D <= n;
  if (!count) {
    // (rank, position) as one key: ties stay in position order
    const bool small = n < kCountMinRows;
    scratch.resize(small ? n : 2 * n);
    uint64_t* key = scratch.data();
    for (size_t i = 0; i < n; ++i) key[i] = (static_cast<uint64_t>(rank[static_cast<size_t>(rows[i]) * p]) << 32) | i;
    if (small) {
      std::sort(key, key + n);
      return key;
    }
    return radix_sort_ranks(key, scratch.data() + n, n, D - 1);
  }
  // counting sort by rank, stable: positions keep their order within a rank
  scratch.assign(D + 1 + n, 0);
  uint64_t* at = scratch.data();
  uint64_t* key = at + D + 1;
  for (size_t i = 0; i < n; ++i) ++at[rank[static_cast<size_t>(rows[i]) * p] + 1];
  for (size_t r = 1; r <= D; ++r) at[r] += at[r - 1];
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = rank[static_cast<size_t>(rows[i]) * p];
    key[at[r]++] = (static_cast<uint64_t>(r) << 32) | i;
  }
  return key;
}

}  // namespace svf
