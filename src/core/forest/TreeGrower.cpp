#include "TreeGrower.h"

#include <algorithm>

#include "outcome/Outcome.h"
#include "splitting/RowRouter.h"

namespace svf {

void set_split(Tree& tree, int node, int kind, const int* ints, size_t n_ints, const double* reals,
               size_t n_reals, int left, int right) {
  tree.split_kind[node] = kind;
  tree.split_int_start[node] = static_cast<int>(tree.split_int.size());
  tree.split_real_start[node] = static_cast<int>(tree.split_real.size());
  tree.split_int.insert(tree.split_int.end(), ints, ints + n_ints);
  tree.split_real.insert(tree.split_real.end(), reals, reals + n_reals);
  tree.left_child[node] = left;
  tree.right_child[node] = right;
}

namespace {

// A node waiting to be split: its in-bag rows in[begin, end) and its
// out-of-bag rows oob[oob_begin, oob_end) of the grower's buffers;
// `axis_run` as in NodeContext.
struct PendingNode {
  int node;
  size_t depth, begin, end, oob_begin, oob_end, axis_run;
};

// Whether the node's rows are all alike (Outcome::pure(); classes: their
// counts filled).
bool node_is_pure(const TrainingData& data, const int* rows, size_t n, std::vector<int>& counts) {
  return outcome_of(data).pure(data, rows, n, counts);
}

// std::stable_partition of first[0..n) by side[0..n) (1: left; the rows
// going left first, each side in its order), through `buffer` for the right
// side instead of a temporary buffer allocated per call; returns the rows
// on the left.
size_t partition_by_sides(int* first, size_t n, const char* side, std::vector<int>& buffer) {
  buffer.resize(n);
  size_t n_left = 0, n_right = 0;
  // (without a branch on the side: the sides of a node's rows are a coin
  // toss to the branch predictor)
  for (size_t i = 0; i < n; ++i) {
    const int r = first[i];
    const size_t goes_left = static_cast<size_t>(side[i]);
    first[n_left] = r;  // (n_left <= i: a row already read)
    buffer[n_right] = r;
    n_left += goes_left;
    n_right += 1 - goes_left;
  }
  std::copy(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n_right), first + n_left);
  return n_left;
}

// The same, the sides from the router, or from `known` where the splitter
// left the n rows' sides there (NodeContext::sides).
size_t partition_rows(int* first, size_t n, const RowRouter& router, std::vector<char>& side,
                      std::vector<int>& buffer, const std::vector<char>* known = nullptr) {
  if (known && known->size() == n) return partition_by_sides(first, n, known->data(), buffer);
  side.resize(n);
  router.sides(first, n, side.data());
  return partition_by_sides(first, n, side.data(), buffer);
}

}  // namespace

void grow_tree(const TrainingData& data, std::vector<int> rows, std::vector<int> oob,
               const Splitter& splitter, const GrowOptions& options, Rng& rng, TaskRunner& inner,
               GrownTree& out) {
  const int K = data.num_classes;
  const DataView& x = *data.x;
  out = GrownTree();
  out.rows.reserve(rows.size());
  out.leaf_begin.assign(1, 0);
  Tree& tree = out.tree;
  const bool splitter_oob = splitter.uses_oob();
  if (!splitter_oob && !options.route_oob) oob.clear();
  out.oob_routed = splitter_oob || options.route_oob;
  out.oob_leaf_begin.assign(1, 0);
  // Rows are partitioned in place. A banded rule (children overlap) appends
  // its children's rows at the end of the buffer instead, in order, so a
  // node that is not split keeps its rows in the order its splitter saw
  // them. (An unbanded rule's stable partition keeps each child's rows in
  // that order too, and leaves a node whose rows all go one way as it was:
  // the same trees without the copies, which on 1,000,000 rows took
  // 100 MB or more per tree, issue #61.)
  const bool copy_rows = false;
  std::vector<int>& in = rows;
  std::vector<int> counts(K), left_rows, right_rows, side_rows;
  std::vector<char> sides, known_sides;
  std::vector<PendingNode> stack;
  stack.push_back({tree.add_node(), 0, 0, in.size(), 0, oob.size(), 0});
  while (!stack.empty()) {
    const PendingNode nd = stack.back();
    stack.pop_back();
    const size_t n = nd.end - nd.begin;

    const bool pure = node_is_pure(data, in.data() + nd.begin, n, counts);
    SplitRule rule;
    NodeContext node;
    node.data = &data;
    node.rows = in.data() + nd.begin;
    node.n = n;
    node.oob = oob.data() + nd.oob_begin;
    node.n_oob = splitter_oob ? nd.oob_end - nd.oob_begin : 0;
    node.inner = &inner;
    node.axis_run = nd.axis_run;
    known_sides.clear();
    node.sides = &known_sides;
    bool split = n >= splitter.min_node_size() && n >= 2 &&
                 (options.max_depth == 0 || nd.depth < options.max_depth) &&
                 (options.split_pure || !pure) && splitter.find_split(node, rng, rule);
    if (split) {
      auto get_of = [&](int r) { return [&x, r](int col) { return x.value(r, col); }; };
      size_t l_begin, l_end, r_begin, r_end;
      const bool copy = copy_rows || rule.band > 0.0;
      if (rule.band > 0.0) out.one_leaf_per_row = false;
      const RowRouter router(rule, x, data.ranks, n + (nd.oob_end - nd.oob_begin));
      if (copy) {
        left_rows.clear();
        right_rows.clear();
        for (size_t k = nd.begin; k < nd.end; ++k) {
          if (rule.band > 0.0) {
            const double v = rule.projection(get_of(in[k]));
            if (v <= rule.threshold() + rule.band) left_rows.push_back(in[k]);
            if (v > rule.threshold() - rule.band) right_rows.push_back(in[k]);
          } else {
            (router.left(in[k]) ? left_rows : right_rows).push_back(in[k]);
          }
        }
        l_begin = in.size();
        in.insert(in.end(), left_rows.begin(), left_rows.end());
        l_end = r_begin = in.size();
        in.insert(in.end(), right_rows.begin(), right_rows.end());
        r_end = in.size();
      } else {
        const size_t n_left = partition_rows(in.data() + nd.begin, n, router, sides, side_rows, &known_sides);
        l_begin = nd.begin;
        l_end = r_begin = nd.begin + n_left;
        r_end = nd.end;
      }
      const size_t n_oob_left = partition_rows(oob.data() + nd.oob_begin, nd.oob_end - nd.oob_begin, router,
                                                sides, side_rows);
      // both children must be non-empty and smaller than the node, or growth could loop
      const size_t n_left = l_end - l_begin, n_right = r_end - r_begin;
      if (n_left > 0 && n_right > 0 && n_left < n && n_right < n) {
        const int left = tree.add_node(), right = tree.add_node();
        set_split(tree, nd.node, rule.kind, rule.ints.data(), rule.ints.size(), rule.reals.data(),
                  rule.reals.size(), left, right);
        // right first on the stack, so the left subtree is grown first
        const size_t oob_mid = nd.oob_begin + n_oob_left;
        const size_t run = rule.kind == kSplitAxis ? nd.axis_run + 1 : 0;
        stack.push_back({right, nd.depth + 1, r_begin, r_end, oob_mid, nd.oob_end, run});
        stack.push_back({left, nd.depth + 1, l_begin, l_end, nd.oob_begin, oob_mid, run});
        continue;
      }
      if (copy) in.resize(l_begin);  // the children's copies are not used
    }
    // the node is the next leaf, owning its rows
    tree.leaf_id[nd.node] = static_cast<int>(tree.leaf_size.size());
    tree.leaf_size.push_back(static_cast<int>(n));
    out.leaf_counts.insert(out.leaf_counts.end(), counts.begin(), counts.end());
    out.rows.insert(out.rows.end(), in.begin() + nd.begin, in.begin() + nd.end);
    out.leaf_begin.push_back(out.rows.size());
    out.oob_rows.insert(out.oob_rows.end(), oob.begin() + nd.oob_begin, oob.begin() + nd.oob_end);
    out.oob_leaf_begin.push_back(out.oob_rows.size());
  }
}

}  // namespace svf
