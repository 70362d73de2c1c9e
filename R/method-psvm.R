#' @include registry.R parts.R
NULL

# Method "psvm": proximal SVM trees. Every tree sees all rows, oblique
# splits from a proximal SVM between random overlay groups of classes,
# leaves keep class frequencies.

register_method("psvm", sampler = "all", splitter = "psvm", leaf = "constant",
                aggregation = "vote", ntree = 100L)

register_part("splitter", "psvm", parameters = c("nu", "m_max", "n_min"), tune = "nu")

#' @rdname svforest
#' @name svforest
#' @section Method "psvm" (proximal SVM trees):
#' Every tree sees all rows; leaves keep class frequencies; trees are
#' unpruned and vote. At each node the classes present are shuffled and put
#' into overlay group A until A holds at least half the rows (the rest is
#' group B); `m` is drawn uniformly in `1..m_max` (default `NA`: all predictors)
#' and `m` predictors at random; a proximal SVM, the linear system
#' `(I / nu + E'E) z = E'De` with `E = [A, -1]`, gives the hyperplane
#' `x'w = gamma` that routes the rows. The node is split only when both groups
#' have more than `n_min` rows (default 2) and the plane leaves rows on both
#' sides; a draw that fails is retried (new groups and predictors) up to 10
#' times before the node becomes a leaf. `nu` defaults to 1000 (on scaled
#' predictors; 100 to 1000 did best on vehicle and vowel). Combine the parts
#' freely, e.g. `splitter = "psvm", leaf = "linear_svm"`, or
#' `method = "rsvt", leaf = "constant"`.
NULL
