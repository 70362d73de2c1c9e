#include "Tuning.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "Sampler.h"
#include "leaves/LeafKinds.h"

namespace svf {

namespace {

// The leaf models tried by the search: every (cost, gamma) for kernel
// leaves, every cost for linear leaves (no inner cross-validation), the
// class frequencies for constant leaves.
struct Grid {
  std::vector<std::unique_ptr<LeafModel>> models;
  std::vector<TdCandidate> candidates;
};

void build_grid(const Params& params, Grid& grid) {
  const std::string leaf = params.text("leaf");
  const bool kernel = params.has("gamma");
  const std::vector<double> cost = params.has("cost") ? params.numbers("cost") : std::vector<double>(1, NAN);
  const std::vector<double> gamma = kernel ? params.numbers("gamma") : std::vector<double>(1, NAN);
  for (double c : cost)
    for (double g : gamma) {
      OverrideParams one(params);
      if (params.has("cost")) one.set("cost", c);
      if (kernel) one.set("gamma", g);
      if (params.has("cv_folds")) one.set("cv_folds", 1);
      grid.models.push_back(make_leaf_model(leaf, one));
      TdCandidate cand;
      cand.cost = c;
      cand.gamma = g;
      cand.model = grid.models.back().get();
      grid.candidates.push_back(cand);
    }
}

size_t leaf_grid_size(const Params& params) {
  if (!params.has("cost")) return 1;
  return params.numbers("cost").size() * (params.has("gamma") ? params.numbers("gamma").size() : 1);
}

}  // namespace

bool wants_tuning(const Params& params) {
  if (params.text("splitter") != "cart") return false;
  return params.integer("sigma") <= 0 || leaf_grid_size(params) > 1;
}

TuningResult tune(const TrainingData& data, const Params& params, const ValidationSet* external,
                  TaskRunner& runner) {
  TuningResult result;
  result.tuned = true;
  const size_t n = data.x->n_rows();
  const uint64_t seed = static_cast<uint64_t>(params.number("seed"));
  Grid grid;
  build_grid(params, grid);

  ValidationSet held;
  std::vector<int> train_rows;
  std::unique_ptr<TrainingRows> internal;
  const ValidationSet* valid = external;
  if (external) {
    for (size_t r = 0; r < n; ++r) train_rows.push_back(static_cast<int>(r));
  } else {
    // the hold-out has a stream of its own: (tree 0, leaf -2); regression
    // holds out a share of all rows (one "class")
    Rng rng(seed, stream_id(0, -2));
    const std::vector<int> one_class(data.regression() ? n : 0, 0);
    const std::vector<char> out =
        data.regression() ? stratified_holdout(one_class.data(), n, 1, params.number("validation_fraction"), rng)
                          : stratified_holdout(data.y, n, data.num_classes, params.number("validation_fraction"), rng);
    internal.reset(new TrainingRows(data));
    held.rows = internal.get();
    for (size_t r = 0; r < n; ++r) {
      if (out[r]) {
        held.index.push_back(static_cast<int>(r));
        if (data.regression()) held.response.push_back(data.response[r]);
        else held.y.push_back(data.y[r]);
      } else {
        train_rows.push_back(static_cast<int>(r));
      }
    }
    valid = &held;
  }
  if (valid->index.empty()) throw std::invalid_argument("The validation part has no rows: raise `validation_fraction`.");
  if (train_rows.size() < 2) throw std::invalid_argument("The training part has fewer than 2 rows: lower `validation_fraction`.");
  const size_t n_train = train_rows.size();
  if (data.weights) {
    // case weights: the search's trees see the training part's rows repeated
    // as the final fit's sampler repeats them (the validation rows count once)
    train_rows = weighted_copies(train_rows, data.weights);
  }

  const int sigma = params.integer("sigma");
  TdSearchOptions so;
  so.search_sigma = sigma <= 0;
  so.sigma0 = so.search_sigma ? params.integer("sigma0") : sigma;
  so.factor = params.integer("sigma_factor");
  so.top_k = params.integer("top_k");
  so.min_gain = params.number("min_gain") / 100.0;
  so.sigma_max = std::max(params.integer("sigma_max"), 0);  // NA: no cap
  so.grow.max_depth = params.integer("max_depth");
  so.seed = seed;
  // The final model is one tree on all training rows. With user-given
  // validation data those are the search's rows, so the search can hand
  // over the chosen tree's leaf models instead of training them again.
  so.keep_fits = external && params.integer("ntree") == 1 && params.text("sampler") == "all" &&
                 params.integer("first_tree") == 0;
  result.search = td_search(data, train_rows, *valid, grid.candidates, so, runner);
  result.search.n_train = n_train;
  result.search.n_validation = valid->index.size();
  result.candidates = grid.candidates;
  for (TdCandidate& c : result.candidates) c.model = nullptr;  // the models die with the grid
  const TdCandidate& best = grid.candidates[result.search.candidate];
  result.chosen.emplace_back("sigma", static_cast<double>(result.search.sigma));
  if (params.has("cost")) result.chosen.emplace_back("cost", best.cost);
  if (params.has("gamma")) result.chosen.emplace_back("gamma", best.gamma);
  if (params.has("cv_folds")) result.chosen.emplace_back("cv_folds", 1);
  if (result.search.has_fits) {
    Tree& tree = result.search.tree.tree;
    assemble_leaves(tree, result.search.fits.cbegin());
    tree.leaf_oob.assign(tree.leaf_size.size(), 0);  // keep_fits needs sampler "all": no row is out of bag
    result.forest.trees.push_back(std::move(tree));
    result.has_forest = true;
  }
  return result;
}

}  // namespace svf
