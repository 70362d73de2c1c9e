#include "LogisticLeaf.h"

#include <algorithm>
#include <cmath>

#include "svm/LinearSvm.h"

namespace svf {

std::unique_ptr<LeafModel> LogisticLeafModel::create(const Params* params) {
  return std::unique_ptr<LeafModel>(
      new LogisticLeafModel(params ? linear_svm_options(*params) : LinearSvmOptions()));
}

int LogisticLeafModel::liblinear_solver() const { return L2R_LR; }

void LogisticLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape,
                                const feature_node* row, double* out, double* confidence) const {
  const int K = shape.num_classes;
  const size_t c = static_cast<size_t>(leaf.ints[K]);
  const int* classes = leaf.ints + K + 1;
  const double* w = leaf.reals + 1;
  auto logistic = [](double d) { return 1.0 / (1.0 + std::exp(-d)); };
  for (int k = 0; k < K; ++k) out[k] = 0.0;
  if (c == 2) {
    const double p = logistic(dot(w, row));
    out[classes[0]] = 1.0 - p;
    out[classes[1]] = p;
  } else {
    double total = 0.0;
    for (size_t o = 0; o < c; ++o) {
      out[classes[o]] = logistic(dot(w + o * (shape.p + 1), row));
      total += out[classes[o]];
    }
    for (size_t o = 0; o < c; ++o) out[classes[o]] /= total;
  }
  if (confidence) {
    // as a constant leaf's: 2 p - 1 for the largest probability p
    double best = 0.0;
    for (int k = 0; k < K; ++k) best = std::max(best, out[k]);
    *confidence = 2.0 * best - 1.0;
  }
}

}  // namespace svf
