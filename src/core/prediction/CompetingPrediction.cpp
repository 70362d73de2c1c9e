#include "CompetingPrediction.h"

#include "SurvivalPrediction.h"

namespace svf {

void add_leaf_cif(const TreeView& tree, int leaf, size_t T, int K, double* out, size_t stride) {
  const LeafPayload payload = leaf_payload(tree, leaf);
  const int m = payload.ints[0];
  for (int a = 0; a < m; ++a) {
    const size_t end = a + 1 < m ? static_cast<size_t>(payload.ints[a + 2]) : T;
    for (int k = 0; k < K; ++k) {
      const double v = payload.reals[static_cast<size_t>(a) * K + k];
      for (size_t j = static_cast<size_t>(payload.ints[a + 1]); j < end; ++j) out[(k * T + j) * stride] += v;
    }
  }
}

void predict_competing(const std::vector<TreeView>& trees, size_t p, size_t T, int K, const RowSource& rows,
                       TaskRunner& runner, double* cif, double* chf) {
  const size_t n = rows.n_rows(), TK = T * static_cast<size_t>(K);
  const double count = static_cast<double>(trees.size());
  runner.run(n, [&](size_t r) {
    // each curve's increase at each grid time (cause-major), CIF then CHF
    std::vector<double> steps(2 * TK, 0.0), scratch;
    for (const TreeView& view : trees) {
      const LeafPayload payload = leaf_payload(view, tree_leaf_of_row(view, p, rows, r, scratch));
      const size_t m = static_cast<size_t>(payload.ints[0]);
      for (size_t a = 0; a < m; ++a) {
        const size_t j = static_cast<size_t>(payload.ints[1 + a]);
        for (int k = 0; k < K; ++k)
          for (size_t part = 0; part < 2; ++part) {
            const double* values = payload.reals + part * m * K;
            const double before = a > 0 ? values[(a - 1) * K + k] : 0.0;
            steps[part * TK + k * T + j] += values[a * K + k] - before;
          }
      }
    }
    for (size_t part = 0; part < 2; ++part) {
      double* out = part == 0 ? cif : chf;
      for (int k = 0; k < K; ++k) {
        double running = 0.0;
        for (size_t j = 0; j < T; ++j) {
          running += steps[part * TK + k * T + j];
          out[(k * T + j) * n + r] = running / count;
        }
      }
    }
  });
}

}  // namespace svf
