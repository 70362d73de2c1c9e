#include "OobSvmSplitter.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "svm/LinearSvm.h"
#include "svm/NewtonSvm.h"

namespace svf {

int NodeSvm::predict(const feature_node* row, size_t p) const {
  if (classes.size() < 2) return constant;
  double decision;
  return linear_class(w.data(), classes.data(), classes.size(), p, row, &decision);
}

namespace {

// Four dot products side by side, each summed in index order as a single
// loop would sum it: out[i] = sum_j w[i][j] * x[i][j].
inline void four_dots(const double* const w[4], const double* const x[4], size_t len, double out[4]) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (size_t j = 0; j < len; ++j) {
    s0 += w[0][j] * x[0][j];
    s1 += w[1][j] * x[1][j];
    s2 += w[2][j] * x[2][j];
    s3 += w[3][j] * x[3][j];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

// One binary SVM: the full-Hessian Newton solver on the node's dense design
// for few predictors, else LIBLINEAR on the rows repeated as often as they
// were drawn. negative >= 0: a two-class SVM, whose sides get opt.class_factor.
std::vector<double> binary_svm(const TrainingData& data, const NewtonDesign* design, const int* rows,
                               const int* mult, size_t n, int positive, int negative,
                               const OobSvmOptions& opt, const std::vector<double>& init,
                               const double* init_z = nullptr) {
  const bool factors = negative >= 0 && !opt.class_factor.empty();
  const double f_pos = factors ? opt.class_factor[positive] : 1.0;
  const double f_neg = factors ? opt.class_factor[negative] : 1.0;
  if (design)
    return train_binary_svm_newton(*design, positive, opt.cost, opt.balanced, opt.tolerance, init, f_pos,
                                   f_neg, opt.max_iter, init_z);
  if (!mult)
    return train_binary_svm(data, rows, n, positive, opt.cost, opt.balanced, opt.tolerance, init,
                            f_pos, f_neg);
  std::vector<int> expanded;
  for (size_t k = 0; k < n; ++k) expanded.insert(expanded.end(), mult[k], rows[k]);
  return train_binary_svm(data, expanded.data(), expanded.size(), positive, opt.cost,
                          opt.balanced, opt.tolerance, init, f_pos, f_neg);
}

}  // namespace

NodeSvm fit_node_svm(const TrainingData& data, const int* rows, const int* mult, size_t n,
                     const OobSvmOptions& opt, const std::vector<std::vector<double>>* warm,
                     std::vector<std::vector<double>>* solutions, const NewtonDesign* from,
                     const int* from_pos, const std::vector<std::vector<double>>* from_z) {
  const int K = data.num_classes;
  const size_t p1 = data.x->n_cols() + 1;
  std::vector<int> counts(K, 0);
  for (size_t k = 0; k < n; ++k) counts[data.y[rows[k]]] += mult ? mult[k] : 1;
  NodeSvm svm;
  // the constant class is the leaf's majority class (first on ties), as in leaf_class()
  svm.constant = static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  if (solutions) solutions->assign(K, std::vector<double>());
  bool constant = false;
  for (int k = 0; k < K; ++k) {
    if (counts[k] <= 0) continue;
    if (counts[k] < opt.min_class_rows) {
      if (!opt.rare_as_negative) constant = true;
      continue;
    }
    svm.classes.push_back(k);
  }
  if (constant || svm.classes.size() < 2) {
    svm.classes.clear();
    return svm;
  }
  // the rows as one dense design, shared by the class SVMs (Newton solver;
  // LIBLINEAR only for sparse data with many predictors)
  NewtonDesign design;
  const bool newton = static_cast<int>(p1) <= kNewtonMaxDim || !data.x->is_sparse();
  if (newton && from && from_pos && from->xt.rows() == static_cast<Eigen::Index>(p1)) {
    design.xt.resize(static_cast<Eigen::Index>(p1), static_cast<Eigen::Index>(n));
    design.weight.resize(n);
    design.label.resize(n);
    for (size_t i = 0; i < n; ++i) {
      design.xt.col(static_cast<Eigen::Index>(i)) = from->xt.col(from_pos[i]);
      design.weight[i] = mult ? mult[i] : 1.0;
      design.label[i] = data.y[rows[i]];
    }
  } else if (newton) {
    build_newton_design(data, rows, mult, n, design);
  }
  const NewtonDesign* dp = newton ? &design : nullptr;
  static const std::vector<double> none;
  auto start = [&](int k) -> const std::vector<double>& {
    return warm && !(*warm)[k].empty() ? (*warm)[k] : none;
  };
  // Newton solver: the one-vs-rest problems' gradients at 0 from per-class
  // sums (one pass over the rows for all), and the starting decision values
  // from the node's (from_z), not recomputed: two matrix-vector products
  // over the rows per class saved (7% of an RSVF fit on letter, same model)
  if (newton && svm.classes.size() > 2) sum_design_classes(design, K);
  std::vector<double> z_start;
  auto start_z = [&](int k, double sign) -> const double* {
    if (!newton || !from || !from_pos || !from_z || (*from_z)[k].empty() || start(k).empty()) return nullptr;
    z_start.resize(n);
    for (size_t i = 0; i < n; ++i) z_start[i] = sign * (*from_z)[k][from_pos[i]];
    return z_start.data();
  };
  if (svm.classes.size() == 2) {
    const int pos = svm.classes[1], neg = svm.classes[0];
    std::vector<double> init = start(pos);
    const double* init_z = start_z(pos, 1.0);
    if (init.empty() && !start(neg).empty()) {
      init = start(neg);
      for (double& v : init) v = -v;
      init_z = start_z(neg, -1.0);
    }
    svm.w = binary_svm(data, dp, rows, mult, n, pos, neg, opt, init, init_z);
    if (solutions) {
      (*solutions)[pos] = svm.w;
      (*solutions)[neg] = svm.w;
      for (double& v : (*solutions)[neg]) v = -v;
    }
    return svm;
  }
  svm.w.reserve(svm.classes.size() * p1);
  for (int k : svm.classes) {
    std::vector<double> w = binary_svm(data, dp, rows, mult, n, k, -1, opt, start(k), start_z(k, 1.0));
    svm.w.insert(svm.w.end(), w.begin(), w.end());
    if (solutions) (*solutions)[k] = std::move(w);
  }
  return svm;
}

size_t count_errors(const NodeSvm& svm, const TrainingData& data, const int* rows, size_t n) {
  const size_t p = data.x->n_cols();
  size_t wrong = 0;
  for (size_t k = 0; k < n; ++k)
    wrong += svm.predict(data.scaled.row(rows[k]), p) != data.y[rows[k]];
  return wrong;
}

void gather_oob_rows(const TrainingData& data, const int* oob, size_t n, OobRows& out) {
  out.ids = oob;
  out.n = n;
  out.p1 = data.x->n_cols() + 1;
  out.x.assign(n * out.p1, 0.0);
  for (size_t k = 0; k < n; ++k) {
    double* row = out.x.data() + k * out.p1;
    for (const feature_node* e = data.scaled.row(oob[k]); e->index != -1; ++e) row[e->index - 1] = e->value;
  }
}

size_t count_errors(const NodeSvm& svm, const TrainingData& data, const OobRows& rows, const int* at,
                    size_t n) {
  const size_t p1 = rows.p1;
  const int* y = data.y;
  if (svm.classes.size() < 2) {
    size_t wrong = 0;
    for (size_t k = 0; k < n; ++k) wrong += svm.constant != y[rows.ids[at[k]]];
    return wrong;
  }
  // Each decision value is summed in column order, as dot() sums a row's
  // non-zero entries (a zero entry adds +-0, which leaves the sum as it is),
  // so the classes are those of count_errors(); four sums run side by side.
  size_t wrong = 0;
  const double* w = svm.w.data();
  if (svm.classes.size() == 2) {
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
      const double* const ws[4] = {w, w, w, w};
      const double* const xs[4] = {&rows.x[at[k] * p1], &rows.x[at[k + 1] * p1], &rows.x[at[k + 2] * p1],
                                   &rows.x[at[k + 3] * p1]};
      double s[4];
      four_dots(ws, xs, p1, s);
      for (size_t i = 0; i < 4; ++i)
        wrong += (s[i] > 0.0 ? svm.classes[1] : svm.classes[0]) != y[rows.ids[at[k + i]]];
    }
    for (; k < n; ++k) {
      const double* x = &rows.x[at[k] * p1];
      double s = 0.0;
      for (size_t j = 0; j < p1; ++j) s += w[j] * x[j];
      wrong += (s > 0.0 ? svm.classes[1] : svm.classes[0]) != y[rows.ids[at[k]]];
    }
    return wrong;
  }
  const size_t n_out = svm.classes.size();
  std::vector<double> dec(n_out);
  for (size_t k = 0; k < n; ++k) {
    const double* x = &rows.x[at[k] * p1];
    size_t o = 0;
    for (; o + 4 <= n_out; o += 4) {
      const double* const ws[4] = {w + o * p1, w + (o + 1) * p1, w + (o + 2) * p1, w + (o + 3) * p1};
      const double* const xs[4] = {x, x, x, x};
      four_dots(ws, xs, p1, &dec[o]);
    }
    for (; o < n_out; ++o) {
      const double* wo = w + o * p1;
      double s = 0.0;
      for (size_t j = 0; j < p1; ++j) s += wo[j] * x[j];
      dec[o] = s;
    }
    size_t best = 0;
    for (size_t c = 1; c < n_out; ++c)
      if (dec[c] > dec[best]) best = c;
    wrong += svm.classes[best] != y[rows.ids[at[k]]];
  }
  return wrong;
}

namespace {

// The rows of a candidate's two children: in-bag rows (with multiplicities;
// rows within `band` of tau go to both) and out-of-bag rows (plain rule).
struct ChildRows {
  std::vector<int> left, right, mult_left, mult_right, oob_left, oob_right;
  std::vector<int> at_left, at_right;  // positions of oob_left, oob_right in the node's OOB rows
  std::vector<int> pos_left, pos_right;  // positions of left, right in rows[0..n)
};

// False when the split is invalid: a child with fewer than min_leaf in-bag
// rows, or with all of them (rows count mult times).
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

}  // namespace

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
  // lower cap saves little (letter, 2 threads: cap 10 gave the same forest;
  // cap 1, the former behaviour, 41.6 s against 42.2 s, within load noise)
  // and a cap of 1 costs accuracy (madelon seed 1: 0.565 against 0.607)
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

  // 2a. screening: with more candidates than screen_keep, each is first
  // scored with child SVMs trained on a random share (screen_fraction) of the
  // node's distinct in-bag rows, and only the screen_keep best go on to 2b
  std::vector<size_t> finalists(candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) finalists[c] = c;
  const size_t n_screen = static_cast<size_t>(std::ceil(opt_.screen_fraction * static_cast<double>(nu)));
  if (opt_.screen_fraction < 1.0 && candidates.size() > opt_.screen_keep && n_screen >= kMinScreenRows &&
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
                                     pr.out.data(), candidates[c].tau, opt_.delta_tau * (pr.hi - pr.lo), opt_,
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
    finalists.resize(opt_.screen_keep);
    std::sort(finalists.begin(), finalists.end());
  }

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
