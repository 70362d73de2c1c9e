#include "Importance.h"

#include <cmath>
#include <memory>
#include <numeric>

#include "tree/Route.h"
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

// Whether internal node i's split reads a column flagged in in_group.
static bool split_reads_columns(const TreeView& tree, size_t i, const std::vector<char>& in_group) {
  return split_reads_columns(tree.split_kind[i], tree.split_int + tree.split_int_start[i],
                             tree.split_real + tree.split_real_start[i], in_group);
}

bool tree_reads_columns(const TreeView& tree, const LeafReaders& readers, const std::vector<char>& in_group) {
  for (size_t l = 0; l < tree.n_leaves; ++l)
    if (readers[tree.leaf_kind[l]].reads_row()) return true;
  for (size_t i = 0; i < tree.n_nodes; ++i)
    if (tree.leaf_id[i] < 0 && split_reads_columns(tree, i, in_group)) return true;
  return false;
}

namespace {

// Largest tree rows x predictors copied row-major for fast routing (32 MB
// per thread).
constexpr size_t kDenseValues = size_t(1) << 22;

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

// One tree's rows copied row-major (and column-major, for the donors'
// values), with each row's path and the projection at every node of it.
// A permuted row then walks its stored path: at a node, the projection is
// the stored one plus the group's change times the node's weights on the
// group (recomputed in full near the threshold, so that it is the routed
// value there); the row is routed again only from the first node where its
// side changes (or from a subspace split that reads the group). Leaves and
// classes are those of routing every permuted row anew.
// The vectors of TreeRows, kept from tree to tree (one set per task) so
// that their memory is not allocated and cleared again for every tree.
struct TreeRowsBuffers {
  std::vector<double> X, Xc;           // rows x p row-major; p x rows column-major
  std::vector<double> node_weight;     // nodes x p
  std::vector<int> path, path_start, leaf_of;
  // per leaf, tree row and node: the prediction (a class code, or the value
  // for regression); NaN where a leaf reads the row or a node's leaves differ
  std::vector<double> leaf_pred, base_pred, pure;
  // per path entry: threshold - projection (NaN: subspace split), and the
  // distance to the threshold below which the projection is recomputed
  std::vector<double> path_margin, path_tol;
  std::vector<char> node_reads;        // the current group's
  std::vector<double> change, group_weight, row;
  std::vector<int> leaf_g, active;     // permuted_classes(): per group
};

class TreeRows {
 public:
  TreeRows(const ForestView& forest, const TreeView& tree, const RowSource& rows, const std::vector<int>& idx,
           TreeRowsBuffers& buffers)
      : forest_(forest), tree_(tree), idx_(idx), m_(idx.size()), p_(forest.shape.p), K_(forest.shape.num_classes),
        b_(buffers) {
    b_.path.clear();
    b_.path_margin.clear();
    b_.path_tol.clear();
    const size_t m = m_, p = p_, nodes = tree.n_nodes;
    b_.X.resize(m * p);
    b_.Xc.resize(m * p);
    for (size_t c = 0; c < p; ++c)
      for (size_t k = 0; k < m; ++k) b_.X[k * p + c] = b_.Xc[c * m + k] = rows.get(static_cast<size_t>(idx[k]), c);
    // weights of axis and oblique splits per node and predictor, when small enough
    weights_ = nodes * p <= kDenseValues;
    if (weights_) {
      b_.node_weight.assign(nodes * p, 0.0);
      for (size_t i = 0; i < nodes; ++i) {
        if (tree.leaf_id[i] >= 0) continue;
        double* w = b_.node_weight.data() + i * p;
        split_weights(tree.split_kind[i], tree.split_int + tree.split_int_start[i],
                      tree.split_real + tree.split_real_start[i], [w](int col, double v) { w[col] += v; });
      }
    }
    b_.path_start.resize(m + 1);
    b_.leaf_of.resize(m);
    b_.path.reserve(16 * m);
    b_.path_margin.reserve(16 * m);
    b_.path_tol.reserve(16 * m);
    std::vector<double> scratch;
    for (size_t k = 0; k < m; ++k) {
      b_.path_start[k] = static_cast<int>(b_.path.size());
      const double* xk = b_.X.data() + k * p;
      auto get = [xk](int c) { return xk[c]; };
      int node = 0;
      while (tree.leaf_id[node] < 0) {
        b_.path.push_back(node);
        const int kind = tree.split_kind[node];
        const int* ints = tree.split_int + tree.split_int_start[node];
        const double* reals = tree.split_real + tree.split_real_start[node];
        bool left;
        if (split_has_projection(kind)) {
          const double v = split_projection(kind, ints, reals, get);
          b_.path_margin.push_back(reals[0] - v);
          b_.path_tol.push_back(1e-9 * (1.0 + std::fabs(reals[0]) + std::fabs(v)));
          left = v <= reals[0];
        } else {
          b_.path_margin.push_back(NAN);
          b_.path_tol.push_back(0.0);
          left = split_goes_left(kind, ints, reals, p, get, scratch);
        }
        node = left ? tree.left_child[node] : tree.right_child[node];
      }
      b_.leaf_of[k] = tree.leaf_id[node];
    }
    b_.path_start[m] = static_cast<int>(b_.path.size());
    // the prediction of each leaf whose model does not read the row
    b_.leaf_pred.assign(tree.n_leaves, NAN);
    std::vector<double> dist(forest.shape.outputs());
    for (size_t l = 0; l < tree.n_leaves; ++l) {
      const LeafModel& model = forest.readers[tree.leaf_kind[l]];
      if (model.reads_row()) {
        leaves_read_rows_ = true;
        continue;
      }
      model.predict(leaf_payload(tree, static_cast<int>(l)), forest.shape, nullptr, dist.data(), nullptr);
      b_.leaf_pred[l] = prediction(dist.data());
    }
    b_.node_reads.resize(nodes);
    b_.base_pred.resize(m);
    // per node: the prediction of all leaves below it when they agree and
    // read no row (children come after their parent in a grown tree; if
    // not, no node is marked)
    b_.pure.assign(nodes, NAN);
    bool ordered = true;
    for (size_t i = 0; i < nodes && ordered; ++i)
      if (tree.leaf_id[i] < 0) ordered = tree.left_child[i] > static_cast<int>(i) && tree.right_child[i] > static_cast<int>(i);
    for (size_t i = nodes; ordered && i-- > 0;) {
      if (tree.leaf_id[i] >= 0) {
        b_.pure[i] = b_.leaf_pred[tree.leaf_id[i]];
      } else {
        const double a = b_.pure[tree.left_child[i]], b = b_.pure[tree.right_child[i]];
        b_.pure[i] = a == b ? a : NAN;  // (false for NaN)
      }
    }
  }

  // The tree's prediction for row k (as tree_predict()).
  double base_prediction(size_t k, const RowSource& rows, PredictScratch& scratch, std::vector<double>& dist) {
    const int leaf = b_.leaf_of[k];
    if (!std::isnan(b_.leaf_pred[leaf])) return b_.base_pred[k] = b_.leaf_pred[leaf];
    const feature_node* scaled = rows.scaled_row(static_cast<size_t>(idx_[k]), *forest_.scaling, scratch.row);
    forest_.readers[tree_.leaf_kind[leaf]].predict(leaf_payload(tree_, leaf), forest_.shape, scaled, dist.data(),
                                                   nullptr);
    return b_.base_pred[k] = prediction(dist.data());
  }

  bool leaves_read_rows() const { return leaves_read_rows_; }

  // A group's permutation: its columns, their flags, the donor positions.
  // False when the tree does not read the group (nothing else is set up).
  bool start_group(const std::vector<int>& group, const std::vector<char>& in_group, const std::vector<int>& pos) {
    group_ = &group;
    pos_ = &pos;
    const size_t gsize = group.size(), nodes = tree_.n_nodes;
    bool reads = leaves_read_rows_;
    for (size_t i = 0; i < nodes; ++i) {
      b_.node_reads[i] = tree_.leaf_id[i] < 0 && split_reads_columns(tree_, i, in_group);
      reads = reads || b_.node_reads[i];
    }
    if (!reads) return false;
    // per group column: its change in each row (donor's value minus own)
    b_.change.resize(gsize * m_);
    for (size_t j = 0; j < gsize; ++j) {
      const double* col = b_.Xc.data() + static_cast<size_t>(group[j]) * m_;
      for (size_t k = 0; k < m_; ++k) b_.change[j * m_ + k] = col[pos[k]] - col[k];
    }
    if (weights_) {
      b_.group_weight.assign(gsize * nodes, 0.0);
      for (size_t j = 0; j < gsize; ++j)
        for (size_t i = 0; i < nodes; ++i) b_.group_weight[j * nodes + i] = b_.node_weight[i * p_ + group[j]];
    }
    return true;
  }

  // The tree's prediction for row k with the group permuted; `permuted` is
  // the same rows as a RowSource (for leaves that read the row).
  double permuted_prediction(size_t k, const RowSource& permuted, PredictScratch& scratch, std::vector<double>& dist) {
    const std::vector<int>& group = *group_;
    const size_t gsize = group.size(), nodes = tree_.n_nodes;
    bool same = true;  // the donor has the row's own values (ties)
    for (size_t j = 0; j < gsize && same; ++j) same = b_.change[j * m_ + k] == 0.0;
    if (same) return b_.base_pred[k];
    const double* own = b_.X.data() + k * p_;
    int leaf = b_.leaf_of[k];
    for (int e = b_.path_start[k]; e < b_.path_start[k + 1]; ++e) {
      const int i = b_.path[e];
      const double margin = b_.path_margin[e];  // threshold - projection
      if (!weights_ || std::isnan(margin)) {  // subspace split, or no node weights
        if (!b_.node_reads[i]) continue;
        leaf = reroute(k, own, i, scratch);
        break;
      }
      double delta = 0.0;  // the projection's change
      for (size_t j = 0; j < gsize; ++j) delta += b_.group_weight[j * nodes + i] * b_.change[j * m_ + k];
      double rest = margin - delta;
      if (std::fabs(rest) <= b_.path_tol[e]) {
        // near the threshold: the permuted row's projection as routing computes it
        const int* ints = tree_.split_int + tree_.split_int_start[i];
        const double* reals = tree_.split_real + tree_.split_real_start[i];
        fill_row(k, own);
        const double* row = b_.row.data();
        rest = reals[0] - split_projection(tree_.split_kind[i], ints, reals, [row](int c) { return row[c]; });
      } else if (delta == 0.0) {
        continue;  // the node does not read the group's columns
      }
      // (the sign of threshold - projection is exactly "goes left")
      const bool was_left = margin >= 0.0;
      if ((rest >= 0.0) != was_left) {
        leaf = reroute(k, own, was_left ? tree_.right_child[i] : tree_.left_child[i], scratch);
        break;
      }
    }
    if (leaf < 0) return b_.pure[-1 - leaf];  // a subtree whose leaves agree
    const LeafModel& model = forest_.readers[tree_.leaf_kind[leaf]];
    if (!model.reads_row()) return b_.leaf_pred[leaf];
    const feature_node* scaled = permuted.scaled_row(k, *forest_.scaling, scratch.row);
    model.predict(leaf_payload(tree_, leaf), forest_.shape, scaled, dist.data(), nullptr);
    return prediction(dist.data());
  }

  // Whether every group is one column and every split has node weights
  // (no subspace split): then permuted_predictions() serves all groups at once.
  bool walks_together(const std::vector<std::vector<int>>& groups) const {
    if (!weights_) return false;
    for (const auto& g : groups)
      if (g.size() != 1) return false;
    for (size_t i = 0; i < tree_.n_nodes; ++i)
      if (tree_.leaf_id[i] < 0 && !split_has_projection(tree_.split_kind[i]))
        return false;
    return true;
  }

  // Whether the tree's prediction can depend on the group's columns.
  bool reads(const std::vector<char>& in_group) const {
    if (leaves_read_rows_) return true;
    for (size_t i = 0; i < tree_.n_nodes; ++i)
      if (tree_.leaf_id[i] < 0 && split_reads_columns(tree_, i, in_group)) return true;
    return false;
  }

  // The prediction for row k with column cols[g] permuted (the donor's value
  // donor_value[g * m + k], see donor_values()),
  // for every group g with reads[g], into pred[g]: one walk of the row's
  // path for all groups (as permuted_prediction() for each). permuted[g]: the rows
  // with group g permuted (read only by leaves that read the row).
  void permuted_predictions(size_t k, const std::vector<int>& cols, const std::vector<double>& donor_value,
                        const std::vector<char>& reads, const std::vector<PermutedRows>& permuted,
                            PredictScratch& scratch, std::vector<double>& dist, double* pred) {
    const size_t G = cols.size();
    const double* own = b_.X.data() + k * p_;
    b_.change.resize(G);
    b_.leaf_g.resize(G);
    b_.active.clear();
    for (size_t g = 0; g < G; ++g) {
      if (!reads[g]) continue;
      const size_t c = static_cast<size_t>(cols[g]);
      b_.change[g] = donor_value[g * m_ + k] - own[c];
      b_.leaf_g[g] = b_.leaf_of[k];
      if (b_.change[g] != 0.0) b_.active.push_back(static_cast<int>(g));  // else a tie: the row is unchanged
    }
    for (int e = b_.path_start[k]; e < b_.path_start[k + 1] && !b_.active.empty(); ++e) {
      const int i = b_.path[e];
      const double margin = b_.path_margin[e], tol = b_.path_tol[e];
      const double* w = b_.node_weight.data() + static_cast<size_t>(i) * p_;
      const bool was_left = margin >= 0.0;
      size_t kept = 0;
      for (size_t a = 0; a < b_.active.size(); ++a) {
        const int g = b_.active[a];
        const int c = cols[g];
        double rest = margin - w[c] * b_.change[g];
        if (std::fabs(rest) <= tol) {
          const int* ints = tree_.split_int + tree_.split_int_start[i];
          const double* reals = tree_.split_real + tree_.split_real_start[i];
          fill_row(own, c, donor_value[g * m_ + k]);
          const double* row = b_.row.data();
          rest = reals[0] - split_projection(tree_.split_kind[i], ints, reals, [row](int col) { return row[col]; });
        }
        if ((rest >= 0.0) != was_left) {
          fill_row(own, c, donor_value[g * m_ + k]);
          b_.leaf_g[g] = route_row(was_left ? tree_.right_child[i] : tree_.left_child[i], scratch);
        } else {
          b_.active[kept++] = g;
        }
      }
      b_.active.resize(kept);
    }
    for (size_t g = 0; g < G; ++g) {
      if (!reads[g]) continue;
      const int leaf = b_.leaf_g[g];
      if (leaf < 0) {
        pred[g] = b_.pure[-1 - leaf];  // a subtree whose leaves agree
        continue;
      }
      const LeafModel& model = forest_.readers[tree_.leaf_kind[leaf]];
      if (!model.reads_row()) {
        pred[g] = b_.leaf_pred[leaf];
      } else if (b_.change[g] == 0.0) {
        pred[g] = b_.base_pred[k];
      } else {
        const feature_node* scaled = permuted[g].scaled_row(k, *forest_.scaling, scratch.row);
        model.predict(leaf_payload(tree_, leaf), forest_.shape, scaled, dist.data(), nullptr);
        pred[g] = prediction(dist.data());
      }
    }
  }

 private:
  // A leaf's output as a prediction: the class (the first largest value, as
  // tree_predict()) or, for regression, the value.
  double prediction(const double* dist) const {
    if (K_ == 0) return dist[0];
    int best = 0;
    for (int c = 1; c < K_; ++c)
      if (dist[c] > dist[best]) best = c;
    return best;
  }
  // row k with the group's columns taken from its donor
  void fill_row(size_t k, const double* own) {
    b_.row.assign(own, own + p_);
    const std::vector<int>& group = *group_;
    const size_t donor = static_cast<size_t>((*pos_)[k]);
    for (int c : group) b_.row[c] = b_.Xc[static_cast<size_t>(c) * m_ + donor];
  }
  // own row with column c set to `value`
  void fill_row(const double* own, int c, double value) {
    b_.row.assign(own, own + p_);
    b_.row[c] = value;
  }

 public:
  // Column c's values at donor positions pos (m of them), into out.
  void donor_values(int c, const std::vector<int>& pos, double* out) const {
    const double* col = b_.Xc.data() + static_cast<size_t>(c) * m_;
    for (size_t k = 0; k < m_; ++k) out[k] = col[pos[k]];
  }

 private:
  // The leaf of row k (permuted) from `node` down (see route_row()).
  int reroute(size_t k, const double* own, int node, PredictScratch& scratch) {
    fill_row(k, own);
    return route_row(node, scratch);
  }
  // The leaf of b_.row from `node` down, or -1 - node when it reaches a
  // subtree whose leaves all give one class.
  int route_row(int node, PredictScratch& scratch) {
    const double* row = b_.row.data();
    auto get = [row](int c) { return row[c]; };
    while (tree_.leaf_id[node] < 0) {
      if (!std::isnan(b_.pure[node])) return -1 - node;
      const int kind = tree_.split_kind[node];
      const int* ints = tree_.split_int + tree_.split_int_start[node];
      const double* reals = tree_.split_real + tree_.split_real_start[node];
      const bool left = split_goes_left(kind, ints, reals, p_, get, scratch.route);
      node = left ? tree_.left_child[node] : tree_.right_child[node];
    }
    return tree_.leaf_id[node];
  }

  const ForestView& forest_;
  const TreeView& tree_;
  const std::vector<int>& idx_;
  const size_t m_, p_;
  const int K_;
  bool weights_ = false;
  bool leaves_read_rows_ = false;
  const std::vector<int>* group_ = nullptr;
  const std::vector<int>* pos_ = nullptr;
  TreeRowsBuffers& b_;
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
  const bool regression = opt.outcome == ImportanceOutcome::Regression;
  const int Kc = regression ? 1 : K;  // (regression: one "class" for the sums)

  // trees in contiguous chunks, a few per thread, each reusing one set of buffers
  const size_t chunks = std::min(ntree, std::max<size_t>(1, 4 * runner.threads()));
  runner.run(chunks, [&](size_t chunk) {
    TreeRowsBuffers buffers;
    for (size_t t = chunk * ntree / chunks; t < (chunk + 1) * ntree / chunks; ++t) {
      const TreeView& tree = forest.trees[t];
      TreeImportance& res = per_tree[t];
      res.drop.assign(G, 0.0);
      if (opt.per_class) {
        res.drop_class.assign(G * K, 0.0);
        res.has_class.assign(K, 0);
      }
      const std::vector<int> idx = tree_rows(opt, t, n);
      const size_t m = idx.size();
      if (m == 0) continue;
      res.used = true;
      // dense: the tree's rows fit in kDenseValues (see TreeRows)
      std::unique_ptr<TreeRows> dense;
      if (opt.fast && m * p <= kDenseValues) dense.reset(new TreeRows(forest, tree, rows, idx, buffers));
      PredictScratch scratch;
      std::vector<double> dist(forest.shape.outputs());
      // a prediction from the root (classification: the class code)
      auto routed = [&](const RowSource& source, size_t r) {
        const int cls = tree_predict(tree, forest.shape, forest.readers, *forest.scaling, source, r, scratch,
                                     dist.data(), nullptr, nullptr);
        return regression ? dist[0] : static_cast<double>(cls);
      };
      // Classification: a row scores 1 when the tree predicts its class;
      // regression: minus its squared error (the drop is then the increase
      // of the mean squared error)
      auto score = [&](double pred, size_t k) {
        if (!regression) return pred == static_cast<double>(y[idx[k]]) ? 1.0 : 0.0;
        const double e = pred - opt.response[idx[k]];
        return -e * e;
      };
      auto class_of = [&](size_t k) { return regression ? 0 : y[idx[k]]; };
      std::vector<double> class_rows(Kc, 0.0), class_base(Kc, 0.0);
      double base_total = 0.0;
      for (size_t k = 0; k < m; ++k) {
        const double s = score(dense ? dense->base_prediction(k, rows, scratch, dist) : routed(rows, idx[k]), k);
        base_total += s;
        class_rows[class_of(k)] += 1.0;
        class_base[class_of(k)] += s;
      }
      if (opt.per_class)
        for (int c = 0; c < K; ++c) res.has_class[c] = class_rows[c] > 0;
      Rng rng(opt.tree_seed[t], stream_id(opt.tree_index[t], -3));
      if (dense && dense->walks_together(groups)) {
        // one-column groups: every group's shuffle first (in group order, as
        // below), then each row once for all groups
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
            for (size_t k = 0; k < m; ++k) donors[g][k] = idx[pos[g][k]];
          }
          permuted.emplace_back(rows, idx, donors[g], masks[g], groups[g]);
        }
        // the donors' values, column by column (random reads within one column)
        std::vector<double> donor_value(G * m);
        for (size_t g = 0; g < G; ++g)
          if (reads[g]) dense->donor_values(cols[g], pos[g], donor_value.data() + g * m);
        std::vector<double> perm_total(G, 0.0), class_perm(G * Kc, 0.0), pred(G);
        for (size_t k = 0; k < m; ++k) {
          dense->permuted_predictions(k, cols, donor_value, reads, permuted, scratch, dist, pred.data());
          const int ck = class_of(k);
          for (size_t g = 0; g < G; ++g) {
            if (!reads[g]) continue;
            const double s = score(pred[g], k);
            perm_total[g] += s;
            class_perm[g * Kc + ck] += s;
          }
        }
        for (size_t g = 0; g < G; ++g) {
          if (!reads[g]) continue;  // drop 0
          res.drop[g] = (base_total - perm_total[g]) / static_cast<double>(m);
          if (opt.per_class)
            for (int c = 0; c < K; ++c)
              if (class_rows[c] > 0) res.drop_class[g * K + c] = (class_base[c] - class_perm[g * Kc + c]) / class_rows[c];
        }
        continue;
      }
      std::vector<int> pos(m), donor(m);
      std::vector<double> class_perm(Kc);
      for (size_t g = 0; g < G; ++g) {
        // one shuffle per group, drawn whether or not the tree reads it, so a
        // group's permutation does not depend on the other groups' columns
        // (positions among the tree's rows: the donor of row k is idx[pos[k]])
        std::iota(pos.begin(), pos.end(), 0);
        rng.shuffle(pos.data(), m);
        if (dense ? !dense->start_group(groups[g], masks[g], pos) : !tree_reads_columns(tree, forest.readers, masks[g]))
          continue;  // the tree does not read the group: drop 0
        // (the donors as rows of `rows`: for leaves that read the row)
        if (!dense || dense->leaves_read_rows())
          for (size_t k = 0; k < m; ++k) donor[k] = idx[pos[k]];
        PermutedRows permuted(rows, idx, donor, masks[g], groups[g]);
        double perm_total = 0.0;
        std::fill(class_perm.begin(), class_perm.end(), 0.0);
        for (size_t k = 0; k < m; ++k) {
          const double s = score(dense ? dense->permuted_prediction(k, permuted, scratch, dist) : routed(permuted, k), k);
          perm_total += s;
          class_perm[class_of(k)] += s;
        }
        res.drop[g] = (base_total - perm_total) / static_cast<double>(m);
        if (opt.per_class)
          for (int c = 0; c < K; ++c)
            if (class_rows[c] > 0) res.drop_class[g * K + c] = (class_base[c] - class_perm[c]) / class_rows[c];
      }
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
