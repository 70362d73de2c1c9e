// The fast routes of permutation importance (Importance.h): one tree's rows
// copied row-major, each with its stored path, so that a permuted row is
// routed again only from the node where its side changes.
#ifndef SVFOREST_TREEROWS_H
#define SVFOREST_TREEROWS_H

#include <cmath>
#include <vector>

#include "Importance.h"
#include "LevelValues.h"
#include "tree/Route.h"
#include "tree/SplitKinds.h"

namespace svf {

// Largest tree rows x predictors copied row-major for fast routing (32 MB
// per thread).
constexpr size_t kDenseValues = size_t(1) << 22;

// Whether internal node i's split reads a column flagged in in_group.
inline bool node_reads_columns(const TreeView& tree, size_t i, const std::vector<char>& in_group) {
  return split_reads_columns(tree.split_kind[i], tree.split_int + tree.split_int_start[i],
                             tree.split_real + tree.split_real_start[i], in_group);
}

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
      for (size_t k = 0; k < m; ++k)
        b_.X[k * p + c] = b_.Xc[c * m + k] = level_value(tree, static_cast<int>(c), rows.get(static_cast<size_t>(idx[k]), c));
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
      b_.node_reads[i] = tree_.leaf_id[i] < 0 && node_reads_columns(tree_, i, in_group);
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
      if (tree_.leaf_id[i] < 0 && node_reads_columns(tree_, i, in_group)) return true;
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

}  // namespace svf
#endif
