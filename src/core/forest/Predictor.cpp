#include "Predictor.h"

#include <algorithm>
#include <cmath>

namespace svf {

int tree_predict(const TreeView& tree, int num_classes, size_t p, const Scaling& scaling,
                 const RowSource& rows, size_t row, std::vector<feature_node>& buffer,
                 double* dist, int* leaf_out) {
  const int leaf = route(tree, [&](int col) { return rows.get(row, col); });
  if (leaf_out) *leaf_out = leaf;
  const feature_node* scaled = nullptr;
  if (tree.leaf_type[leaf] != kLeafConstant) scaled = rows.scaled_row(row, scaling, buffer);
  leaf_distribution(tree, leaf, num_classes, p, scaled, dist);
  int best = 0;
  for (int k = 1; k < num_classes; ++k)
    if (dist[k] > dist[best]) best = k;
  return best;
}

int tree_predict_confidence(const TreeView& tree, int num_classes, size_t p,
                            const Scaling& scaling, const RowSource& rows, size_t row,
                            std::vector<feature_node>& buffer, double* confidence) {
  const int leaf = route(tree, [&](int col) { return rows.get(row, col); });
  const feature_node* scaled = nullptr;
  if (tree.leaf_type[leaf] == kLeafLinear) scaled = rows.scaled_row(row, scaling, buffer);
  return leaf_class_confidence(tree, leaf, num_classes, p, scaled, confidence);
}

void predict_forest(const ForestView& forest, const RowSource& rows, PredictOutput& out,
                    TaskRunner& runner, size_t chunk_size) {
  const size_t n = rows.n_rows(), ntree = forest.trees.size();
  const int K = forest.num_classes;
  const size_t n_chunks = (n + chunk_size - 1) / chunk_size;
  runner.run(n_chunks, [&](size_t c) {
    std::vector<feature_node> buffer;
    std::vector<double> dist(K), prob(K);
    std::vector<int> votes(K);
    const size_t end = std::min(n, (c + 1) * chunk_size);
    for (size_t i = c * chunk_size; i < end; ++i) {
      std::fill(prob.begin(), prob.end(), 0.0);
      std::fill(votes.begin(), votes.end(), 0);
      for (size_t t = 0; t < ntree; ++t) {
        int leaf;
        const int cls = tree_predict(forest.trees[t], K, forest.num_features, *forest.scaling,
                                     rows, i, buffer, dist.data(), &leaf);
        for (int k = 0; k < K; ++k) prob[k] += dist[k];
        ++votes[cls];
        if (out.leaves) out.leaves[t * n + i] = leaf;
        if (out.tree_class) out.tree_class[t * n + i] = cls;
      }
      if (out.max_confidence_class) {
        // the first of the most confident trees
        double best = -HUGE_VAL;
        int best_class = 0;
        for (size_t t = 0; t < ntree; ++t) {
          double conf;
          const int cls = tree_predict_confidence(forest.trees[t], K, forest.num_features,
                                                  *forest.scaling, rows, i, buffer, &conf);
          if (t == 0 || conf > best) { best = conf; best_class = cls; }
        }
        out.max_confidence_class[i] = best_class;
      }
      for (int k = 0; k < K; ++k) {
        if (out.prob) out.prob[k * n + i] = prob[k] / static_cast<double>(ntree);
        if (out.votes) out.votes[k * n + i] = votes[k];
      }
    }
  });
}

}  // namespace svf
