#include "LocalLinear.h"

#include <algorithm>

#include "LevelValues.h"
#include "tree/Route.h"

namespace svf {

bool forest_has_linear_leaves(const ForestView& forest) {
  for (const TreeView& t : forest.trees)
    for (size_t l = 0; l < t.n_leaves; ++l)
      if (forest.readers[t.leaf_kind[l]].linear()) return true;
  return false;
}

void local_linear(const ForestView& forest, const RowSource& rows, LocalLinearOutput& out, TaskRunner& runner,
                  size_t chunk_size) {
  const size_t n = rows.n_rows(), p = forest.shape.p, ntree = forest.trees.size();
  const int K = forest.shape.num_classes;
  const int outputs = K == 2 || K == 0 ? 1 : K;
  const std::vector<double>& factor = forest.scaling->factor;
  const size_t n_chunks = (n + chunk_size - 1) / chunk_size;
  runner.run(n_chunks, [&](size_t c) {
    std::vector<double> route_scratch;
    std::vector<double> sum(p * outputs);
    std::vector<int> count(outputs);
    const size_t end = std::min(n, (c + 1) * chunk_size);
    for (size_t i = c * chunk_size; i < end; ++i) {
      std::fill(sum.begin(), sum.end(), 0.0);
      std::fill(count.begin(), count.end(), 0);
      for (size_t t = 0; t < ntree; ++t) {
        const TreeView& tree = forest.trees[t];
        const int leaf = route(tree, p, [&](int col) { return level_value(tree, col, rows.get(i, col)); }, route_scratch);
        LinearTerms lt;
        if (!forest.readers[tree.leaf_kind[leaf]].linear_terms(leaf_payload(tree, leaf), forest.shape, lt)) continue;
        auto add = [&](int slot, const double* weights, double sign) {
          double* s = sum.data() + static_cast<size_t>(slot) * p;
          for (size_t j = 0; j < p; ++j) s[j] += sign * weights[j];
          ++count[slot];
        };
        const double* w = lt.weights;
        if (lt.n_classes == 0) {  // regression: one output
          add(0, w, 1.0);
        } else if (lt.n_classes == 2) {  // one output: positive picks classes[1]
          if (K == 2) {
            add(0, w, 1.0);
          } else {
            add(lt.classes[1], w, 1.0);
            add(lt.classes[0], w, -1.0);
          }
        } else {  // one-vs-rest: output o is class classes[o] (K > 2 here)
          for (int o = 0; o < lt.n_classes; ++o) add(lt.classes[o], w + static_cast<size_t>(o) * (p + 1), 1.0);
        }
      }
      for (int k = 0; k < outputs; ++k) {
        if (out.trees) out.trees[static_cast<size_t>(k) * n + i] = count[k];
        for (size_t j = 0; j < p; ++j) {
          const double mean = count[k] > 0 ? sum[static_cast<size_t>(k) * p + j] / count[k] : 0.0;
          out.coef[(static_cast<size_t>(k) * p + j) * n + i] = mean * factor[j];
        }
      }
    }
  });
}

}  // namespace svf
