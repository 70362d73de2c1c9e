#include "OobSvmSplitter.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "svm/LinearSvm.h"
#include "svm/NewtonSvm.h"

namespace svf {

OobSvmSplitter::OobSvmSplitter(const OobSvmOptions& options) : opt_(options) {
  if (opt_.proj_dim < 1) opt_.proj_dim = 1;
  if (opt_.min_leaf < 1) opt_.min_leaf = 1;
}

namespace {

// One (theta, omega) pair: the rule's predictors and raw-unit weights, and
// the projections of the node's in-bag and out-of-bag rows.
struct Projection {
  std::vector<int> index;
  std::vector<double> weight;
  std::vector<double> in, out;
  double lo = 0.0, hi = 0.0;
};

struct Candidate {
  size_t projection;
  double tau;
};

}  // namespace

std::unique_ptr<Splitter> OobSvmSplitter::create(const Params& params) {
  OobSvmOptions o;
  o.n_theta = params.integer("n_theta");
  o.n_omega = params.integer("n_omega");
  o.n_tau = params.integer("n_tau");
  o.proj_dim = params.integer("proj_dim");
  o.delta_tau = params.number("delta_tau");
  o.min_leaf = params.integer("min_leaf_size");
  o.cost = params.numbers("cost").at(0);
  o.tolerance = params.number("split_tolerance");
  o.max_iter = params.integer("split_max_iter");
  // node_max_iter stays internal (100, a cap that is not reached): the
  // node's own SVMs stop at split_tolerance within a few Newton steps, so a
  // lower cap saves little time (letter) and a cap of 1 costs accuracy
  // (madelon)
  o.screen_fraction = params.number("screen_fraction");
  o.screen_keep = params.integer("screen_keep");
  o.min_class_rows = params.integer("min_class_rows");
  o.rare_as_negative = params.text("rare_classes") == "negative";
  o.balanced = params.flag("balanced");
  o.class_factor = params.numbers("class_factor");
  return std::unique_ptr<Splitter>(new OobSvmSplitter(o));
}

namespace {

// Draws every candidate (theta, omega, tau) of a node from the tree's
// generator: their projections of the node's distinct in-bag rows (`unique`)
// and out-of-bag rows, and thresholds from the in-bag (bootstrap) rows.
void draw_candidates(const TrainingData& data, const OobSvmOptions& opt, const int* rows, size_t n,
                     const std::vector<int>& unique, const int* oob, size_t n_oob, Rng& rng,
                     std::vector<Projection>& projections, std::vector<Candidate>& candidates) {
  const size_t nu = unique.size();
  const size_t p = data.x->n_cols();
  const size_t dim = std::min(opt.proj_dim, p);
  std::vector<int> features(p);
  std::vector<std::vector<double>> col_in(dim, std::vector<double>(nu)),
      col_out(dim, std::vector<double>(n_oob));
  const int kAttempts = 10;  // redraws of theta when the node is constant along it
  for (size_t t = 0; t < opt.n_theta; ++t) {
    std::vector<int> theta;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      for (size_t j = 0; j < p; ++j) features[j] = static_cast<int>(j);
      theta.clear();
      size_t remaining = p;
      bool varies = false;
      for (size_t k = 0; k < dim; ++k) {
        const size_t pick = rng.below(remaining);
        theta.push_back(features[pick]);
        features[pick] = features[--remaining];
        data.x->gather(theta[k], unique.data(), nu, col_in[k].data());
        if (data.scaling.factor[theta[k]] != 0.0) {
          auto mm = std::minmax_element(col_in[k].begin(), col_in[k].end());
          varies = varies || *mm.first < *mm.second;
        }
      }
      if (varies) break;
      theta.clear();
    }
    if (theta.empty()) continue;
    for (size_t k = 0; k < dim; ++k) data.x->gather(theta[k], oob, n_oob, col_out[k].data());
    for (size_t o = 0; o < opt.n_omega; ++o) {
      Projection pr;
      pr.index = theta;
      pr.weight.resize(dim);
      // omega applies to scaled predictors; in raw units it is omega * factor
      for (size_t k = 0; k < dim; ++k) pr.weight[k] = rng.uniform() * data.scaling.factor[theta[k]];
      pr.in.assign(nu, 0.0);
      pr.out.assign(n_oob, 0.0);
      for (size_t k = 0; k < dim; ++k) {
        for (size_t r = 0; r < nu; ++r) pr.in[r] += pr.weight[k] * col_in[k][r];
        for (size_t r = 0; r < n_oob; ++r) pr.out[r] += pr.weight[k] * col_out[k][r];
      }
      auto mm = std::minmax_element(pr.in.begin(), pr.in.end());
      pr.lo = *mm.first;
      pr.hi = *mm.second;
      const size_t index = projections.size();
      // tau: the projection of an in-bag row drawn from the bootstrap sample
      for (size_t k = 0; k < opt.n_tau; ++k) {
        const int r = rows[rng.below(n)];
        const size_t at = std::lower_bound(unique.begin(), unique.end(), r) - unique.begin();
        candidates.push_back({index, pr.in[at]});
      }
      projections.push_back(std::move(pr));
    }
  }
}

}  // namespace

namespace {

// Regression: ridge on the scaled rows weighted by their multiplicities,
// (X'MX + lambda D) w = X'My, D the identity without the bias.
std::vector<double> weighted_ridge(const TrainingData& data, const int* rows, const int* mult, size_t n,
                                   double lambda) {
  const Eigen::MatrixXd X = gather_scaled_rows(data, rows, n);
  const Eigen::Index p = X.cols() - 1;
  Eigen::VectorXd m(static_cast<Eigen::Index>(n)), my(static_cast<Eigen::Index>(n));
  for (size_t k = 0; k < n; ++k) {
    m[static_cast<Eigen::Index>(k)] = mult ? mult[k] : 1.0;
    my[static_cast<Eigen::Index>(k)] = m[static_cast<Eigen::Index>(k)] * data.response[rows[k]];
  }
  Eigen::MatrixXd A = X.transpose() * m.asDiagonal() * X;
  A.diagonal().head(p).array() += lambda;
  const Eigen::VectorXd w = A.ldlt().solve(X.transpose() * my);
  return std::vector<double>(w.data(), w.data() + w.size());
}

double squared_error(const std::vector<double>& w, const TrainingData& data, const int* rows, size_t n) {
  double sse = 0.0;
  for (size_t k = 0; k < n; ++k) {
    const double e = dot(w.data(), data.scaled.row(rows[k])) - data.response[rows[k]];
    sse += e * e;
  }
  return sse;
}

// The out-of-bag squared error of the children's ridge models of one
// candidate (as score_split() for classes): -1 invalid, -2 abandoned once
// the first child alone exceeds give_up.
double score_regression_split(const TrainingData& data, const int* rows, const int* mult, size_t n,
                              const double* proj_in, const int* oob, size_t n_oob, const double* proj_oob,
                              double tau, double band, size_t min_leaf, double lambda, double give_up) {
  ChildRows c;
  if (!split_children(rows, mult, n, proj_in, oob, n_oob, proj_oob, tau, band, min_leaf, c)) return -1.0;
  double sse = 0.0;
  if (!c.oob_left.empty()) {
    sse = squared_error(weighted_ridge(data, c.left.data(), c.mult_left.data(), c.left.size(), lambda), data,
                        c.oob_left.data(), c.oob_left.size());
    if (sse > give_up) return -2.0;
  }
  if (!c.oob_right.empty())
    sse += squared_error(weighted_ridge(data, c.right.data(), c.mult_right.data(), c.right.size(), lambda), data,
                         c.oob_right.data(), c.oob_right.size());
  return sse;
}

}  // namespace

bool OobSvmSplitter::find_regression_split(const NodeContext& node, const std::vector<int>& unique,
                                           const std::vector<int>& mult, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const double lambda = 1.0 / opt_.cost;
  const size_t nu = unique.size();
  const double parent_sse = squared_error(weighted_ridge(data, unique.data(), mult.data(), nu, lambda), data,
                                          node.oob, node.n_oob);
  if (!(parent_sse > 0.0)) return false;  // no split can lower it
  std::vector<Projection> projections;
  std::vector<Candidate> candidates;
  draw_candidates(data, opt_, node.rows, node.n, unique, node.oob, node.n_oob, rng, projections, candidates);
  if (candidates.empty()) return false;
  std::vector<double> child_sse(candidates.size(), -1.0);
  std::atomic<double> best_so_far(parent_sse);
  node.inner->run(candidates.size(), [&](size_t c) {
    const Projection& pr = projections[candidates[c].projection];
    const double e = score_regression_split(data, unique.data(), mult.data(), nu, pr.in.data(), node.oob,
                                            node.n_oob, pr.out.data(), candidates[c].tau,
                                            opt_.delta_tau * (pr.hi - pr.lo), opt_.min_leaf, lambda,
                                            best_so_far.load());
    child_sse[c] = e;
    double current = best_so_far.load();
    while (e >= 0.0 && e < current && !best_so_far.compare_exchange_weak(current, e)) {}
  });
  long best = -1;
  for (size_t c = 0; c < child_sse.size(); ++c) {
    if (child_sse[c] < 0.0 || !(child_sse[c] < parent_sse)) continue;
    if (best < 0 || child_sse[c] < child_sse[best]) best = static_cast<long>(c);
  }
  if (best < 0) return false;
  const Projection& pr = projections[candidates[best].projection];
  rule = SplitRule::oblique(pr.index, pr.weight, candidates[best].tau);
  rule.band = opt_.delta_tau * (pr.hi - pr.lo);
  return true;
}

namespace {

// 2a. screening: with more candidates than screen_keep, each is first
// scored with child SVMs trained on a random share (screen_fraction) of the
// node's distinct in-bag rows, and only the screen_keep best go on to 2b.
// Returns the finalists (all candidates without screening), in drawing order.
std::vector<size_t> screen_candidates(const NodeContext& node, const OobSvmOptions& opt, const std::vector<int>& unique,
                                      const std::vector<int>& mult, const std::vector<Projection>& projections,
                                      const std::vector<Candidate>& candidates,
                                      const std::vector<std::vector<double>>& parent_solution,
                                      const OobRows& dense_oob, const NewtonDesign& node_design,
                                      const std::vector<std::vector<double>>& node_z, Rng& rng) {
  const TrainingData& data = *node.data;
  const int* oob = node.oob;
  const size_t n_oob = node.n_oob, nu = unique.size();
  std::vector<size_t> finalists(candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) finalists[c] = c;
  const size_t n_screen = static_cast<size_t>(std::ceil(opt.screen_fraction * static_cast<double>(nu)));
  if (opt.screen_fraction < 1.0 && candidates.size() > opt.screen_keep && n_screen >= kMinScreenRows &&
      n_screen < nu) {
    // the subsample: n_screen of the distinct rows (partial Fisher-Yates), in row order
    std::vector<size_t> pick(nu);
    for (size_t k = 0; k < nu; ++k) pick[k] = k;
    for (size_t k = 0; k < n_screen; ++k) std::swap(pick[k], pick[k + rng.below(nu - k)]);
    pick.resize(n_screen);
    std::sort(pick.begin(), pick.end());
    std::vector<int> sub_rows(n_screen), sub_mult(n_screen), pick_pos(n_screen);
    for (size_t k = 0; k < n_screen; ++k) {
      pick_pos[k] = static_cast<int>(pick[k]);
      sub_rows[k] = unique[pick[k]];
      sub_mult[k] = mult[pick[k]];
    }
    std::vector<long> screen_errors(candidates.size(), -1);
    // no early abandoning here: the ranking must not depend on thread timing
    node.inner->run(candidates.size(), [&](size_t c) {
      const Projection& pr = projections[candidates[c].projection];
      std::vector<double> sub_proj(n_screen);
      for (size_t k = 0; k < n_screen; ++k) sub_proj[k] = pr.in[pick[k]];
      screen_errors[c] = score_split(data, sub_rows.data(), sub_mult.data(), n_screen, sub_proj.data(), oob, n_oob,
                                     pr.out.data(), candidates[c].tau, opt.delta_tau * (pr.hi - pr.lo), opt,
                                     parent_solution, std::numeric_limits<long>::max(), &dense_oob, &node_design,
                                     pick_pos.data(), &node_z);
    });
    // fewest screening errors first, invalid (-1) last, ties in drawing order
    auto rank = [&](size_t a, size_t b) {
      const long ea = screen_errors[a] < 0 ? std::numeric_limits<long>::max() : screen_errors[a];
      const long eb = screen_errors[b] < 0 ? std::numeric_limits<long>::max() : screen_errors[b];
      return ea < eb || (ea == eb && a < b);
    };
    std::sort(finalists.begin(), finalists.end(), rank);
    finalists.resize(opt.screen_keep);
    std::sort(finalists.begin(), finalists.end());
  }
  return finalists;
}

}  // namespace

bool OobSvmSplitter::find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  const int* oob = node.oob;
  const size_t n_oob = node.n_oob;
  // without out-of-bag rows there is nothing to judge a split on: leaf
  if (n_oob == 0) return false;
  // bootstrap duplicates become multiplicities: SVMs and projections work on
  // the distinct rows
  std::vector<int> unique, mult;
  collapse_repeats(rows, n, unique, mult);
  if (data.regression()) return find_regression_split(node, unique, mult, rng, rule);
  const size_t nu = unique.size();
  // e: the node's own SVM, which also warm-starts the children
  std::vector<std::vector<double>> parent_solution;
  // the node's rows as one dense design (Newton solver), from which the
  // children's designs are copied
  NewtonDesign node_design;
  if (static_cast<int>(data.x->n_cols()) + 1 <= kNewtonMaxDim || !data.x->is_sparse())
    build_newton_design(data, unique.data(), mult.data(), nu, node_design);
  std::vector<int> identity(nu);
  for (size_t k = 0; k < nu; ++k) identity[k] = static_cast<int>(k);
  // the node's own SVM is solved to split_tolerance (node_max_iter steps):
  // the error to beat, and the start of the children's SVMs
  OobSvmOptions node_opt = opt_;
  node_opt.max_iter = std::max(opt_.max_iter, opt_.node_max_iter);
  const NodeSvm parent = fit_node_svm(data, unique.data(), mult.data(), nu, node_opt, nullptr, &parent_solution,
                                      &node_design, identity.data());
  // the node's decision values, where the children's SVMs start
  std::vector<std::vector<double>> node_z(parent_solution.size());
  if (node_design.xt.rows() > 0)
    for (size_t k = 0; k < parent_solution.size(); ++k) {
      if (parent_solution[k].empty()) continue;
      node_z[k].resize(nu);
      Eigen::Map<Eigen::VectorXd>(node_z[k].data(), static_cast<Eigen::Index>(nu)).noalias() =
          node_design.xt.transpose() *
          Eigen::Map<const Eigen::VectorXd>(parent_solution[k].data(), node_design.xt.rows());
    }
  const long parent_errors = static_cast<long>(count_errors(parent, data, oob, n_oob));
  if (parent_errors == 0) return false;  // no split can lower it

  // 1. draw every candidate from the tree's generator
  std::vector<Projection> projections;
  std::vector<Candidate> candidates;
  draw_candidates(data, opt_, rows, n, unique, oob, n_oob, rng, projections, candidates);
  if (candidates.empty()) return false;
  // the OOB rows as dense rows, for all candidates (not for sparse data with
  // many predictors, where they would take too much memory)
  OobRows dense_oob;
  if (static_cast<int>(data.x->n_cols()) + 1 <= kNewtonMaxDim || !data.x->is_sparse())
    gather_oob_rows(data, oob, n_oob, dense_oob);

  // 2a. screening (see screen_candidates())
  const std::vector<size_t> finalists = screen_candidates(node, opt_, unique, mult, projections, candidates,
                                                          parent_solution, dense_oob, node_design, node_z, rng);

  // 2b. score them; a candidate stops early once it cannot beat the best so far
  std::vector<long> child_errors(candidates.size(), -1);
  std::atomic<long> best_so_far(parent_errors - 1);  // must beat the node: delta_e > 0
  node.inner->run(finalists.size(), [&](size_t f) {
    const size_t c = finalists[f];
    const Projection& pr = projections[candidates[c].projection];
    const long e = score_split(data, unique.data(), mult.data(), nu, pr.in.data(), oob, n_oob,
                               pr.out.data(),
                               candidates[c].tau, opt_.delta_tau * (pr.hi - pr.lo), opt_,
                               parent_solution, best_so_far.load(), &dense_oob, &node_design, identity.data(),
                               &node_z);
    child_errors[c] = e;
    // abandoned candidates had more errors than some other candidate (or than
    // allowed): they could not be chosen, so the choice is the same whatever
    // the order in which candidates finish
    long current = best_so_far.load();
    while (e >= 0 && e < current && !best_so_far.compare_exchange_weak(current, e)) {}
  });

  // 3. the best candidate, if it lowers the node's OOB error
  const long best = best_split(child_errors, parent_errors);
  if (best < 0) return false;
  const Projection& pr = projections[candidates[best].projection];
  rule = SplitRule::oblique(pr.index, pr.weight, candidates[best].tau);
  rule.band = opt_.delta_tau * (pr.hi - pr.lo);
  return true;
}

}  // namespace svf
