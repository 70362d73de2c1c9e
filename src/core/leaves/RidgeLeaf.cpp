#include "RidgeLeaf.h"

namespace svf {

std::unique_ptr<LeafModel> RidgeLeafModel::create(const Params* params) {
  LinearRegressionOptions o;
  if (params) {
    o.grid = params->numbers("lambda");
    o.cv_folds = params->integer("cv_folds");
  }
  return std::unique_ptr<LeafModel>(new RidgeLeafModel(o));
}

std::vector<double> RidgeLeafModel::solve(const TrainingData&, const int*, size_t, const Eigen::MatrixXd& X,
                                          const Eigen::VectorXd& y, double lambda) const {
  const Eigen::Index m = X.rows(), p = X.cols() - 1;  // last column: the bias
  Eigen::VectorXd w(p + 1);
  if (m > p) {
    // (X'X + lambda D) w = X'y, D the identity without the bias
    Eigen::MatrixXd A = X.transpose() * X;
    A.diagonal().head(p).array() += lambda;
    w = A.ldlt().solve(X.transpose() * y);
  } else {
    // fewer rows than predictors: centre, solve the m x m dual system
    const Eigen::RowVectorXd mean = X.leftCols(p).colwise().mean();
    const Eigen::MatrixXd Xc = X.leftCols(p).rowwise() - mean;
    const double ybar = y.mean();
    Eigen::MatrixXd G = Xc * Xc.transpose();
    G.diagonal().array() += lambda;
    const Eigen::VectorXd alpha = G.ldlt().solve((y.array() - ybar).matrix());
    w.head(p) = Xc.transpose() * alpha;
    w[p] = ybar - mean.dot(w.head(p));
  }
  return std::vector<double>(w.data(), w.data() + w.size());
}

}  // namespace svf
