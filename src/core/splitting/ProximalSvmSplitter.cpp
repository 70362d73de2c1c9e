#include "ProximalSvmSplitter.h"

#include <Eigen/Dense>

#include <algorithm>
#include <numeric>

#include "Impurity.h"

namespace svf {

std::unique_ptr<Splitter> ProximalSvmSplitter::create(const Params& params) {
  return std::unique_ptr<Splitter>(new ProximalSvmSplitter(
      params.number("nu"), params.integer("m_max"), params.integer("n_min"),
      params.text("psvm_cut") == "gain", params.integer("node_tries")));
}

std::vector<char> overlay_classes(const int* counts, int num_classes, Rng& rng) {
  std::vector<int> present;
  long total = 0;
  for (int k = 0; k < num_classes; ++k)
    if (counts[k] > 0) { present.push_back(k); total += counts[k]; }
  rng.shuffle(present.data(), present.size());
  std::vector<char> in_a(num_classes, 0);
  long in_group = 0;
  for (int k : present) {
    if (2 * in_group >= total) break;
    in_a[k] = 1;
    in_group += counts[k];
  }
  return in_a;
}

ProximalSystem::ProximalSystem(Eigen::Index m, double nu)
    : H_(Eigen::MatrixXd::Identity(m + 1, m + 1) / nu), rhs_(Eigen::VectorXd::Zero(m + 1)) {}

void ProximalSystem::add(const Eigen::Ref<const Eigen::MatrixXd>& E, const Eigen::Ref<const Eigen::VectorXd>& d) {
  H_.selfadjointView<Eigen::Lower>().rankUpdate(E.transpose());
  rhs_.noalias() += E.transpose() * d;
}

std::vector<double> ProximalSystem::solve() {
  H_.triangularView<Eigen::StrictlyUpper>() = H_.transpose();
  Eigen::VectorXd z = H_.ldlt().solve(rhs_);
  return std::vector<double>(z.data(), z.data() + z.size());
}

std::vector<double> solve_proximal_svm(const double* A, const double* d, size_t n, size_t m,
                                       double nu) {
  ProximalSystem system(static_cast<Eigen::Index>(m), nu);
  Eigen::MatrixXd E(std::min(n, kProximalBlock), m + 1);
  for (size_t start = 0; start < n; start += kProximalBlock) {
    const size_t nb = std::min(kProximalBlock, n - start);
    for (size_t k = 0; k < m; ++k)
      for (size_t r = 0; r < nb; ++r) E(r, k) = A[k * n + start + r];
    E.col(m).setConstant(-1.0);
    system.add(E.topRows(nb), Eigen::Map<const Eigen::VectorXd>(d + start, nb));
  }
  return system.solve();
}

bool ProximalSvmSplitter::find_split(const NodeContext& node, Rng& rng, SplitRule& rule) const {
  const TrainingData& data = *node.data;
  const int* rows = node.rows;
  const size_t n = node.n;
  std::vector<int> counts(data.num_classes, 0);
  for (size_t r = 0; r < n; ++r) ++counts[data.y[rows[r]]];
  // failed draws (no usable plane) are retried, up to kAttempts in all;
  // with tries > 1 the usable draws compete on information gain
  int found = 0;
  double best = -1.0;
  SplitRule candidate;
  for (int attempt = 0; attempt < kAttempts * tries_ && found < tries_; ++attempt) {
    double gain = 0.0;
    if (!try_split(data, rows, n, counts, rng, candidate, gain)) {
      if (attempt + 1 - found >= kAttempts) break;
      continue;
    }
    ++found;
    if (gain > best) { best = gain; rule = candidate; }
  }
  return found > 0;
}

bool ProximalSvmSplitter::try_split(const TrainingData& data, const int* rows, size_t n,
                                    const std::vector<int>& counts, Rng& rng,
                                    SplitRule& rule, double& gain) const {
  const int K = data.num_classes;
  const size_t p = data.x->n_cols();
  const std::vector<char> in_a = overlay_classes(counts.data(), K, rng);
  size_t n_a = 0;
  for (int k = 0; k < K; ++k) n_a += in_a[k] ? counts[k] : 0;
  if (n_a <= n_min_ || n - n_a <= n_min_) return false;

  const size_t m = 1 + rng.below(std::min(m_max_, p));
  std::vector<int> features(p);
  std::iota(features.begin(), features.end(), 0);
  for (size_t k = 0; k < m; ++k) std::swap(features[k], features[k + rng.below(p - k)]);
  features.resize(m);
  std::sort(features.begin(), features.end());

  // The normal equations are summed over blocks of rows, E = [A, -e] one
  // block at a time: the whole node's E would be the largest allocation of
  // a fit on big data (168 MB per thread at the root of 1e6 x 20 rows).
  const size_t block = std::min(n, kProximalBlock);
  Eigen::MatrixXd E(block, m + 1);
  Eigen::VectorXd d(block);
  auto gather_block = [&](size_t start, size_t nb) {
    for (size_t k = 0; k < m; ++k) {
      double* col = E.data() + k * block;
      data.x->gather(features[k], rows + start, nb, col);
      for (size_t r = 0; r < nb; ++r) col[r] = data.scaling.apply(features[k], col[r]);
    }
  };
  ProximalSystem system(static_cast<Eigen::Index>(m), nu_);
  E.col(m).setConstant(-1.0);
  for (size_t start = 0; start < n; start += block) {
    const size_t nb = std::min(block, n - start);
    gather_block(start, nb);
    for (size_t r = 0; r < nb; ++r) d[r] = in_a[data.y[rows[start + r]]] ? 1.0 : -1.0;
    system.add(E.topRows(nb), d.head(nb));
  }
  const std::vector<double> z = system.solve();

  // projections x'w of the node's rows (scaled units), a second pass
  std::vector<double> proj(n, 0.0);
  for (size_t start = 0; start < n; start += block) {
    const size_t nb = std::min(block, n - start);
    if (n > block) gather_block(start, nb);  // one block: E still holds it
    for (size_t k = 0; k < m; ++k) {
      const double* col = E.data() + k * block;
      for (size_t r = 0; r < nb; ++r) proj[start + r] += z[k] * col[r];
    }
  }
  double offset = z[m];
  std::vector<int> left_counts(K, 0);
  size_t left = 0;
  if (cut_at_gain_) {
    if (!best_cut(proj, rows, data.y, counts, offset, gain)) return false;
  } else {
    for (size_t r = 0; r < n; ++r)
      if (proj[r] - offset <= 0.0) { ++left; ++left_counts[data.y[rows[r]]]; }
    // the hyperplane must leave rows on both sides
    if (left == 0 || left == n) return false;
    gain = entropy_gain(counts.data(), left_counts.data(), K, n, left);
  }

  // x'w - gamma on scaled values = sum_k w_k f_k x_k - (gamma + sum_k w_k f_k c_k):
  // store the rule in raw units so prediction needs no scaling.
  std::vector<double> weight(m);
  double threshold = offset;
  for (size_t k = 0; k < m; ++k) {
    const int j = features[k];
    weight[k] = z[k] * data.scaling.factor[j];
    threshold += z[k] * data.scaling.factor[j] * data.scaling.center[j];
  }
  rule = SplitRule::oblique(features, weight, threshold);
  return true;
}

bool best_cut(const std::vector<double>& proj, const int* rows, const int* y,
              const std::vector<int>& counts, double& cut, double& gain) {
  const size_t n = proj.size();
  std::vector<std::pair<double, int>> sorted(n);  // (projection, class)
  for (size_t i = 0; i < n; ++i) sorted[i] = std::make_pair(proj[i], y[rows[i]]);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> left_counts(counts.size());
  gain = -HUGE_VAL;  // any cut: the node's gain is judged by the caller
  return best_entropy_cut(sorted, counts.data(), static_cast<int>(counts.size()), left_counts, cut, gain);
}

}  // namespace svf
