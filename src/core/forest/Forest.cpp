#include "Forest.h"

#include <algorithm>
#include <cmath>

#include "LevelValues.h"
#include "Predictor.h"
#include "TreeChoice.h"
#include "TreeGrowth.h"
#include "data/RowSource.h"

namespace svf {

namespace {

struct TreeWork {
  GrownTree grown;
  std::vector<int> oob_rows;
};

// What one chunk of a tree's out-of-bag rows changes in the error after
// that tree.
struct ChunkChange {
  long wrong = 0, rows = 0;  // classification
  double sse = 0.0;          // regression
  std::vector<int> leaf_rows;  // the chunk's rows per leaf of the tree
};

// Rows per task when a tree predicts its out-of-bag rows: fixed, so sums
// over chunks do not depend on the number of threads.
constexpr size_t kOobChunk = 512;

struct LeafTask {
  size_t tree;  // index within the batch
  int leaf;
};

// Builds the rank index into `ranks` and lends it to `data` for the fit
// (data outlives the index: the pointer is taken back at any exit).
struct RanksInUse {
  TrainingData& data;
  bool lent;
  RanksInUse(TrainingData& d, ColumnRanks* ranks) : data(d), lent(ranks != nullptr) {
    if (!lent) return;
    *ranks = ColumnRanks(*data.x, data.factor_cols);
    data.ranks = ranks;
  }
  ~RanksInUse() {
    if (lent) data.ranks = nullptr;
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

namespace {

// Adds tree `view`'s prediction of training row r to the row's out-of-bag
// results, and what it changes in the error to `change`.
void add_oob_tree(const TrainingData& data, Aggregation aggregation, const TreeView& view,
                  const OutcomeShape& shape, const LeafReaders& readers, const RowSource& rows, int r,
                  PredictScratch& scratch, std::vector<double>& dist, bool even_tree, OobResult& oob,
                  ChunkChange& change) {
  const size_t n = data.x->n_rows();
  const bool max_conf = aggregation == Aggregation::MaxConfidence;
  double conf = 0.0;
  int leaf = 0;
  const int cls = tree_predict(view, shape, readers, data.scaling, rows, r, scratch, dist.data(),
                               max_conf ? &conf : nullptr, &leaf);
  ++change.leaf_rows[leaf];
  if (data.regression()) {
    ExactSum sum{oob.sum_whole[r], oob.sum_fraction[r]};
    if (oob.count[r] > 0) {
      const double e = sum.value() / oob.count[r] - data.response[r];
      change.sse -= e * e;
    } else {
      ++change.rows;
    }
    sum.add(dist[0]);
    oob.sum_whole[r] = sum.whole;
    oob.sum_fraction[r] = sum.fraction;
    ++oob.count[r];
    const double e = sum.value() / oob.count[r] - data.response[r];
    change.sse += e * e;
    return;
  }
  const int K = shape.num_classes;
  const ClassTally tally{oob.votes.data() + r, oob.shares.data() + r, n, oob.count.data() + r,
                         max_conf ? oob.confidence.data() + r : nullptr,
                         max_conf ? oob.confident_class.data() + r : nullptr};
  const int before = oob.predicted[r];
  tally_tree(tally, K, cls, dist.data(), conf);
  if (even_tree && !oob.even_count.empty()) {
    const ClassTally even{oob.even_votes.data() + r, oob.even_shares.data() + r, n, oob.even_count.data() + r,
                          nullptr, nullptr};
    tally_tree(even, K, cls, dist.data(), 0.0);
  }
  const int after = decide_class(aggregation, K, tally.votes, tally.shares, n, oob.count[r],
                                 max_conf ? oob.confident_class[r] : -1);
  oob.predicted[r] = after;
  if (before < 0) ++change.rows;
  else if (before != data.y[r]) --change.wrong;
  if (after != data.y[r]) ++change.wrong;
}

}  // namespace

namespace {

// Empty out-of-bag tallies for n rows (Aggregation.h).
void start_oob(OobResult& oob, size_t n, int K, bool regression, bool max_conf, bool keep_even) {
  oob.count.assign(n, 0);
  oob.predicted.assign(n, -1);
  if (regression) {
    oob.sum_whole.assign(n, 0.0);
    oob.sum_fraction.assign(n, 0.0);
    return;
  }
  oob.votes.assign(n * K, 0);
  oob.shares.assign(n * K, 0.0);
  if (max_conf) {
    oob.confidence.assign(n, 0.0);
    oob.confident_class.assign(n, -1);
    return;  // one tree decides: no ensemble-size correction
  }
  if (!keep_even) return;
  oob.even_votes.assign(n * K, 0);
  oob.even_shares.assign(n * K, 0.0);
  oob.even_count.assign(n, 0);
}

// The structure grown on `inbag`, its choices (hyperplane or axis cut, and
// with a rival splitter the better of the two structures, TreeChoice.h)
// made on the `choosing` out-of-bag rows.
void grow_chosen_structure(const TrainingData& data, const Splitter& splitter, const Splitter* rival,
                           const ForestOptions& options, std::vector<int> inbag, std::vector<int> choosing,
                           Rng& rng, TaskRunner& inner, TreeWork& w) {
  if (rival == nullptr) {
    grow_tree(data, std::move(inbag), std::move(choosing), splitter, options.grow, rng, inner, w.grown);
    return;
  }
  // both structures from the same sample and the same random stream
  Rng rival_rng = rng;
  GrownTree other;
  grow_tree(data, inbag, choosing, *rival, options.grow, rival_rng, inner, other);
  grow_tree(data, std::move(inbag), choosing, splitter, options.grow, rng, inner, w.grown);
  if (oob_structure_loss(data, other, choosing) < oob_structure_loss(data, w.grown, choosing))
    w.grown = std::move(other);
}

// Tree t's sample and structure. When the splitter holds out choosing rows
// (Splitter::choosing_share()), they are drawn from the tree's generator
// right after its sample (Importance.cpp draws them again so) and only they
// choose; w.oob_rows keeps the scoring rows.
void grow_structure(const TrainingData& data, const Splitter& splitter, const Splitter* rival,
                    const ForestOptions& options, uint64_t t, TaskRunner& inner, TreeWork& w) {
  Rng rng(options.seed, stream_id(t, -1));
  Sample sample = draw_sample(options.sampler, data.x->n_rows(), options.sample_fraction, rng, data.weights);
  w.oob_rows = std::move(sample.oob);
  const double share = splitter.choosing_share();
  // without a share, the structure reads (if anything) the scoring rows: RSVF's paper rule
  std::vector<int> choosing = share > 0.0 ? take_choosing_rows(w.oob_rows, share, rng) : w.oob_rows;
  // choosing rows that do not score: counted per leaf below (the scoring
  // rows are counted as they score the tree, add_oob_of_tree())
  const std::vector<int> choosing_only = share > 0.0 ? choosing : std::vector<int>();
  // factor columns read through level values from this tree's in-bag rows
  TreeCoding coding;
  const TrainingData& coded = coded_for_tree(data, sample.inbag, coding);
  grow_chosen_structure(coded, splitter, rival, options, std::move(sample.inbag), std::move(choosing), rng, inner,
                        w);
  w.grown.tree.factor_int = std::move(coding.levels.factor_int);
  w.grown.tree.factor_real = std::move(coding.levels.factor_real);
  TreeView structure = view_of(w.grown.tree);
  structure.n_leaves = w.grown.tree.leaf_size.size();  // leaf kinds come with the leaf models
  w.grown.tree.leaf_oob = count_leaf_rows(structure, data.x->n_cols(), TrainingRows(data), choosing_only);
}

// Every leaf of a batch fitted at once, then each tree assembled. Tree
// first_tree + b's leaf l draws from Rng(seed, stream_id(tree, l)).
void fit_batch_leaves(const TrainingData& data, const LeafModel& leaf_model, bool scale_per_leaf,
                      const ForestOptions& options, uint64_t first_tree, std::vector<TreeWork>& work,
                      TaskRunner& runner) {
  const int K = data.num_classes;
  const size_t count = work.size();
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
    Rng rng(options.seed, stream_id(first_tree + task.tree, task.leaf));
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
  runner.run(count, [&](size_t b) {
    Tree& tree = work[b].grown.tree;
    assemble_leaves(tree, fits.cbegin() + first_fit[b]);
    tree.shrink_to_fit();
    work[b].grown.rows = std::vector<int>();
  });
}

// The forest's out-of-bag error as trees are added: misclassified rows or
// the squared error of the rows' means, over the rows with votes.
struct OobError {
  long wrong = 0;
  double sse = 0.0;
};

// Adds a finished tree's out-of-bag rows to the tallies (its rows in
// parallel, in fixed chunks: they are distinct rows), the error after it
// to the curve and the rows to the tree's per-leaf counts.
void add_oob_of_tree(const TrainingData& data, const ForestOptions& options, Tree& tree, bool even_tree,
                     const std::vector<int>& rows, const OutcomeShape& shape, const LeafReaders& readers,
                     const RowSource& training_rows, OobResult& oob, OobError& error, TaskRunner& runner) {
  const size_t n_chunks = (rows.size() + kOobChunk - 1) / kOobChunk;
  std::vector<ChunkChange> change(n_chunks);
  for (ChunkChange& ch : change) ch.leaf_rows.assign(tree.leaf_oob.size(), 0);
  const TreeView view = view_of(tree);
  runner.run(n_chunks, [&](size_t c) {
    PredictScratch scratch;
    std::vector<double> dist(shape.outputs());
    const size_t end = std::min(rows.size(), (c + 1) * kOobChunk);
    for (size_t k = c * kOobChunk; k < end; ++k)
      add_oob_tree(data, options.aggregation, view, shape, readers, training_rows, rows[k], scratch, dist, even_tree,
                   oob, change[c]);
  });
  for (const ChunkChange& ch : change) {  // in chunk order
    error.wrong += ch.wrong;
    oob.n_rows_with_votes += ch.rows;
    error.sse += ch.sse;
    for (size_t l = 0; l < ch.leaf_rows.size(); ++l) tree.leaf_oob[l] += ch.leaf_rows[l];
  }
  const double m = static_cast<double>(oob.n_rows_with_votes);
  oob.error_curve.push_back(oob.n_rows_with_votes == 0 ? NAN
                            : data.regression()        ? std::max(0.0, error.sse) / m
                                                       : static_cast<double>(error.wrong) / m);
}

}  // namespace

FittedForest train_forest(TrainingData& data, const Splitter& splitter, const LeafModel& leaf_model,
                          const ForestOptions& options, TaskRunner& runner) {
  const size_t n = data.x->n_rows(), p = data.x->n_cols();
  const int K = data.num_classes;
  // Scaled rows for the SVMs. A splitter's candidate SVMs read any row of a
  // node, so it gets a scaled copy of every row (so do sparse data: their
  // copy is as sparse as they are). SVM leaves alone on dense data get their
  // own rows scaled as each leaf is fitted: a full copy would take twice
  // the memory of the data (the same values, so the same model).
  // (scaled rows built before, by a tuning stage, read the codes as they
  // are, and so does prediction with the scaling kept as it is)
  if (data.scaled.empty()) scale_factor_columns(data, splitter.needs_scaled_rows() || leaf_model.needs_scaled_rows());
  if (data.scaled.empty() && (splitter.needs_scaled_rows() || (leaf_model.needs_scaled_rows() && data.x->is_sparse())))
    data.scaled = ScaledRows(*data.x, data.scaling);
  const bool scale_per_leaf = leaf_model.needs_scaled_rows() && data.scaled.empty();
  ColumnRanks ranks;
  const RanksInUse ranks_in_use(data, splitter.uses_column_ranks() && !data.ranks ? &ranks : nullptr);

  FittedForest forest;
  forest.trees.reserve(options.ntree);
  OobResult& oob = forest.oob;
  oob.available = options.sampler != SamplerType::All;
  OobError oob_error;
  // only forests whose out-of-bag rows are split into choosing and scoring
  // rows score each row with few trees: they alone keep the even tally
  if (oob.available)
    start_oob(oob, n, K, data.regression(), options.aggregation == Aggregation::MaxConfidence,
              splitter.choosing_share() > 0.0);

  // a rival structure per tree needs out-of-bag rows to choose on
  const std::unique_ptr<Splitter> rival = oob.available ? splitter.rival() : nullptr;
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
  // batches end at each point where the growth rule is read, so the rule
  // reads the same trees whatever the batch size (the number of threads)
  size_t target = options.ntree;
  GrowthSnapshots snapshots(oob.available ? options.ntree : 0, options.ntree_max);
  const GrowthRule rule{options.ntree_gain, options.ntree_gain_rows, options.ntree_gain_z};
  for (size_t start = 0, count = 0; start < target; start += count) {
    count = std::min(batch, target - start);
    const uint64_t first = options.first_tree + start;
    std::vector<TreeWork> work(count);
    // 1. tree structures
    SerialRunner serial;
    if (splitter.parallel_inside() && count < runner.threads()) {
      // fewer trees than threads: one tree at a time, the threads work inside
      // its nodes (the splitter's result does not depend on this)
      for (size_t b = 0; b < count; ++b) grow_structure(data, splitter, rival.get(), options, first + b, runner, work[b]);
    } else {
      runner.run(count, [&](size_t b) { grow_structure(data, splitter, rival.get(), options, first + b, serial, work[b]); });
    }
    // 2. leaf models, all leaves of the batch at once, and the trees assembled
    fit_batch_leaves(data, leaf_model, scale_per_leaf, options, first, work, runner);
    // 3. out-of-bag rows, tree after tree (a row's tally follows tree order, as in prediction)
    for (size_t b = 0; b < count; ++b) {
      if (oob.available) {
        add_oob_of_tree(data, options, work[b].grown.tree, (first + b) % 2 == 0, work[b].oob_rows, shape, readers, training_rows, oob,
                        oob_error, runner);
        forest.oob_rows.push_back(std::move(work[b].oob_rows));
        snapshots.after_tree(start + b + 1, data, oob);
      }
      forest.trees.push_back(std::move(work[b].grown.tree));
    }
    if (start + count == target && target < options.ntree_max && oob.available &&
        more_trees_help(snapshots.take(target / 2), oob_row_losses(data, oob), rule))
      target = std::min(target + options.ntree, options.ntree_max);
    runner.progress(start + count, target);
  }
  if (oob.available && !oob.error_curve.empty()) oob.error = oob.error_curve.back();
  return forest;
}

}  // namespace svf
