#include "SortedValues.h"

#include <algorithm>
#include <cstring>

namespace svf {

namespace {

// Below this many values comparison sorting is as fast.
const size_t kRadixMinRows = 256;
const int kDigitBits = 11, kDigits = 6;  // 6 x 11 bits cover 64
const size_t kBuckets = size_t(1) << kDigitBits;

// The bits of v as an unsigned key in the order of the values.
unsigned long long order_key(double v) {
  v += 0.0;  // -0.0 becomes 0.0
  unsigned long long bits;
  std::memcpy(&bits, &v, sizeof bits);
  const unsigned long long sign = 1ULL << 63;
  return (bits & sign) ? ~bits : (bits | sign);
}

}  // namespace

void sort_with_positions(const double* values, size_t n, std::vector<std::pair<double, int>>& sorted,
                         std::vector<unsigned long long>& keys) {
  sorted.resize(n);
  if (n < kRadixMinRows) {
    for (size_t i = 0; i < n; ++i) sorted[i] = std::make_pair(values[i] + 0.0, static_cast<int>(i));
    std::sort(sorted.begin(), sorted.end());
    return;
  }
  // keys in the upper half of `keys`, positions in sorted[].second; a pass
  // per digit that varies (LSD radix sort is stable, so ties keep the
  // positions' order)
  std::vector<size_t> count(kDigits * kBuckets, 0);
  keys.resize(2 * n);
  unsigned long long* key = keys.data();
  unsigned long long* key_out = keys.data() + n;
  std::vector<int> pos(n), pos_out(n);
  for (size_t i = 0; i < n; ++i) {
    key[i] = order_key(values[i]);
    pos[i] = static_cast<int>(i);
    for (int d = 0; d < kDigits; ++d) ++count[d * kBuckets + ((key[i] >> (d * kDigitBits)) & (kBuckets - 1))];
  }
  for (int d = 0; d < kDigits; ++d) {
    size_t* c = count.data() + d * kBuckets;
    if (c[(key[0] >> (d * kDigitBits)) & (kBuckets - 1)] == n) continue;  // one bucket: the pass changes nothing
    size_t at = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      const size_t m = c[b];
      c[b] = at;
      at += m;
    }
    for (size_t i = 0; i < n; ++i) {
      const size_t to = c[(key[i] >> (d * kDigitBits)) & (kBuckets - 1)]++;
      key_out[to] = key[i];
      pos_out[to] = pos[i];
    }
    std::swap(key, key_out);
    pos.swap(pos_out);
  }
  for (size_t i = 0; i < n; ++i) sorted[i] = std::make_pair(values[pos[i]] + 0.0, pos[i]);
}

}  // namespace svf
