// Linear support vector regression leaves: LIBLINEAR's L2-regularised
// L2-loss SVR (primal trust-region Newton solver, which draws no random
// numbers) on the scaled predictors, insensitive tube `epsilon` on the
// model's outcome scale; C is chosen from `cost` by cross-validation inside
// the leaf (LinearRegressionLeaf.h).
#ifndef SVFOREST_LINEARSVRLEAF_H
#define SVFOREST_LINEARSVRLEAF_H

#include "LinearRegressionLeaf.h"

namespace svf {

class LinearSvrLeafModel : public LinearRegressionLeafModel {
 public:
  static const int kKind = 6;
  static std::unique_ptr<LeafModel> create(const Params* params);
  explicit LinearSvrLeafModel(const LinearRegressionOptions& o) : LinearRegressionLeafModel(o) {}

 protected:
  int kind() const override { return kKind; }
  const char* value_name() const override { return "cost"; }
  std::vector<double> solve(const TrainingData& data, const int* rows, size_t m, const Eigen::MatrixXd& X,
                            const Eigen::VectorXd& y, double cost) const override;
};

}  // namespace svf
#endif
