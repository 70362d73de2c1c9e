#' @include registry.R parts.R
NULL

# Method "hybrid": svforest's default. Bootstrap trees grown deep, each node
# choosing between axis-aligned cuts and proximal-SVM (regularised least
# squares) hyperplanes through the same `mtry` predictors by impurity.

register_method("hybrid", sampler = "bootstrap", splitter = "hybrid", leaf = "constant",
                aggregation = "prob", ntree = 100L,
                defaults = list(min_node_size = 2L),
                regression = list(leaf = "constant", defaults = list(min_node_size = 5L)))

register_part("splitter", "hybrid", parameters = c("mtry", "oblique_mtry", "min_node_size", "n_oblique", "split_ridge", "oblique_rows", "oblique_choice", "tree_choice"),
              tune = c("mtry", "min_node_size"), outcomes = c("classification", "regression"),
              print_lines = function(x) {
                cat("  Predictors per split: ", x$params$mtry, sprintf("(%d oblique candidate%s)", x$params$n_oblique,
                                                                       if (x$params$n_oblique == 1) "" else "s"), "\n")
              },
              summary = function(object) list(mtry = object$params$mtry))

#' @rdname svforest
#' @name svforest
#' @section Method "hybrid" (the default):
#' Not one of the papers' methods: svforest's own forest, built from the
#' engine's parts to be at least as accurate as a random forest where one
#' is good and better where linear structure exists. Each tree grows on a
#' bootstrap sample (so out-of-bag error and class probabilities come with
#' every fit) until nodes are pure or smaller than `min_node_size` (default
#' 2 for classes, 5 for a numeric outcome); leaves keep class frequencies
#' (or the mean), and the forest averages the trees' probabilities. At each
#' node `mtry` predictors that vary in the node are drawn (default `NA`:
#' `floor(sqrt(p))` for classes, `floor(p / 3)` for numbers, as ranger); the
#' best axis-aligned cut of each competes with `n_oblique` (default 1)
#' hyperplanes through the same predictors, by the decrease of Gini impurity
#' (classes) or squared error (numbers). A hyperplane's direction is a
#' proximal SVM's (regularised least squares on the node's standardised
#' predictors, ridge `split_ridge` (default 0.01) times the node's rows) that
#' separates two groups of the classes present (the two classes, or random
#' overlay groups as in PSVM trees), or fits the outcome; its cut along that
#' direction is the best one. Axis cuts win where a few predictors carry the
#' signal one at a time, hyperplanes where classes are separated obliquely.
NULL
