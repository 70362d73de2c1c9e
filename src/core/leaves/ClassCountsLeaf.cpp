#include "ClassCountsLeaf.h"

namespace svf {

void constant_leaf(const int* counts, int num_classes, LeafFit& out) {
  out = LeafFit();
  out.kind = ClassCountsLeafModel::kKind;
  std::vector<int> classes;
  for (int k = 0; k < num_classes; ++k)
    if (counts[k] > 0) classes.push_back(k);
  out.ints.reserve(1 + 2 * classes.size());
  out.ints.push_back(static_cast<int>(classes.size()));
  out.ints.insert(out.ints.end(), classes.begin(), classes.end());
  for (int k : classes) out.ints.push_back(counts[k]);
}

void ClassCountsLeafModel::predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node*,
                                   double* out, double* confidence) const {
  // as class_frequencies() on the full counts: the absent classes add 0 to
  // the total and cannot be the (first) largest
  const int m = leaf.ints[0];
  const int* classes = leaf.ints + 1;
  const int* counts = classes + m;
  double total = 0.0;
  int best = 0;
  for (int i = 0; i < m; ++i) {
    total += counts[i];
    if (counts[i] > counts[best]) best = i;
  }
  for (int k = 0; k < shape.num_classes; ++k) out[k] = 0.0;
  for (int i = 0; i < m; ++i) out[classes[i]] = counts[i] / total;
  if (confidence) *confidence = 2.0 * counts[best] / total - 1.0;
}

std::string ClassCountsLeafModel::check(const LeafPayload& leaf, const OutcomeShape& shape) const {
  if (shape.regression()) return "a classification leaf in a regression model";
  if (leaf.n_ints < 1) return "class counts of a leaf are out of range";
  const long m = leaf.ints[0];
  if (m < 1) return "a leaf has no rows";
  if (m > shape.num_classes || 1 + 2 * static_cast<size_t>(m) > leaf.n_ints)
    return "class counts of a leaf are out of range";
  const int* classes = leaf.ints + 1;
  for (long i = 0; i < m; ++i) {
    if (classes[i] < 0 || classes[i] >= shape.num_classes || (i > 0 && classes[i] <= classes[i - 1]))
      return "classes of a leaf are out of range";
    if (classes[m + i] <= 0) return "a class count of a leaf is not positive";
  }
  return "";
}

void ClassCountsLeafModel::describe(const LeafPayload& leaf, const OutcomeShape& shape,
                                    PayloadDescription& out) const {
  const int m = leaf.ints[0];
  std::vector<int> counts(shape.num_classes, 0);
  for (int i = 0; i < m; ++i) counts[leaf.ints[1 + i]] = leaf.ints[1 + m + i];
  out.derived_ints("counts", counts);
  out.ints("n_classes", leaf.ints, 0, 1);
  out.ints("classes", leaf.ints, 1, static_cast<size_t>(m));
  out.ints("class_counts", leaf.ints, 1 + m, static_cast<size_t>(m));
}

}  // namespace svf
