# The sections on each method are written in its file, R/method-*.R (help page ?svforest_methods).
#' Fit a support vector forest
#'
#' Grows an ensemble of trees whose nodes or leaves hold support vector
#' machines. The default, method `"hybrid"`, is svforest's own forest: 100
#' bootstrap trees whose nodes choose between axis-aligned cuts and
#' proximal-SVM hyperplanes on out-of-bag rows, for classes and numbers, with
#' out-of-bag error and class probabilities. The published methods are
#' presets selected by name (see [svforest_methods()], which also says when
#' one of them is the better choice), and the engine parts combine freely.
#'
#' See the topics for the rest:
#' * the methods (`"hybrid"`, `"rsvt"`, `"psvm"`, `"transform"`, `"tdsvm"`,
#'   `"rsvf"`) and their parameters: [svforest_methods()];
#' * the engine parts and the parameters passed through `...`: [svforest_parameters];
#' * numeric outcomes: [svforest_regression];
#' * missing values, `na_action`: [svforest_missing_values];
#' * `case_weights` and `class_weights`: [svforest_weights];
#' * `calibrate` (class probabilities; regression prediction intervals): [svforest_calibration];
#' * `scale`: [svforest_scaling];
#' * accepted predictors and outcomes: [svforest_input];
#' * tidymodels, caret, explainers, deployment: [svforest_engine],
#'   [svforest_caret()], [svforest_explainers], [svforest_butcher].
#'
#' @param x A data frame, numeric matrix or `Matrix::dgCMatrix` of
#'   predictors, or a formula for the formula method.
#' @param y The outcome: a numeric vector fits a regression forest ([svforest_regression]), a factor with at least two non-empty levels (character and logical
#'   vectors are converted to factors).
#' @param formula A formula `outcome ~ predictors`.
#' @param data A data frame for the formula method.
#' @param method Method preset; see [svforest_methods()]. `NULL` (default):
#'   `"hybrid"`, svforest's own forest, for factor and numeric outcomes.
#' @param ntree Number of trees, a whole number from 1 to 10^6 (method
#'   default when `NULL`: 100 for `"hybrid"`, 10 for `"rsvt"`, 100 for
#'   `"psvm"`, 20 for `"transform"`, 1 for `"tdsvm"`, 20 for `"rsvf"`). With
#'   `ntree = NULL` a `"hybrid"` classification forest grows 100 more trees,
#'   up to 300, while they still help: see `ntree_max` in
#'   [svforest_parameters]. A given `ntree` is the number of trees grown.
#' @param num_threads Threads; `NULL` uses option `svforest.num_threads`, the
#'   `SVFOREST_NUM_THREADS` environment variable or all cores (at most 2 under
#'   `R CMD check`, at most `OMP_THREAD_LIMIT` when that is set). More threads than cores are reduced to the number of
#'   cores. The model does not depend on it.
#' @param seed Whole number; `NULL` draws one from R's generator (so
#'   [set.seed()] makes fits repeatable). Tree `t` uses the stream
#'   `(seed, t)`.
#' @param verbose Show a progress bar with an estimate of the time left:
#'   `TRUE` always, `FALSE` never; `NULL` (default) in interactive sessions
#'   for fits that run longer than 2 seconds. Fits stop promptly on an
#'   interrupt (Ctrl-C, Esc).
#' @param ... Method parameters (see [svforest_parameters] and [svforest_methods()]), and `case_weights`,
#'   `class_weights`, `validation`, `importance` and `na_action`
#'   (`"impute"`, the default, or `"fail"`; see [svforest_missing_values]),
#'   each matched by its exact name.
#' @return An object of class `svforest`: a plain list that can be saved with
#'   [saveRDS()]. `oob_error` holds the out-of-bag error when the sampler
#'   leaves rows out, else `NA` (for the default's classes the error
#'   carried to the forest's size, see [svforest_methods()];
#'   `oob_error_ensemble` is the out-of-bag predictions' own); `oob_predictions` each training row's
#'   out-of-bag prediction (`NA` for a row no tree left out), by the rule of
#'   `predict()` applied to the trees that did not draw the row. A
#'   classification fit then also holds `oob_prob`, the out-of-bag class
#'   probabilities (n x K; the trees' class distributions averaged, each
#'   rounded to a multiple of 2^-32, uncalibrated), and their Brier score
#'   (`oob_brier`: the squared distance to the one-hot class summed over
#'   classes, averaged over rows) and log-loss (`oob_logloss`, probabilities
#'   clamped at 1e-15); `oob_votes`, `oob_prob_sum`, `oob_count` (and for
#'   `aggregation = "max_confidence"` `oob_confidence` and
#'   `oob_confident_class`) are the tallies that [combine()] merges.
#' @seealso [predict.svforest()], [summary.svforest()], [plot.svforest()]
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' fit
#' predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' @export
svforest <- function(x, ...) UseMethod("svforest")

#' @rdname svforest
#' @export
# `...` comes before the named arguments so that method parameters are never
# partially matched to them (`nu = 10` would otherwise set num_threads).
svforest.formula <- function(formula, data, ..., method = NULL, ntree = NULL, num_threads = NULL,
                             seed = NULL, verbose = NULL) {
  call <- match.call()
  if (missing(data) || !is.data.frame(data)) stop("`data` must be a data frame.", call. = FALSE)
  if (ncol(data) == 0) stop("`data` has no columns.", call. = FALSE)
  used <- all.vars(formula)
  check_frame_columns(data[if ("." %in% used) names(data) else intersect(used, names(data))], "data")
  user <- list(...)
  plain <- plain_formula_data(formula, data)
  if (!is.null(plain)) {
    # `y ~ .` on numeric columns: no model frame (R/design.R)
    design <- plain_frame_design(plain$x, topenv(environment(formula)), check_na_action(user[["na_action"]]),
                                 na_rows(user, nrow(data)))
    return(fit_formula(design, plain$y, formula, method, ntree, num_threads, seed, verbose, user, call))
  }
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass)
  terms <- attr(mf, "terms")
  if (attr(terms, "response") == 0) stop("`formula` needs an outcome on its left side.", call. = FALSE)
  y <- stats::model.response(mf)
  tt <- stats::delete.response(terms)
  if (length(attr(tt, "term.labels")) == 0) stop("`formula` has no predictors.", call. = FALSE)
  # a frame of its own (with terms) so that transformed predictors, e.g.
  # log(a), are evaluated once and found again by model.matrix()
  xf <- stats::model.frame(tt, data, na.action = stats::na.pass)
  design <- frame_design(tt, xf, check_na_action(user[["na_action"]]), na_rows(user, nrow(xf)),
                         design_level_codes(method, user, y))
  fit_formula(design, y, formula, method, ntree, num_threads, seed, verbose, user, call)
}

fit_formula <- function(design, y, formula, method, ntree, num_threads, seed, verbose, user, call) {
  if (is.data.frame(user[["validation"]])) user[["validation"]] <- frame_validation(formula, user[["validation"]])
  model <- fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, model_call(call))
  # the outcome's expression, so svforest_importance(fit, data) finds it in data
  model$outcome <- formula[[2L]]
  model
}

# list(y, x) for `outcome ~ .` when every other column of `data` is plain
# (plain_column(), R/design.R); else NULL. `y` as model.response() gives it.
plain_formula_data <- function(formula, data) {
  if (length(formula) != 3 || !is.name(formula[[2L]]) || !identical(formula[[3L]], quote(.))) return(NULL)
  outcome <- as.character(formula[[2L]])
  if (!outcome %in% names(data) || anyDuplicated(names(data))) return(NULL)
  x <- data[setdiff(names(data), outcome)]
  if (!plain_frame(x)) return(NULL)
  y <- data[[outcome]]
  if (!is.null(dim(y))) return(NULL)
  names(y) <- row.names(data)
  list(y = y, x = x)
}

#' @rdname svforest
#' @export
svforest.default <- function(x, y, ..., method = NULL, ntree = NULL, num_threads = NULL, seed = NULL,
                             verbose = NULL) {
  call <- match.call()
  if (missing(y)) stop("`y` is missing: give the outcome, or use the formula interface.", call. = FALSE)
  user <- list(...)
  design <- x_design(x, check_na_action(user[["na_action"]]), na_rows(user, NROW(x)), design_level_codes(method, user, y))
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, model_call(call))
}

# Shared by both interfaces: checks, engine call, model object.
fit_forest <- function(design, y, method, ntree, num_threads, seed, verbose, user, call) {
  check_outcome_kind(y)
  outcome <- outcome_type(y)
  preset <- svf_method(if (is.null(method)) default_method(outcome) else method)
  method <- preset$name
  x <- design$x
  n <- nrow(x)
  if (n == 0) stop("The training data has no rows.", call. = FALSE)
  if (ncol(x) == 0) stop("The training data has no predictor columns.", call. = FALSE)
  y <- if (outcome == "regression") check_numeric_outcome(y, n) else check_outcome(y, n)
  case_weights <- check_case_weights(user[["case_weights"]], n)
  class_weights <- check_class_weights(user[["class_weights"]], y, outcome)
  user[["case_weights"]] <- NULL
  user[["class_weights"]] <- NULL
  user[["na_action"]] <- NULL  # used by the design (R/missing.R), not a parameter
  # svforest_future() grows the trees in futures (R/future.R): engine_fit()'s stand-in
  grow_forest <- if (is.null(user[[".grow_forest"]])) engine_fit else user[[".grow_forest"]]
  user[[".grow_forest"]] <- NULL
  weights <- weighting(case_weights, class_weights, y)
  if (!is.null(weights$rows_used)) {
    # rows of weight 0 are left out: the fit is the one without them
    x <- x[weights$rows_used, , drop = FALSE]
    y <- y[weights$rows_used]
    n <- nrow(x)
    if (outcome == "classification" && sum(tabulate(y, nlevels(y)) > 0) < 2) {
      stop("The rows of positive `case_weights` hold only one class; a classifier needs two.", call. = FALSE)
    }
  }
  # NULL: progress only in interactive sessions and only once a fit is slow
  progress_delay <- if (is.null(verbose)) 2 else 0
  verbose <- if (is.null(verbose)) interactive() else check_flag(verbose, "verbose")
  first_tree <- check_count(if (is.null(user$first_tree)) 0L else user$first_tree, "first_tree", 0, 1e9)
  user$first_tree <- NULL
  trees <- tree_count(outcome_preset(preset, outcome), ntree, user[["ntree_max"]])  # exact name, as validation
  user[["ntree_max"]] <- NULL
  ntree <- trees$ntree
  num_threads <- engine_threads(resolve_threads(num_threads))
  seed <- resolve_seed(seed)
  validation <- user[["validation"]]  # data, not a parameter: never stored in the model (exact name:
  user[["validation"]] <- NULL       # user$validation would match validation_fraction)
  # the post-fit stages' settings and the rows they hold out, which the
  # trees do not see (R/stages.R)
  stages <- stage_setup(user, y, outcome, seed)
  user <- stages$user
  if (length(stages$held_all)) {
    stages$held_x <- lapply(stages$held, function(i) x[i, , drop = FALSE])
    stages$held_y <- lapply(stages$held, function(i) y[i])
    x <- x[-stages$held_all, , drop = FALSE]
    y <- y[-stages$held_all]
    if (!is.null(weights$sampling)) weights$sampling <- weights$sampling[-stages$held_all]
    n <- nrow(x)
  }
  requested <- resolve_parameters(method, user, n, outcome)
  params <- finish_parameters(requested, ncol(x))
  params <- class_weights_balanced(params, user, class_weights)
  # factors held as level codes, which each tree codes by its in-bag rows
  # (R/factor_coding.R)
  factors <- level_code_columns(design$spec, params$factor_coding)
  if (identical(params$scale, "rank") || (identical(params$scale, "auto") && !methods::is(x, "dgCMatrix"))) {
    # the rank map of the rows the trees see (R/rank.R), stored in the design
    # so that every later design matrix gets it too ("auto": none when it
    # ranks no column); level codes are not ranked
    rank <- rank_fit(x, params$scale, skip = factors$cols)
    if (!all(vapply(rank$columns, is.null, TRUE))) {
      design$spec$rank <- rank
      x <- rank_apply(x, rank)
      stages$held_x <- lapply(stages$held_x, rank_apply, rank)
    }
  }
  check_predictor_draws(requested, ncol(x))
  parts <- used_parts(params)
  if (!is.null(validation) && !any(vapply(parts, `[[`, TRUE, "uses_validation"))) {
    stop(sprintf("`validation` is used only by the %s (parts that choose their settings on validation data), which this fit does not use.",
                 paste0("\"", names(Filter(function(p) p$uses_validation, svf_registry$parts$splitter)),
                        "\" splitter", collapse = ", ")), call. = FALSE)
  }
  scaling <- if (outcome == "regression") outcome_scaling(y)
  valid <- validation_data(validation, design$spec, ncol(x), if (outcome == "regression") scaling else levels(y))
  for (part in parts) if (!is.null(part$check)) part$check(params, y, validation)
  stages <- stage_prepare(stages, params, outcome)

  engine_y <- if (outcome == "regression") (y - scaling$center) / scaling$scale else as.integer(y) - 1L
  res <- grow_forest(engine_data(x, factors), engine_y, weights$sampling, if (outcome == "regression") 0L else nlevels(y),
                    engine_parameters(params, y, ntree, seed, first_tree, progress_delay, trees$ntree_max),
                    valid, num_threads, verbose)
  forest <- res$forest
  ntree <- length(forest$trees)  # grown by the out-of-bag rule when ntree_max > ntree
  tdsvm <- res$selection
  if (!is.null(res$sigma)) params$sigma <- res$sigma
  design$x <- NULL
  model <- list(
    call = call,
    type = outcome,
    method = method,
    params = params,
    ntree = ntree,
    seed = seed,
    levels = if (outcome == "classification") levels(y),
    class_counts = if (outcome == "classification") tabulate(y, nlevels(y)),
    outcome_center = scaling$center,
    outcome_scale = scaling$scale,
    num_rows = n,
    class_weights = class_weights,
    sampling_weights = weights$sampling,
    rows_used = weights$rows_used,
    design = design$spec,
    forest = forest,
    first_tree = first_tree,
    tdsvm = tdsvm,
    feature_means = design_means(x),
    format_version = model_format_version,
    package_version = as.character(utils::packageVersion("svforest"))
  )
  if (!is.null(res$oob)) {
    # the share of each tree's out-of-bag rows that chose its structure
    # (left out of the scoring rows: svforest_importance()), and whether the
    # scoring rows chose splits too (RSVF): out-of-bag figures then optimistic
    model$oob_choosing_share <- res$oob_choosing_share
    model$oob_optimistic <- isTRUE(res$splitter_uses_oob)
  }
  model <- structure(c(model, oob_results(res$oob, y, outcome, params$aggregation, scaling, ntree)), class = "svforest")
  # a forest grown as this one on some of its rows alone (the fold forests of
  # calibrate = "cv", R/uncertainty.R): row-count parameters and scaling its own
  fit_rows <- function(rows) {
    sub <- if (outcome == "regression") outcome_scaling(y[rows])
    sub_params <- class_weights_balanced(finish_parameters(resolve_parameters(method, user, length(rows), outcome), ncol(x)),
                                         user, class_weights)
    fit <- engine_fit(engine_data(x[rows, , drop = FALSE], factors),
                      if (outcome == "regression") (y[rows] - sub$center) / sub$scale else as.integer(y[rows]) - 1L,
                      weights$sampling[rows], if (outcome == "regression") 0L else nlevels(y),
                      engine_parameters(sub_params, y[rows], ntree, seed, first_tree, progress_delay), valid, num_threads, verbose)
    list(forest = fit$forest, scaling = sub)
  }
  run_stages(model, stages, list(x = x, y = y, num_threads = num_threads, splitter_uses_oob = res$splitter_uses_oob,
                                 fit_rows = fit_rows, oob_rows = res$oob_rows))
}

# The number of trees of a fit, list(ntree, ntree_max): the given `ntree`
# exactly (unless `ntree_max` is given too), or the preset's, grown by the
# out-of-bag rule up to the preset's `ntree_max`: after T trees (T = ntree,
# 2 ntree, ...), ntree more while the forest's out-of-bag error after T trees
# is below its error after T / 2 by `tree_growth_gain` and by
# `tree_growth_rows` rows, and its rows' losses fell beyond chance
# (`tree_growth_z`; more_trees_help() in TreeGrowth.cpp, which
# svforest_future() asks through .svf_more_trees_help).
tree_count <- function(preset, ntree, ntree_max) {
  given <- !is.null(ntree)
  ntree <- check_count(if (given) ntree else preset$ntree, "ntree", 1, 1e6)
  ntree_max <- if (!is.null(ntree_max)) check_count(ntree_max, "ntree_max", ntree, 1e6)
               else if (given) ntree
               else max(ntree, preset$ntree_max)
  list(ntree = as.integer(ntree), ntree_max = as.integer(ntree_max))
}

# What a growing forest's out-of-bag error must lose between T / 2 and T
# trees for it to grow on: 2 points (the error of out-of-bag votes, from
# about a third of the trees, falls faster than the forest's test error
# does), and 10 rows (2 points of a table of 150 rows are 3 rows: noise).
tree_growth_gain <- 0.02
tree_growth_rows <- 10
# and the rows fixed by the added trees must outnumber those they broke by
# `tree_growth_z` standard deviations (McNemar's test; for a numeric outcome
# the paired drops of each row's squared error): a few out-of-bag trees per
# row make the error curve noisy, and noise alone must not grow a forest
tree_growth_z <- 2

# "regression" for a numeric outcome, else "classification" (factors,
# characters, logicals).
outcome_type <- function(y) if (is.numeric(y) && !is.factor(y)) "regression" else "classification"

# 1 - MSE / variance of the outcome (NA without rows or variance).
oob_rsquared <- function(mse, y) {
  v <- if (length(y) > 1) mean((y - mean(y))^2) else NA_real_
  if (is.na(v) || !(v > 0)) NA_real_ else 1 - mse / v
}

# A numeric outcome: finite, one value per row. A constant outcome is fitted
# (every prediction is that constant).
check_numeric_outcome <- function(y, n) {
  if (length(y) != n) {
    stop(sprintf("`y` has %d values but the predictors have %d rows.", length(y), n), call. = FALSE)
  }
  if (anyNA(y)) stop(sprintf("`y` has %d missing values.", sum(is.na(y))), call. = FALSE)
  if (any(!is.finite(y))) stop(sprintf("`y` has %d infinite values.", sum(!is.finite(y))), call. = FALSE)
  # the engine sees (y - centre) / scale; a spread beyond the largest double
  # (values near +-1.8e308 of both signs) cannot be centred
  if (!is.finite(max(y) - min(y))) {
    stop(sprintf("`y` ranges from %s to %s: its spread exceeds the largest double. Rescale it (e.g. divide by 1e10).",
                 format(min(y)), format(max(y))), call. = FALSE)
  }
  as.double(y)
}

# Outcomes of a kind no forest fits yet: a clear error before any other check.
check_outcome_kind <- function(y) {
  if (inherits(y, "Surv")) {
    stop("Survival outcomes (`survival::Surv`) are not supported yet: svforest fits classes (a factor) and numbers.",
         call. = FALSE)
  }
  if (is.matrix(y) && ncol(y) > 1) {
    stop(sprintf("`y` must be a vector (one outcome), not a matrix with %d columns.", ncol(y)), call. = FALSE)
  }
}

# `mtry` and `oblique_mtry` as the user gave them (`requested`, before
# finish_parameters()) must not exceed the `p` columns of the design the
# trees see: asking for more predictors than there are is a mistake.
check_predictor_draws <- function(requested, p) {
  for (name in intersect(c("mtry", "oblique_mtry"), names(requested))) {
    value <- requested[[name]]
    if (length(value) == 1 && !is.na(value) && value > p) {
      stop(sprintf("`%s` is %d, more than the %d predictor column%s of the training data%s.", name, as.integer(value),
                   p, if (p > 1) "s" else "", " (factors coded, missing-value indicators included)"),
           call. = FALSE)
    }
  }
}

# The outcome's scale inside the model: the engine sees (y - center) / scale,
# scale the standard deviation (1 for a constant outcome). Computed without
# overflow for values near the largest double.
outcome_scaling <- function(y) {
  m <- max(abs(y))
  center <- if (m > 0) mean(y / m) * m else 0
  dev <- y - center
  s <- max(abs(dev))
  scale <- if (s > 0) s * stats::sd(dev / s) else 1
  if (!is.finite(scale) || !(scale > 0)) scale <- 1
  list(center = center, scale = scale)
}

check_outcome <- function(y, n) {
  if (is.character(y) || is.logical(y)) y <- factor(y)
  if (!is.factor(y)) {
    stop(sprintf("`y` must be a factor (classification) or a numeric vector (regression), not %s.",
                 describe(y)), call. = FALSE)
  }
  if (length(y) != n) {
    stop(sprintf("`y` has %d values but the predictors have %d rows.", length(y), n), call. = FALSE)
  }
  if (anyNA(y)) stop(sprintf("`y` has %d missing values.", sum(is.na(y))), call. = FALSE)
  if (anyNA(levels(y))) stop("`y` has a level that is NA (see addNA()); give the missing class a name.", call. = FALSE)
  # tabulate(), not table(): table() makes several n-long temporaries
  counts <- stats::setNames(tabulate(y, nlevels(y)), levels(y))
  if (sum(counts > 0) < 2) {
    stop("`y` must have at least two classes with rows; found ",
         if (sum(counts > 0) == 1) paste0('only "', names(counts)[counts > 0], '"') else "none", ".",
         call. = FALSE)
  }
  if (any(counts == 0)) {
    warning(sprintf("Level%s %s of `y` %s no rows; the model keeps %s but never predicts %s.",
                    if (sum(counts == 0) > 1) "s" else "",
                    paste0('"', names(counts)[counts == 0], '"', collapse = ", "),
                    if (sum(counts == 0) > 1) "have" else "has",
                    if (sum(counts == 0) > 1) "them" else "it",
                    if (sum(counts == 0) > 1) "them" else "it"), call. = FALSE)
  }
  y
}
