# Prediction intervals and quantiles of a regression forest from its
# conformal calibration (R/uncertainty.R): predict(type = "interval") and
# predict(type = "quantiles"), and the checks of what they read.

# Order statistics of the sorted scores for quantile levels tau (`scores`: a
# sorted vector for every level, or a matrix with a sorted column per
# level): the ceiling(tau (n + 1))-th for tau >= 1/2 (Inf beyond n), the
# floor(tau (n + 1))-th for tau < 1/2 (-Inf below 1), so that a new row's
# score is at most the upper one with probability >= tau and below the lower
# one with probability <= tau.
conformal_levels <- function(scores, tau) {
  n <- NROW(scores)
  k <- order_statistic_ranks(n, tau)
  at <- pmin(pmax(k, 1), n)
  ifelse(k > n, Inf, ifelse(k < 1, -Inf, if (is.matrix(scores)) scores[cbind(at, seq_along(tau))] else scores[at]))
}

# The rank of the conformal order statistic of level tau among n scores.
order_statistic_ranks <- function(n, tau) {
  ifelse(tau >= 0.5, ceiling(tau * (n + 1) - 1e-9), floor(tau * (n + 1) + 1e-9))
}

# Quantiles (n x length(tau), original scale) of rows reaching `leaves`: the
# quantile forest's, each shifted by the calibration's shift for its level
# (a level between the calibrated ones taken outward: lower levels down,
# upper levels up; beyond them an infinite bound), then made non-decreasing
# across increasing levels.
conformal_quantiles <- function(object, leaves, cal, tau, num_threads) {
  qf <- object$conformal$quantile_forest
  if (is.null(qf) || !identical(as.integer(qf$ntree), ncol(leaves))) {
    stop(if (is.null(qf)) "This model holds no quantile forest (the leaves of its training rows: fitted by an older version, or combined from parts grown on different rows); refit it for quantiles and intervals."
         else sprintf("The model's quantile forest describes %d trees and the model has %d (trees removed after the fit); refit it for quantiles and intervals.",
                      as.integer(qf$ntree), ncol(leaves)), call. = FALSE)
  }
  at <- tau
  shift <- double(length(tau))
  if (!is.null(cal)) {
    grid <- cal$taus
    idx <- conformal_grid_index(grid, tau)
    inside <- idx >= 1 & idx <= length(grid)
    at <- ifelse(inside, grid[pmin(pmax(idx, 1L), length(grid))], 0.5)
    shift <- ifelse(inside, cal$adjust[pmin(pmax(idx, 1L), length(grid))], ifelse(tau >= 0.5, Inf, -Inf))
  }
  q <- leaf_quantiles(qf, leaves, at, num_threads) + rep(shift, each = nrow(leaves))
  dim(q) <- c(nrow(leaves), length(tau))
  o <- order(tau)
  if (length(o) > 1) for (j in 2:length(o)) q[, o[j]] <- pmax(q[, o[j]], q[, o[j - 1]])
  colnames(q) <- quantile_names(tau)
  q
}

# The calibrated level each of `tau` is read at (an index into the sorted
# `grid`): the nearest outward, lower levels down and upper levels up
# (0 or length(grid) + 1 beyond the grid).
conformal_grid_index <- function(grid, tau) {
  ifelse(tau >= 0.5, findInterval(tau - 1e-12, grid) + 1L, findInterval(tau + 1e-12, grid))
}

# The calibration rows a conformal quantile of level tau needs to be finite
# (conformal_levels(): the ceiling(tau (n + 1))-th of n scores exists when
# n >= tau / (1 - tau), and the floor(tau (n + 1))-th when n >= (1 - tau) / tau).
conformal_rows_needed <- function(tau) {
  ceiling(ifelse(tau >= 0.5, tau / (1 - tau), (1 - tau) / tau) - 1e-9)
}

# Why some of a prediction's conformal quantiles (`q`, a column per level
# `tau`) are infinite, as a warning: the calibration has too few rows for
# their levels (or a level lies beyond the calibrated ones). Once per call;
# none when every value is finite or there is no calibration. `level`: an
# interval's (its two bounds are `tau`), else NULL (quantiles).
warn_unbounded <- function(q, cal, tau, level = NULL) {
  if (is.null(cal) || !length(q) || all(is.finite(q))) return(invisible())
  grid <- cal$taus
  idx <- conformal_grid_index(grid, tau)
  beyond <- idx < 1 | idx > length(grid)
  at <- grid[pmin(pmax(idx, 1L), length(grid))]
  infinite <- apply(!is.finite(q), 2, any)
  needed <- max(conformal_rows_needed(at[infinite & !beyond]), 0)
  rows <- as.integer(cal$rows)
  range <- sprintf("the calibrated levels run from %s to %s", format(min(grid)), format(max(grid)))
  if (!is.null(level)) {
    bad <- sum(!is.finite(q[, 1]) | !is.finite(q[, 2]))
    why <- if (any(beyond)) {
      sprintf("a conformal interval of level %s reaches beyond the calibrated levels (%s; with %d calibration rows levels up to about %s are finite)",
              format(level), sub("^the calibrated levels ", "", range), rows, format(signif(min((rows - 1) / (rows + 1), 2 * max(grid) - 1), 2)))
    } else {
      sprintf("%d calibration rows are too few for a conformal interval of level %s (it needs about %d; with %d rows levels up to about %s are finite)",
              rows, format(level), needed, rows, format(signif((rows - 1) / (rows + 1), 2)))
    }
    warning(sprintf("%d of %d prediction intervals are unbounded (an infinite bound): %s. Lower `level`, or calibrate on more rows (svforest_calibrate(), or more training rows).",
                    bad, nrow(q), why), call. = FALSE)
  } else {
    levels <- paste(format(tau[infinite]), collapse = ", ")
    why <- c(if (any(infinite & !beyond))
               sprintf("%d calibration rows are too few for conformal quantiles there (they need about %d; with %d rows levels from about %s to %s are finite)",
                       rows, needed, rows, format(signif(1 / (rows + 1), 2)), format(signif(rows / (rows + 1), 2))),
             if (any(infinite & beyond)) range)
    warning(sprintf("The quantiles at level%s %s are infinite: %s. Ask for levels nearer 0.5, or calibrate on more rows (svforest_calibrate(), or more training rows).",
                    if (sum(infinite) > 1) "s" else "", levels, paste(why, collapse = "; ")), call. = FALSE)
  }
  invisible()
}

quantile_names <- function(tau) paste0("quantile_", format(tau, trim = TRUE, drop0trailing = TRUE, scientific = FALSE))

check_quantile_levels <- function(quantiles) {
  if (!is.numeric(quantiles) || length(quantiles) == 0 || anyNA(quantiles) || any(quantiles <= 0 | quantiles >= 1)) {
    stop(sprintf("`quantiles` must be numbers strictly between 0 and 1, not %s.", describe(quantiles)), call. = FALSE)
  }
  as.double(quantiles)
}

check_level <- function(level) {
  if (!is.numeric(level) || length(level) != 1 || is.na(level) || level <= 0 || level >= 1) {
    stop(sprintf("`level` must be one number strictly between 0 and 1 (e.g. 0.9 for a 90%% interval), not %s.",
                 describe(level)), call. = FALSE)
  }
  as.double(level)
}

# Quantiles or intervals of a regression forest for `newdata` (predict()),
# in chunks of rows (as predict_chunked()): one engine pass gives each
# chunk's leaves and predictions, whose quantiles are computed at once, so
# no leaf matrix of all rows is ever held.
predict_uncertainty <- function(object, newdata, type, quantiles, level, num_threads) {
  cal <- conformal_calibration(object)
  threads <- engine_threads(resolve_threads(num_threads))
  taus <- if (type == "quantiles") quantiles else c((1 - level) / 2, (1 + level) / 2)
  n <- NROW(newdata)
  chunk <- predict_chunk_rows(object)  # R/predict.R
  if (!is.data.frame(newdata) && !is.matrix(newdata) && !inherits(newdata, "Matrix")) chunk <- Inf
  q <- matrix(0, n, length(taus), dimnames = list(NULL, quantile_names(taus)))
  fit <- double(n)
  for (start in if (n > 0) seq(1, n, by = min(n, chunk)) else integer()) {
    idx <- start:min(n, start + chunk - 1)
    rows <- if (length(idx) == n) newdata else slice_rows(newdata, idx)
    leaves <- predict_rows(object, rows, "leaf0", num_threads)
    q[idx, ] <- conformal_quantiles(object, leaves, cal, taus, threads)
    fit[idx] <- attr(leaves, "fit")
  }
  warn_unbounded(q, cal, taus, if (type == "interval") level)
  if (type == "quantiles") return(q)
  out <- cbind(fit = fit, lower = q[, 1], upper = q[, 2])
  attr(out, "level") <- level
  out
}

# A stored conformal calibration: a shift (finite or infinite, never NA) per
# increasing level.
conformal_calibration_ok <- function(cal) {
  is.list(cal) && isTRUE(cal$method %in% c("split", "cv", "oob")) && is.numeric(cal$taus) && length(cal$taus) >= 1 &&
    !anyNA(cal$taus) && !is.unsorted(cal$taus, strictly = TRUE) && all(cal$taus > 0 & cal$taus < 1) &&
    is.numeric(cal$adjust) && length(cal$adjust) == length(cal$taus) && !anyNA(cal$adjust) &&
    is.numeric(cal$rows) && length(cal$rows) == 1 && cal$rows >= 1
}

# A stored quantile forest: the training outcomes and their leaves in every
# tree (pack_quantile_forest()).
quantile_forest_ok <- function(qf, model) {
  # its own tree count: a model whose trees were subset (multi_predict(),
  # first k trees) stays usable, and predict() refuses its quantiles
  if (!is.list(qf) || !is.double(qf$y) || length(qf$y) < 1 || !all(is.finite(qf$y)) ||
      !is.numeric(qf$ntree) || length(qf$ntree) != 1 || !isTRUE(qf$ntree >= 1)) return(FALSE)
  if (!is.null(qf$leaves16)) return(is.raw(qf$leaves16) && length(qf$leaves16) == 2 * length(qf$y) * qf$ntree)
  leaves <- qf[["leaves"]]
  is.integer(leaves) && is.matrix(leaves) && identical(dim(leaves), c(length(qf$y), as.integer(qf$ntree))) &&
    !anyNA(leaves) && all(leaves >= 0L) && leaves_in_trees(leaves, model$forest$trees)
}

# Whether each column of `leaves` (0-based leaf numbers) names leaves of the
# matching tree (a model whose trees were subset is checked by the engine's
# bound alone: QuantileForest.h).
leaves_in_trees <- function(leaves, trees) {
  if (ncol(leaves) != length(trees)) return(TRUE)
  all(apply(leaves, 2, max) < vapply(trees, tree_n_leaves, 0L))
}
