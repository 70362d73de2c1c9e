// The OOB-SVM splitter's criteria: a candidate's children, their SVMs' out-of-bag
// errors, and the choice among the candidates.
#include "OobSvmNode.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "svm/LinearSvm.h"
#include "svm/NewtonSvm.h"

namespace svf {

bool split_children(const int* rows, const int* mult, size_t n, const double* proj_in, const int* oob,
                    size_t n_oob, const double* proj_oob, double tau, double band, size_t min_leaf,
                    ChildRows& c) {
  size_t n_all = 0, n_left = 0, n_right = 0;
  for (size_t k = 0; k < n; ++k) {
    const int times = mult ? mult[k] : 1;
    n_all += times;
    if (proj_in[k] <= tau + band) {
      c.left.push_back(rows[k]);
      c.mult_left.push_back(times);
      c.pos_left.push_back(static_cast<int>(k));
      n_left += times;
    }
    if (proj_in[k] > tau - band) {
      c.right.push_back(rows[k]);
      c.mult_right.push_back(times);
      c.pos_right.push_back(static_cast<int>(k));
      n_right += times;
    }
  }
  if (n_left < min_leaf || n_right < min_leaf || n_left >= n_all || n_right >= n_all) return false;
  for (size_t k = 0; k < n_oob; ++k) {
    const bool left = proj_oob[k] <= tau;
    (left ? c.oob_left : c.oob_right).push_back(oob[k]);
    (left ? c.at_left : c.at_right).push_back(static_cast<int>(k));
  }
  return true;
}


long score_split(const TrainingData& data, const int* rows, const int* mult, size_t n,
                 const double* proj_in, const int* oob, size_t n_oob, const double* proj_oob,
                 double tau, double band, const OobSvmOptions& opt,
                 const std::vector<std::vector<double>>& warm, long give_up, const OobRows* dense_oob,
                 const NewtonDesign* node_design, const int* node_pos,
                 const std::vector<std::vector<double>>* node_z) {
  ChildRows c;
  if (!split_children(rows, mult, n, proj_in, oob, n_oob, proj_oob, tau, band, opt.min_leaf, c)) return -1;
  if (dense_oob && dense_oob->x.empty()) dense_oob = nullptr;
  if (node_design && node_pos) {  // positions in rows -> positions in the node's design
    for (int& k : c.pos_left) k = node_pos[k];
    for (int& k : c.pos_right) k = node_pos[k];
  }
  const bool copy = node_design && node_design->xt.cols() > 0;
  // a child without OOB rows adds no error whatever its SVM: not fitted
  long errors = 0;
  if (!c.oob_left.empty()) {
    const NodeSvm svm = fit_node_svm(data, c.left.data(), c.mult_left.data(), c.left.size(), opt, &warm, nullptr,
                                     copy ? node_design : nullptr, c.pos_left.data(), node_z);
    errors = dense_oob ? count_errors(svm, data, *dense_oob, c.at_left.data(), c.at_left.size())
                       : count_errors(svm, data, c.oob_left.data(), c.oob_left.size());
    if (errors > give_up) return -2;
  }
  if (!c.oob_right.empty()) {
    const NodeSvm svm = fit_node_svm(data, c.right.data(), c.mult_right.data(), c.right.size(), opt, &warm, nullptr,
                                     copy ? node_design : nullptr, c.pos_right.data(), node_z);
    errors += dense_oob ? count_errors(svm, data, *dense_oob, c.at_right.data(), c.at_right.size())
                        : count_errors(svm, data, c.oob_right.data(), c.oob_right.size());
  }
  return errors;
}

long best_split(const std::vector<long>& child_errors, long parent_errors) {
  long best = -1;
  for (size_t c = 0; c < child_errors.size(); ++c) {
    const long e = child_errors[c];
    if (e < 0 || e >= parent_errors) continue;
    if (best < 0 || e < child_errors[best]) best = static_cast<long>(c);
  }
  return best;
}

}  // namespace svf
