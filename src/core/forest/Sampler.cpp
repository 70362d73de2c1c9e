#include "Sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace svf {

Sample draw_sample(SamplerType type, size_t n, double fraction, Rng& rng) {
  Sample s;
  if (type == SamplerType::All) {
    s.inbag.resize(n);
    std::iota(s.inbag.begin(), s.inbag.end(), 0);
    return s;
  }
  size_t m = static_cast<size_t>(std::ceil(fraction * static_cast<double>(n)));
  m = std::max<size_t>(1, std::min(m, type == SamplerType::Subsample ? n : m));
  std::vector<char> used(n, 0);
  if (type == SamplerType::Bootstrap) {
    s.inbag.resize(m);
    for (size_t k = 0; k < m; ++k) {
      s.inbag[k] = static_cast<int>(rng.below(n));
      used[s.inbag[k]] = 1;
    }
  } else {
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    for (size_t k = 0; k < m; ++k) {  // partial Fisher-Yates
      size_t j = k + rng.below(n - k);
      std::swap(all[k], all[j]);
      used[all[k]] = 1;
    }
    s.inbag.assign(all.begin(), all.begin() + m);
    std::sort(s.inbag.begin(), s.inbag.end());
  }
  for (size_t r = 0; r < n; ++r)
    if (!used[r]) s.oob.push_back(static_cast<int>(r));
  return s;
}

}  // namespace svf
