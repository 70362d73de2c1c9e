#' @include registry.R parts.R
NULL

# Method "psvm": proximal SVM trees. Every tree sees all rows, oblique
# splits from a proximal SVM between random overlay groups of classes,
# leaves keep class frequencies.

register_method("psvm", sampler = "all", splitter = "psvm", leaf = "constant",
                aggregation = "vote", ntree = 100L)

register_part("splitter", "psvm", parameters = c("nu", "m_max", "n_min", "psvm_cut", "node_tries"), tune = "nu",
              node_size = "n_min", predictors = "m_max")

#' @rdname svforest_methods
#' @name svforest_methods
#' @section Method "psvm" (proximal SVM trees):
#' Every tree sees all rows; leaves keep class frequencies; trees are
#' unpruned and vote. At each node the classes present are shuffled and put
#' into overlay group A until A holds at least half the rows (the rest is
#' group B); `m` is drawn uniformly in `1..m_max` (default `NA`: all predictors)
#' and `m` predictors at random; a proximal SVM, the linear system
#' `(I / nu + E'E) z = E'De` with `E = [A, -1]`, gives the hyperplane
#' `x'w = gamma` that routes the rows. The node is split only when both groups
#' have more than `n_min` rows and the plane leaves rows on both
#' sides; a draw that fails is retried (new groups and predictors) up to 10
#' times before the node becomes a leaf. `nu` defaults to 1000 (on scaled
#' predictors; 100 to 1000 did best on vehicle and vowel).
#'
#' `n_min` defaults to 2 up to 100,000 rows and to `n / 50000` (rounded up)
#' beyond: an unpruned tree's size grows with the rows, and 100 trees on
#' 1,000,000 rows with `n_min = 2` take 4 times the memory of the data. On
#' 100,000 rows of noisy two-class data, `n_min` from 2 to 50 gave the same
#' accuracy (0.933 to 0.936) with 10 times fewer nodes; see
#' bench/scale_bench.R.
#'
#' `psvm_cut` sets the plane's offset. `"gain"` (default) keeps the proximal
#' SVM's direction `w` and moves the offset to the cut along `x'w` of largest
#' information gain over the node's rows (midway between consecutive
#' distinct projections); the paper asks each node for "a significant
#' information gain". `"plane"` is the proximal SVM's own `gamma`, as in the
#' paper's Algorithm 1. The least-squares offset is poor when the node's
#' groups are unbalanced (deep nodes, two-class data): on Spambase, 10-fold
#' cross-validated accuracy is 92.6% with `"plane"` and 95.8% with `"gain"`
#' (paper: 95.96%; ranger 95.4%); see bench/psvm_spam_cv.R. `node_tries = t` (default 1, the
#' paper's `K = 1`) draws `t` (groups, predictors) per node and keeps the
#' split of largest information gain.
#'
#' A node never chooses among predictors with the paper's `K = 1`: on data
#' where few predictors carry the signal, that is where PSVM trees trail
#' forests that do. On madelon (500 predictors, 20 informative; mean of
#' seeds 1 to 3) they score 0.585, as ranger does with `mtry = 1` (0.580),
#' against 0.756 for ranger's defaults. Ho's random subspace with a choice,
#' `m_max = ceiling(sqrt(p)), node_tries = 10`, gives 0.683 there and brings
#' glass and urban land cover within 2 points of ranger, but costs 4.6
#' points on vehicle and 1.6 on DNA, where planes through many predictors
#' are the method's strength; so the defaults stay the paper's. See
#' bench/psvm_attribute_selection.R.
#' Combine the parts
#' freely, e.g. `splitter = "psvm", leaf = "linear_svm"`, or
#' `method = "rsvt", leaf = "constant"`.
NULL
