#include "LeafModel.h"

namespace svf {

std::string check_class_counts(const LeafPayload& leaf, const OutcomeShape& shape) {
  if (leaf.n_ints < static_cast<size_t>(shape.num_classes)) return "class counts of a leaf are out of range";
  long total = 0;
  for (int k = 0; k < shape.num_classes; ++k) {
    if (leaf.ints[k] < 0) return "negative class count in a leaf";
    total += leaf.ints[k];
  }
  if (total <= 0) return "a leaf has no rows";
  return "";
}

void class_frequencies(const int* counts, int num_classes, double* out, double* confidence) {
  double total = 0.0;
  int best = 0;
  for (int k = 0; k < num_classes; ++k) {
    total += counts[k];
    if (counts[k] > counts[best]) best = k;
  }
  for (int k = 0; k < num_classes; ++k) out[k] = counts[k] / total;
  // 1 for a pure leaf, 0 for an even split: the value of an SVM row on its margin
  if (confidence) *confidence = 2.0 * counts[best] / total - 1.0;
}

void describe_class_counts(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) {
  out.ints("counts", leaf.ints, 0, static_cast<size_t>(shape.num_classes));
}

}  // namespace svf
