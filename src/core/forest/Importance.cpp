#include "Importance.h"

#include <cmath>
#include <numeric>

#include "tree/SplitKinds.h"

namespace svf {

const feature_node* PermutedRows::scaled_row(size_t k, const Scaling& scaling,
                                             std::vector<feature_node>& buffer) const {
  const feature_node* own = base_.scaled_row(static_cast<size_t>(rows_[k]), scaling, own_);
  const int bias_index = static_cast<int>(scaling.center.size()) + 1;
  const size_t donor = static_cast<size_t>(donor_[k]);
  buffer.clear();
  size_t g = 0;
  // merge the row's entries (outside the group) with the group's donor values
  auto add_group_until = [&](int index) {  // group columns with 1-based index below `index`
    for (; g < group_.size() && group_[g] + 1 < index; ++g) {
      const double v = scaling.apply(group_[g], base_.get(donor, group_[g]));
      if (v != 0.0) buffer.push_back(feature_node{group_[g] + 1, v});
    }
  };
  for (; own->index != -1 && own->index != bias_index; ++own) {
    add_group_until(own->index);
    if (!in_group_[own->index - 1]) buffer.push_back(*own);
  }
  add_group_until(bias_index);
  buffer.push_back(feature_node{bias_index, 1.0});
  buffer.push_back(feature_node{-1, 0.0});
  return buffer.data();
}

bool tree_reads_columns(const TreeView& tree, const LeafReaders& readers, const std::vector<char>& in_group) {
  for (size_t l = 0; l < tree.n_leaves; ++l)
    if (readers[tree.leaf_kind[l]].reads_row()) return true;
  for (size_t i = 0; i < tree.n_nodes; ++i) {
    if (tree.leaf_id[i] >= 0) continue;
    const int* ints = tree.split_int + tree.split_int_start[i];
    switch (tree.split_kind[i]) {
      case kSplitAxis:
        if (in_group[ints[0]]) return true;
        break;
      case kSplitOblique:
        for (int m = 0; m < ints[0]; ++m)
          if (in_group[ints[1 + m]]) return true;
        break;
      default:  // subspace splits (and any other kind) read every column
        return true;
    }
  }
  return false;
}

namespace {

// The tree's rows for the importance.
std::vector<int> tree_rows(const ImportanceOptions& opt, size_t t, size_t n) {
  if (!opt.out_of_bag) {
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -1));
  return draw_sample(opt.sampler, n, opt.sample_fraction, rng, opt.weights).oob;
}

// Per tree and group: the score lost when the group is permuted, over all
// rows and per class.
struct TreeImportance {
  bool used = false;
  std::vector<double> drop;           // groups
  std::vector<double> drop_class;     // groups x K
  std::vector<char> has_class;        // K
};

}  // namespace

void permutation_importance(const ForestView& forest, const RowSource& rows, const int* y,
                            const std::vector<std::vector<int>>& groups, const ImportanceOptions& opt,
                            TaskRunner& runner, ImportanceResult& out) {
  const size_t ntree = forest.trees.size(), G = groups.size(), n = rows.n_rows(), p = forest.shape.p;
  const int K = forest.shape.num_classes;
  std::vector<std::vector<char>> masks(G, std::vector<char>(p, 0));
  for (size_t g = 0; g < G; ++g)
    for (int c : groups[g]) masks[g][c] = 1;
  std::vector<TreeImportance> per_tree(ntree);

  runner.run(ntree, [&](size_t t) {
    const TreeView& tree = forest.trees[t];
    TreeImportance& res = per_tree[t];
    res.drop.assign(G, 0.0);
    if (opt.per_class) {
      res.drop_class.assign(G * K, 0.0);
      res.has_class.assign(K, 0);
    }
    const std::vector<int> idx = tree_rows(opt, t, n);
    const size_t m = idx.size();
    if (m == 0) return;
    res.used = true;
    PredictScratch scratch;
    std::vector<double> dist(K);
    // Classification: a row scores 1 when the tree predicts its class.
    // (Outcome type switch point: regression scores minus the squared error.)
    std::vector<double> base(m), class_rows(K, 0.0), class_base(K, 0.0);
    double base_total = 0.0;
    for (size_t k = 0; k < m; ++k) {
      const int cls = tree_predict(tree, forest.shape, forest.readers, *forest.scaling, rows, idx[k], scratch,
                                   dist.data(), nullptr, nullptr);
      base[k] = cls == y[idx[k]] ? 1.0 : 0.0;
      base_total += base[k];
      class_rows[y[idx[k]]] += 1.0;
      class_base[y[idx[k]]] += base[k];
    }
    if (opt.per_class)
      for (int c = 0; c < K; ++c) res.has_class[c] = class_rows[c] > 0;
    Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -3));
    std::vector<int> donor(idx);
    std::vector<double> class_perm(K);
    for (size_t g = 0; g < G; ++g) {
      // one shuffle per group, drawn whether or not the tree reads it, so a
      // group's permutation does not depend on the other groups' columns
      donor = idx;
      rng.shuffle(donor.data(), m);
      if (!tree_reads_columns(tree, forest.readers, masks[g])) continue;  // drop is 0
      PermutedRows permuted(rows, idx, donor, masks[g], groups[g]);
      double perm_total = 0.0;
      std::fill(class_perm.begin(), class_perm.end(), 0.0);
      for (size_t k = 0; k < m; ++k) {
        const int cls = tree_predict(tree, forest.shape, forest.readers, *forest.scaling, permuted, k, scratch,
                                     dist.data(), nullptr, nullptr);
        const double s = cls == y[idx[k]] ? 1.0 : 0.0;
        perm_total += s;
        class_perm[y[idx[k]]] += s;
      }
      res.drop[g] = (base_total - perm_total) / static_cast<double>(m);
      if (opt.per_class)
        for (int c = 0; c < K; ++c)
          if (class_rows[c] > 0) res.drop_class[g * K + c] = (class_base[c] - class_perm[c]) / class_rows[c];
    }
  });

  // mean over trees, in tree order
  out.importance.assign(G, 0.0);
  out.trees_used = 0;
  std::vector<double> class_trees(K, 0.0);
  if (opt.per_class) out.per_class.assign(G * K, 0.0);
  for (size_t t = 0; t < ntree; ++t) {
    const TreeImportance& res = per_tree[t];
    if (!res.used) continue;
    ++out.trees_used;
    for (size_t g = 0; g < G; ++g) out.importance[g] += res.drop[g];
    if (opt.per_class) {
      for (int c = 0; c < K; ++c) {
        if (!res.has_class[c]) continue;
        class_trees[c] += 1.0;
        for (size_t g = 0; g < G; ++g) out.per_class[c * G + g] += res.drop_class[g * K + c];
      }
    }
  }
  for (size_t g = 0; g < G; ++g)
    out.importance[g] = out.trees_used ? out.importance[g] / static_cast<double>(out.trees_used) : NAN;
  if (opt.per_class)
    for (int c = 0; c < K; ++c)
      for (size_t g = 0; g < G; ++g)
        out.per_class[c * G + g] = class_trees[c] > 0 ? out.per_class[c * G + g] / class_trees[c] : NAN;
}

}  // namespace svf
