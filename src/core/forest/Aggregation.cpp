#include "Aggregation.h"

#include <stdexcept>

namespace svf {

Aggregation aggregation_named(const std::string& name) {
  if (name == "vote") return Aggregation::Vote;
  if (name == "prob") return Aggregation::Prob;
  if (name == "max_confidence") return Aggregation::MaxConfidence;
  throw std::invalid_argument("unknown aggregation: " + name);
}

void tally_tree(const ClassTally& t, int K, int cls, const double* dist, double confidence) {
  ++t.votes[static_cast<size_t>(cls) * t.stride];
  // a zero share adds nothing; skipping it saves the rounding call on the
  // many classes a leaf does not hold
  for (int k = 0; k < K; ++k)
    if (dist[k] != 0.0) t.shares[static_cast<size_t>(k) * t.stride] += grid_share(dist[k]);
  // the first of the most confident trees
  if (t.confidence && (*t.count == 0 || confidence > *t.confidence)) {
    *t.confidence = confidence;
    *t.confident_class = cls;
  }
  ++*t.count;
}

int decide_class(Aggregation a, int K, const int* votes, const double* shares, size_t stride, int count,
                 int confident_class) {
  if (count <= 0) return -1;
  if (a == Aggregation::MaxConfidence) return confident_class;
  int best = 0;
  for (int k = 1; k < K; ++k) {
    const size_t i = static_cast<size_t>(k) * stride, b = static_cast<size_t>(best) * stride;
    if (a == Aggregation::Vote && votes[i] != votes[b]) {
      if (votes[i] > votes[b]) best = k;
    } else if (shares[i] > shares[b]) {
      best = k;
    }
  }
  return best;
}

}  // namespace svf
