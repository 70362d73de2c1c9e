#include "Predictor.h"

#include <algorithm>
#include <cmath>
#include <memory>

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

std::vector<int> leaves_of_rows(const TreeView& tree, size_t p, const RowSource& rows, const std::vector<int>& which) {
  std::vector<int> leaf(which.size());
  std::vector<double> scratch;
  for (size_t k = 0; k < which.size(); ++k) {
    const int r = which[k];
    leaf[k] = tree.n_factor_int
                  ? route(tree, p, [&](int col) { return level_value(tree, col, rows.get(r, col)); }, scratch)
                  : route(tree, p, [&](int col) { return rows.get(r, col); }, scratch);
  }
  return leaf;
}

std::vector<int> count_leaf_rows(const TreeView& tree, size_t p, const RowSource& rows, const std::vector<int>& which) {
  std::vector<int> count(tree.n_leaves, 0);
  for (int leaf : leaves_of_rows(tree, p, rows, which)) ++count[leaf];
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
// A row's outputs from its tally over all `ntree` trees.
void write_row(const RowTally& row, size_t i, size_t n, size_t ntree, int K, int outputs, PredictOutput& out) {
  const double sum = row.sum.value();
  if (out.cls)
    out.cls[i] = decide_class(out.aggregation, K, row.votes.data(), row.shares.data(), 1, row.count,
                              row.confident_class);
  if (out.tree_sd)
    out.tree_sd[i] = ntree > 0 ? std::sqrt(std::max(0.0, row.run_ss) / static_cast<double>(ntree)) : 0.0;
  for (int k = 0; k < outputs; ++k)
    if (out.prob) out.prob[k * n + i] = (K == 0 && k == 0 ? sum : row.prob[k]) / static_cast<double>(ntree);
  for (int k = 0; k < K; ++k)
    if (out.votes) out.votes[k * n + i] = row.votes[k];
}

// Packed nodes take 32 bytes each; above this many in a group of trees
// prediction reads the saved layout instead of holding a packed copy.
constexpr size_t kMaxFlatNodes = size_t(1) << 22;

// Every row's tallies between groups of trees (a forest decoded a group at
// a time, TreeGroups): saved after a group, restored before the next, so
// each row still adds its trees in tree order.
class SavedTallies {
 public:
  SavedTallies(size_t n, int outputs, int K)
      : outputs_(outputs), K_(K), prob_(n * outputs), shares_(n * K), reals_(4 * n), votes_(n * K), ints_(2 * n) {}
  void save(size_t i, const RowTally& t) {
    std::copy(t.prob.begin(), t.prob.end(), prob_.begin() + i * outputs_);
    std::copy(t.shares.begin(), t.shares.end(), shares_.begin() + i * K_);
    std::copy(t.votes.begin(), t.votes.end(), votes_.begin() + i * K_);
    double* r = &reals_[4 * i];
    r[0] = t.sum.whole;
    r[1] = t.sum.fraction;
    r[2] = t.run_mean;
    r[3] = t.run_ss;
    conf(i) = t.confidence;
    ints_[2 * i] = t.count;
    ints_[2 * i + 1] = t.confident_class;
  }
  void restore(size_t i, RowTally& t) {
    std::copy(prob_.begin() + i * outputs_, prob_.begin() + (i + 1) * outputs_, t.prob.begin());
    std::copy(shares_.begin() + i * K_, shares_.begin() + (i + 1) * K_, t.shares.begin());
    std::copy(votes_.begin() + i * K_, votes_.begin() + (i + 1) * K_, t.votes.begin());
    const double* r = &reals_[4 * i];
    t.sum.whole = r[0];
    t.sum.fraction = r[1];
    t.run_mean = r[2];
    t.run_ss = r[3];
    t.confidence = conf(i);
    t.count = ints_[2 * i];
    t.confident_class = ints_[2 * i + 1];
  }

 private:
  double& conf(size_t i) {
    if (confidence_.empty()) confidence_.assign(ints_.size() / 2, 0.0);
    return confidence_[i];
  }
  int outputs_, K_;
  std::vector<double> prob_, shares_, reals_, confidence_;
  std::vector<int> votes_, ints_;
};

// Trees [first, last) of the forest, decoded, for the rows: each row's
// tally starts afresh at tree 0 or is restored from `saved`, and is saved
// there after the group, or written to `out` after the last tree.
void predict_group(const ForestView& forest, const RowSource& rows, PredictOutput& out, TaskRunner& runner,
                   size_t chunk_size, size_t first_tree, size_t last_tree, SavedTallies* saved) {
  const size_t n = rows.n_rows(), ntree = forest.trees.size(), p = forest.shape.p;
  const int K = forest.shape.num_classes, outputs = forest.shape.outputs();
  const size_t n_chunks = (n + chunk_size - 1) / chunk_size;
  const bool want_confidence = (out.cls || out.class_curve) && out.aggregation == Aggregation::MaxConfidence;
  const bool restore = first_tree > 0, finish = last_tree == ntree;
  // Rows are gathered and routed in blocks along packed nodes where the
  // source copies rows cheaply (dense); a sparse source is read in place, so
  // no block buffer of p values per row is held for it.
  const bool dense = rows.gathers();
  size_t total_nodes = 0;
  for (size_t t = first_tree; t < last_tree; ++t) total_nodes += forest.trees[t].n_nodes;
  std::vector<std::vector<FlatNode>> flat(dense && total_nodes <= kMaxFlatNodes ? last_tree - first_tree : 0);
  for (size_t t = 0; t < flat.size(); ++t) flat[t] = flatten(forest.trees[first_tree + t]);
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
        if (restore) saved->restore(first + b, tallies[b]);
        gathered[b] = dense && rows.gather(first + b, p, values.data() + b * p);
      }
      for (size_t t = first_tree; t < last_tree; ++t) {
        const FlatNode* packed = flat.empty() ? nullptr : flat[t - first_tree].data();
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
        if (!finish) saved->save(first + b, tallies[b]);
        else write_row(tallies[b], first + b, n, ntree, K, outputs, out);
      }
    }
  });
}

}  // namespace

void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size) {
  const size_t ntree = forest.trees.size();
  std::unique_ptr<SavedTallies> saved;
  size_t first = 0;
  do {
    const size_t last =
        forest.groups && ntree > 0 ? std::min(ntree, std::max(first + 1, forest.groups->group_end(first))) : ntree;
    if (forest.groups && ntree > 0) forest.groups->load(first, last);
    if (!saved && last < ntree) saved.reset(new SavedTallies(rows.n_rows(), forest.shape.outputs(), forest.shape.num_classes));
    predict_group(forest, rows, out, runner, chunk_size, first, last, saved.get());
    first = last;
  } while (first < ntree);
}

}  // namespace svf
