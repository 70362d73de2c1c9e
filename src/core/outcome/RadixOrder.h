// Node rows in increasing order of small integer keys (grid indices): the
// survival and competing-risks tables order a large node's rows by time
// this way (outcome/SurvivalTable.cpp, outcome/competing/CompetingLogRank.cpp).
#ifndef SVFOREST_RADIX_ORDER_H
#define SVFOREST_RADIX_ORDER_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace svf {

// Node rows (positions 0..n) in increasing order of key[i] <= max_key: an
// LSD radix sort, two or three passes of counting (O(n + buckets)); stable.
inline void radix_order(const std::vector<uint32_t>& key, uint32_t max_key, std::vector<uint32_t>& order,
                        std::vector<uint32_t>& swap) {
  const size_t n = key.size();
  int bits = 1;
  while (bits < 32 && (max_key >> bits) != 0) ++bits;
  const int passes = (bits + 10) / 11, width = (bits + passes - 1) / passes;
  const uint32_t mask = (1u << width) - 1u;
  std::vector<size_t> count(static_cast<size_t>(mask) + 2);
  order.resize(n);
  swap.resize(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  for (int pass = 0, shift = 0; pass < passes; ++pass, shift += width) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) ++count[((key[i] >> shift) & mask) + 1];
    for (size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
    for (size_t k = 0; k < n; ++k) {
      const uint32_t i = order[k];
      swap[count[(key[i] >> shift) & mask]++] = i;
    }
    order.swap(swap);
  }
}

// Nodes of at least this many rows order them by a radix sort of their
// time indices; smaller ones sort their event times and search each row's.
const size_t kRadixRows = 1024;

}  // namespace svf
#endif
