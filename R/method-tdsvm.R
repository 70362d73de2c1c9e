#' @include registry.R parts.R
NULL

# Method "tdsvm": tree decomposition SVM. One CART tree (the "cart"
# splitter, entropy gain, nodes of fewer than `sigma` rows are leaves) with
# kernel SVM leaves; `sigma` and the SVM parameters are chosen on validation
# data. caret tunes nothing: the method tunes itself.

register_method("tdsvm", sampler = "all", splitter = "cart", leaf = "kernel_svm",
                aggregation = "vote", ntree = 1L, defaults = list(cost = 10^(0:4)),
                regression = list(leaf = "kernel_svr",
                                  defaults = list(cost = 10^(0:2), gamma = c(0.1, 0.3, 1, 3, 10), sigma0 = 500L,
                                                  sigma_max = 10000L)))

register_part("splitter", "cart",
              parameters = c("sigma", "sigma0", "sigma_factor", "sigma_max", "top_k", "min_gain",
                             "validation_fraction"),
              print_lines = function(x) {
                if (!is.null(x$tdsvm)) {
                  cat("  Chosen by validation: ", tdsvm_choice(x$tdsvm), "\n")
                } else {
                  cat("  Ceiling size sigma:   ", x$params$sigma, "\n")
                }
              },
              check = function(params, y, validation) if (is.null(validation)) check_cart_holdout(params, y),
              uses_validation = TRUE, node_size = "sigma", outcomes = c("classification", "regression"))

# Without `validation`, the search of the cart splitter needs a non-empty
# held-out part and at least 2 training rows (the engine's stratified
# hold-out takes round(fraction * n_k) rows of each class k). The grid is
# every combination of the leaf's `cost` and `gamma` (those it has).
check_cart_holdout <- function(params, y) {
  grid <- prod(lengths(params[intersect(c("cost", "gamma"), names(params))]))
  if (!is.na(params$sigma) && grid <= 1) return(invisible())
  # classes are held out in proportion; a numeric outcome as one group
  counts <- if (is.factor(y)) tabulate(as.integer(y), nlevels(y)) else length(y)
  held <- sum(floor(params$validation_fraction * counts + 0.5))
  hint <- "give `validation`, change `validation_fraction`, or skip the search (give `sigma` and a single `cost` and `gamma`)"
  if (held == 0) {
    stop(sprintf("The \"cart\" splitter (method \"tdsvm\") chooses its parameters on held-out rows, but `validation_fraction = %s` holds out no row of these %d rows: %s.",
                 format(params$validation_fraction), length(y), hint), call. = FALSE)
  }
  if (length(y) - held < 2) {
    stop(sprintf("The \"cart\" splitter (method \"tdsvm\") chooses its parameters on held-out rows, but `validation_fraction = %s` leaves fewer than 2 of these %d rows for training: %s.",
                 format(params$validation_fraction), length(y), hint), call. = FALSE)
  }
  invisible()
}

#' @rdname svforest_methods
#' @name svforest_methods
#' @section Method "tdsvm" (tree decomposition SVM):
#' One CART tree cuts the data into leaves of fewer than `sigma` rows (the
#' ceiling size); RBF-kernel C-SVMs (LIBSVM, on scaled predictors) are fitted
#' on the leaves with more than one class, homogeneous leaves predict their
#' class. A node with `sigma` or more rows is split at the cut of largest
#' entropy gain over all predictors (midpoint between consecutive distinct
#' values); a node with no cut of positive gain is a leaf. The paper's
#' fallback for such non-homogeneous nodes (a balanced cut) is not
#' implemented: they keep an SVM.
#'
#' `sigma` and the SVM parameters `cost` x `gamma` are chosen on validation
#' data: `validation = list(x = , y = )` (or, with a formula, a data frame
#' with the outcome), else a stratified `validation_fraction` share of the
#' training rows (drawn from `seed`). Stage 0 grows the tree with `sigma0`
#' (paper: 1500; default `min(1500, max(50, ceiling(n / 8)))`) and tries every
#' (`cost`, `gamma`); stage t sets `sigma_t = sigma_factor * sigma_{t-1}`
#' (4), merges the nodes of fewer than `sigma_t` rows of the same tree into
#' leaves (the tree grown with `sigma_t`, without regrowing) and tries only
#' the `top_k` (5) best pairs of stage 0. The search stops when the best
#' validation accuracy gains less than `min_gain` (0.5) percentage points
#' (the previous stage is kept), when `sigma_t` reaches the number of training
#' rows, or when `sigma_t` would exceed `sigma_max` (default `NA`, no cap, for
#' classification; the previous stage is kept). Where every stage gains (as
#' on letter in the paper), the uncapped search ends in one RBF SVM on the
#' whole training part, whose cost grows about as the square of its rows:
#' on 100,000 rows of 20 classes with linear boundaries (`multi` in
#' bench/scale_bench.R) it ran past 600 s, while `sigma_max = 6000` fitted
#' in 128 s with accuracy 0.746 (ranger-500: 229 s, 0.645). Set `sigma_max`
#' on large data to bound the time. The final tree is grown with the chosen `sigma` on all training rows
#' (training part plus held-out share) with the chosen `cost` and `gamma`.
#' Giving `sigma` (default `NA`: searched) skips the sigma search; a single `cost` and `gamma` with a
#' given `sigma` skips validation altogether. The paper's grid is
#' `cost = 10^(-1:5)`, `gamma = 10^(-4:4)`; the default grid is the cheaper
#' `cost = 10^(0:4)`, `gamma = 10^(-1:2)` (predictors min-max scaled to
#' \[0, 1\]). The choice and every validation accuracy are kept in the
#' model's `tdsvm` element and shown by `summary()` and `plot()`.
#'
#' For a numeric outcome the tree splits by variance reduction, the leaves
#' are RBF epsilon-SVRs (`leaf = "kernel_svr"`, tube `epsilon` on the
#' standardised outcome) and the search scores validation R-squared (the
#' same ranking as validation RMSE). There `min_gain` is the percentage of
#' the previous stage's validation MSE that a stage must remove: R-squared
#' points shrink as the fit gets good (removing 9% of the error of a fit
#' with R-squared 0.96 gains only 0.36 points). Regression has its own
#' defaults, cheaper at scale (the paper's classification grid makes LIBSVM
#' run to its iteration limit on large data): `cost = 10^(0:2)`,
#' `gamma = c(0.1, 0.3, 1, 3, 10)` (about 1/p to 100/p for some ten
#' predictors scaled to \[0, 1\]), `sigma0` capped at 500 instead of 1500
#' (`min(500, max(50, ceiling(n / 8)))`) and `sigma_max = 10000`, so that no
#' leaf SVR sees more than 10,000 rows (an SVR's cost grows about as the
#' square of its rows). On 100,000 rows of friedman1 this fits in a few
#' minutes on 2 threads (see bench/regression_bench.R).
#' `multiclass = "ovo"` (default) uses LIBSVM's one-against-one voting,
#' `"ovr"` one SVM per class against the others (largest decision value).
#' `leaf = "linear_svm"` fits linear SVM leaves instead (the grid is then
#' `cost` only). `svm_tolerance` and `cache_size` (MB) go to LIBSVM.
#' [support_vectors_used()] counts the support vectors a prediction uses.
#' The held-out share takes `round(validation_fraction * n_k)` rows of each
#' class `k`; on very small data (e.g. one row per class) it can be empty, or
#' leave fewer than 2 training rows, which is an error: give `validation`,
#' change `validation_fraction`, or skip the search (a `sigma` and a single
#' `cost` and `gamma`).
NULL
