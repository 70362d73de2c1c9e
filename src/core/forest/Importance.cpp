#include "Importance.h"

#include <cmath>
#include <memory>
#include <numeric>

#include "TreeRows.h"

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
  for (size_t i = 0; i < tree.n_nodes; ++i)
    if (tree.leaf_id[i] < 0 && node_reads_columns(tree, i, in_group)) return true;
  return false;
}

std::vector<int> importance_rows(const ImportanceOptions& opt, size_t t, size_t n) {
  if (!opt.out_of_bag) {
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -1));
  std::vector<int> oob = draw_sample(opt.sampler, n, opt.sample_fraction, rng, opt.weights, opt.weights_draw_rows).oob;
  if (opt.choosing_share > 0.0) take_choosing_rows(oob, opt.choosing_share, rng);  // as grow_structure()
  return oob;
}

namespace {

// What every group's permutation of one tree needs: the tree's rows, their
// scores unpermuted (per class too) and the ways to predict a row.
struct TreeScoring {
  const ForestView& forest;
  const TreeView& tree;
  const RowSource& rows;
  const int* y;
  const ImportanceOptions& opt;
  const std::vector<int>& idx;
  size_t m;
  TreeRows* dense;  // the fast routes, or nullptr
  bool regression;
  int K, Kc;        // classes; Kc = 1 for regression (one "class" for the sums)
  PredictScratch scratch;
  std::vector<double> dist;
  std::vector<double> class_rows, class_base;
  double base_total = 0.0;

  TreeScoring(const ForestView& f, const TreeView& t, const RowSource& r, const int* y_, const ImportanceOptions& o,
              const std::vector<int>& i, TreeRows* d)
      : forest(f), tree(t), rows(r), y(y_), opt(o), idx(i), m(i.size()), dense(d),
        regression(o.outcome == ImportanceOutcome::Regression), K(f.shape.num_classes), Kc(regression ? 1 : K),
        dist(f.shape.outputs()), class_rows(Kc, 0.0), class_base(Kc, 0.0) {
    for (size_t k = 0; k < m; ++k) {
      const double s = score(dense ? dense->base_prediction(k, rows, scratch, dist) : routed(rows, idx[k]), k);
      base_total += s;
      class_rows[class_of(k)] += 1.0;
      class_base[class_of(k)] += s;
    }
  }
  // a prediction from the root (classification: the class code)
  double routed(const RowSource& source, size_t r) {
    const int cls = tree_predict(tree, forest.shape, forest.readers, *forest.scaling, source, r, scratch,
                                 dist.data(), nullptr, nullptr);
    return regression ? dist[0] : static_cast<double>(cls);
  }
  // Classification: a row scores 1 when the tree predicts its class;
  // regression: minus its squared error (the drop is then the increase
  // of the mean squared error)
  double score(double pred, size_t k) const {
    if (!regression) return pred == static_cast<double>(y[idx[k]]) ? 1.0 : 0.0;
    const double e = pred - opt.response[idx[k]];
    return -e * e;
  }
  int class_of(size_t k) const { return regression ? 0 : y[idx[k]]; }
  // the drops of group g from its permuted totals (class_perm: Kc values)
  void set_drop(size_t g, double perm_total, const double* class_perm, TreeImportance& res) const {
    res.drop[g] = (base_total - perm_total) / static_cast<double>(m);
    if (opt.per_class)
      for (int c = 0; c < K; ++c)
        if (class_rows[c] > 0) res.drop_class[g * K + c] = (class_base[c] - class_perm[c]) / class_rows[c];
  }
};

// One-column groups on the fast routes: every group's shuffle first (in
// group order, as groups_one_by_one()), then each row once for all groups.
void groups_together(TreeScoring& ts, const std::vector<std::vector<int>>& groups,
                     const std::vector<std::vector<char>>& masks, Rng& rng, TreeImportance& res) {
  const size_t G = groups.size(), m = ts.m;
  const int Kc = ts.Kc;
  TreeRows* dense = ts.dense;
  std::vector<std::vector<int>> pos(G, std::vector<int>(m));
  std::vector<std::vector<int>> donors(G);
  std::vector<char> reads(G);
  std::vector<PermutedRows> permuted;
  permuted.reserve(G);
  std::vector<int> cols(G);
  for (size_t g = 0; g < G; ++g) {
    std::iota(pos[g].begin(), pos[g].end(), 0);
    rng.shuffle(pos[g].data(), m);
    cols[g] = groups[g][0];
    reads[g] = dense->reads(masks[g]);
    if (dense->leaves_read_rows()) {
      donors[g].resize(m);
      for (size_t k = 0; k < m; ++k) donors[g][k] = ts.idx[pos[g][k]];
    }
    permuted.emplace_back(ts.rows, ts.idx, donors[g], masks[g], groups[g]);
  }
  // the donors' values, column by column (random reads within one column)
  std::vector<double> donor_value(G * m);
  for (size_t g = 0; g < G; ++g)
    if (reads[g]) dense->donor_values(cols[g], pos[g], donor_value.data() + g * m);
  std::vector<double> perm_total(G, 0.0), class_perm(G * Kc, 0.0), pred(G);
  for (size_t k = 0; k < m; ++k) {
    dense->permuted_predictions(k, cols, donor_value, reads, permuted, ts.scratch, ts.dist, pred.data());
    const int ck = ts.class_of(k);
    for (size_t g = 0; g < G; ++g) {
      if (!reads[g]) continue;
      const double s = ts.score(pred[g], k);
      perm_total[g] += s;
      class_perm[g * Kc + ck] += s;
    }
  }
  for (size_t g = 0; g < G; ++g)
    if (reads[g]) ts.set_drop(g, perm_total[g], class_perm.data() + g * Kc, res);  // (else drop 0)
}

// Each group in turn: its shuffle, then every row permuted.
void groups_one_by_one(TreeScoring& ts, const std::vector<std::vector<int>>& groups,
                       const std::vector<std::vector<char>>& masks, Rng& rng, TreeImportance& res) {
  const size_t G = groups.size(), m = ts.m;
  TreeRows* dense = ts.dense;
  std::vector<int> pos(m), donor(m);
  std::vector<double> class_perm(ts.Kc);
  for (size_t g = 0; g < G; ++g) {
    // one shuffle per group, drawn whether or not the tree reads it, so a
    // group's permutation does not depend on the other groups' columns
    // (positions among the tree's rows: the donor of row k is idx[pos[k]])
    std::iota(pos.begin(), pos.end(), 0);
    rng.shuffle(pos.data(), m);
    if (dense ? !dense->start_group(groups[g], masks[g], pos)
              : !tree_reads_columns(ts.tree, ts.forest.readers, masks[g]))
      continue;  // the tree does not read the group: drop 0
    // (the donors as rows of `rows`: for leaves that read the row)
    if (!dense || dense->leaves_read_rows())
      for (size_t k = 0; k < m; ++k) donor[k] = ts.idx[pos[k]];
    PermutedRows permuted(ts.rows, ts.idx, donor, masks[g], groups[g]);
    double perm_total = 0.0;
    std::fill(class_perm.begin(), class_perm.end(), 0.0);
    for (size_t k = 0; k < m; ++k) {
      const double s = ts.score(
          dense ? dense->permuted_prediction(k, permuted, ts.scratch, ts.dist) : ts.routed(permuted, k), k);
      perm_total += s;
      class_perm[ts.class_of(k)] += s;
    }
    ts.set_drop(g, perm_total, class_perm.data(), res);
  }
}

// The importance of tree t for every group.
void tree_importance(const ForestView& forest, const RowSource& rows, const int* y,
                     const std::vector<std::vector<int>>& groups, const std::vector<std::vector<char>>& masks,
                     const ImportanceOptions& opt, size_t t, TreeRowsBuffers& buffers, TreeImportance& res) {
  const size_t G = groups.size(), p = forest.shape.p;
  const int K = forest.shape.num_classes;
  res.drop.assign(G, 0.0);
  if (opt.per_class) {
    res.drop_class.assign(G * K, 0.0);
    res.has_class.assign(K, 0);
  }
  const std::vector<int> idx = importance_rows(opt, t, rows.n_rows());
  const size_t m = idx.size();
  if (m == 0) return;
  res.used = true;
  // dense: the tree's rows fit in kDenseValues (see TreeRows)
  std::unique_ptr<TreeRows> dense;
  if (opt.fast && m * p <= kDenseValues) dense.reset(new TreeRows(forest, forest.trees[t], rows, idx, buffers));
  TreeScoring ts(forest, forest.trees[t], rows, y, opt, idx, dense.get());
  if (opt.per_class)
    for (int c = 0; c < K; ++c) res.has_class[c] = ts.class_rows[c] > 0;
  Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -3));
  if (dense && dense->walks_together(groups)) {
    groups_together(ts, groups, masks, rng, res);
  } else {
    groups_one_by_one(ts, groups, masks, rng, res);
  }
}

}  // namespace

// The mean over trees (in tree order) of the trees' drops.
void mean_over_trees(const std::vector<TreeImportance>& per_tree, size_t G, int K, bool per_class,
                     ImportanceResult& out) {
  out.importance.assign(G, 0.0);
  out.trees_used = 0;
  std::vector<double> class_trees(K, 0.0);
  if (per_class) out.per_class.assign(G * K, 0.0);
  for (const TreeImportance& res : per_tree) {
    if (!res.used) continue;
    ++out.trees_used;
    for (size_t g = 0; g < G; ++g) out.importance[g] += res.drop[g];
    if (per_class) {
      for (int c = 0; c < K; ++c) {
        if (!res.has_class[c]) continue;
        class_trees[c] += 1.0;
        for (size_t g = 0; g < G; ++g) out.per_class[c * G + g] += res.drop_class[g * K + c];
      }
    }
  }
  for (size_t g = 0; g < G; ++g)
    out.importance[g] = out.trees_used ? out.importance[g] / static_cast<double>(out.trees_used) : NAN;
  if (per_class)
    for (int c = 0; c < K; ++c)
      for (size_t g = 0; g < G; ++g)
        out.per_class[c * G + g] = class_trees[c] > 0 ? out.per_class[c * G + g] / class_trees[c] : NAN;
}

void permutation_importance(const ForestView& forest, const RowSource& rows, const int* y,
                            const std::vector<std::vector<int>>& groups, const ImportanceOptions& opt,
                            TaskRunner& runner, ImportanceResult& out) {
  const size_t ntree = forest.trees.size(), G = groups.size(), p = forest.shape.p;
  std::vector<std::vector<char>> masks(G, std::vector<char>(p, 0));
  for (size_t g = 0; g < G; ++g)
    for (int c : groups[g]) masks[g][c] = 1;
  std::vector<TreeImportance> per_tree(ntree);
  // trees in contiguous chunks, a few per thread, each reusing one set of buffers
  const size_t chunks = std::min(ntree, std::max<size_t>(1, 4 * runner.threads()));
  runner.run(chunks, [&](size_t chunk) {
    TreeRowsBuffers buffers;
    for (size_t t = chunk * ntree / chunks; t < (chunk + 1) * ntree / chunks; ++t)
      tree_importance(forest, rows, y, groups, masks, opt, t, buffers, per_tree[t]);
  });
  mean_over_trees(per_tree, G, forest.shape.num_classes, opt.per_class, out);
}

}  // namespace svf
