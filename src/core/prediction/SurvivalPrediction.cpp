#include "SurvivalPrediction.h"

#include <cmath>
#include <numeric>

#include "forest/LevelValues.h"
#include "outcome/DelayedEntry.h"
#include "outcome/SurvivalTable.h"
#include "tree/Route.h"

namespace svf {

int tree_leaf_of_row(const TreeView& tree, size_t p, const RowSource& rows, size_t row, std::vector<double>& scratch) {
  if (tree.n_factor_int)
    return route(tree, p, [&](int col) { return level_value(tree, col, rows.get(row, col)); }, scratch);
  return route(tree, p, [&](int col) { return rows.get(row, col); }, scratch);
}

void add_leaf_chf(const TreeView& tree, int leaf, size_t T, double* out, size_t stride) {
  const LeafPayload payload = leaf_payload(tree, leaf);
  const int m = payload.ints[0];
  for (int k = 0; k < m; ++k) {
    const size_t end = k + 1 < m ? static_cast<size_t>(payload.ints[k + 2]) : T;
    for (size_t j = static_cast<size_t>(payload.ints[k + 1]); j < end; ++j) out[j * stride] += payload.reals[k];
  }
}

void predict_chf(const std::vector<TreeView>& trees, size_t p, size_t T, const RowSource& rows, TaskRunner& runner,
                 double* out) {
  const size_t n = rows.n_rows();
  const double count = static_cast<double>(trees.size());
  runner.run(n, [&](size_t r) {
    std::vector<double> steps(T, 0.0), scratch;
    for (const TreeView& view : trees) {
      const int leaf = tree_leaf_of_row(view, p, rows, r, scratch);
      const LeafPayload payload = leaf_payload(view, leaf);
      double before = 0.0;
      for (int k = 0; k < payload.ints[0]; ++k) {
        steps[payload.ints[1 + k]] += payload.reals[k] - before;
        before = payload.reals[k];
      }
    }
    double running = 0.0;
    for (size_t j = 0; j < T; ++j) {
      running += steps[j];
      out[j * n + r] = running / count;
    }
  });
}

namespace {

// Harrell's C of tree `view`'s risk on positions 0..m-1 of `source`.
double tree_concordance(const TreeView& view, size_t p, int T, const RowSource& source, const double* time,
                        const int* status, const double* entry, const std::vector<int>& idx,
                        std::vector<double>& risk, std::vector<double>& scratch) {
  const size_t m = idx.size();
  std::vector<int> position(m);
  std::iota(position.begin(), position.end(), 0);
  risk.resize(m);
  for (size_t k = 0; k < m; ++k) {
    const LeafPayload payload = leaf_payload(view, tree_leaf_of_row(view, p, source, k, scratch));
    risk[k] = steps_risk(payload.ints, payload.reals, T);
  }
  // time and status of position k are those of row idx[k]
  std::vector<double> t(m);
  std::vector<int> s(m);
  for (size_t k = 0; k < m; ++k) {
    t[k] = time[idx[k]];
    s[k] = status[idx[k]];
  }
  if (entry) {  // delayed entry: the pairs comparable under truncation
    std::vector<double> e(m);
    for (size_t k = 0; k < m; ++k) e[k] = entry[idx[k]];
    return harrell_c_entry(t.data(), s.data(), e.data(), position.data(), m, risk.data());
  }
  return harrell_c(t.data(), s.data(), position.data(), m, risk.data());
}

// The tree's rows as a RowSource of positions 0..m-1.
class RowsAt : public RowSource {
 public:
  RowsAt(const RowSource& base, const std::vector<int>& rows) : base_(base), rows_(rows) {}
  size_t n_rows() const override { return rows_.size(); }
  double get(size_t k, size_t col) const override { return base_.get(static_cast<size_t>(rows_[k]), col); }
  const feature_node* scaled_row(size_t k, const Scaling& scaling, std::vector<feature_node>& buffer) const override {
    return base_.scaled_row(static_cast<size_t>(rows_[k]), scaling, buffer);
  }

 private:
  const RowSource& base_;
  const std::vector<int>& rows_;
};

}  // namespace

void concordance_importance(const ForestView& forest, const RowSource& rows, const double* time, const int* status,
                            const std::vector<std::vector<int>>& groups, const ImportanceOptions& opt,
                            TaskRunner& runner, ImportanceResult& out) {
  const size_t ntree = forest.trees.size(), G = groups.size(), p = forest.shape.p;
  const int T = forest.shape.num_times;
  std::vector<std::vector<char>> masks(G, std::vector<char>(p, 0));
  for (size_t g = 0; g < G; ++g)
    for (int c : groups[g]) masks[g][c] = 1;
  std::vector<TreeImportance> per_tree(ntree);
  runner.run(ntree, [&](size_t t) {
    TreeImportance& res = per_tree[t];
    res.drop.assign(G, 0.0);
    const TreeView& view = forest.trees[t];
    const std::vector<int> idx = importance_rows(opt, t, rows.n_rows());
    const size_t m = idx.size();
    std::vector<double> risk, scratch;
    const double base =
        m > 1 ? tree_concordance(view, p, T, RowsAt(rows, idx), time, status, opt.entry, idx, risk, scratch) : NAN;
    if (std::isnan(base)) return;  // no comparable pairs: the tree says nothing
    res.used = true;
    Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -3));
    std::vector<int> pos(m), donor(m);
    for (size_t g = 0; g < G; ++g) {
      // one shuffle per group, drawn whether or not the tree reads it
      std::iota(pos.begin(), pos.end(), 0);
      rng.shuffle(pos.data(), m);
      if (!tree_reads_columns(view, forest.readers, masks[g])) continue;
      for (size_t k = 0; k < m; ++k) donor[k] = idx[pos[k]];
      const PermutedRows permuted(rows, idx, donor, masks[g], groups[g]);
      res.drop[g] = base - tree_concordance(view, p, T, permuted, time, status, opt.entry, idx, risk, scratch);
    }
  });
  mean_over_trees(per_tree, G, 0, false, out);
}

}  // namespace svf
