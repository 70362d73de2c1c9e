#' @include stages.R
NULL

# Prediction intervals and quantiles of regression forests: conformal
# calibration on rows the trees did not see (held-out rows, or honest
# out-of-bag rows), with the spread of the trees' predictions as local scale.
# Everything here works from the model's own elements, for any method that
# fits a numeric outcome.

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

# Cross-conformal scores (`calibrate = "cv"`): each row scored by a forest
# grown, as the model was, on the other four folds (`fold_fit(rows)` grows
# one); the offset is the model's own. The model itself keeps every row.
fit_conformal_cv <- function(model, x, y, folds, fold_fit, num_threads) {
  cal <- NULL
  mean <- sd <- double(length(y))
  for (k in 1:5) {
    out <- which(folds == k)
    fold <- fold_fit(which(folds != k))
    m <- forest_moments(fold$forest, design_rows(fold$forest, x[out, , drop = FALSE]), num_threads)
    # from the fold forest's outcome scale to the model's
    mean[out] <- (m$mean * fold$scaling$scale + fold$scaling$center - model$outcome_center) / model$outcome_scale
    sd[out] <- m$sd * fold$scaling$scale / model$outcome_scale
  }
  conformal_scores(model, mean, sd, y, "cv")
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

# Mean and spread (standard deviation) of the trees' predictions of engine
# rows `data`, on the engine's standardised outcome scale.
forest_moments <- function(forest, data, num_threads) {
  res <- .svf_predict(forest, data, num_threads, FALSE, FALSE, "", FALSE, FALSE, TRUE)
  list(mean = res$prob[, 1], sd = res$tree_sd)
}

# The offset added to the trees' spread in the scores: the median spread on
# (at most 2000, evenly spaced) rows the trees were grown on, fixed before
# any calibration row is looked at; it keeps rows where the trees happen to
# agree from getting huge scores. NA when the spread carries no information
# (one tree, or trees that agree everywhere): scores are plain residuals then.
spread_offset <- function(forest, train_x, ntree, num_threads) {
  if (ntree < 2) return(NA_real_)
  take <- unique(round(seq(1, nrow(train_x), length.out = min(nrow(train_x), 2000))))
  offset <- stats::median(forest_moments(forest, design_rows(forest, train_x[take, , drop = FALSE]), num_threads)$sd)
  if (is.finite(offset) && offset > 1e-8) offset else NA_real_
}

# The conformal calibration of a forest from rows it did not see (`data`,
# engine rows; `y` on the original scale). Scores are signed:
# (y - fit) / (sd + offset) on the engine's scale, sorted.
fit_conformal <- function(model, data, y, num_threads) {
  if (is.null(model$conformal$spread_offset)) {
    stop("This model was fitted by a version that did not store the trees' spread on its training rows; refit it to calibrate intervals.",
         call. = FALSE)
  }
  m <- forest_moments(model$forest, data, num_threads)
  conformal_scores(model, m$mean, m$sd, y, "split")
}

# The calibration element: sorted signed scores of rows with outcomes y
# (original scale) and the forest's mean and spread for them (engine scale).
conformal_scores <- function(model, mean, sd, y, method) {
  offset <- model$conformal$spread_offset
  normalised <- !is.na(offset)
  if (!normalised) offset <- 1  # plain residuals
  y <- (y - model$outcome_center) / model$outcome_scale
  scale <- if (normalised) sd + offset else rep(1, length(y))
  list(method = method, scores = sort((y - mean) / scale), normalised = normalised, offset = offset,
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

# The calibration scores predict() uses: the held-out rows' (`model$conformal`),
# else out-of-bag residuals when they are honest (the sampler left rows out
# and no out-of-bag row chose a split). Errors name the way to get them.
conformal_calibration <- function(object) {
  cal <- object$conformal$calibration
  if (!is.null(cal)) {
    if (!conformal_calibration_ok(cal)) stop("The model's conformal calibration (`conformal$calibration`) is damaged.", call. = FALSE)
    if (!identical(as.integer(cal$ntree), as.integer(object$ntree)) ||
        !identical(as.integer(cal$first_tree), as.integer(part_first_tree(object)))) {
      stop(sprintf("The model's conformal calibration belongs to a forest of %d trees, and this one has %d (combined or altered after the fit); its scores do not apply. Fit with `calibrate = \"conformal\"` on the whole forest.",
                   as.integer(cal$ntree), as.integer(object$ntree)), call. = FALSE)
    }
    return(cal)
  }
  if (!is.null(object$oob_sum) && isFALSE(object$conformal$splitter_uses_oob)) {
    has <- object$oob_count > 0
    if (sum(has) < 1) stop("No row was out of bag: the model has no calibration rows for intervals.", call. = FALSE)
    y <- (object$oob_y[has] - object$outcome_center) / object$outcome_scale
    pred <- object$oob_sum[has] / object$oob_count[has]
    return(list(method = "oob", scores = sort(y - pred), normalised = FALSE, offset = 1))
  }
  why <- if (isTRUE(object$conformal$splitter_uses_oob)) {
    sprintf("its \"%s\" splitter chooses splits on the out-of-bag rows, so their residuals are optimistic", object$params$splitter)
  } else if (is.null(object$oob_sum)) {
    sprintf("its \"%s\" sampler leaves no row out of bag", object$params$sampler)
  } else {
    "it was fitted by a version that did not record whether its out-of-bag rows chose splits"
  }
  stop(sprintf("This forest holds no rows it did not see for calibrating intervals: %s. Fit it with `calibrate = \"conformal\"` (holds out `calibration_fraction` of the rows, default 0.25) or `calibrate = \"cv\"` (five fold forests), or calibrate it on rows it did not see with svforest_calibrate().", why),
       call. = FALSE)
}

# Order statistics of the sorted scores for quantile levels tau: the
# ceiling(tau (n + 1))-th for tau >= 1/2 (Inf beyond n), the
# floor(tau (n + 1))-th for tau < 1/2 (-Inf below 1), so that a new row's
# score is at most the upper one with probability >= tau and below the lower
# one with probability <= tau.
conformal_levels <- function(scores, tau) {
  n <- length(scores)
  k <- ifelse(tau >= 0.5, ceiling(tau * (n + 1) - 1e-9), floor(tau * (n + 1) + 1e-9))
  ifelse(k > n, Inf, ifelse(k < 1, -Inf, scores[pmin(pmax(k, 1), n)]))
}

# Quantiles (n x length(tau)) from the point prediction and spread of each
# row (engine scale) and a calibration, on the outcome's scale.
conformal_quantiles <- function(object, mean, sd, cal, tau) {
  r <- conformal_levels(cal$scores, tau)
  scale <- if (cal$normalised) sd + cal$offset else rep(cal$offset, length(mean))
  q <- mean + outer(scale, r)
  q <- q * object$outcome_scale + object$outcome_center
  dim(q) <- c(length(mean), length(tau))
  colnames(q) <- quantile_names(tau)
  q
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

# Quantiles or intervals of a regression forest for `newdata` (predict()).
predict_uncertainty <- function(object, newdata, type, quantiles, level, num_threads) {
  cal <- conformal_calibration(object)
  moments <- predict_chunked(object, newdata, "moments", num_threads)  # R/predict.svforest.R
  if (type == "quantiles") return(conformal_quantiles(object, moments[, 1], moments[, 2], cal, quantiles))
  q <- conformal_quantiles(object, moments[, 1], moments[, 2], cal, c((1 - level) / 2, (1 + level) / 2))
  out <- cbind(fit = moments[, 1] * object$outcome_scale + object$outcome_center, lower = q[, 1], upper = q[, 2])
  attr(out, "level") <- level
  out
}

# A stored conformal calibration (sorted finite scores, a positive offset).
conformal_calibration_ok <- function(cal) {
  is.list(cal) && isTRUE(cal$method %in% c("split", "cv")) && is.numeric(cal$scores) && length(cal$scores) >= 1 &&
    !anyNA(cal$scores) && !is.unsorted(cal$scores) && is.logical(cal$normalised) && length(cal$normalised) == 1 &&
    !is.na(cal$normalised) && is.numeric(cal$offset) && length(cal$offset) == 1 && is.finite(cal$offset) &&
    cal$offset > 0
}

# The post-fit stage (R/stages.R) of every regression fit: `conformal` holds
# whether out-of-bag rows chose splits or trees (then their residuals are no
# honest calibration), the score offset (spread_offset()), and the
# calibration of svforest(..., calibrate = "conformal") (scores of the
# held-out rows) or calibrate = "cv" (scores of five fold forests; no row
# held out), which svforest_calibrate() can replace. It shares `calibrate`
# and `calibration_fraction` with the class probability calibration
# (R/calibration.R), which leaves these two values to it.
conformal_stage <- new_stage(
  name = "conformal",
  field = "conformal",
  args = c("calibrate", "calibration_fraction"),
  setup = function(args, y, outcome, seed) {
    if (outcome != "regression") return(NULL)
    if (isTRUE(args$calibrate %in% c("conformal", "cv"))) {
      conformal_rows(args$calibrate, args$calibration_fraction, length(y), seed)
    } else {
      list(method = "none")
    }
  },
  run = function(model, settings, data) {
    model$conformal <- list(splitter_uses_oob = isTRUE(data$splitter_uses_oob),
                            spread_offset = spread_offset(model$forest, data$x, model$ntree, data$num_threads),
                            calibration = NULL)
    cal <- switch(settings$method,
      conformal = fit_conformal(model, design_rows(model$forest, data$held_x), data$held_y, data$num_threads),
      cv = fit_conformal_cv(model, data$x, data$y, settings$folds, data$fit_rows, data$num_threads),
      NULL
    )
    model$conformal["calibration"] <- list(cal)
    model$conformal
  },
  check = function(value, model) {
    is.list(value) && is.logical(value$splitter_uses_oob) && length(value$splitter_uses_oob) == 1 &&
      !is.na(value$splitter_uses_oob) && is.numeric(value$spread_offset) && length(value$spread_offset) == 1 &&
      (is.na(value$spread_offset) || (is.finite(value$spread_offset) && value$spread_offset > 0)) &&
      (is.null(value$calibration) || conformal_calibration_ok(value$calibration))
  },
  print_line = function(x) {
    cal <- x$conformal$calibration
    if (is.null(cal)) return(NULL)
    paste0("  Intervals:             ", sprintf("conformal (%s, %d scores)", if (cal$method == "cv") "five fold forests" else "held-out rows",
                                                length(cal$scores)))
  },
  combine = function(out, parts) {
    # out-of-bag rows of any part that chose splits make the combined ones
    # no honest calibration either; a part's hold-out calibration describes
    # that part's trees (predict() refuses it, naming the remedy)
    if (!is.null(out$conformal)) {
      out$conformal$splitter_uses_oob <- any(vapply(parts, function(m) !isFALSE(m$conformal$splitter_uses_oob), TRUE))
    }
    out
  }
)
