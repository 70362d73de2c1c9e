// How a node is split. A splitter looks at the node's rows and proposes one
// rule, or declines (the node becomes a leaf). The tree grower does the rest.
#ifndef SVFOREST_SPLITTER_H
#define SVFOREST_SPLITTER_H

#include <cstddef>
#include <vector>
#include "Random.h"
#include "TrainingData.h"
#include "Tree.h"

namespace svf {

// Axis rule: rows with x[var] <= value go left. Oblique rule (index not
// empty): rows with sum_k weight[k] * x[index[k]] <= value go left.
// Transformation rule (subspace not empty): [T, U_A, U_B] as in
// subspace_goes_left() (Tree.h), T of subspace_rank x subspace_cols.
struct SplitRule {
  int var = -1;
  double value = 0.0;
  std::vector<int> index;
  std::vector<double> weight;
  std::vector<double> subspace;
  int subspace_rank = 0, subspace_dim = 0;
  size_t subspace_cols = 0;
  mutable std::vector<double> scratch;
  // Relaxation while growing (RSVF's delta_tau): in-bag rows whose projection
  // lies in (value - band, value + band] go to both children. Prediction and
  // out-of-bag rows always use the plain rule.
  double band = 0.0;

  // Projection of a row (summed in the same order as route() in Tree.h, so
  // growing and prediction agree to the last bit).
  template <typename Get>
  double projection(Get get) const {
    if (index.empty()) return get(var);
    double s = 0.0;
    for (size_t k = 0; k < index.size(); ++k) s += weight[k] * get(index[k]);
    return s;
  }
  template <typename Get>
  bool goes_left(Get get) const {
    if (!subspace.empty()) {
      scratch.resize(subspace_rank);
      return subspace_goes_left(subspace.data(), subspace_rank, subspace_dim, subspace_cols, get,
                                scratch.data());
    }
    return projection(get) <= value;
  }
};

class TaskRunner;

class Splitter {
 public:
  virtual ~Splitter() {}
  // Nodes with fewer rows are leaves without asking the splitter.
  virtual size_t min_node_size() const = 0;
  virtual bool find_split(const TrainingData& data, const int* rows, size_t n,
                          Rng& rng, SplitRule& rule) const = 0;

  // Splitters that judge a split on the tree's out-of-bag rows (RSVF) say so;
  // the grower then routes the OOB rows down with the in-bag rows and calls
  // find_split_oob. `inner` may run independent work of this node in
  // parallel (a serial runner when trees already run in parallel).
  virtual bool uses_oob() const { return false; }
  virtual bool find_split_oob(const TrainingData& data, const int* rows, size_t n,
                              const int* /*oob*/, size_t /*n_oob*/, Rng& rng,
                              TaskRunner& /*inner*/, SplitRule& rule) const {
    return find_split(data, rows, n, rng, rule);
  }
};

}  // namespace svf
#endif
