#include "Forest.h"

#include <algorithm>

#include "Predictor.h"
#include "data/RowSource.h"

namespace svf {

namespace {

struct TreeWork {
  GrownTree grown;
  std::vector<int> oob_rows;
  std::vector<int> oob_class;
  std::vector<double> oob_value;       // regression
  std::vector<double> oob_confidence;  // with max_confidence
};

struct LeafTask {
  size_t tree;  // index within the batch
  int leaf;
};

// The forest's out-of-bag results as trees are added in order: each row's
// OOB votes (or sum and count for regression), its current OOB prediction
// and the error after every tree.
struct OobTally {
  const TrainingData& data;
  const bool max_confidence;
  OobResult& oob;
  const size_t n;
  const int K;
  std::vector<int> pred;  // current OOB majority class of each row, -1 if none
  size_t wrong = 0;
  std::vector<double> best_confidence;
  double sse = 0.0;  // regression: squared error of the rows' current OOB means

  OobTally(const TrainingData& d, bool max_conf, OobResult& result)
      : data(d), max_confidence(max_conf), oob(result), n(d.x->n_rows()), K(d.num_classes) {
    if (!oob.available) return;
    if (data.regression()) {
      oob.sum.assign(n, 0.0);
      oob.count.assign(n, 0);
    } else {
      oob.votes.assign(n * K, 0);
      pred.assign(n, -1);
      if (max_confidence) best_confidence.assign(n, 0.0);
    }
  }

  void add_regression_tree(const std::vector<int>& rows, const std::vector<double>& value) {
    for (size_t k = 0; k < rows.size(); ++k) {
      const int r = rows[k];
      if (oob.count[r] > 0) {
        const double e = oob.sum[r] / oob.count[r] - data.response[r];
        sse -= e * e;
      } else {
        ++oob.n_rows_with_votes;
      }
      oob.sum[r] += value[k];
      ++oob.count[r];
      const double e = oob.sum[r] / oob.count[r] - data.response[r];
      sse += e * e;
    }
    oob.error_curve.push_back(oob.n_rows_with_votes > 0 ? std::max(0.0, sse) / oob.n_rows_with_votes : NAN);
  }

  void add_class_tree(const std::vector<int>& rows, const std::vector<int>& cls, const std::vector<double>& confidence) {
    for (size_t k = 0; k < rows.size(); ++k) {
      const int r = rows[k];
      ++oob.votes[static_cast<size_t>(cls[k]) * n + r];
      int best = 0;
      if (max_confidence) {
        // trees in order; a later tree wins only when strictly more confident
        const double conf = confidence[k];
        if (pred[r] < 0 || conf > best_confidence[r]) {
          best = cls[k];
          best_confidence[r] = conf;
        } else {
          best = pred[r];
        }
      } else {
        for (int c = 1; c < K; ++c)
          if (oob.votes[c * n + r] > oob.votes[best * n + r]) best = c;
      }
      if (pred[r] < 0) ++oob.n_rows_with_votes;
      else if (pred[r] != data.y[r]) --wrong;
      pred[r] = best;
      if (best != data.y[r]) ++wrong;
    }
    oob.error_curve.push_back(oob.n_rows_with_votes > 0 ? static_cast<double>(wrong) / oob.n_rows_with_votes
                                                        : NAN);
  }
};

}  // namespace

void assemble_leaves(Tree& tree, std::vector<LeafFit>::const_iterator fits) {
  const size_t L = tree.leaf_size.size();
  tree.leaf_kind.resize(L);
  tree.leaf_int_start.resize(L);
  tree.leaf_real_start.resize(L);
  tree.leaf_int.clear();
  tree.leaf_real.clear();
  for (size_t l = 0; l < L; ++l, ++fits) {
    tree.leaf_kind[l] = fits->kind;
    tree.leaf_int_start[l] = static_cast<int>(tree.leaf_int.size());
    tree.leaf_real_start[l] = static_cast<int>(tree.leaf_real.size());
    tree.leaf_int.insert(tree.leaf_int.end(), fits->ints.begin(), fits->ints.end());
    tree.leaf_real.insert(tree.leaf_real.end(), fits->reals.begin(), fits->reals.end());
  }
}

// A grown tree of a batch with its fitted leaves (fits, in leaf order):
// assembled, and its out-of-bag rows predicted (their class, confidence or
// value).
static void finish_tree(TreeWork& w, std::vector<LeafFit>::const_iterator fits, const TrainingData& data,
                 const OutcomeShape& shape, const LeafReaders& readers, const RowSource& training_rows,
                 bool max_confidence) {
  Tree& tree = w.grown.tree;
  assemble_leaves(tree, fits);
  tree.shrink_to_fit();
  w.grown.rows = std::vector<int>();
  const TreeView view = view_of(tree);
  PredictScratch scratch;
  std::vector<double> dist(shape.outputs());
  const std::vector<int>& rows = w.oob_rows;
  if (data.regression()) {
    w.oob_value.resize(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      tree_predict(view, shape, readers, data.scaling, training_rows, rows[k], scratch, dist.data(), nullptr,
                   nullptr);
      w.oob_value[k] = dist[0];
    }
    return;
  }
  w.oob_class.resize(rows.size());
  if (max_confidence) w.oob_confidence.resize(rows.size());
  for (size_t k = 0; k < rows.size(); ++k)
    w.oob_class[k] = tree_predict(view, shape, readers, data.scaling, training_rows, rows[k], scratch, dist.data(),
                                  max_confidence ? &w.oob_confidence[k] : nullptr, nullptr);
}

FittedForest train_forest(TrainingData& data, const Splitter& splitter, const LeafModel& leaf_model,
                          const ForestOptions& options, TaskRunner& runner) {
  const size_t n = data.x->n_rows(), p = data.x->n_cols();
  const int K = data.num_classes;
  // Scaled rows for the SVMs. A splitter's candidate SVMs read any row of a
  // node, so it gets a scaled copy of every row (so do sparse data: their
  // copy is as sparse as they are). SVM leaves alone on dense data get their
  // own rows scaled as each leaf is fitted: a full copy would take twice
  // the memory of the data (the same values, so the same model).
  if (data.scaled.empty() && (splitter.needs_scaled_rows() || (leaf_model.needs_scaled_rows() && data.x->is_sparse())))
    data.scaled = ScaledRows(*data.x, data.scaling);
  const bool scale_per_leaf = leaf_model.needs_scaled_rows() && data.scaled.empty();

  FittedForest forest;
  forest.trees.resize(options.ntree);
  OobResult& oob = forest.oob;
  oob.available = options.sampler != SamplerType::All;
  const bool regression = data.regression();
  OobTally tally(data, options.max_confidence, oob);

  TrainingRows training_rows(data);
  OutcomeShape shape;
  shape.num_classes = K;
  shape.p = p;
  const LeafReaders readers = all_leaf_readers();
  size_t batch = std::max<size_t>(1, options.batch_size);
  // Splitters that work inside nodes (RSVF) grow few, costly trees: a batch's
  // threads wait for its slowest tree, so such trees come in larger batches
  // (their rows, about 2n integers a tree, bound the batch).
  if (splitter.parallel_inside())
    batch = std::max(batch, std::min<size_t>(64, (size_t(1) << 22) / std::max<size_t>(n, 1)));
  for (size_t start = 0; start < options.ntree; start += batch) {
    const size_t count = std::min(batch, options.ntree - start);
    std::vector<TreeWork> work(count);

    // 1. tree structures
    SerialRunner serial;
    auto grow = [&](size_t b, TaskRunner& inner) {
      const uint64_t t = options.first_tree + start + b;
      Rng rng(options.seed, stream_id(t, -1));
      Sample sample = draw_sample(options.sampler, n, options.sample_fraction, rng, data.weights);
      work[b].oob_rows = std::move(sample.oob);
      grow_tree(data, std::move(sample.inbag), work[b].oob_rows, splitter, options.grow, rng, inner,
                work[b].grown);
    };
    if (splitter.parallel_inside() && count < runner.threads()) {
      // fewer trees than threads: one tree at a time, the threads work inside
      // its nodes (the splitter's result does not depend on this)
      for (size_t b = 0; b < count; ++b) grow(b, runner);
    } else {
      runner.run(count, [&](size_t b) { grow(b, serial); });
    }

    // 2. leaf models, all leaves of the batch at once
    std::vector<LeafTask> tasks;
    std::vector<size_t> first_fit(count + 1, 0);
    for (size_t b = 0; b < count; ++b) {
      const int L = static_cast<int>(work[b].grown.tree.leaf_size.size());
      for (int l = 0; l < L; ++l) tasks.push_back({b, l});
      first_fit[b + 1] = tasks.size();
    }
    std::vector<LeafFit> fits(tasks.size());
    runner.run(tasks.size(), [&](size_t k) {
      const LeafTask& task = tasks[k];
      const GrownTree& g = work[task.tree].grown;
      const uint64_t t = options.first_tree + start + task.tree;
      Rng rng(options.seed, stream_id(t, task.leaf));
      const size_t begin = g.leaf_begin[task.leaf], end = g.leaf_begin[task.leaf + 1];
      const int* counts = g.leaf_counts.data() + static_cast<size_t>(task.leaf) * K;
      if (scale_per_leaf) {
        TrainingData leaf_data = data;
        leaf_data.scaled = ScaledRows(*data.x, data.scaling, g.rows.data() + begin, end - begin);
        leaf_model.fit(leaf_data, g.rows.data() + begin, end - begin, counts, rng, fits[k]);
      } else {
        leaf_model.fit(data, g.rows.data() + begin, end - begin, counts, rng, fits[k]);
      }
    });

    // 3. assemble trees and predict their out-of-bag rows
    runner.run(count, [&](size_t b) {
      finish_tree(work[b], fits.cbegin() + first_fit[b], data, shape, readers, training_rows,
                  options.max_confidence);
    });

    // 4. merge, in tree order, on this thread
    for (size_t b = 0; b < count; ++b) {
      if (oob.available && regression) {
        tally.add_regression_tree(work[b].oob_rows, work[b].oob_value);
      } else if (oob.available) {
        tally.add_class_tree(work[b].oob_rows, work[b].oob_class, work[b].oob_confidence);
      }
      forest.trees[start + b] = std::move(work[b].grown.tree);
    }
    runner.progress(start + count, options.ntree);
  }
  if (oob.available && !oob.error_curve.empty()) oob.error = oob.error_curve.back();
  if (oob.available && !regression) oob.predicted = std::move(tally.pred);
  return forest;
}

}  // namespace svf
