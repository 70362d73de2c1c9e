#' @include registry.R parts.R
NULL

# Method "rsvt": random support vector trees. Every tree sees all rows,
# splits are totally random (the random axis splitter), leaves fit linear SVMs.

register_method("rsvt", sampler = "all", splitter = "random_axis", leaf = "linear_svm",
                aggregation = "vote", ntree = 10L, regression = list(leaf = "ridge"))

register_part("splitter", "random_axis",
              parameters = c("leaf_size_factor", "min_leaf_size", "split_rule"),
              tune = "leaf_size_factor", node_size = "min_leaf_size", outcomes = c("classification", "regression"),
              print_lines = function(x) {
                cat("  Minimum leaf size:    ", x$params$min_leaf_size, sprintf("(%s rule)", x$params$split_rule), "\n")
              },
              summary = function(object) list(min_leaf_size = object$params$min_leaf_size))

#' @rdname svforest_methods
#' @name svforest_methods
#' @section Method "rsvt" (random support vector trees):
#' Every tree sees all rows. Splits are totally random: a predictor drawn
#' uniformly among those not constant in the node, a cut drawn uniformly. A
#' node with fewer than `2 * min_leaf_size` rows is a leaf, where
#' `min_leaf_size = ceiling(leaf_size_factor * sqrt(n))`. By default
#' (`split_rule = "admissible"`) the cut is drawn among the positions that
#' leave both children at least `min_leaf_size` rows, so leaves hold between
#' `min_leaf_size` and `2 * min_leaf_size - 1` rows. `split_rule = "published"`
#' reproduces the published code: the cut is uniform between the node's min
#' and max, and a node whose cut leaves a child too small becomes a leaf (trees
#' then have few, large leaves). Each leaf fits an L2-regularised L2-loss
#' linear SVM (LIBLINEAR, primal solver) on min-max scaled predictors, one per
#' class (one-vs-rest) when the leaf holds more than two classes, each binary
#' problem weighted so both sides count equally (`balanced`). `C` is chosen
#' from `cost` by stratified `cv_folds`-fold cross-validation inside the leaf.
#' With fewer than 160 predictors (the usual case) the cross-validation fits
#' are solved by a full-Hessian Newton method on the same objective, and the
#' leaf's own SVM by LIBLINEAR started from the Newton solution: the same
#' models, about 3 times faster.
#' A leaf with one class predicts its class frequencies. Classes with fewer
#' than `min_class_rows` rows in a leaf get no SVM of their own there: with
#' `rare_classes = "negative"` (default) their rows stay in the leaf as
#' negatives of the other classes' SVMs (as in the thesis' code, which fits
#' every leaf that is not pure), so the leaf never predicts them; with
#' `rare_classes = "constant"` (the rule of our SPEC) such a leaf predicts its
#' class frequencies instead, which on many-class data leaves most leaves
#' without an SVM (letter: 19% SVM leaves, accuracy 0.75 against 0.95 with
#' the default). Trees vote.
NULL
