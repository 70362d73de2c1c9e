#include "MeanLeaf.h"

#include <cmath>

namespace svf {

void mean_leaf(const TrainingData& data, const int* rows, size_t n, LeafFit& out) {
  out = LeafFit();
  out.kind = MeanLeafModel::kKind;
  double sum = 0.0;
  for (size_t k = 0; k < n; ++k) sum += data.response[rows[k]];
  out.reals.assign(1, n > 0 ? sum / static_cast<double>(n) : 0.0);
}

void MeanLeafModel::fit(const TrainingData& data, const int* rows, size_t n, const int*, Rng&,
                        LeafFit& out) const {
  mean_leaf(data, rows, n, out);
}

std::string MeanLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (!shape.regression()) return "a regression leaf in a classification model";
  if (leaf.n_reals < 1 || !std::isfinite(leaf.reals[0])) return "the mean of a leaf is out of range";
  return "";
}

}  // namespace svf
