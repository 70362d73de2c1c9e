#include "ColumnRanks.h"

#include <algorithm>
#include <numeric>

namespace svf {

namespace {

// Below this many rows, comparison sorting of (rank, position) keys is as
// fast as counting, but for columns of fewer distinct values than rows.
const size_t kCountMinRows = 64;
// Radix passes over the ranks take this many bits at a time.
const int kRadixBits = 8;
const size_t kRadixBuckets = size_t(1) << kRadixBits;

// Sorts the (rank << 32 | position) keys key[0..n) by rank, a byte of it per
// pass (LSD radix sort: stable, so ties stay in position order), as many
// passes as the largest rank `top` needs; `out` is a buffer of n. Returns
// whichever of the two holds the result.
uint64_t* radix_sort_ranks(uint64_t* key, uint64_t* out, size_t n, uint64_t top) {
  const uint64_t mask = kRadixBuckets - 1;
  for (int shift = 32; shift < 64 && (top >> (shift - 32)) > 0; shift += kRadixBits) {
    size_t count[kRadixBuckets + 1] = {0};
    for (size_t i = 0; i < n; ++i) ++count[((key[i] >> shift) & mask) + 1];
    if (count[((key[0] >> shift) & mask) + 1] == n) continue;  // one bucket: nothing moves
    for (size_t b = 1; b <= kRadixBuckets; ++b) count[b] += count[b - 1];
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
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::vector<double> values(n);
  std::vector<int> order(n);
  std::vector<size_t> rows_of_rank;
  if (max_bins >= 2) bins_.assign(p, Bins());
  for (size_t col = 0; col < p; ++col) {
    if (std::find(skip.begin(), skip.end(), static_cast<int>(col)) != skip.end()) continue;
    x.gather(col, all.data(), n, values.data());
    for (double& v : values) v += 0.0;  // -0.0 is 0.0, as in sort_with_positions()
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&values](int a, int b) { return values[a] < values[b]; });
    std::vector<double>& d = distinct_[col];
    uint32_t* rank = rank_.data() + col * n;
    for (size_t k = 0; k < n; ++k) {
      const double v = values[order[k]];
      if (d.empty() || v > d.back()) d.push_back(v);
      rank[order[k]] = static_cast<uint32_t>(d.size() - 1);
    }
    if (n == 0) d.push_back(0.0);  // has() is true for every ranked column
    if (max_bins >= 2 && d.size() > max_bins) {
      rows_of_rank.assign(d.size(), 0);
      for (size_t k = 0; k < n; ++k) ++rows_of_rank[rank[k]];
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
  bins.slot = code_.size() / (n_rows_ == 0 ? 1 : n_rows_);
  code_.resize(code_.size() + n_rows_);
  uint16_t* code = code_.data() + bins.slot * n_rows_;
  const uint32_t* rank = rank_.data() + col * n_rows_;
  for (size_t i = 0; i < n_rows_; ++i) code[i] = bin_of_rank[rank[i]];
}

bool ColumnRanks::varies(size_t col, const int* rows, size_t n) const {
  if (n == 0) return false;
  const uint32_t* rank = rank_.data() + col * n_rows_;
  const uint32_t first = rank[rows[0]];
  for (size_t i = 1; i < n; ++i)
    if (rank[rows[i]] != first) return true;
  return false;
}

void ColumnRanks::sort_rows(size_t col, const int* rows, size_t n, std::vector<std::pair<double, int>>& sorted,
                            std::vector<uint64_t>& scratch) const {
  const uint32_t* rank = rank_.data() + col * n_rows_;
  const std::vector<double>& d = distinct_[col];
  sorted.resize(n);
  // counting where the column has few distinct values against the node's
  // rows (in a small node: no more than its rows, as 0/1 indicators)
  const bool count = n >= kCountMinRows ? d.size() <= 4 * n : d.size() <= n;
  if (!count) {
    // (rank, position) as one key: ties stay in position order
    const bool small = n < kCountMinRows;
    scratch.resize(small ? n : 2 * n);
    uint64_t* key = scratch.data();
    for (size_t i = 0; i < n; ++i) key[i] = (static_cast<uint64_t>(rank[rows[i]]) << 32) | i;
    if (small) {
      std::sort(key, key + n);
    } else {
      key = radix_sort_ranks(key, scratch.data() + n, n, d.size() - 1);
    }
    for (size_t i = 0; i < n; ++i) sorted[i] = std::make_pair(d[key[i] >> 32], static_cast<int>(key[i] & 0xffffffffULL));
    return;
  }
  // counting sort by rank, stable: positions keep their order within a rank
  scratch.assign(d.size() + 1, 0);
  for (size_t i = 0; i < n; ++i) ++scratch[rank[rows[i]] + 1];
  for (size_t r = 1; r <= d.size(); ++r) scratch[r] += scratch[r - 1];
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = rank[rows[i]];
    sorted[scratch[r]++] = std::make_pair(d[r], static_cast<int>(i));
  }
}

}  // namespace svf
