#include "TreeGrower.h"

#include <algorithm>

namespace svf {

namespace {
struct PendingNode {
  int node;
  size_t begin, end, depth;
};

// Records `rule` at `node` with its two children.
void set_split(Tree& tree, int node, const SplitRule& rule, int left, int right) {
  tree.split_var[node] = rule.var;
  tree.split_value[node] = rule.value;
  if (!rule.index.empty()) {
    tree.split_coef_start[node] = static_cast<int>(tree.split_index.size());
    tree.split_coef_count[node] = static_cast<int>(rule.index.size());
    tree.split_index.insert(tree.split_index.end(), rule.index.begin(), rule.index.end());
    tree.split_weight.insert(tree.split_weight.end(), rule.weight.begin(), rule.weight.end());
    tree.split_var[node] = -1;
  }
  if (!rule.subspace.empty()) {
    tree.tf_start[node] = static_cast<int>(tree.tf_values.size());
    tree.tf_rank[node] = rule.subspace_rank;
    tree.tf_dim[node] = rule.subspace_dim;
    tree.tf_values.insert(tree.tf_values.end(), rule.subspace.begin(), rule.subspace.end());
    tree.tf_cols = rule.subspace_cols;
    tree.split_var[node] = -1;
  }
  tree.left_child[node] = left;
  tree.right_child[node] = right;
}

void start_tree(GrownTree& out, size_t n_rows) {
  out.tree = Tree();
  out.rows.clear();
  out.rows.reserve(n_rows);
  out.leaf_begin.assign(1, 0);
}

// Makes `node` the next leaf, owning rows[0..n).
void add_leaf(GrownTree& out, int node, const int* rows, size_t n, const std::vector<int>& counts) {
  Tree& tree = out.tree;
  tree.leaf_id[node] = static_cast<int>(tree.leaf_size.size());
  tree.leaf_size.push_back(static_cast<int>(n));
  tree.leaf_counts.insert(tree.leaf_counts.end(), counts.begin(), counts.end());
  out.rows.insert(out.rows.end(), rows, rows + n);
  out.leaf_begin.push_back(out.rows.size());
}
}  // namespace

void grow_tree(const TrainingData& data, std::vector<int> rows, const Splitter& splitter,
               const GrowOptions& options, Rng& rng, GrownTree& out) {
  const int K = data.num_classes;
  Tree& tree = out.tree;
  start_tree(out, rows.size());

  std::vector<int> counts(K);
  std::vector<PendingNode> stack;
  stack.push_back({tree.add_node(), 0, rows.size(), 0});
  while (!stack.empty()) {
    PendingNode nd = stack.back();
    stack.pop_back();
    int* first = rows.data() + nd.begin;
    const size_t n = nd.end - nd.begin;

    std::fill(counts.begin(), counts.end(), 0);
    for (size_t k = 0; k < n; ++k) ++counts[data.y[first[k]]];
    const bool pure = std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }) <= 1;

    SplitRule rule;
    bool split = n >= splitter.min_node_size() && n >= 2 &&
                 (options.max_depth == 0 || nd.depth < options.max_depth) &&
                 (options.split_pure || !pure) &&
                 splitter.find_split(data, first, n, rng, rule);
    if (split) {
      const DataView& x = *data.x;
      int* middle = std::stable_partition(first, first + n, [&](int r) {
        return rule.goes_left([&](int col) { return x.get(r, col); });
      });
      const size_t n_left = middle - first;
      split = n_left > 0 && n_left < n;
      if (split) {
        const int left = tree.add_node(), right = tree.add_node();
        set_split(tree, nd.node, rule, left, right);
        // right first on the stack, so the left subtree is grown first
        stack.push_back({right, nd.begin + n_left, nd.end, nd.depth + 1});
        stack.push_back({left, nd.begin, nd.begin + n_left, nd.depth + 1});
        continue;
      }
    }
    add_leaf(out, nd.node, first, n, counts);
  }
}

}  // namespace svf

namespace svf {

namespace {
// A node waiting to be split, owning its rows: with a band, children overlap,
// so rows cannot be partitioned in place.
struct PendingRows {
  int node;
  size_t depth;
  std::vector<int> rows, oob;
};
}  // namespace

void grow_tree(const TrainingData& data, std::vector<int> rows, std::vector<int> oob,
               const Splitter& splitter, const GrowOptions& options, Rng& rng,
               TaskRunner& inner, GrownTree& out) {
  const int K = data.num_classes;
  const DataView& x = *data.x;
  Tree& tree = out.tree;
  start_tree(out, rows.size());

  std::vector<int> counts(K);
  std::vector<PendingRows> stack;
  stack.push_back({tree.add_node(), 0, std::move(rows), std::move(oob)});
  while (!stack.empty()) {
    PendingRows nd = std::move(stack.back());
    stack.pop_back();
    const size_t n = nd.rows.size();

    std::fill(counts.begin(), counts.end(), 0);
    for (int r : nd.rows) ++counts[data.y[r]];
    const bool pure = std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }) <= 1;

    SplitRule rule;
    const bool split = n >= splitter.min_node_size() && n >= 2 &&
                       (options.max_depth == 0 || nd.depth < options.max_depth) &&
                       (options.split_pure || !pure) &&
                       splitter.find_split_oob(data, nd.rows.data(), n, nd.oob.data(),
                                               nd.oob.size(), rng, inner, rule);
    if (split) {
      std::vector<int> left, right, oob_left, oob_right;
      for (size_t k = 0; k < n; ++k) {
        const int r = nd.rows[k];
        const double v = rule.projection([&](int col) { return x.get(r, col); });
        if (v <= rule.value + rule.band) left.push_back(r);
        if (v > rule.value - rule.band) right.push_back(r);
      }
      for (int r : nd.oob)
        (rule.goes_left([&](int col) { return x.get(r, col); }) ? oob_left : oob_right).push_back(r);
      // both children must be smaller than the node, or growth could loop
      if (!left.empty() && !right.empty() && left.size() < n && right.size() < n) {
        const int l = tree.add_node(), rgt = tree.add_node();
        set_split(tree, nd.node, rule, l, rgt);
        stack.push_back({rgt, nd.depth + 1, std::move(right), std::move(oob_right)});
        stack.push_back({l, nd.depth + 1, std::move(left), std::move(oob_left)});
        continue;
      }
    }
    add_leaf(out, nd.node, nd.rows.data(), n, counts);
  }
}

}  // namespace svf
