#include "TdSvm.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <sstream>

#include "Forest.h"
#include "Predictor.h"
#include "splitting/Splitter.h"
#include "tree/SplitKinds.h"
#include "tree/Route.h"

namespace svf {

void merge_leaves(const GrownTree& grown, size_t sigma, size_t p, GrownTree& out) {
  const Tree& t = grown.tree;
  const size_t N = t.left_child.size();
  // rows and leaf range of every subtree (leaves are numbered depth first,
  // left subtree first, so a subtree's leaves are consecutive)
  std::vector<long> size(N);
  std::vector<int> first(N), last(N);
  for (size_t i = N; i-- > 0;) {
    if (t.leaf_id[i] >= 0) {
      size[i] = t.leaf_size[t.leaf_id[i]];
      first[i] = last[i] = t.leaf_id[i];
    } else {
      size[i] = size[t.left_child[i]] + size[t.right_child[i]];
      first[i] = first[t.left_child[i]];
      last[i] = last[t.right_child[i]];
    }
  }
  const size_t K = t.leaf_size.empty() ? 0 : grown.leaf_counts.size() / t.leaf_size.size();
  Tree& m = out.tree;
  m = Tree();
  out.leaf_counts.clear();
  out.rows.clear();
  out.leaf_begin.assign(1, 0);
  // same visiting order as grow_tree(): both children are added together,
  // the left subtree is finished first
  std::vector<std::pair<int, int>> stack;  // (old node, new node)
  stack.push_back({0, m.add_node()});
  while (!stack.empty()) {
    const int o = stack.back().first, nn = stack.back().second;
    stack.pop_back();
    if (t.leaf_id[o] < 0 && size[o] >= static_cast<long>(sigma)) {
      const int l = m.add_node(), r = m.add_node();
      // the split's payload, whatever its kind
      const int* ints = t.split_int.data() + t.split_int_start[o];
      const double* reals = t.split_real.data() + t.split_real_start[o];
      const int kind = t.split_kind[o];
      set_split(m, nn, kind, ints, split_int_length(kind, ints), reals, split_real_length(kind, ints, p), l, r);
      stack.push_back({t.right_child[o], r});
      stack.push_back({t.left_child[o], l});
      continue;
    }
    m.leaf_id[nn] = static_cast<int>(m.leaf_size.size());
    m.leaf_size.push_back(static_cast<int>(size[o]));
    std::vector<int> counts(K, 0);
    for (int leaf = first[o]; leaf <= last[o]; ++leaf)
      for (size_t k = 0; k < K; ++k) counts[k] += grown.leaf_counts[leaf * K + k];
    out.leaf_counts.insert(out.leaf_counts.end(), counts.begin(), counts.end());
    const size_t begin = out.rows.size();
    out.rows.insert(out.rows.end(), grown.rows.begin() + grown.leaf_begin[first[o]],
                    grown.rows.begin() + grown.leaf_begin[last[o] + 1]);
    std::sort(out.rows.begin() + begin, out.rows.end());  // as the node held them
    out.leaf_begin.push_back(out.rows.size());
  }
}

std::vector<char> stratified_holdout(const int* y, size_t n, int num_classes, double fraction, Rng& rng) {
  std::vector<char> held(n, 0);
  std::vector<std::vector<int>> by_class(num_classes);
  for (size_t r = 0; r < n; ++r) by_class[y[r]].push_back(static_cast<int>(r));
  for (auto& rows : by_class) {
    if (rows.empty()) continue;
    rng.shuffle(rows.data(), rows.size());
    const size_t take = static_cast<size_t>(std::floor(fraction * rows.size() + 0.5));
    for (size_t k = 0; k < take && k < rows.size(); ++k) held[rows[k]] = 1;
  }
  return held;
}

namespace {

struct Evaluator {
  const TrainingData& data;
  const ValidationSet& valid;
  const std::vector<TdCandidate>& candidates;
  const TdSearchOptions& options;
  TaskRunner& runner;
  std::vector<feature_node> vnodes;  // scaled validation rows
  std::vector<size_t> voffset;
  OutcomeShape shape;
  LeafReaders readers = all_leaf_readers();

  Evaluator(const TrainingData& d, const ValidationSet& v, const std::vector<TdCandidate>& c,
            const TdSearchOptions& o, TaskRunner& r)
      : data(d), valid(v), candidates(c), options(o), runner(r) {
    shape.num_classes = d.num_classes;
    shape.p = d.x->n_cols();
    std::vector<feature_node> buffer;
    for (size_t k = 0; k < valid.index.size(); ++k) {
      voffset.push_back(vnodes.size());
      const feature_node* row = valid.rows->scaled_row(valid.index[k], data.scaling, buffer);
      for (; row->index != -1; ++row) vnodes.push_back(*row);
      vnodes.push_back(feature_node{-1, 0.0});
    }
  }

  // Validation score of each candidate in `which` on tree g: accuracy, or
  // for regression R^2 (1 - squared error / the validation outcome's sum of
  // squares around its mean). kept: if
  // given, receives the leaf models, candidate-major (which.size() x leaves).
  std::vector<double> run(const GrownTree& g, const std::vector<int>& which, size_t& svm_leaves,
                          std::vector<LeafFit>* kept = nullptr) {
    const int K = data.num_classes;
    const size_t p = data.x->n_cols();
    const size_t L = g.tree.leaf_size.size(), nv = valid.index.size();
    const TreeView view = view_of(g.tree);
    std::vector<std::vector<int>> at_leaf(L);
    std::vector<double> scratch;
    for (size_t v = 0; v < nv; ++v) {
      const int leaf = route(view, p, [&](int col) { return valid.rows->get(valid.index[v], col); }, scratch);
      at_leaf[leaf].push_back(static_cast<int>(v));
    }
    svm_leaves = data.regression() ? L : 0;
    for (size_t l = 0; l < L && !data.regression(); ++l) {
      const int* c = g.leaf_counts.data() + l * K;
      svm_leaves += std::count_if(c, c + K, [](int x) { return x > 0; }) > 1;
    }
    // per (candidate, leaf): rows right, or the squared error for regression
    std::vector<double> correct(which.size() * L, 0.0);
    if (kept) kept->assign(which.size() * L, LeafFit());
    // Tasks run leaf by leaf (every candidate of a leaf together) in
    // batches, so that the progress after each batch can weigh the work
    // done: a leaf's SVMs cost about the square of its rows.
    const size_t C = which.size(), num_tasks = C * L;
    std::vector<double> leaf_cost(L, 0.0);
    double total_cost = 0.0;
    for (size_t l = 0; l < L; ++l) {
      if (at_leaf[l].empty() && !kept) continue;
      // a leaf of one class fits no SVM
      const int* c = g.leaf_counts.data() + l * K;
      if (!data.regression() && std::count_if(c, c + K, [](int v) { return v > 0; }) < 2) continue;
      const double rows = static_cast<double>(g.leaf_begin[l + 1] - g.leaf_begin[l]);
      leaf_cost[l] = rows * rows;
      total_cost += C * leaf_cost[l];
    }
    auto task = [&](size_t t) {
      const size_t l = t / C, c = t % C;
      // no validation row reaches this leaf: nothing to score (fit it only
      // if the models are kept)
      if (at_leaf[l].empty() && !kept) return;
      const size_t out = c * L + l;  // results stay candidate-major
      const TdCandidate& cand = candidates[which[c]];
      const int* counts = g.leaf_counts.data() + l * K;
      Rng rng(options.seed, stream_id(0, static_cast<int64_t>(l)));
      LeafFit fit;
      cand.model->fit(data, g.rows.data() + g.leaf_begin[l], g.leaf_begin[l + 1] - g.leaf_begin[l],
                      counts, rng, fit);
      if (at_leaf[l].empty()) {
        (*kept)[out] = std::move(fit);
        return;
      }
      // score with the leaf kind's own prediction
      LeafPayload leaf;
      leaf.kind = fit.kind;
      leaf.ints = fit.ints.data();
      leaf.n_ints = fit.ints.size();
      leaf.reals = fit.reals.data();
      leaf.n_reals = fit.reals.size();
      const LeafModel& reader = readers[fit.kind];
      std::vector<double> dist(shape.outputs());
      double ok = 0.0;
      for (int v : at_leaf[l]) {
        reader.predict(leaf, shape, &vnodes[voffset[v]], dist.data(), nullptr);
        if (data.regression()) ok += (dist[0] - valid.response[v]) * (dist[0] - valid.response[v]);
        else ok += std::max_element(dist.begin(), dist.end()) - dist.begin() == valid.y[v];
      }
      correct[out] = ok;
      if (kept) (*kept)[out] = std::move(fit);
    };
    // small batches: leaf SVMs can take seconds each, and interrupts are
    // checked between batches
    const size_t batch = std::max<size_t>(1, runner.threads() * 4);
    double cost_done = 0.0;
    for (size_t begin = 0; begin < num_tasks; begin += batch) {
      const size_t end = std::min(num_tasks, begin + batch);
      runner.run(end - begin, [&](size_t i) { task(begin + i); });
      for (size_t t = begin; t < end; ++t) cost_done += leaf_cost[t / C];
      runner.progress(end, num_tasks, total_cost > 0.0 ? cost_done / total_cost : 1.0);
    }
    double sst = 0.0;  // regression: the validation outcome's sum of squares
    if (data.regression() && nv > 0) {
      double mean = 0.0;
      for (double r : valid.response) mean += r / nv;
      for (double r : valid.response) sst += (r - mean) * (r - mean);
    }
    std::vector<double> acc(which.size(), 0.0);
    for (size_t c = 0; c < which.size(); ++c) {
      double ok = 0.0;
      for (size_t l = 0; l < L; ++l) ok += correct[c * L + l];
      if (data.regression()) acc[c] = sst > 0.0 ? 1.0 - ok / sst : -ok;
      else acc[c] = nv > 0 ? ok / nv : 0.0;
    }
    return acc;
  }
};

}  // namespace

TdSearchResult td_search(const TrainingData& data, const std::vector<int>& train_rows,
                         const ValidationSet& valid, const std::vector<TdCandidate>& candidates,
                         const TdSearchOptions& options, TaskRunner& runner) {
  TdSearchResult result;
  const size_t n_train = train_rows.size();
  GrownTree tree0;
  {
    const std::unique_ptr<Splitter> splitter = make_cart_splitter(options.sigma0);
    Rng rng(options.seed, stream_id(0, -1));
    SerialRunner serial;
    grow_tree(data, train_rows, std::vector<int>(), *splitter, options.grow, rng, serial, tree0);
  }
  Evaluator eval(data, valid, candidates, options, runner);

  // Progress: one line per stage, each with its own time estimate. The
  // stages to come: sigma grows by `factor` until it reaches the training
  // rows or sigma_max (the search may stop sooner).
  size_t max_stages = 0;
  if (options.search_sigma) {
    for (size_t s = options.sigma0; s < n_train && s <= (static_cast<size_t>(1) << 40); ++max_stages) {
      s *= options.factor;
      if (options.sigma_max > 0 && s > options.sigma_max) break;
    }
  }
  auto begin_stage = [&](int stage, size_t sigma, size_t tried) {
    std::ostringstream label;
    label << "TD-SVM search, stage " << stage + 1 << " of at most " << max_stages + 1 << " (sigma " << sigma << ", "
          << tried << (tried == 1 ? " candidate" : " candidates") << ")";
    runner.begin_stage(label.str());
  };

  // stage 0: the whole grid
  std::vector<int> all(candidates.size());
  std::iota(all.begin(), all.end(), 0);
  size_t svm_leaves = 0;
  begin_stage(0, options.sigma0, all.size());
  std::vector<double> acc = eval.run(tree0, all, svm_leaves);
  for (size_t c = 0; c < all.size(); ++c)
    result.curve.push_back({0, options.sigma0, all[c], acc[c], tree0.tree.leaf_size.size(), svm_leaves});
  std::vector<int> rank(all);
  std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) { return acc[a] > acc[b]; });
  result.sigma = options.sigma0;
  result.candidate = rank[0];
  double best = acc[rank[0]];
  if (!options.search_sigma) return result;
  rank.resize(std::min(rank.size(), std::max<size_t>(1, options.top_k)));

  size_t sigma = options.sigma0;
  for (int stage = 1; sigma < n_train; ++stage) {
    if (sigma > static_cast<size_t>(1) << 40) break;
    sigma *= options.factor;
    if (options.sigma_max > 0 && sigma > options.sigma_max) break;  // keep the previous stage
    GrownTree merged;
    merge_leaves(tree0, sigma, data.x->n_cols(), merged);
    std::vector<LeafFit> fits;
    begin_stage(stage, sigma, rank.size());
    acc = eval.run(merged, rank, svm_leaves, options.keep_fits ? &fits : nullptr);
    size_t top = 0;
    for (size_t c = 0; c < rank.size(); ++c) {
      result.curve.push_back({stage, sigma, rank[c], acc[c], merged.tree.leaf_size.size(), svm_leaves});
      if (acc[c] > acc[top]) top = c;
    }
    const double gain = data.regression() ? (acc[top] - best) / std::max(1.0 - best, 1e-12) : acc[top] - best;
    if (gain < options.min_gain - 1e-12) break;  // keep the previous stage
    best = acc[top];
    result.sigma = sigma;
    result.candidate = rank[top];
    if (options.keep_fits) {
      const size_t L = merged.tree.leaf_size.size();
      result.has_fits = true;
      result.fits.assign(std::make_move_iterator(fits.begin() + top * L),
                         std::make_move_iterator(fits.begin() + (top + 1) * L));
      result.tree = std::move(merged);
    }
  }
  return result;
}

}  // namespace svf
