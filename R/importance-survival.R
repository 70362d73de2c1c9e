#' @include family-survival.R oob-survival.R predict-survival.R
NULL

# Permutation importance of a survival forest (svforest_importance()): for
# each predictor (its design columns together), the drop in Harrell's C of
# the forest's risk on the rows given when the predictor's values are
# permuted among them. The permutations are drawn from the model's seed, so
# the result is the same in every call and for any `num_threads`.
survival_importance <- function(object, x, y, num_threads) {
  if (!inherits(y, "Surv")) stop(sprintf("`y` must be a survival::Surv outcome, not %s.", describe(y)), call. = FALSE)
  y <- check_survival_outcome(y, NROW(x))
  data <- importance_dense_data(new_engine_data(object, x))
  risk_of <- function(d) rowSums(survival_engine_chf(object$forest, d, num_threads))
  drops <- permutation_drops(object, data, function(d) oob_harrell_c(y, risk_of(d)))
  structure(drops[1L, ], type = "permutation")
}

# The drops of `score(data)` (a number, or one per cause) when each
# predictor's design columns are permuted among the rows of engine data
# `data` (dense): a scores x predictors matrix, columns named by the
# predictors. The permutations come from the model's seed.
permutation_drops <- function(object, data, score) {
  base <- score(data)
  g <- importance_groups(object)
  seed <- if (is.numeric(object$seed) && is.finite(object$seed)) object$seed else 1
  perms <- with_seed(seed, lapply(g$groups, function(cols) sample.int(nrow(data$x))))
  drops <- vapply(seq_along(g$groups), function(k) {
    permuted <- data
    cols <- g$groups[[k]] + 1L
    permuted$x[, cols] <- data$x[perms[[k]], cols, drop = FALSE]
    base - score(permuted)
  }, numeric(length(base)))
  matrix(drops, nrow = length(base), dimnames = list(names(base), g$names))
}

# Engine data as a dense matrix without level-code marks (the survival
# forest reads level codes as numbers).
importance_dense_data <- function(data) {
  if (identical(data$type, "sparse")) {
    x <- as.matrix(Matrix::sparseMatrix(i = data$i + 1L, p = data$p, x = data$x, dims = c(data$nrow, data$ncol)))
    return(list(type = "dense", x = x))
  }
  list(type = "dense", x = data$x)
}
