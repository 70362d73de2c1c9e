// Test hooks for RSVF's split criterion and the SVM solvers (not exported).
#include <Rcpp.h>

#include "core/LinearSvmLeaf.h"
#include "core/NewtonSvm.h"
#include "core/OobSvmSplitter.h"

namespace {

struct DenseProblem {
  svf::DenseView view;
  svf::TrainingData data;
  DenseProblem(Rcpp::NumericMatrix& x, Rcpp::IntegerVector& y, int num_classes)
      : view(x.begin(), x.nrow(), x.ncol()) {
    data.x = &view;
    data.y = y.begin();
    data.num_classes = num_classes;
    data.scaling = svf::fit_scaling(view, true);
    data.scaled = svf::ScaledRows(view, data.scaling);
  }
};

}  // namespace

// One binary SVM (label +1 where y == positive) on rows (0-based, repeats
// allowed) by LIBLINEAR or by the Newton solver with multiplicities.
// [[Rcpp::export(.svf_binary_svm)]]
Rcpp::NumericVector svf_binary_svm(Rcpp::NumericMatrix x, Rcpp::IntegerVector y, int positive,
                                   Rcpp::IntegerVector rows, double cost, double tolerance,
                                   bool newton) {
  DenseProblem pb(x, y, Rcpp::max(y) + 1);
  std::vector<double> w;
  if (newton) {
    std::vector<int> distinct, mult;
    svf::collapse_repeats(rows.begin(), rows.size(), distinct, mult);
    w = svf::train_binary_svm_newton(pb.data, distinct.data(), mult.data(), distinct.size(),
                                     positive, cost, true, tolerance, std::vector<double>());
  } else {
    w = svf::train_binary_svm(pb.data, rows.begin(), rows.size(), positive, cost, true, tolerance,
                              std::vector<double>());
  }
  return Rcpp::wrap(w);
}

// The same SVM by the dense Newton solver of RSVT's leaf cross-validation
// (rows 0-based, distinct).
// [[Rcpp::export(.svf_binary_svm_dense)]]
Rcpp::NumericVector svf_binary_svm_dense(Rcpp::NumericMatrix x, Rcpp::IntegerVector y,
                                         int positive, Rcpp::IntegerVector rows, double cost,
                                         double tolerance) {
  DenseProblem pb(x, y, Rcpp::max(y) + 1);
  const Eigen::MatrixXd X = svf::gather_scaled_rows(pb.data, rows.begin(), rows.size());
  Eigen::VectorXd labels(rows.size()), costs(rows.size());
  double n_pos = 0;
  for (R_xlen_t i = 0; i < rows.size(); ++i) n_pos += y[rows[i]] == positive;
  for (R_xlen_t i = 0; i < rows.size(); ++i) {
    const bool pos = y[rows[i]] == positive;
    labels[i] = pos ? 1.0 : -1.0;
    costs[i] = cost * rows.size() / (2.0 * (pos ? n_pos : rows.size() - n_pos));  // balanced
  }
  return Rcpp::wrap(svf::train_binary_svm_newton_dense(X, labels, costs, tolerance,
                                                       std::vector<double>()));
}

// RSVF's criterion for given candidates of one node: the node's SVM OOB
// errors, each candidate's child OOB errors (-1 invalid) and the chosen one
// (1-based, 0 = no split). Candidate c projects on features[[c]] (1-based)
// with raw-unit weights[[c]] and threshold taus[c].
// [[Rcpp::export(.svf_rsvf_criterion)]]
Rcpp::List svf_rsvf_criterion(Rcpp::NumericMatrix x, Rcpp::IntegerVector y, int num_classes,
                              Rcpp::IntegerVector inbag, Rcpp::IntegerVector oob,
                              Rcpp::List features, Rcpp::List weights, Rcpp::NumericVector taus,
                              double delta_tau, int min_leaf) {
  DenseProblem pb(x, y, num_classes);
  svf::OobSvmOptions opt;
  opt.delta_tau = delta_tau;
  opt.min_leaf = min_leaf;
  std::vector<int> distinct, mult;
  svf::collapse_repeats(inbag.begin(), inbag.size(), distinct, mult);
  std::vector<std::vector<double>> solution;
  const svf::NodeSvm parent = svf::fit_node_svm(pb.data, distinct.data(), mult.data(),
                                                distinct.size(), opt, nullptr, &solution);
  const long parent_errors = svf::count_errors(parent, pb.data, oob.begin(), oob.size());
  std::vector<long> child(taus.size());
  for (R_xlen_t c = 0; c < taus.size(); ++c) {
    svf::SplitRule rule;
    Rcpp::IntegerVector f = features[c];
    Rcpp::NumericVector w = weights[c];
    for (R_xlen_t k = 0; k < f.size(); ++k) {
      rule.index.push_back(f[k] - 1);
      rule.weight.push_back(w[k]);
    }
    auto proj = [&](int r) { return rule.projection([&](int col) { return pb.view.get(r, col); }); };
    std::vector<double> in(distinct.size()), out(oob.size());
    for (size_t k = 0; k < distinct.size(); ++k) in[k] = proj(distinct[k]);
    for (R_xlen_t k = 0; k < oob.size(); ++k) out[k] = proj(oob[k]);
    const double band = delta_tau * (*std::max_element(in.begin(), in.end()) -
                                     *std::min_element(in.begin(), in.end()));
    child[c] = svf::score_split(pb.data, distinct.data(), mult.data(), distinct.size(), in.data(),
                                oob.begin(), oob.size(), out.data(), taus[c], band, opt, solution,
                                LONG_MAX);
  }
  return Rcpp::List::create(Rcpp::Named("parent_errors") = (double)parent_errors,
                            Rcpp::Named("child_errors") = Rcpp::NumericVector(child.begin(), child.end()),
                            Rcpp::Named("chosen") = (double)(svf::best_split(child, parent_errors) + 1));
}
