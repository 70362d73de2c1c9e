#include "TreeChoice.h"

#include "tree/SplitKinds.h"

namespace svf {

int structure_leaf(const TrainingData& data, const Tree& tree, int r, std::vector<double>& scratch) {
  const DataView& x = *data.x;
  const size_t p = x.n_cols();
  auto get = [&x, r](int col) { return x.value(r, col); };
  int node = 0;
  while (tree.left_child[node] >= 0) {
    const int kind = tree.split_kind[node];
    const bool left = split_goes_left(kind, tree.split_int.data() + tree.split_int_start[node],
                                      tree.split_real.data() + tree.split_real_start[node], p, get, scratch);
    node = left ? tree.left_child[node] : tree.right_child[node];
  }
  return tree.leaf_id[node];
}

double oob_structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& oob) {
  const Tree& tree = grown.tree;
  const int K = data.num_classes;
  // each leaf's prediction from its in-bag rows
  const size_t L = tree.leaf_size.size();
  std::vector<double> mean(data.regression() ? L : 0);
  for (size_t l = 0; l < mean.size(); ++l) {
    double s = 0.0;
    for (size_t k = grown.leaf_begin[l]; k < grown.leaf_begin[l + 1]; ++k) s += data.response[grown.rows[k]];
    const size_t m = grown.leaf_begin[l + 1] - grown.leaf_begin[l];
    mean[l] = m > 0 ? s / static_cast<double>(m) : 0.0;
  }
  std::vector<double> scratch;
  // the leaves the grower routed the rows to, else each row routed here
  const bool routed = grown.oob_routed && grown.oob_rows.size() == oob.size();
  thread_local std::vector<int> leaf_of;
  if (routed) {
    leaf_of.resize(data.x->n_rows());
    for (size_t l = 0; l + 1 < grown.oob_leaf_begin.size(); ++l)
      for (size_t k = grown.oob_leaf_begin[l]; k < grown.oob_leaf_begin[l + 1]; ++k)
        leaf_of[grown.oob_rows[k]] = static_cast<int>(l);
  }
  double loss = 0.0;
  for (int r : oob) {  // (in the rows' order: the same sum)
    const int leaf = routed ? leaf_of[r] : structure_leaf(data, tree, r, scratch);
    if (data.regression()) {
      const double e = mean[leaf] - data.response[r];
      loss += e * e;
      continue;
    }
    const int* counts = grown.leaf_counts.data() + static_cast<size_t>(leaf) * K;
    double total = 0.0;
    for (int k = 0; k < K; ++k) total += counts[k];
    if (!(total > 0.0)) continue;
    for (int k = 0; k < K; ++k) {
      const double e = counts[k] / total - (k == data.y[r] ? 1.0 : 0.0);
      loss += e * e;
    }
  }
  return loss;
}

}  // namespace svf
