#include "Sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace svf {

namespace {

// m rows drawn with replacement, row r with probability weights[r] / sum.
void weighted_bootstrap(size_t n, size_t m, const double* weights, Rng& rng, std::vector<int>& inbag) {
  std::vector<double> cumulative(n);
  double total = 0.0;
  for (size_t r = 0; r < n; ++r) cumulative[r] = (total += weights[r]);
  inbag.resize(m);
  for (size_t k = 0; k < m; ++k) {
    const double u = rng.uniform() * total;
    size_t r = static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    inbag[k] = static_cast<int>(std::min(r, n - 1));
  }
}

}  // namespace

std::vector<int> weighted_copies(const std::vector<int>& rows, const double* weights, double max_factor) {
  std::vector<int> out;
  if (rows.empty()) return out;
  double smallest = weights[rows[0]], total = 0.0;
  for (int r : rows) {
    smallest = std::min(smallest, weights[r]);
    total += weights[r];
  }
  double unit = smallest;  // the weight of one copy
  const double cap = max_factor * static_cast<double>(rows.size());
  if (total / unit > cap) unit = total / cap;
  // systematic sampling with the offset 1/2 (deterministic, as the
  // unweighted sampler): a row's copies are the whole numbers passed by the
  // running sum of weight / unit, rounded
  double cumulative = 0.0, before = 0.0;
  out.reserve(static_cast<size_t>(std::min(cap, total / unit)) + 1);
  for (int r : rows) {
    cumulative += weights[r] / unit;
    // within rounding of a whole number counts as that number
    const double after = std::floor(cumulative + 0.5 + 1e-9);
    for (double c = before; c < after; c += 1.0) out.push_back(r);
    before = after;
  }
  if (out.empty()) out.push_back(rows[0]);
  return out;
}

Sample draw_weighted_subsample(size_t n, double fraction, Rng& rng, const double* weights) {
  size_t m = static_cast<size_t>(std::ceil(fraction * static_cast<double>(n)));
  m = std::max<size_t>(1, std::min(m, n));
  // each row's key log(u) / weight: the m largest keys are a draw without
  // replacement in which rows are taken in proportion to their weights
  std::vector<double> key(n);
  for (size_t r = 0; r < n; ++r) key[r] = std::log(rng.uniform()) / weights[r];
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + m, order.end(),
                    [&](int a, int b) { return key[a] > key[b] || (key[a] == key[b] && a < b); });
  Sample s;
  s.inbag.assign(order.begin(), order.begin() + m);
  std::sort(s.inbag.begin(), s.inbag.end());
  std::vector<char> used(n, 0);
  for (int r : s.inbag) used[r] = 1;
  for (size_t r = 0; r < n; ++r)
    if (!used[r]) s.oob.push_back(static_cast<int>(r));
  return s;
}

std::vector<int> take_choosing_rows(std::vector<int>& oob, double share, Rng& rng) {
  std::vector<int> choosing;
  if (!(share > 0.0) || oob.empty()) return choosing;
  const size_t m = oob.size();
  const size_t want = std::min(m, static_cast<size_t>(std::floor(share * static_cast<double>(m) + 0.5)));
  std::vector<size_t> position(m);
  std::iota(position.begin(), position.end(), size_t(0));
  std::vector<char> chosen(m, 0);
  for (size_t k = 0; k < want; ++k) {  // partial Fisher-Yates
    std::swap(position[k], position[k + rng.below(m - k)]);
    chosen[position[k]] = 1;
  }
  std::vector<int> scoring;
  scoring.reserve(m - want);
  choosing.reserve(want);
  for (size_t k = 0; k < m; ++k) (chosen[k] ? choosing : scoring).push_back(oob[k]);
  oob.swap(scoring);
  return choosing;
}

SamplerType sampler_named(const std::string& name) {
  if (name == "all") return SamplerType::All;
  if (name == "bootstrap") return SamplerType::Bootstrap;
  if (name == "subsample") return SamplerType::Subsample;
  throw std::invalid_argument("unknown sampler '" + name + "'");
}

Sample draw_sample(SamplerType type, size_t n, double fraction, Rng& rng, const double* weights, bool weights_draw_rows) {
  Sample s;
  if (type == SamplerType::All) {
    s.inbag.resize(n);
    std::iota(s.inbag.begin(), s.inbag.end(), 0);
    if (weights) s.inbag = weighted_copies(s.inbag, weights);
    return s;
  }
  if (weights && type == SamplerType::Subsample && weights_draw_rows) return draw_weighted_subsample(n, fraction, rng, weights);
  size_t m = static_cast<size_t>(std::ceil(fraction * static_cast<double>(n)));
  m = std::max<size_t>(1, std::min(m, type == SamplerType::Subsample ? n : m));
  std::vector<char> used(n, 0);
  if (weights && type == SamplerType::Bootstrap) {
    weighted_bootstrap(n, m, weights, rng, s.inbag);
    for (int r : s.inbag) used[r] = 1;
  } else if (type == SamplerType::Bootstrap) {
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
    // weights: the drawn rows count in proportion to them
    if (weights) s.inbag = weighted_copies(s.inbag, weights);
  }
  for (size_t r = 0; r < n; ++r)
    if (!used[r]) s.oob.push_back(static_cast<int>(r));
  return s;
}

}  // namespace svf
