// The proximal SVM of a PSVM node (ProximalSvmSplitter.h), apart from the
// splitter class: the overlay-class groups, the normal equations summed over
// blocks of rows, and the cut of largest information gain.
#ifndef SVFOREST_PROXIMALSVM_H
#define SVFOREST_PROXIMALSVM_H

#include <Eigen/Dense>

#include <vector>

#include "common/Random.h"

namespace svf {

// Group A membership (1) of each class, by the overlay-class rule.
std::vector<char> overlay_classes(const int* counts, int num_classes, Rng& rng);

// Rows per block when the proximal SVM's normal equations are summed.
const size_t kProximalBlock = 4096;

// The proximal SVM's normal equations (I / nu + E'E) z = E'd, summed over
// blocks of rows of E = [A, -e] (labels d = +1 / -1), then solved.
class ProximalSystem {
 public:
  ProximalSystem(Eigen::Index m, double nu);
  void add(const Eigen::Ref<const Eigen::MatrixXd>& E, const Eigen::Ref<const Eigen::VectorXd>& d);
  std::vector<double> solve();  // (w_1..w_m, gamma); call once

 private:
  Eigen::MatrixXd H_;
  Eigen::VectorXd rhs_;
};

// Solves the proximal SVM on n rows x m features (column-major A) with labels
// d (+1 / -1); returns (w_1..w_m, gamma). The same sums as the splitter.
std::vector<double> solve_proximal_svm(const double* A, const double* d, size_t n, size_t m,
                                       double nu);

// The cut along the projections proj (of rows with classes y[rows[i]]) of
// largest information gain, midway between consecutive distinct values;
// false when all projections are equal.
bool best_cut(const std::vector<double>& proj, const int* rows, const int* y,
              const std::vector<int>& counts, double& cut, double& gain);

}  // namespace svf
#endif
