// Ridge regression leaves: least squares on the scaled predictors with an L2
// penalty lambda on the weights (not the bias), in closed form (Eigen); the
// dual form when the leaf has fewer rows than predictors. lambda is chosen
// from `lambda` by cross-validation inside the leaf (LinearRegressionLeaf.h).
#ifndef SVFOREST_RIDGELEAF_H
#define SVFOREST_RIDGELEAF_H

#include "LinearRegressionLeaf.h"

namespace svf {

class RidgeLeafModel : public LinearRegressionLeafModel {
 public:
  static const int kKind = 5;
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit RidgeLeafModel(const LinearRegressionOptions& o) : LinearRegressionLeafModel(o) {}

 protected:
  int kind() const override { return kKind; }
  const char* value_name() const override { return "lambda"; }
  std::vector<double> solve(const TrainingData& data, const int* rows, size_t m, const Eigen::MatrixXd& X,
                            const Eigen::VectorXd& y, double lambda) const override;
};

}  // namespace svf
#endif
