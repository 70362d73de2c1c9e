// What a leaf predicts. The trainer hands each leaf its in-bag rows and class
// counts plus a generator of its own; the model fills a LeafFit.
#ifndef SVFOREST_LEAFMODEL_H
#define SVFOREST_LEAFMODEL_H

#include <cmath>
#include <vector>

#include "Random.h"
#include "Tree.h"
#include "TrainingData.h"

namespace svf {

struct LeafFit {
  int type = kLeafConstant;
  double cost = NAN;
  std::vector<double> coef;  // outputs x (p + 1); kernel leaves: see Tree::coef
  // kernel SVM leaves (see Tree.h): support vectors numbered from 0 here
  double gamma = NAN;
  std::vector<int> classes, class_sv;
  std::vector<double> rho;
  std::vector<int> sv_ptr{0}, sv_index;
  std::vector<double> sv_value;
};

class LeafModel {
 public:
  virtual ~LeafModel() {}
  virtual bool needs_scaled_rows() const = 0;
  virtual void fit(const TrainingData& data, const int* rows, size_t n, const int* counts,
                   Rng& rng, LeafFit& out) const = 0;
};

// Class frequencies.
class ConstantLeafModel : public LeafModel {
 public:
  bool needs_scaled_rows() const override { return false; }
  void fit(const TrainingData&, const int*, size_t, const int*, Rng&, LeafFit& out) const override {
    out = LeafFit();
  }
};

}  // namespace svf
#endif
