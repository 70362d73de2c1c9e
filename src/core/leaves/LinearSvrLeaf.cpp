#include "LinearSvrLeaf.h"

#include <cstring>
#include <stdexcept>
#include <linear.h>

namespace svf {

std::unique_ptr<LeafModel> LinearSvrLeafModel::create(const Params* params) {
  LinearRegressionOptions o;
  if (params) {
    o.grid = params->numbers("cost");
    o.cv_folds = params->integer("cv_folds");
    o.epsilon = params->number("epsilon");
    o.tolerance = params->number("tolerance");
  }
  return std::unique_ptr<LeafModel>(new LinearSvrLeafModel(o));
}

std::vector<double> LinearSvrLeafModel::solve(const TrainingData& data, const int* rows, size_t m,
                                              const Eigen::MatrixXd&, const Eigen::VectorXd& y,
                                              double cost) const {
  const int n_features = static_cast<int>(data.x->n_cols()) + 1;  // + bias
  // the leaf's outcome centred: LIBLINEAR regularises the bias too
  const double ybar = y.mean();
  std::vector<double> yv(y.data(), y.data() + y.size());
  for (double& v : yv) v -= ybar;
  std::vector<feature_node*> x(m);
  for (size_t k = 0; k < m; ++k) x[k] = const_cast<feature_node*>(data.scaled.row(rows[k]));
  problem prob;
  prob.l = static_cast<int>(m);
  prob.n = n_features;
  prob.y = yv.data();
  prob.x = x.data();
  prob.bias = 1.0;
  parameter param;
  std::memset(&param, 0, sizeof(param));
  param.solver_type = L2R_L2LOSS_SVR;  // primal: draws no random numbers
  param.eps = opt_.tolerance;
  param.C = cost;
  param.p = opt_.epsilon;
#if LIBLINEAR_VERSION >= 240
  param.regularize_bias = 1;
#endif
  model* fitted = train(&prob, &param);
  if (fitted == nullptr) throw std::runtime_error("LIBLINEAR failed to train a leaf SVR");
  std::vector<double> w(fitted->w, fitted->w + n_features);
  free_and_destroy_model(&fitted);
  w.back() += ybar;
  return w;
}

}  // namespace svf
