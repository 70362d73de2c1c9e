#include "Predictor.h"

#include <algorithm>
#include <cmath>

#include "LevelValues.h"
#include "leaves/LeafKinds.h"
#include "tree/FlatTree.h"
#include "tree/Route.h"

namespace svf {

LeafReaders all_leaf_readers() {
  LeafReaders r;
  for (const LeafKindInfo& info : leaf_kinds()) {
    if (info.kind >= static_cast<int>(r.by_kind.size())) r.by_kind.resize(info.kind + 1, nullptr);
    r.by_kind[info.kind] = leaf_model_of_kind(info.kind);
  }
  return r;
}

int tree_predict(const TreeView& tree, const OutcomeShape& shape, const LeafReaders& readers,
                 const Scaling& scaling, const RowSource& rows, size_t row, PredictScratch& scratch,
                 double* dist, double* confidence, int* leaf_out) {
  const double* values = scratch.values;
  // (`values` are read as the tree reads them already: see predict_forest())
  const int leaf = scratch.leaf >= 0 ? scratch.leaf
                   : values ? route(tree, shape.p, [values](int col) { return values[col]; }, scratch.route)
                   : tree.n_factor_int
                       ? route(tree, shape.p, [&](int col) { return level_value(tree, col, rows.get(row, col)); },
                               scratch.route)
                       : route(tree, shape.p, [&](int col) { return rows.get(row, col); }, scratch.route);
  if (leaf_out) *leaf_out = leaf;
  const LeafModel& model = readers[tree.leaf_kind[leaf]];
  const feature_node* scaled = model.reads_row() ? rows.scaled_row(row, scaling, scratch.row) : nullptr;
  model.predict(leaf_payload(tree, leaf), shape, scaled, dist, confidence);
  int best = 0;
  for (int k = 1; k < shape.num_classes; ++k)
    if (dist[k] > dist[best]) best = k;
  return best;
}

std::vector<int> count_leaf_rows(const TreeView& tree, size_t p, const RowSource& rows, const std::vector<int>& which) {
  std::vector<int> count(tree.n_leaves, 0);
  std::vector<double> scratch;
  for (int r : which) {
    const int leaf = tree.n_factor_int
                         ? route(tree, p, [&](int col) { return level_value(tree, col, rows.get(r, col)); }, scratch)
                         : route(tree, p, [&](int col) { return rows.get(r, col); }, scratch);
    ++count[leaf];
  }
  return count;
}

namespace {

// The running tallies of one row over the trees: a block of rows goes
// through each tree in turn (the tree's nodes stay in cache), and each row
// still adds its trees in tree order, so the results do not depend on the
// block size.
struct RowTally {
  std::vector<double> prob, shares;
  std::vector<int> votes;
  int count = 0, confident_class = -1;
  double confidence = 0.0;
  ExactSum sum;
  // Welford's running mean and sum of squared deviations of the trees'
  // predictions (no cancellation when the spread is small beside the mean)
  double run_mean = 0.0, run_ss = 0.0;

  RowTally(int outputs, int K) : prob(outputs), shares(K), votes(K) {}
  void reset() {
    std::fill(prob.begin(), prob.end(), 0.0);
    std::fill(shares.begin(), shares.end(), 0.0);
    std::fill(votes.begin(), votes.end(), 0);
    count = 0;
    confident_class = -1;
    confidence = 0.0;
    sum = ExactSum();
    run_mean = run_ss = 0.0;
  }
  ClassTally tally(bool want_confidence) {
    return ClassTally{votes.data(), shares.data(), 1, &count, want_confidence ? &confidence : nullptr,
                      &confident_class};
  }
};

constexpr size_t kRowBlock = 32;

// A block of m gathered rows (p values each) as tree `t` reads them: the
// rows themselves, or, when the tree codes factor columns, their copy in
// `coded` with those columns coded (LevelValues.h).
const double* code_block(const TreeView& t, const std::vector<double>& values, const char* gathered, size_t m,
                         size_t p, std::vector<double>& coded) {
  if (t.n_factor_int == 0 || values.empty()) return values.data();
  coded.assign(values.begin(), values.begin() + m * p);
  for (size_t b = 0; b < m; ++b)
    if (gathered[b]) code_row(t, coded.data() + b * p);
  return coded.data();
}
// Packed nodes take 32 bytes each; above this many in the forest prediction
// reads the saved layout instead of holding a packed copy.
constexpr size_t kMaxFlatNodes = size_t(1) << 22;

}  // namespace

void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size) {
  const size_t n = rows.n_rows(), ntree = forest.trees.size(), p = forest.shape.p;
  const int K = forest.shape.num_classes, outputs = forest.shape.outputs();
  const size_t n_chunks = (n + chunk_size - 1) / chunk_size;
  const bool want_confidence = (out.cls || out.class_curve) && out.aggregation == Aggregation::MaxConfidence;
  // Rows are gathered and routed in blocks along packed nodes where the
  // source copies rows cheaply (dense); a sparse source is read in place, so
  // no block buffer of p values per row is held for it.
  const bool dense = rows.gathers();
  size_t total_nodes = 0;
  for (const TreeView& t : forest.trees) total_nodes += t.n_nodes;
  std::vector<std::vector<FlatNode>> flat(dense && total_nodes <= kMaxFlatNodes ? ntree : 0);
  for (size_t t = 0; t < flat.size(); ++t) flat[t] = flatten(forest.trees[t]);
  runner.run(n_chunks, [&](size_t c) {
    PredictScratch scratch;
    std::vector<double> dist(outputs), values(dense ? kRowBlock * p : 0), coded;
    std::vector<char> gathered(kRowBlock);
    std::vector<RowTally> tallies(kRowBlock, RowTally(outputs, K));
    int block_leaf[kRowBlock], route_row[kRowBlock], route_node[kRowBlock], route_waiting[kRowBlock];
    const size_t end = std::min(n, (c + 1) * chunk_size);
    for (size_t first = c * chunk_size; first < end; first += kRowBlock) {
      const size_t m = std::min(kRowBlock, end - first);
      for (size_t b = 0; b < m; ++b) {
        tallies[b].reset();
        gathered[b] = dense && rows.gather(first + b, p, values.data() + b * p);
      }
      for (size_t t = 0; t < ntree; ++t) {
        const FlatNode* packed = flat.empty() ? nullptr : flat[t].data();
        const double* tree_values = code_block(forest.trees[t], values, gathered.data(), m, p, coded);
        if (packed)
          route_flat_rows(packed, forest.trees[t], p, tree_values, gathered.data(), m, block_leaf, route_row,
                          route_node, route_waiting, scratch.route);
        for (size_t b = 0; b < m; ++b) {
          const size_t i = first + b;
          RowTally& row = tallies[b];
          scratch.values = gathered[b] ? tree_values + b * p : nullptr;
          scratch.leaf = packed ? block_leaf[b] : -1;
          int leaf;
          double conf = 0.0;
          const int cls = tree_predict(forest.trees[t], forest.shape, forest.readers, *forest.scaling, rows, i,
                                       scratch, dist.data(), want_confidence ? &conf : nullptr, &leaf);
          if (K > 0) {
            for (int k = 0; k < outputs; ++k)
              if (dist[k] != 0.0) row.prob[k] += dist[k];
            tally_tree(row.tally(want_confidence), K, cls, dist.data(), conf);
          } else {
            row.sum.add(dist[0]);
          }
          if (out.leaves) out.leaves[t * n + i] = leaf;
          if (out.tree_class) out.tree_class[t * n + i] = cls;
          if (out.tree_value) out.tree_value[t * n + i] = dist[0];
          if (out.tree_sd) {
            const double delta = dist[0] - row.run_mean;
            row.run_mean += delta / static_cast<double>(t + 1);
            row.run_ss += delta * (dist[0] - row.run_mean);
          }
          if (out.class_curve)
            out.class_curve[t * n + i] = decide_class(out.aggregation, K, row.votes.data(), row.shares.data(), 1,
                                                      row.count, row.confident_class);
        }
      }
      for (size_t b = 0; b < m; ++b) {
        const size_t i = first + b;
        RowTally& row = tallies[b];
        if (K == 0) row.prob[0] = row.sum.value();
        if (out.cls)
          out.cls[i] = decide_class(out.aggregation, K, row.votes.data(), row.shares.data(), 1, row.count,
                                    row.confident_class);
        if (out.tree_sd)
          out.tree_sd[i] = ntree > 0 ? std::sqrt(std::max(0.0, row.run_ss) / static_cast<double>(ntree)) : 0.0;
        for (int k = 0; k < outputs; ++k)
          if (out.prob) out.prob[k * n + i] = row.prob[k] / static_cast<double>(ntree);
        for (int k = 0; k < K; ++k)
          if (out.votes) out.votes[k * n + i] = row.votes[k];
      }
    }
  });
}

}  // namespace svf
