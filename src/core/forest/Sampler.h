// Which training rows a tree sees (in-bag, with repeats for the bootstrap)
// and which it leaves out (out-of-bag).
#ifndef SVFOREST_SAMPLER_H
#define SVFOREST_SAMPLER_H

#include <vector>
#include "common/Random.h"

namespace svf {

enum class SamplerType { All = 0, Bootstrap = 1, Subsample = 2 };

struct Sample {
  std::vector<int> inbag;
  std::vector<int> oob;
};

// fraction: share of n drawn (with replacement for Bootstrap, without for Subsample).
Sample draw_sample(SamplerType type, size_t n, double fraction, Rng& rng);

}  // namespace svf
#endif
