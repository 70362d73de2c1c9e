// Test hooks: the engine's building blocks, called by the tests only (not
// exported): the PSVM splitter's pieces, the transformation learner, the
// SVM solvers and RSVF's split criterion, TD-SVM's leaf merging, a tree's
// sample, and the competing-risks pieces (curves, log-rank, target).
#include <Rcpp.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "core/common/Random.h"
#include "core/forest/Sampler.h"
#include "core/forest/TdSvm.h"
#include "core/forest/TreeGrower.h"
#include "core/outcome/competing/CompetingLogRank.h"
#include "core/outcome/competing/CumulativeIncidence.h"
#include "core/splitting/OobSvmNode.h"
#include "core/splitting/ProximalSvm.h"
#include "core/splitting/Splitter.h"
#include "core/splitting/TransformLearning.h"
#include "core/splitting/search/CutSearch.h"
#include "core/svm/LinearSvm.h"
#include "core/svm/NewtonSvm.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

// Test hooks for the PSVM splitter's building blocks.

// [[Rcpp::export(.svf_proximal_svm)]]
Rcpp::NumericVector svf_proximal_svm(Rcpp::NumericMatrix A, Rcpp::NumericVector d, double nu) {
  std::vector<double> z = svf::solve_proximal_svm(A.begin(), d.begin(), A.nrow(), A.ncol(), nu);
  return Rcpp::wrap(z);
}

// [[Rcpp::export(.svf_overlay_classes)]]
Rcpp::LogicalVector svf_overlay_classes(Rcpp::IntegerVector counts, double seed) {
  svf::Rng rng(static_cast<uint64_t>(seed), 0);
  std::vector<char> a = svf::overlay_classes(counts.begin(), counts.size(), rng);
  return Rcpp::LogicalVector(a.begin(), a.end());
}

// Test hooks for the transformation splitter: A and B hold the two groups'
// rows (as rows); returns T, the objective trace and each group's basis.

// [[Rcpp::export(.svf_learn_transform)]]
List svf_learn_transform(Rcpp::NumericMatrix A, Rcpp::NumericMatrix B, int rank, int iterations,
                         double step, int dim) {
  if (A.ncol() != B.ncol() || A.nrow() < 1 || B.nrow() < 1 || dim < 1 || iterations < 0)
    Rcpp::stop("bad arguments");
  Eigen::Map<const Eigen::MatrixXd> a(A.begin(), A.nrow(), A.ncol()), b(B.begin(), B.nrow(), B.ncol());
  const Eigen::MatrixXd at = a.transpose(), bt = b.transpose();
  const svf::LearnedTransform lt = svf::learn_transform(at, bt, rank, iterations, step);
  auto to_r = [](const Eigen::MatrixXd& m) {
    Rcpp::NumericMatrix out(m.rows(), m.cols());
    std::copy(m.data(), m.data() + m.size(), out.begin());
    return out;
  };
  return List::create(Named("T") = to_r(lt.T), Named("objective") = Rcpp::wrap(lt.objective),
                      Named("basis_a") = to_r(svf::group_basis(lt.T, at, dim)),
                      Named("basis_b") = to_r(svf::group_basis(lt.T, bt, dim)));
}

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
    Rcpp::IntegerVector f = features[c];
    Rcpp::NumericVector w = weights[c];
    std::vector<int> index;
    for (R_xlen_t k = 0; k < f.size(); ++k) index.push_back(f[k] - 1);
    const svf::SplitRule rule = svf::SplitRule::oblique(index, Rcpp::as<std::vector<double>>(w), 0.0);
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

// Test hook: a CART tree grown with sigma0 and merged to sigma, and the tree
// grown with sigma directly (structures and leaf rows only).
// [[Rcpp::export(.svf_cart_merge)]]
List svf_cart_merge(List data, Rcpp::IntegerVector y, int num_classes, int sigma0, int sigma) {
  std::unique_ptr<svf::DataView> x = data_view_from_r(data);
  if (static_cast<size_t>(y.size()) != x->n_rows()) Rcpp::stop("internal: length of y");
  svf::TrainingData td;
  td.x = x.get();
  td.y = y.begin();
  td.num_classes = num_classes;
  std::vector<int> rows(x->n_rows());
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<int>(r);
  svf::GrowOptions go;
  svf::GrownTree small, merged, direct;
  svf::Rng rng(1, 0);
  svf::SerialRunner serial;
  svf::grow_tree(td, rows, std::vector<int>(), *svf::make_cart_splitter(sigma0), go, rng, serial, small);
  svf::merge_leaves(small, sigma, x->n_cols(), merged);
  svf::grow_tree(td, rows, std::vector<int>(), *svf::make_cart_splitter(sigma), go, rng, serial, direct);
  auto out = [](const svf::GrownTree& g) {
    return List::create(Named("tree") = tree_to_r_plain(g.tree), Named("leaf_counts") = Rcpp::wrap(g.leaf_counts),
                        Named("rows") = Rcpp::wrap(g.rows),
                        Named("leaf_begin") = Rcpp::wrap(std::vector<double>(g.leaf_begin.begin(), g.leaf_begin.end())));
  };
  return List::create(Named("small") = out(small), Named("merged") = out(merged), Named("direct") = out(direct));
}

// A transformation split rule as the splitters write it: kind "transform"
// (values [T, U_A, U_B]) or "affine_transform" (values [c, T, m_A, m_B, U_A,
// U_B]) on p predictors, folded into its projected kind when that is
// smaller. Returns the rule's kind code and payload.
// [[Rcpp::export(.svf_transform_rule)]]
List svf_transform_rule(std::string kind, int rank, int dim, Rcpp::NumericVector values, int p) {
  std::vector<double> v(values.begin(), values.end());
  const svf::SplitRule rule = kind == "transform" ? svf::SplitRule::subspace(rank, dim, v, p)
                                                  : svf::SplitRule::affine(rank, dim, v, p);
  return List::create(Named("kind") = rule.kind, Named("ints") = Rcpp::wrap(rule.ints),
                      Named("reals") = Rcpp::wrap(rule.reals));
}

// Tree `index` (from 0) of a fit with `seed`: its out-of-bag rows drawn
// again as the fit draws them (grow_structure() in Forest.cpp), from 1:
// `scoring` and `choosing` (empty without a choosing share). weights: NULL
// or the fit's case weights.
// [[Rcpp::export(.svf_tree_oob_rows)]]
List svf_tree_oob_rows(int n, std::string sampler, double fraction, SEXP weights, double seed, double index,
                       double choosing_share) {
  if (n < 1 || !(seed >= 0) || !(index >= 0)) Rcpp::stop("internal: n, seed or index");
  svf::Rng rng(static_cast<uint64_t>(seed), svf::stream_id(static_cast<uint64_t>(index), -1));
  std::vector<int> scoring = svf::draw_sample(svf::sampler_named(sampler), static_cast<size_t>(n), fraction, rng,
                                              case_weights_from_r(weights, static_cast<size_t>(n))).oob;
  std::vector<int> choosing;
  if (choosing_share > 0.0) choosing = svf::take_choosing_rows(scoring, choosing_share, rng);
  for (int& r : scoring) ++r;
  for (int& r : choosing) ++r;
  return List::create(Named("scoring") = Rcpp::wrap(scoring), Named("choosing") = Rcpp::wrap(choosing));
}

// Competing-risks pieces on all rows of (time_index 0-based on a grid of
// grid_size times, -1 before it; cause 0..n_causes; weight empty or one per
// row), checked here so that a bad test input is an error, not a crash.
namespace {

struct CompetingInput {
  svf::CompetingRows rows;
  std::vector<int> all;
  CompetingInput(Rcpp::IntegerVector& time_index, Rcpp::IntegerVector& cause, Rcpp::NumericVector& weight,
                 int n_causes, int grid_size) {
    const R_xlen_t n = time_index.size();
    if (cause.size() != n || (weight.size() && weight.size() != n) || n_causes < 1 || grid_size < 0)
      Rcpp::stop("bad arguments");
    for (R_xlen_t i = 0; i < n; ++i) {
      if (time_index[i] < -1 || time_index[i] >= grid_size || cause[i] < 0 || cause[i] > n_causes ||
          (cause[i] > 0 && time_index[i] < 0) || (weight.size() && !(weight[i] > 0)))
        Rcpp::stop("bad row %d", static_cast<int>(i + 1));
      all.push_back(static_cast<int>(i));
    }
    rows.time_index = time_index.begin();
    rows.cause = cause.begin();
    rows.weight = weight.size() ? weight.begin() : nullptr;
    rows.n_causes = n_causes;
    rows.grid_size = grid_size;
  }
  svf::CompetingTable table() const {
    svf::CompetingTable t;
    svf::build_competing_table(rows, all.data(), all.size(), t);
    return t;
  }
};

}  // namespace

// [[Rcpp::export(.svf_competing_curves)]]
List svf_competing_curves(Rcpp::IntegerVector time_index, Rcpp::IntegerVector cause, Rcpp::NumericVector weight,
                          int n_causes, int grid_size) {
  CompetingInput in(time_index, cause, weight, n_causes, grid_size);
  const svf::CompetingCurves c = svf::competing_curves(in.rows, in.all.data(), in.all.size());
  const int n_at = static_cast<int>(c.n_at());
  Rcpp::NumericMatrix cif(n_at, n_causes), chf(n_at, n_causes);
  for (int a = 0; a < n_at; ++a)
    for (int k = 0; k < n_causes; ++k) {
      cif(a, k) = c.cif[a * n_causes + k];
      chf(a, k) = c.chf[a * n_causes + k];
    }
  Rcpp::IntegerVector at(c.at.begin(), c.at.end());
  Rcpp::NumericVector step_cif(grid_size);  // cause 1's lookup at every grid index
  for (int j = 0; j < grid_size; ++j) step_cif[j] = c.cif_at(1, j);
  return List::create(Named("at") = at + 1, Named("survival") = Rcpp::wrap(c.survival), Named("cif") = cif,
                      Named("chf") = chf, Named("cif1_on_grid") = step_cif);
}

// [[Rcpp::export(.svf_competing_logrank)]]
List svf_competing_logrank(Rcpp::IntegerVector time_index, Rcpp::IntegerVector cause, Rcpp::LogicalVector left,
                           int n_causes, int grid_size) {
  Rcpp::NumericVector none;
  CompetingInput in(time_index, cause, none, n_causes, grid_size);
  if (left.size() != time_index.size()) Rcpp::stop("bad arguments");
  std::vector<char> l(left.begin(), left.end());
  std::vector<double> per_cause;
  const double composite = svf::competing_logrank(in.table(), l, per_cause);
  return List::create(Named("per_cause") = Rcpp::wrap(per_cause), Named("composite") = composite);
}

// [[Rcpp::export(.svf_competing_best_cut)]]
Rcpp::NumericVector svf_competing_best_cut(Rcpp::NumericVector values, Rcpp::IntegerVector time_index,
                                           Rcpp::IntegerVector cause, int n_causes, int grid_size, int min_leaf) {
  Rcpp::NumericVector none;
  CompetingInput in(time_index, cause, none, n_causes, grid_size);
  if (values.size() != time_index.size() || min_leaf < 1) Rcpp::stop("bad arguments");
  std::vector<std::pair<double, int>> sorted;
  for (R_xlen_t i = 0; i < values.size(); ++i) sorted.emplace_back(values[i], static_cast<int>(i));
  std::sort(sorted.begin(), sorted.end());
  double cut = NA_REAL, gain = 0.0;
  const svf::CompetingTable table = in.table();  // the scan reads it
  const std::unique_ptr<svf::CutScan> scan = svf::competing_cut_scan(table);
  const bool found = svf::search_cut(*scan, sorted, static_cast<size_t>(min_leaf), cut, gain);
  return Rcpp::NumericVector::create(found ? 1.0 : 0.0, cut, gain);
}

// [[Rcpp::export(.svf_competing_target)]]
Rcpp::NumericVector svf_competing_target(Rcpp::IntegerVector time_index, Rcpp::IntegerVector cause,
                                         Rcpp::NumericVector cause_weights, int n_causes, int grid_size) {
  Rcpp::NumericVector none;
  CompetingInput in(time_index, cause, none, n_causes, grid_size);
  if (cause_weights.size() != n_causes) Rcpp::stop("bad arguments");
  Rcpp::NumericVector out(time_index.size());
  svf::competing_target(in.table(), std::vector<double>(cause_weights.begin(), cause_weights.end()), out.begin());
  return out;
}
