#include "Forest.h"

#include <algorithm>
#include <cmath>

#include "LevelValues.h"
#include "SubjectSampler.h"
#include "Predictor.h"
#include "TreeChoice.h"
#include "TreeGrowth.h"
#include "data/RowSource.h"
#include "outcome/OobTally.h"
#include "outcome/Outcome.h"

namespace svf {

namespace {

struct TreeWork {
  GrownTree grown;
  std::vector<int> oob_rows;
  // with TrainingLeaves: the choosing rows that do not score and their leaves
  std::vector<int> choosing_rows, choosing_leaf;
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
  RanksInUse(TrainingData& d, ColumnRanks* ranks, size_t max_bins) : data(d), lent(ranks != nullptr) {
    if (!lent) return;
    *ranks = ColumnRanks(*data.x, data.factor_cols, max_bins);
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

// The structure grown on `inbag`, its choices (hyperplane or axis cut, and
// with rival splitters the best of the structures, TreeChoice.h) made on
// the `choosing` out-of-bag rows; the splitter's on a tie.
void grow_chosen_structure(const TrainingData& data, const Splitter& splitter,
                           const std::vector<std::unique_ptr<Splitter>>& rivals, const LeafModel& leaf_model,
                           const ForestOptions& options, std::vector<int> inbag, std::vector<int> choosing, Rng& rng,
                           TaskRunner& inner, TreeWork& w) {
  if (rivals.empty()) {
    grow_tree(data, std::move(inbag), std::move(choosing), splitter, options.grow, rng, inner, w.grown);
    return;
  }
  // every structure from the same sample and the same random stream, the
  // choosing rows routed to their leaves as it grows
  GrowOptions grow = options.grow;
  grow.route_oob = true;
  std::vector<GrownTree> others(rivals.size());
  for (size_t k = 0; k < rivals.size(); ++k) {
    Rng rival_rng = rng;
    grow_tree(data, inbag, choosing, *rivals[k], grow, rival_rng, inner, others[k]);
  }
  grow_tree(data, std::move(inbag), choosing, splitter, grow, rng, inner, w.grown);
  const Outcome& outcome = outcome_of(data);
  double best = outcome.structure_loss(data, w.grown, choosing, leaf_model);
  for (GrownTree& other : others) {
    const double loss = outcome.structure_loss(data, other, choosing, leaf_model);
    if (loss < best) {
      best = loss;
      w.grown = std::move(other);
    }
  }
}

// Tree t's sample and structure. When the splitter holds out choosing rows
// (Splitter::choosing_share()), they are drawn from the tree's generator
// right after its sample (Importance.cpp draws them again so) and only they
// choose; w.oob_rows keeps the scoring rows.
void grow_structure(const TrainingData& data, const Splitter& splitter,
                    const std::vector<std::unique_ptr<Splitter>>& rivals, const LeafModel& leaf_model,
                    const ForestOptions& options, uint64_t t, TaskRunner& inner, TreeWork& w) {
  Rng rng(options.seed, stream_id(t, -1));
  Sample sample = draw_rows_sample(data, options.sampler, options.sample_fraction, rng,
                                   outcome_of(data).weights_draw_rows());
  w.oob_rows = std::move(sample.oob);
  const double share = splitter.choosing_share();
  // without a share, the structure reads (if anything) the scoring rows: RSVF's paper rule
  std::vector<int> choosing = share > 0.0 ? take_choosing_subjects(data, w.oob_rows, share, rng) : w.oob_rows;
  // choosing rows that do not score: counted per leaf below (the scoring
  // rows are counted as they score the tree, add_oob_of_tree())
  const std::vector<int> choosing_only = share > 0.0 ? choosing : std::vector<int>();
  // factor columns read through level values from this tree's in-bag rows
  TreeCoding coding;
  const TrainingData& coded = coded_for_tree(data, sample.inbag, coding);
  grow_chosen_structure(coded, splitter, rivals, leaf_model, options, std::move(sample.inbag), std::move(choosing),
                        rng, inner, w);
  w.grown.tree.factor_int = std::move(coding.levels.factor_int);
  w.grown.tree.factor_real = std::move(coding.levels.factor_real);
  TreeView structure = view_of(w.grown.tree);
  structure.n_leaves = w.grown.tree.leaf_size.size();  // leaf kinds come with the leaf models
  const bool record = options.training_leaves != nullptr;
  if (w.grown.oob_routed && w.grown.oob_rows.size() == choosing_only.size()) {  // (counted as grown)
    w.grown.tree.leaf_oob.resize(structure.n_leaves);
    for (size_t l = 0; l < structure.n_leaves; ++l)
      w.grown.tree.leaf_oob[l] = static_cast<int>(w.grown.oob_leaf_begin[l + 1] - w.grown.oob_leaf_begin[l]);
    if (record && !choosing_only.empty()) {
      w.choosing_rows = std::move(w.grown.oob_rows);
      w.choosing_leaf.resize(w.choosing_rows.size());
      for (size_t l = 0; l < structure.n_leaves; ++l)
        for (size_t k = w.grown.oob_leaf_begin[l]; k < w.grown.oob_leaf_begin[l + 1]; ++k)
          w.choosing_leaf[k] = static_cast<int>(l);
    }
  } else if (record) {  // the same counts, the leaves kept
    w.choosing_leaf = leaves_of_rows(structure, data.x->n_cols(), TrainingRows(data), choosing_only);
    w.choosing_rows = choosing_only;
    w.grown.tree.leaf_oob.assign(structure.n_leaves, 0);
    for (int leaf : w.choosing_leaf) ++w.grown.tree.leaf_oob[leaf];
  } else {
    w.grown.tree.leaf_oob = count_leaf_rows(structure, data.x->n_cols(), TrainingRows(data), choosing_only);
  }
  w.grown.oob_rows = std::vector<int>();
}

// Writes the batch's in-bag and choosing rows' leaves (trees first_col on
// of `leaves`), before the leaf fits free the in-bag rows. A tree of more
// leaves than two bytes number ends the record (TrainingLeaves::exact).
void record_grown_leaves(TrainingLeaves& leaves, size_t first_col, size_t ntree, std::vector<TreeWork>& work,
                         TaskRunner& runner) {
  for (const TreeWork& w : work)
    if (!w.grown.one_leaf_per_row || w.grown.tree.leaf_size.size() > 65536) leaves.exact = false;
  if (first_col + work.size() > ntree) leaves.exact = false;  // (grown past its columns)
  if (!leaves.exact) return;
  if (!leaves.narrow) leaves.allocate();
  runner.run(work.size(), [&](size_t b) {
    const GrownTree& g = work[b].grown;
    const size_t col = (first_col + b) * leaves.n;
    auto put = [&](int r, size_t leaf) { leaves.narrow[col + r] = static_cast<uint16_t>(leaf); };
    for (size_t l = 0; l + 1 < g.leaf_begin.size(); ++l)
      for (size_t k = g.leaf_begin[l]; k < g.leaf_begin[l + 1]; ++k) put(g.rows[k], l);
    for (size_t k = 0; k < work[b].choosing_rows.size(); ++k) put(work[b].choosing_rows[k], work[b].choosing_leaf[k]);
    work[b].choosing_rows = std::vector<int>();
    work[b].choosing_leaf = std::vector<int>();
  });
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
// the squared error of the rows' means, over the rows with votes (the
// outcome's sums, Outcome::oob_error()).
struct OobError {
  long wrong = 0;
  double sse = 0.0;
};

// Adds a finished tree's out-of-bag rows to the tallies (its rows in
// parallel, in fixed chunks: they are distinct rows), the error after it
// to the curve and the rows to the tree's per-leaf counts.
void add_oob_of_tree(const TrainingData& data, const ForestOptions& options, Tree& tree, bool even_tree,
                     const std::vector<int>& rows, const OutcomeShape& shape, const LeafReaders& readers,
                     const RowSource& training_rows, OobResult& oob, OobError& error, TaskRunner& runner,
                     TrainingLeaves* leaves, size_t col) {
  uint16_t* leaf16 = leaves && leaves->exact && leaves->narrow ? leaves->narrow + col * leaves->n : nullptr;
  const size_t n_chunks = (rows.size() + kOobChunk - 1) / kOobChunk;
  std::vector<OobChange> change(n_chunks);
  for (OobChange& ch : change) ch.leaf_rows.assign(tree.leaf_oob.size(), 0);
  const TreeView view = view_of(tree);
  const Outcome& outcome = outcome_of(data);
  runner.run(n_chunks, [&](size_t c) {
    PredictScratch scratch;
    std::vector<double> dist(shape.outputs());
    const OobRowInput in{&data, options.aggregation, &view, &shape, &readers, &training_rows, &scratch, dist.data(),
                         even_tree, leaf16};
    const size_t end = std::min(rows.size(), (c + 1) * kOobChunk);
    for (size_t k = c * kOobChunk; k < end; ++k) outcome.add_oob_row(in, rows[k], oob, change[c]);
  });
  for (const OobChange& ch : change) {  // in chunk order
    error.wrong += ch.wrong;
    oob.n_rows_with_votes += ch.rows;
    error.sse += ch.sse;
    for (size_t l = 0; l < ch.leaf_rows.size(); ++l) tree.leaf_oob[l] += ch.leaf_rows[l];
  }
  oob.error_curve.push_back(oob.n_rows_with_votes == 0 ? NAN : outcome.oob_error(data, oob, error.wrong, error.sse));
}

// A finished tree as the forest keeps it (ForestOptions::compact_trees): in
// full, or its compact layout in `compact` with only its factor level
// values left in `tree` (compact.n_nodes 0 when kept in full).
void keep_tree(const ForestOptions& options, size_t p, Tree& tree, CompactTree& compact) {
  if (!options.compact_trees || !compact_tree(tree, p, compact)) {
    compact = CompactTree();
    return;
  }
  Tree levels;
  levels.factor_int = std::move(tree.factor_int);
  levels.factor_real = std::move(tree.factor_real);
  tree = std::move(levels);
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
  const RanksInUse ranks_in_use(data, splitter.uses_column_ranks() && !data.ranks ? &ranks : nullptr,
                                splitter.column_bins());

  FittedForest forest;
  forest.trees.reserve(options.ntree);
  OobResult& oob = forest.oob;
  oob.available = options.sampler != SamplerType::All;
  OobError oob_error;
  // only forests whose out-of-bag rows are split into choosing and scoring
  // rows score each row with few trees: they alone keep the even tally
  if (oob.available)
    outcome_of(data).start_oob(data, oob, n, options.aggregation == Aggregation::MaxConfidence,
                               splitter.choosing_share() > 0.0);

  // rival structures per tree need out-of-bag rows to choose on
  const std::vector<std::unique_ptr<Splitter>> rivals =
      oob.available ? splitter.rivals() : std::vector<std::unique_ptr<Splitter>>();
  TrainingRows training_rows(data);
  OutcomeShape shape;
  shape.num_classes = K;
  shape.p = p;
  shape.num_times = data.curve_size();  // the leaves' curve grid
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
      for (size_t b = 0; b < count; ++b)
        grow_structure(data, splitter, rivals, leaf_model, options, first + b, runner, work[b]);
    } else {
      runner.run(count, [&](size_t b) {
        grow_structure(data, splitter, rivals, leaf_model, options, first + b, serial, work[b]);
      });
    }
    if (options.training_leaves) record_grown_leaves(*options.training_leaves, start, options.ntree, work, runner);
    // 2. leaf models, all leaves of the batch at once, and the trees assembled
    fit_batch_leaves(data, leaf_model, scale_per_leaf, options, first, work, runner);
    // 3. out-of-bag rows, tree after tree (a row's tally follows tree order, as in prediction)
    for (size_t b = 0; b < count; ++b) {
      if (oob.available) {
        add_oob_of_tree(data, options, work[b].grown.tree, (first + b) % 2 == 0, work[b].oob_rows, shape, readers, training_rows, oob,
                        oob_error, runner, options.training_leaves, start + b);
        forest.oob_rows.push_back(std::move(work[b].oob_rows));
        snapshots.after_tree(start + b + 1, data, oob);
      }
    }
    // 4. the trees kept, in their compact layout when asked (in parallel)
    std::vector<CompactTree> compact(count);
    runner.run(count, [&](size_t b) { keep_tree(options, p, work[b].grown.tree, compact[b]); });
    for (size_t b = 0; b < count; ++b) {
      forest.trees.push_back(std::move(work[b].grown.tree));
      if (options.compact_trees) forest.compact.push_back(std::move(compact[b]));
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
