// Per-tree random streams. Every tree (and every leaf) owns a generator seeded
// from (seed, stream id), so results never depend on thread scheduling.
// xoshiro256** seeded through splitmix64; integer draws use rejection so the
// output is the same on every platform (no std::*_distribution).
#ifndef SVFOREST_RANDOM_H
#define SVFOREST_RANDOM_H

#include <cstdint>
#include <cstddef>

namespace svf {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Stream id for (tree, leaf); leaf = -1 for the tree's own generator.
inline uint64_t stream_id(uint64_t tree, int64_t leaf) {
  uint64_t s = tree * 0x100000001B3ULL + static_cast<uint64_t>(leaf + 1);
  return splitmix64(s);
}

class Rng {
 public:
  Rng(uint64_t seed, uint64_t stream) {
    uint64_t sm = seed ^ (stream * 0xD1B54A32D192ED03ULL);
    for (int i = 0; i < 4; ++i) s_[i] = splitmix64(sm);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return (next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n > 0, without modulo bias.
  size_t below(size_t n) {
    const uint64_t bound = static_cast<uint64_t>(n);
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
    uint64_t r;
    do { r = next(); } while (r >= limit);
    return static_cast<size_t>(r % bound);
  }

  template <typename T>
  void shuffle(T* first, size_t n) {
    for (size_t i = n; i > 1; --i) {
      size_t j = below(i);
      T tmp = first[i - 1]; first[i - 1] = first[j]; first[j] = tmp;
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace svf
#endif
