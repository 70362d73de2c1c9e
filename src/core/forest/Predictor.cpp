#include "Predictor.h"

#include <algorithm>
#include <cmath>

#include "leaves/LeafKinds.h"
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
  const int leaf = route(tree, shape.p, [&](int col) { return rows.get(row, col); }, scratch.route);
  if (leaf_out) *leaf_out = leaf;
  const LeafModel& model = readers[tree.leaf_kind[leaf]];
  const feature_node* scaled = model.reads_row() ? rows.scaled_row(row, scaling, scratch.row) : nullptr;
  model.predict(leaf_payload(tree, leaf), shape, scaled, dist, confidence);
  int best = 0;
  for (int k = 1; k < shape.num_classes; ++k)
    if (dist[k] > dist[best]) best = k;
  return best;
}

void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size) {
  const size_t n = rows.n_rows(), ntree = forest.trees.size();
  const int K = forest.shape.num_classes, outputs = forest.shape.outputs();
  const size_t n_chunks = (n + chunk_size - 1) / chunk_size;
  const bool want_confidence = (out.cls || out.class_curve) && out.aggregation == Aggregation::MaxConfidence;
  runner.run(n_chunks, [&](size_t c) {
    PredictScratch scratch;
    std::vector<double> dist(outputs), prob(outputs), shares(K);
    std::vector<int> votes(K);
    const size_t end = std::min(n, (c + 1) * chunk_size);
    for (size_t i = c * chunk_size; i < end; ++i) {
      std::fill(prob.begin(), prob.end(), 0.0);
      std::fill(votes.begin(), votes.end(), 0);
      std::fill(shares.begin(), shares.end(), 0.0);
      int count = 0, confident_class = -1;
      double confidence = 0.0;
      const ClassTally tally{votes.data(), shares.data(), 1, &count, want_confidence ? &confidence : nullptr,
                             &confident_class};
      ExactSum sum;
      // Welford's running mean and sum of squared deviations of the trees'
      // predictions (no cancellation when the spread is small beside the mean)
      double run_mean = 0.0, run_ss = 0.0;
      for (size_t t = 0; t < ntree; ++t) {
        int leaf;
        double conf = 0.0;
        const int cls = tree_predict(forest.trees[t], forest.shape, forest.readers, *forest.scaling, rows, i,
                                     scratch, dist.data(), want_confidence ? &conf : nullptr, &leaf);
        if (K > 0) {
          for (int k = 0; k < outputs; ++k) prob[k] += dist[k];
          tally_tree(tally, K, cls, dist.data(), conf);
        } else {
          sum.add(dist[0]);
        }
        if (out.leaves) out.leaves[t * n + i] = leaf;
        if (out.tree_class) out.tree_class[t * n + i] = cls;
        if (out.tree_value) out.tree_value[t * n + i] = dist[0];
        if (out.tree_sd) {
          const double delta = dist[0] - run_mean;
          run_mean += delta / static_cast<double>(t + 1);
          run_ss += delta * (dist[0] - run_mean);
        }
        if (out.class_curve)
          out.class_curve[t * n + i] =
              decide_class(out.aggregation, K, votes.data(), shares.data(), 1, count, confident_class);
      }
      if (K == 0) prob[0] = sum.value();
      if (out.cls) out.cls[i] = decide_class(out.aggregation, K, votes.data(), shares.data(), 1, count, confident_class);
      if (out.tree_sd) out.tree_sd[i] = ntree > 0 ? std::sqrt(std::max(0.0, run_ss) / static_cast<double>(ntree)) : 0.0;
      for (int k = 0; k < outputs; ++k)
        if (out.prob) out.prob[k * n + i] = prob[k] / static_cast<double>(ntree);
      for (int k = 0; k < K; ++k)
        if (out.votes) out.votes[k * n + i] = votes[k];
    }
  });
}

}  // namespace svf
