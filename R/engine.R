# The one call from R into the engine's training code, for every method and
# combination of parts.

# Fits a forest.
# - data: the engine's view of the training predictors (engine_data()).
# - y: outcome as integer class codes from 0 (or the standardised numeric
#   outcome); weights: NULL or the rows' positive sampling weights
#   (weighting()); num_classes: number of levels (0: regression).
# - params: the fit's parameters (engine_parameters()): those of its parts
#   (and only those), plus ntree, seed, first_tree, progress_delay and the
#   engine's form of `balanced` (logical) and `class_factor`.
# - validation: list(data, y) of validation data (validation_data());
#   data is NULL when none was given.
# - num_threads, verbose: as for svforest().
# Returns list(forest = the forest stored in the model (without its
# out-of-bag results), oob = NULL or list(votes, error, error_curve,
# predicted), oob_rows = NULL or a list, per tree, of the 1-based rows that
# scored it out of bag (for post-fit calibration; not stored in the model),
# selection = NULL or the result of the tuning stage on validation data (the
# model's `tdsvm` element), sigma = NULL or the ceiling size it chose,
# training_leaves = NULL or, for a regression forest, the leaf of each row
# in each tree as the engine recorded them while growing (the quantile
# forest's, stored as pack_quantile_forest() stores them)).
engine_fit <- function(data, y, weights, num_classes, params, validation, num_threads, verbose) {
  res <- .svf_fit(data, y, weights, num_classes, params, validation$data, validation$y, num_threads, verbose)
  list(forest = res$forest, oob = res$oob, oob_rows = res$oob_rows, selection = res$tuning,
       sigma = if (is.null(res$tuning)) NULL else res$tuning$sigma,
       splitter_uses_oob = res$splitter_uses_oob, oob_choosing_share = res$oob_choosing_share,
       training_leaves = res$training_leaves)
}

# The parameter list handed to engine_fit(): the model's parameters plus the
# forest's `ntree`, `seed` (a double: the engine's seeds are 64-bit),
# `first_tree` and `progress_delay` (seconds before a progress bar shows),
# `ntree_max`, `ntree_gain`, `ntree_gain_rows` and `ntree_gain_z` (growth
# by out-of-bag error, tree_count()),
# with `balanced` in the engine's form (a flag and a cost factor per class,
# see class_factors()).
engine_parameters <- function(params, y, ntree, seed, first_tree, progress_delay, ntree_max = ntree) {
  out <- c(params, list(ntree = ntree, seed = as.double(seed), first_tree = first_tree,
                        progress_delay = progress_delay, ntree_max = ntree_max, ntree_gain = tree_growth_gain,
                        ntree_gain_rows = tree_growth_rows, ntree_gain_z = tree_growth_z))
  # the engine's min-max scaling: on for "minmax" and for "rank" (applied in R
  # before the engine, R/rank.R), off for "none"
  if (!is.null(params$scale)) out$scale <- !identical(params$scale, "none")
  if (!is.null(params$balanced)) {
    out$balanced <- !isFALSE(params$balanced)
    out$class_factor <- class_factors(params$balanced, y)
  }
  out
}
