# Prediction intervals and quantiles of regression forests: the forest's
# leaf-weighted distribution of training outcomes (a quantile regression
# forest), conformalized on rows the trees did not see (conformalized quantile
# regression). Everything here works from the model's own elements, for any
# method that fits a numeric outcome.

# The quantile levels a conformal calibration is computed for: predict() maps
# a level between them outward (lower levels down, upper levels up), so the
# guarantee holds for every level asked.
conformal_grid <- function() sort(unique(c(0.001, 0.0025, seq(0.005, 0.995, by = 0.005), 0.9975, 0.999)))

# Each distinct training outcome's weight is spread over this share of the gap
# to its neighbouring outcomes: the distribution has no atoms, so conformal
# scores of discrete outcomes (grades, counts) do not tie and the coverage is
# the nominal one, while quantiles stay next to the outcomes' values.
leaf_spread <- 0.05

# The rows `calibrate = "conformal"` holds out of a regression fit: a random
# `fraction` share (default 0.25) drawn from `seed`. `calibrate = "cv"` holds
# none out: every row gets a fold (1 to 5, random from `seed`).
conformal_rows <- function(calibrate, fraction, n, seed) {
  if (calibrate == "cv") {
    if (!is.null(fraction)) stop("`calibration_fraction` is for `calibrate = \"conformal\"`; `calibrate = \"cv\"` scores every row.", call. = FALSE)
    if (n < 10) stop(sprintf("`calibrate = \"cv\"` needs at least 10 rows (5 folds of 2), not %d.", n), call. = FALSE)
    return(list(method = "cv", folds = with_seed(seed, sample(rep_len(1:5, n)))))
  }
  fraction <- if (is.null(fraction)) 0.25 else fraction
  if (!is.numeric(fraction) || length(fraction) != 1 || is.na(fraction) || fraction <= 0 || fraction >= 1) {
    stop("`calibration_fraction` must be a number between 0 and 1 (exclusive).", call. = FALSE)
  }
  held <- with_seed(seed, sample.int(n, floor(fraction * n + 0.5)))
  if (length(held) < 2 || length(held) > n - 2) {
    stop(sprintf("`calibration_fraction = %s` leaves %d of %d rows for calibration; it needs at least 2, and 2 to fit.",
                 format(fraction), length(held), n), call. = FALSE)
  }
  list(method = "conformal", held = sort(held))
}

# Cross-conformal calibration (`calibrate = "cv"`): each row scored by a
# forest grown, as the model was, on the other four folds (`fold_fit(rows)`
# grows one), with that forest's own training rows as its quantile forest.
# The model itself keeps every row.
fit_conformal_cv <- function(model, x, y, folds, fold_fit, num_threads) {
  grid <- conformal_grid()
  scores <- matrix(0, length(y), length(grid))
  for (k in 1:5) {
    out <- which(folds == k)
    rows <- which(folds != k)
    fold <- fold_fit(rows)
    qf <- quantile_forest(fold$forest, x[rows, , drop = FALSE], y[rows], num_threads, fold$training_leaves)
    q <- leaf_quantiles(qf, forest_leaves(fold$forest, design_rows(fold$forest, x[out, , drop = FALSE]), num_threads),
                        grid, num_threads)
    scores[out, ] <- y[out] - q
  }
  conformal_adjustments(model, scores, "cv", num_threads)
}

# Prediction input for rows of a training design matrix `x` (dense, or a
# dgCMatrix: compressed rows, as new_engine_data() gives the engine; dense
# when the forest centres predictors).
design_rows <- function(forest, x) {
  if (!methods::is(x, "dgCMatrix")) return(engine_data(x))
  if (!all(forest$scale_center == 0)) return(list(type = "dense", x = as.matrix(x)))
  tx <- Matrix::t(x)
  list(type = "csr", j = tx@i, p = tx@p, x = tx@x, nrow = nrow(x), ncol = ncol(x))
}

# The leaf (0-based node index) of each tree reached by engine rows `data`:
# an n x ntree integer matrix.
forest_leaves <- function(forest, data, num_threads) {
  .svf_predict(forest, data, num_threads, list(outputs = "leaves"))$leaves
}

# The quantile forest of a model: the leaves its training rows (design matrix
# x, outcomes y on the original scale) reach in each tree. Every training row
# counts, in bag or not, as in Meinshausen's quantile regression forests.
# `recorded`: the engine's record of those leaves (engine_fit()'s
# training_leaves, packed in two bytes), used when it covers every row and
# tree; else (no record: a tree of more than 65,536 leaves, a banded rule,
# sparse data) the rows are routed through the trees.
quantile_forest <- function(forest, x, y, num_threads, recorded = NULL) {
  ntree <- length(forest$trees)
  n <- length(y)
  if (is.raw(recorded) && length(recorded) == 2 * n * ntree) {
    return(list(y = as.double(y), ntree = ntree, leaves16 = recorded))
  }
  pack_quantile_forest(forest_leaves(forest, design_rows(forest, x), num_threads), y)
}

# The leaves are stored as two bytes each (little-endian, in a raw vector)
# when every node index fits, which halves what the quantile forest adds to
# a saved model; else as an integer matrix.
pack_quantile_forest <- function(leaves, y) {
  qf <- list(y = as.double(y), ntree = ncol(leaves))
  if (length(leaves) && max(leaves) < 65536L) {
    qf$leaves16 <- writeBin(as.vector(leaves), raw(), size = 2L, endian = "little")
  } else {
    qf$leaves <- leaves
  }
  qf
}

# The training leaves of a quantile forest (rows x trees, 0-based).
qf_leaves <- function(qf) {
  if (!is.null(qf[["leaves"]])) return(qf[["leaves"]])  # exact: `$leaves` would match leaves16
  v <- readBin(qf$leaves16, "integer", n = length(qf$leaves16) / 2, size = 2L, signed = FALSE, endian = "little")
  dim(v) <- c(length(qf$y), qf$ntree)  # in place: matrix() would copy
  v
}

# On many rows, the fit's garbage (its temporaries of rows x trees) collected
# and its pages handed back before a quantile forest's index of every row is
# built: they would otherwise stay resident beside it, and set the fit's
# peak memory.
release_garbage <- function(n) {
  if (n < 200000) return(invisible())
  invisible(gc(verbose = FALSE))
  .svf_release_memory()
}

# Quantiles (rows x length(taus), the taus in any order) of the leaf-weighted
# training outcomes for rows reaching `leaves` (0-based, rows x ntree).
leaf_quantiles <- function(qf, leaves, taus, num_threads) {
  o <- order(taus)
  q <- .svf_leaf_quantiles(qf_leaves(qf), qf$y, leaves, taus[o], FALSE, leaf_spread, num_threads)
  out <- q
  out[, o] <- q
  out
}

# The out-of-bag conformal calibration of a bagged forest (the default of a
# regression fit): each training row scored against its quantiles from the
# trees it was out of bag in (oob_rows: per tree, the 1-based rows), with its
# own outcome left out of their leaves, so that it stands as a new row
# would; the jackknife+-after-bootstrap idea applied to conformalized
# quantile regression, at no extra forest. NULL when no row was out of bag
# (a sampler that uses every row). The engine streams the scores
# (.svf_oob_conformal(): ConformalLevels.h), so no rows x levels matrix is
# held; its shifts are those of the sorted scores (oob_adjust_for_forest()).
fit_conformal_oob <- function(model, qf, oob_rows, num_threads) {
  if (is.null(oob_rows) || length(oob_rows) != qf$ntree || sum(lengths(oob_rows)) == 0) return(NULL)
  oob_rows <- lapply(oob_rows, as.integer)
  leaves <- qf_leaves(qf)
  # the papers' methods score each row with all its out-of-bag trees, as
  # published; the default's choosing rows leave each row few
  halves <- isTRUE(model$oob_choosing_share > 0)
  # first_tree fixes the trees' forest-wide parity, as the out-of-bag tally's
  even <- (part_first_tree(model) + seq_along(oob_rows) - 1) %% 2 == 0
  release_garbage(length(qf$y))
  scored <- .svf_oob_scored(leaves, qf$y, oob_rows, if (halves) even else logical())
  # the shifts of the grid's levels `at` (each level's shift depends on its
  # own level alone)
  shifts <- function(rows, weight, even_tree, at = rep(TRUE, length(conformal_grid()))) {
    grid <- conformal_grid()[at]
    k <- order_statistic_ranks(length(rows), grid)
    out <- .svf_oob_conformal(leaves, qf$y, oob_rows, even_tree, rows, grid, k, weight, leaf_spread, num_threads)
    ifelse(k > length(rows), Inf, ifelse(k < 1, -Inf, out))
  }
  rows <- which(scored$all)  # rows in bag in every tree have no score
  if (length(rows) < 2) return(NULL)
  in_halves <- scored$even & scored$odd
  if (!halves || sum(in_halves) < 2) return(conformal_element(model, shifts(rows, 0, logical()), "oob", length(rows)))
  # each scored row's count of out-of-bag trees, tree after tree (unlisting
  # every tree's rows would leave garbage the size of all the lists)
  trees_out <- function(trees) {
    k <- integer(length(qf$y))
    for (r in oob_rows[trees]) k <- k + tabulate(r, nbins = length(qf$y))
    k[in_halves]
  }
  sizes <- list(all = trees_out(seq_along(oob_rows)), even = trees_out(even), odd = trees_out(!even))
  adjust <- shifts(which(in_halves), oob_extrapolation_weight(sizes, qf$ntree), even)
  # levels the extrapolation leaves infinite (too few rows in both halves)
  # or undefined keep the shift of all the scored rows: computed for those
  # levels alone, usually none (a pass over every row saved)
  keep <- !is.finite(adjust)
  if (any(keep)) adjust[keep] <- shifts(rows, 0, logical(), keep)
  conformal_element(model, adjust, "oob", length(rows))
}

# Conformal shifts for quantiles from the whole forest. A row's out-of-bag
# quantiles come from its m scoring trees, noisier than a new row's from
# all n_trees, so their scores are more spread out and the shifts too wide
# (intervals over-cover). The share of scores at or below a value c is a
# mean over rows, and with t trees it moves as F_t(c) = F(c) + b(c) / t; the
# shares from all m trees and from each half (even, odd trees; `scores`:
# rows scored in both) give it at n_trees (as oob_extrapolate() carries the
# out-of-bag error's rule), and each level's shift is read off that share
# as the conformal order statistic is off the scores' own. Carried in
# shares, not in the shifts themselves: where scores pile up (a floor of a
# skewed count, tied grades) the halves' few trees move the order statistic
# far more than the forest's many do, and a shift carried past the pile
# would cut into it; the share at each value moves smoothly. A level whose
# shift is infinite (too few rows) keeps `fallback`.
# (The reference computation from the three score matrices, rows x levels;
# fit_conformal_oob() streams the same.)
oob_adjust_for_forest <- function(scores, sizes, n_trees, fallback, num_threads = 1L) {
  weight <- oob_extrapolation_weight(sizes, n_trees)
  out <- extrapolated_order_statistic(lapply(scores, .svf_sort_columns, num_threads), weight, conformal_grid(), num_threads)
  ifelse(is.finite(out), out, fallback)
}

# The weight of the halves' shares in oob_adjust_for_forest() (sizes: each
# scored row's count of out-of-bag trees, all, even and odd).
oob_extrapolation_weight <- function(sizes, n_trees) {
  inv <- function(k) mean(1 / k)
  m <- 1 / inv(sizes$all)
  inv_half <- (inv(sizes$even) + inv(sizes$odd)) / 2
  # F_n = F_m - slope (1/m - 1/n) with slope = (F_half - F_m) / (inv_half - 1/m)
  if (inv_half > 1 / m) max(0, 1 / m - 1 / n_trees) / (inv_half - 1 / m) else 0
}

# The conformal order statistics of levels `tau` (conformal_levels()), one
# per column, read from the extrapolated share (1 + weight) F_all - weight
# (F_even + F_odd) / 2 (`sorted`: the three score matrices, rows x
# length(tau), each column sorted; or three vectors for one level): the least
# value whose share reaches k / n. The share rises only at the all-tree
# scores (the halves' term only lowers it), so the least such value is one
# of them (NA when none reaches it). With weight 0 it is conformal_levels()
# itself.
extrapolated_order_statistic <- function(sorted, weight, tau, num_threads = 1L) {
  sorted <- lapply(sorted, as.matrix)
  n <- nrow(sorted$all)
  k <- order_statistic_ranks(n, tau)
  out <- .svf_extrapolated_order_statistics(sorted$all, sorted$even, sorted$odd, weight, k, num_threads)
  ifelse(k > n, Inf, ifelse(k < 1, -Inf, out))
}

# The conformal calibration of a forest from rows it did not see (`data`,
# engine rows; `y` on the original scale).
fit_conformal <- function(model, data, y, num_threads) {
  qf <- model$conformal$quantile_forest
  if (is.null(qf)) {
    stop("This model was fitted by a version that did not store its quantile forest (the leaves of its training rows); refit it to calibrate intervals.",
         call. = FALSE)
  }
  # streamed in the engine (ConformalLevels.h): the shifts of
  # conformal_adjustments() without a rows x levels score matrix
  grid <- conformal_grid()
  k <- order_statistic_ranks(length(y), grid)
  out <- .svf_new_rows_conformal(qf_leaves(qf), qf$y, forest_leaves(model$forest, data, num_threads), y, grid, k,
                                 leaf_spread, num_threads)
  conformal_element(model, ifelse(k > length(y), Inf, ifelse(k < 1, -Inf, out)), "split", length(y))
}

# The calibration element from the scores (rows x grid levels: outcome minus
# the forest's quantile at each level, original scale): per level, the shift
# that makes the level's quantile conformal (conformal_levels()).
conformal_adjustments <- function(model, scores, method, num_threads = 1L) {
  conformal_element(model, conformal_levels(.svf_sort_columns(scores, num_threads), conformal_grid()), method, nrow(scores))
}

# The calibration element of shifts `adjust` (one per conformal_grid()
# level) from `rows` scored rows.
conformal_element <- function(model, adjust, method, rows) {
  list(method = method, taus = conformal_grid(), adjust = adjust, rows = rows,
       ntree = model$ntree, first_tree = part_first_tree(model), seed = model$seed)
}

# svforest_calibrate() of a regression forest: conformal scores from
# held-out rows x, y of the user's (method "conformal"), or none ("none").
calibrate_conformal <- function(object, x, y, method, num_threads) {
  if (identical(method, c("platt", "temperature", "isotonic", "none"))) method <- "conformal"
  if (!is.character(method) || length(method) != 1 || !method %in% c("conformal", "none")) {
    stop(sprintf("A regression forest is calibrated with method \"conformal\" (or \"none\"), not %s.", describe(method)),
         call. = FALSE)
  }
  if (!is.null(object$conformal)) object$conformal["calibration"] <- list(NULL)
  if (method == "none") return(object)
  if (missing(x) || missing(y)) stop("Calibration needs held-out rows: give `x` and `y`.", call. = FALSE)
  if (!is.numeric(y) || is.factor(y) || length(y) != NROW(x) || any(!is.finite(y))) {
    stop(sprintf("`y` must be finite numbers, one per row of `x` (%d), not %s.", NROW(x), describe(y)), call. = FALSE)
  }
  if (length(y) < 1) stop("Calibration needs at least one held-out row.", call. = FALSE)
  num_threads <- engine_threads(resolve_threads(num_threads))
  cal <- fit_conformal(object, new_engine_data(object, x), as.double(y), num_threads)
  object$conformal$calibration <- cal
  object
}

# The conformal calibration predict() uses (NULL: none; the quantiles are
# then the quantile forest's own), checked against the forest.
conformal_calibration <- function(object) {
  cal <- object$conformal$calibration
  if (is.null(cal)) return(NULL)
  if (is.null(cal$adjust) && !is.null(cal$scores)) {
    stop("The model's conformal calibration is of an earlier version (residual scores); refit the model or calibrate it again with svforest_calibrate().",
         call. = FALSE)
  }
  if (!conformal_calibration_ok(cal)) stop("The model's conformal calibration (`conformal$calibration`) is damaged.", call. = FALSE)
  if (!identical(as.integer(cal$ntree), as.integer(object$ntree)) ||
      !identical(as.integer(cal$first_tree), as.integer(part_first_tree(object)))) {
    if (cal$method == "oob") {
      stop(sprintf("The model's out-of-bag interval calibration belongs to a forest of %d trees, and this one has %d (combined from parts, or altered after the fit); each part's trees left other rows out of bag, so it does not apply. Calibrate the forest on held-out rows with svforest_calibrate(model, x, y), or use the quantile forest's own (uncalibrated) quantiles after svforest_calibrate(model, method = \"none\").",
                   as.integer(cal$ntree), as.integer(object$ntree)), call. = FALSE)
    }
    stop(sprintf("The model's conformal calibration belongs to a forest of %d trees, and this one has %d (combined or altered after the fit); its shifts do not apply. Fit with `calibrate = \"cv\"` or `\"conformal\"` on the whole forest, or calibrate it with svforest_calibrate().",
                 as.integer(cal$ntree), as.integer(object$ntree)), call. = FALSE)
  }
  cal
}

