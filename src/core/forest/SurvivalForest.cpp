#include "SurvivalForest.h"

#include <cmath>
#include <numeric>

#include "LevelValues.h"
#include "Predictor.h"
#include "tree/Route.h"
#include "data/RowSource.h"

namespace svf {

double harrell_c(const TrainingData& data, const int* rows, size_t m, const double* risk) {
  double concordant = 0.0, pairs = 0.0;
  for (size_t a = 0; a < m; ++a) {
    const int i = rows[a];
    if (!data.status[i]) continue;
    for (size_t b = 0; b < m; ++b) {
      const int j = rows[b];
      if (!(data.time[j] > data.time[i])) continue;
      pairs += 1.0;
      concordant += risk[a] > risk[b] ? 1.0 : risk[a] == risk[b] ? 0.5 : 0.0;
    }
  }
  return pairs > 0.0 ? concordant / pairs : NAN;
}

int survival_leaf(const TreeView& tree, size_t p, const RowSource& rows, size_t row, std::vector<double>& scratch) {
  if (tree.n_factor_int)
    return route(tree, p, [&](int col) { return level_value(tree, col, rows.get(row, col)); }, scratch);
  return route(tree, p, [&](int col) { return rows.get(row, col); }, scratch);
}

void add_leaf_steps(const TreeView& tree, int leaf, double* steps) {
  const LeafPayload payload = leaf_payload(tree, leaf);
  const int m = payload.ints[0];
  const int* grid = payload.ints + 1;
  double before = 0.0;
  for (int k = 0; k < m; ++k) {
    steps[grid[k]] += payload.reals[k] - before;
    before = payload.reals[k];
  }
}

void add_leaf_chf(const TreeView& tree, int leaf, size_t T, double* sum) {
  const LeafPayload payload = leaf_payload(tree, leaf);
  const int m = payload.ints[0];
  for (int k = 0; k < m; ++k) {
    const size_t end = k + 1 < m ? static_cast<size_t>(payload.ints[k + 2]) : T;
    for (size_t j = static_cast<size_t>(payload.ints[k + 1]); j < end; ++j) sum[j] += payload.reals[k];
  }
}

void accumulate_steps(const double* steps, size_t T, double count, double* out, size_t stride) {
  double running = 0.0;
  for (size_t j = 0; j < T; ++j) {
    running += steps[j];
    out[j * stride] = running / count;
  }
}

namespace {

struct SurvivalTree {
  GrownTree grown;
  std::vector<int> scoring;  // the out-of-bag rows that chose nothing
};

// Fits the leaves of a grown structure into its tree.
void fit_leaves(const TrainingData& data, const LeafModel& leaf_model, GrownTree& g, Rng& rng) {
  const size_t L = g.tree.leaf_size.size();
  std::vector<LeafFit> fits(L);
  for (size_t l = 0; l < L; ++l)
    leaf_model.fit(data, g.rows.data() + g.leaf_begin[l], g.leaf_begin[l + 1] - g.leaf_begin[l], nullptr, rng,
                   fits[l]);
  assemble_leaves(g.tree, fits.cbegin());
  g.rows = std::vector<int>();
}

// Each row's risk (sum of the tree's CHF over the grid) in the tree.
std::vector<double> tree_risks(const TrainingData& data, const Tree& tree, const std::vector<int>& rows) {
  OutcomeShape shape;
  shape.p = data.x->n_cols();
  shape.num_times = data.num_times;
  const TreeView view = view_of(tree);
  const TrainingRows source(data);
  std::vector<double> route_scratch, leaf_risk(view.n_leaves, -1.0), risk(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    const int leaf = survival_leaf(view, shape.p, source, rows[k], route_scratch);
    if (leaf_risk[leaf] < 0.0) {
      // the sum of the leaf's CHF over the grid: each step counts at every later time
      const LeafPayload payload = leaf_payload(view, leaf);
      double sum = 0.0, before = 0.0;
      for (int j = 0; j < payload.ints[0]; ++j) {
        sum += (payload.reals[j] - before) * static_cast<double>(data.num_times - payload.ints[1 + j]);
        before = payload.reals[j];
      }
      leaf_risk[leaf] = sum;
    }
    risk[k] = leaf_risk[leaf];
  }
  return risk;
}

// 1 - Harrell's C of the tree on the choosing rows (0.5 without pairs).
double structure_loss(const TrainingData& data, const Tree& tree, const std::vector<int>& rows) {
  const std::vector<double> risk = tree_risks(data, tree, rows);
  const double c = harrell_c(data, rows.data(), rows.size(), risk.data());
  return std::isnan(c) ? 0.5 : 1.0 - c;
}

// Tree t: its sample, its structure (with rival splitters, the best of the
// structures on the choosing rows; the splitter's on a tie) and its leaves.
void grow_survival_tree(const TrainingData& data, const Splitter& splitter,
                        const std::vector<std::unique_ptr<Splitter>>& rivals, const LeafModel& leaf_model,
                        const ForestOptions& options, uint64_t t, SurvivalTree& out) {
  Rng rng(options.seed, stream_id(t, -1));
  // weights reweight the draw of a subsample instead of copying rows, so
  // min_node_size and min_leaf_size count distinct rows
  const bool weighted_subsample = data.weights && options.sampler == SamplerType::Subsample;
  Sample sample = weighted_subsample
                      ? draw_weighted_subsample(data.x->n_rows(), options.sample_fraction, rng, data.weights)
                      : draw_sample(options.sampler, data.x->n_rows(), options.sample_fraction, rng, data.weights);
  out.scoring = std::move(sample.oob);
  const double share = splitter.choosing_share();
  std::vector<int> choosing = share > 0.0 ? take_choosing_rows(out.scoring, share, rng) : out.scoring;
  SerialRunner serial;
  // every structure from the same sample and random stream
  std::vector<GrownTree> others(rivals.size());
  std::vector<Rng> rival_rngs(rivals.size(), rng);
  for (size_t k = 0; k < rivals.size(); ++k)
    grow_tree(data, sample.inbag, choosing, *rivals[k], options.grow, rival_rngs[k], serial, others[k]);
  grow_tree(data, std::move(sample.inbag), choosing, splitter, options.grow, rng, serial, out.grown);
  for (size_t k = 0; k < rivals.size(); ++k) fit_leaves(data, leaf_model, others[k], rival_rngs[k]);
  fit_leaves(data, leaf_model, out.grown, rng);
  if (!rivals.empty()) {
    double best = structure_loss(data, out.grown.tree, choosing);
    for (GrownTree& other : others) {
      const double loss = structure_loss(data, other.tree, choosing);
      if (loss < best) {
        best = loss;
        out.grown = std::move(other);
      }
    }
  }
  // every out-of-bag row (choosing and scoring, each once) per leaf: the
  // tree table's n_oob
  std::vector<int> oob = out.scoring;
  if (share > 0.0) oob.insert(oob.end(), choosing.begin(), choosing.end());
  out.grown.tree.leaf_oob = count_leaf_rows(view_of(out.grown.tree), data.x->n_cols(), TrainingRows(data), oob);
}

}  // namespace

SurvivalForestFit train_survival_forest(const TrainingData& data, const Splitter& splitter,
                                        const LeafModel& leaf_model, const ForestOptions& options,
                                        TaskRunner& runner) {
  const size_t n = data.x->n_rows(), T = static_cast<size_t>(data.num_times);
  const std::vector<std::unique_ptr<Splitter>> rivals =
      options.sampler != SamplerType::All ? splitter.rivals() : std::vector<std::unique_ptr<Splitter>>();
  std::vector<SurvivalTree> work(options.ntree);
  runner.run(options.ntree, [&](size_t t) {
    grow_survival_tree(data, splitter, rivals, leaf_model, options, options.first_tree + t, work[t]);
  });
  SurvivalForestFit fit;
  // out of bag: each row adds its scoring trees in tree order
  std::vector<std::vector<int>> trees_of_row(n);
  for (size_t t = 0; t < work.size(); ++t)
    for (int r : work[t].scoring) trees_of_row[r].push_back(static_cast<int>(t));
  fit.oob.chf_sum.assign(n * T, 0.0);
  fit.oob.count.assign(n, 0);
  OutcomeShape shape;
  shape.p = data.x->n_cols();
  shape.num_times = data.num_times;
  const TrainingRows source(data);
  runner.run(n, [&](size_t r) {
    std::vector<double> route_scratch, sum(T, 0.0);
    for (int t : trees_of_row[r]) {
      const TreeView view = view_of(work[t].grown.tree);
      add_leaf_chf(view, survival_leaf(view, shape.p, source, r, route_scratch), T, sum.data());
      ++fit.oob.count[r];
    }
    for (size_t j = 0; j < T; ++j) fit.oob.chf_sum[j * n + r] = sum[j];
  });
  fit.trees.reserve(work.size());
  for (SurvivalTree& w : work) fit.trees.push_back(std::move(w.grown.tree));
  return fit;
}

}  // namespace svf
