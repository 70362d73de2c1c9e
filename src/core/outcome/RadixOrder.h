// Node rows in increasing order of small integer keys (grid indices), and
// each row's count of the node's event times at or before its own: the
// survival and competing-risks node tables (outcome/SurvivalTable.cpp,
// outcome/competing/CompetingLogRank.cpp).
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

// limit[i]: how many of the node's event times (the distinct grid indices
// `time_index[rows[j]]` of rows j with `is_event(j)`) are at or before row
// i's; returns their number. Large nodes order their rows by a radix sort
// of the indices, small ones sort their event times and search each row's:
// the same limits.
template <class IsEvent>
int node_event_limits(const int* time_index, int num_times, const int* rows, size_t n, IsEvent is_event,
                      std::vector<int>& limit) {
  limit.resize(n);
  if (n >= kRadixRows && num_times > 0) {
    // the rows in time order (grid index + 1: 0 before the first event
    // time); each run of one index gets the number of event times up to it
    thread_local std::vector<uint32_t> key, order, swap;
    key.resize(n);
    for (size_t i = 0; i < n; ++i) key[i] = static_cast<uint32_t>(time_index[rows[i]] + 1);
    radix_order(key, static_cast<uint32_t>(num_times), order, swap);
    int T = 0;
    for (size_t k = 0; k < n;) {
      size_t end = k;
      bool any = false;
      for (; end < n && key[order[end]] == key[order[k]]; ++end) any = any || is_event(order[end]);
      T += any ? 1 : 0;
      for (; k < end; ++k) limit[order[k]] = T;
    }
    return T;
  }
  std::vector<int> times;
  for (size_t i = 0; i < n; ++i)
    if (is_event(i)) times.push_back(time_index[rows[i]]);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  for (size_t i = 0; i < n; ++i)
    limit[i] = static_cast<int>(std::upper_bound(times.begin(), times.end(), time_index[rows[i]]) - times.begin());
  return static_cast<int>(times.size());
}

}  // namespace svf
#endif
