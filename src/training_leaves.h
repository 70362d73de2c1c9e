// The training leaves of a regression fit (svf::TrainingLeaves) for R's
// quantile forest (R/uncertainty.R).
#ifndef SVFOREST_TRAINING_LEAVES_H
#define SVFOREST_TRAINING_LEAVES_H

#include <Rcpp.h>

#include <algorithm>  // std::swap
#include <memory>

#include "core/forest/Forest.h"

// A regression fit's TrainingLeaves in an R vector from the start, as
// pack_quantile_forest() stores them (two bytes little-endian in a raw
// vector): handing them to R copies nothing, and the engine holds no second
// buffer. Not to be moved (the callbacks hold `this`).
struct RTrainingLeaves {
  svf::TrainingLeaves leaves;
  Rcpp::RawVector narrow;
  RTrainingLeaves(size_t n, size_t ntree) {
    leaves.n = n;
    leaves.allocate = [this, n, ntree]() {
      narrow = Rcpp::RawVector(2 * n * ntree);
      leaves.narrow = reinterpret_cast<uint16_t*>(RAW(narrow));
    };
  }
  // the leaves, or NULL when R must route the rows (not exact, or no tree)
  SEXP value() {
    if (!leaves.exact || !leaves.narrow) return R_NilValue;
    const uint16_t one = 1;
    if (*reinterpret_cast<const unsigned char*>(&one) != 1) {  // big-endian: the bytes swapped
      for (R_xlen_t k = 0; k + 1 < narrow.size(); k += 2) std::swap(RAW(narrow)[k], RAW(narrow)[k + 1]);
    }
    return narrow;
  }
};

// The recorder of a fit's training leaves, set in `opt`; none (R routes the
// rows itself) unless `wanted`, for sparse data (their rows' leaves are
// left to predict()'s routing) and for forests grown by the out-of-bag rule
// (their number of trees is not known in advance).
inline std::unique_ptr<RTrainingLeaves> record_training_leaves(bool wanted, const svf::DataView& x,
                                                               svf::ForestOptions& opt) {
  if (!wanted || x.is_sparse() || opt.ntree_max > opt.ntree) return nullptr;
  std::unique_ptr<RTrainingLeaves> out(new RTrainingLeaves(x.n_rows(), opt.ntree));
  opt.training_leaves = &out->leaves;
  return out;
}

#endif
