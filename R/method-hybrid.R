#' @include registry.R parts.R
NULL

# Method "hybrid": svforest's default. Bootstrap trees grown deep, each node
# choosing between axis-aligned cuts and proximal-SVM (regularised least
# squares) hyperplanes through the same `mtry` predictors by impurity.
# Its node size and factor coding by outcome family, and a survival
# forest's own defaults, are the parameter table's (`family`, R/parameters.R).

register_method("hybrid", sampler = "bootstrap", splitter = "hybrid", leaf = "constant",
                aggregation = "prob", ntree = 100L, ntree_max = 300L, family_defaults = TRUE,
                regression = list(leaf = "constant", ntree_max = 100L))

register_part("splitter", "hybrid", parameters = c("mtry", "oblique_mtry", "min_node_size", "n_oblique", "split_ridge", "oblique_rows", "oblique_stop", "max_bins", "oblique_choice", "tree_choice"),
              tune = c("mtry", "min_node_size"), outcomes = c("classification", "regression", "survival", "competing"),
              node_size = "min_node_size", predictors = "mtry",
              print_lines = function(x) {
                m <- hybrid_mtry(x)
                cat("  Predictors per split: ", m[["axis"]], sprintf("(hyperplanes: %d, %d per node)", m[["oblique"]],
                                                                     x$params$n_oblique), "\n")
              },
              summary = function(object) as.list(hybrid_mtry(object)))

# The predictors a hybrid node draws for its axis cuts and for its
# hyperplanes, as the engine resolves NA (HybridSplitter.cpp).
hybrid_mtry <- function(model) {
  p <- length(model$feature_means)
  axis <- if (is.na(model$params$mtry)) max(1L, floor(sqrt(p))) else model$params$mtry
  oblique <- if (model$params$n_oblique == 0) 0L
             else min(p, max(axis, if (is.na(model$params$oblique_mtry)) 2L * axis else model$params$oblique_mtry))
  c(axis = as.integer(axis), oblique = as.integer(oblique))
}

#' @rdname svforest_methods
#' @name svforest_methods
#' @section Method "hybrid" (the default):
#' Not one of the papers' methods: svforest's own forest, built from the
#' engine's parts to be at least as accurate as a random forest where one
#' is good and better where linear structure exists. Each tree grows on a
#' bootstrap sample (so out-of-bag error and class probabilities come with
#' every fit) until nodes are pure or smaller than `min_node_size` (default
#' 2 for classes, 5 for a numeric outcome); leaves keep class frequencies
#' (or the mean), and the forest averages the trees' probabilities. A
#' classification forest starts with 100 trees and grows 100 more, up to
#' 300, while its out-of-bag error after `T` trees is at least 2 points
#' below its error after `T / 2`, and by at least 10 rows, and the rows the
#' added trees set right outnumber those they set wrong by at least twice
#' chance's standard deviation (McNemar's test; `ntree_max` in
#' [svforest_parameters]):
#' where most predictors are noise each tree is weak and the forest needs
#' more of them; elsewhere 100 trees have settled. A numeric outcome gets
#' 100 trees. At each
#' node `mtry` predictors that vary in the node are drawn (default `NA`:
#' `floor(sqrt(p))`, for classes and numbers alike; ranger draws `p / 3` for
#' numbers); the best axis-aligned cut of each competes with `n_oblique`
#' (default 1) hyperplanes through these and more predictors (see
#' `oblique_mtry` below), by the decrease of Gini impurity
#' (classes) or squared error (numbers). A hyperplane's direction is a
#' proximal SVM's (regularised least squares on the node's standardised
#' predictors, ridge `split_ridge` (default 0.01) times the node's rows) that
#' separates two groups of the classes present (the two classes, or random
#' overlay groups as in PSVM trees), or fits the outcome; its cut along that
#' direction is the best one. Axis cuts win where a few predictors carry the
#' signal one at a time, hyperplanes where classes are separated obliquely.
#' A hyperplane replaces the best axis cut only when it also separates the
#' node's out-of-bag rows better (`oblique_choice = "oob"`; `"inbag"`: on
#' the in-bag rows alone), and each tree is grown twice on its sample, with
#' and without hyperplanes, keeping the structure whose leaves predict its
#' out-of-bag rows better (`tree_choice = "oob"`; `"none"`: always the
#' hybrid one). Both choices read out-of-bag rows of their own: each tree's
#' out-of-bag rows are split at random (from the tree's seed) into choosing
#' rows, half of them, which both choices read, and scoring rows, the
#' others. The out-of-bag error, class probabilities, Brier score and
#' log-loss (R-squared for numbers), the out-of-bag predictions, the
#' permutation importance on out-of-bag rows and the growth rule above read
#' the scoring rows alone, so they are honest: no row scores a tree whose
#' structure it chose. A row is scored by about 18% of the trees (by
#' ranger's, 37%): its out-of-bag ensemble is small, and a small ensemble
#' errs more often than the whole forest does on new rows. So `oob_error`
#' is the error extrapolated to the forest's size: each row's loss is read
#' with all its scoring trees and with each half of them (even- and
#' odd-numbered trees; their tally, `oob_even_votes`, `oob_even_prob_sum`,
#' `oob_even_count`, is kept for [combine()]), and, as an ensemble's error
#' falls as `a + c / t` in
#' its `t` trees, carried to the forest's trees (the rows' mean shift
#' shrunk by its reliability, so that a shift within noise of zero moves
#' the error little); `oob_error_ensemble` is the
#' scoring ensembles' own error (that of `oob_predictions`, and the last
#' point of the error curve the growth rule reads). The Brier score and
#' log-loss are the scoring ensembles' own (they lean pessimistic). The
#' out-of-bag interval calibration of a numeric outcome
#' ([predict.svforest()]) is extrapolated to the forest's size by the same
#' rule, applied to the share of scores below each value.
#' `oblique_mtry` (default `NA`: `2 * mtry`) predictors are drawn for the
#' hyperplanes (the axis candidates' and more), `oblique_rows` (default 2
#' for classes, 0 for numbers) rows per such predictor a node needs for
#' them: a class node of fewer than twice as many rows tries axis cuts alone
#' (a hyperplane there fits noise, and skipping it saves time);
#' `oblique_stop` (default `NA`: none) ends them below that many axis cuts
#' in a row, for a faster fit; `max_bins` (default 255 for classes, 1024
#' for numbers, `Inf`, exact cuts, for event times) bins
#' each numeric predictor into at most that many quantile bins once per
#' forest, and nodes of more rows than a predictor's bins cut it only
#' between bins, and large nodes fit hyperplanes on a sample of their rows
#' and cut them in buckets, for a faster fit on many rows. For classes, a factor
#' predictor of a data frame is one column that each tree reads through
#' its levels' class shares among the tree's in-bag rows
#' (`factor_coding = "order"`, see [svforest_parameters]), so `mtry` draws
#' it once and one cut splits its levels into two groups; for a numeric
#' outcome a factor of more than 10 levels is coded so by the levels' mean
#' outcome (`factor_coding = "auto"`), and one of fewer keeps one indicator
#' column per level, through which the hyperplanes fit level effects.
#'
#' When a paper's preset is the better choice: `"rsvt"` or `"rsvf"` when you
#' want linear SVM leaves and local linear explanations
#' (`predict(type = "local")` reads linear leaves; the default's leaves are
#' constant); `"psvm"` for the fastest fits on large data with planes
#' through many predictors; `"tdsvm"` when a kernel SVM suits the data but
#' they are too large for one; `"transform"` for images and other data near
#' unions of low-dimensional subspaces. The benchmark harness
#' (`bench/harness.R` in the source repository) compares the default with
#' ranger, grf's local linear forest and Cubist.
NULL
