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
#' * numeric outcomes: [svforest_regression]; event times: [svforest_survival], and
#'   competing risks (`type = "cif"`): [svforest_competing];
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
#'   vectors are converted to factors) a classification forest, and a
#'   `survival::Surv()` outcome an event-time forest ([svforest_survival], [svforest_competing]).
#' @param formula A formula `outcome ~ predictors`.
#' @param data A data frame for the formula method.
#' @param method Method preset; see [svforest_methods()]. `NULL` (default):
#'   `"hybrid"`, svforest's own forest, for every outcome (event times: only it).
#' @param ntree Number of trees, a whole number from 1 to 10^6 (method
#'   default when `NULL`: 100 for `"hybrid"` (300 event times), 10 for `"rsvt"`, 100 for
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
#'   `class_weights`, `id`, `validation`, `importance` and `na_action`
#'   (`"impute"`, the default, or `"fail"`; see [svforest_missing_values]),
#'   each matched by its exact name.
#' @return An object of class `svforest`: a plain list of named sections
#'   ([svforest_model], which lists the names read from it) that can be saved with
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
#'   clamped at 1e-15); the tallies that [combine()] merges are listed in
#'   [svforest_model]; event-time figures: [svforest_survival].
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
  # `id` may name a column of `data` (R/step-subjects.R); a subject's label is
  # no predictor, so `.` leaves that column out unless the formula names it
  if (is.character(user[["id"]]) && length(user[["id"]]) == 1L && user[["id"]] %in% names(data)) {
    id_column <- user[["id"]]
    user[["id"]] <- data[[id_column]]
    if (!id_column %in% used) data <- data[names(data) != id_column]
  }
  # the families' checks of the outcome's expression (a Surv() status of three values)
  if (length(formula) == 3L) {
    for (family in svf_registry$families) family$check_formula_outcome(formula[[2L]], data, environment(formula))
  }
  plain <- plain_formula_data(formula, data)
  if (!is.null(plain)) {
    # `y ~ .` on numeric columns: no model frame (R/design.R)
    design <- plain_frame_design(plain$x, topenv(environment(formula)), design_inputs(user, nrow(data)))
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
  design <- frame_design(tt, xf, design_inputs(user, nrow(xf)), design_level_codes(method, user, y))
  fit_formula(design, y, formula, method, ntree, num_threads, seed, verbose, user, call)
}

fit_formula <- function(design, y, formula, method, ntree, num_threads, seed, verbose, user, call) {
  if (is.data.frame(user[["validation"]])) user[["validation"]] <- frame_validation(formula, user[["validation"]])
  # the outcome's expression (the outcome section's), so svforest_importance(fit, data) finds it in data
  design$outcome_expression <- formula[[2L]]
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, model_call(call))
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
  design <- x_design(x, design_inputs(user, NROW(x)), design_level_codes(method, user, y))
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, model_call(call))
}

# Shared by both interfaces: the fit's context (outcome, settings), the
# pre-fit steps (R/prefit-steps.R) around the stages' held-out rows and the
# parameters, one engine call, the model, then the post-fit stages.
fit_forest <- function(design, y, method, ntree, num_threads, seed, verbose, user, call) {
  ctx <- fit_context(design, y, method, user)
  ctx <- run_prefit_steps(ctx, "rows")  # which rows, and their weights
  ctx <- fit_settings(ctx, ntree, num_threads, seed, verbose)
  ctx <- fit_hold_out(ctx)
  ctx <- fit_parameters(ctx)
  ctx <- run_prefit_steps(ctx, "design")  # learnt from the design matrix of the trees' rows
  ctx <- fit_checks(ctx)
  res <- fit_engine(ctx, seq_len(ctx$n), ctx$params, ctx$trees$ntree_max, grow = ctx$grow_forest)
  ctx$trees$ntree <- length(res$forest$trees)  # grown by the out-of-bag rule when ntree_max > ntree
  model <- fit_model(ctx, res, call)
  run_stages(model, ctx$stages, list(x = ctx$x, y = ctx$y, num_threads = ctx$num_threads,
                                     splitter_uses_oob = res$splitter_uses_oob,
                                     fit_rows = function(rows) fit_rows(ctx, rows), oob_rows = res$oob_rows,
                                     training_leaves = res$training_leaves))
}

# The fit's outcome family, method and checked outcome (R/family.R); the
# pre-fit steps' arguments taken from the user's.
fit_context <- function(design, y, method, user) {
  family <- outcome_family(y)
  check_outcome_kind(y, family)
  outcome <- family$name
  preset <- svf_method(if (is.null(method)) default_method(outcome) else method)
  family$preset(preset)  # a method that does not fit the outcome is an error here (R/family-*.R)
  x <- design$x
  n <- nrow(x)
  if (n == 0) stop("The training data has no rows.", call. = FALSE)
  if (ncol(x) == 0) stop("The training data has no predictor columns.", call. = FALSE)
  y <- family$check(y, n)
  take_step_args(list(design = design, x = x, y = y, n = n, family = family, outcome = outcome,
                      preset = preset, method = preset$name, user = user))
}

# Progress, trees, threads, seed, and the validation data (never stored).
fit_settings <- function(ctx, ntree, num_threads, seed, verbose) {
  user <- ctx$user
  # svforest_future() grows the trees in futures (R/future.R): engine_fit()'s stand-in
  ctx$grow_forest <- if (!is.null(user[[".grow_forest"]])) user[[".grow_forest"]]
                     else ctx$family$engine_fit
  user[[".grow_forest"]] <- NULL
  # NULL: progress only in interactive sessions and only once a fit is slow
  ctx$progress_delay <- if (is.null(verbose)) 2 else 0
  ctx$verbose <- if (is.null(verbose)) interactive() else check_flag(verbose, "verbose")
  ctx$first_tree <- check_count(if (is.null(user$first_tree)) 0L else user$first_tree, "first_tree", 0, 1e9)
  user$first_tree <- NULL
  ctx$trees <- tree_count(ctx$family$preset(ctx$preset), ntree,
                          user[["ntree_max"]])  # exact name
  user[["ntree_max"]] <- NULL
  ctx$num_threads <- engine_threads(resolve_threads(num_threads))
  ctx$seed <- resolve_seed(seed)
  ctx$validation <- user[["validation"]]  # data, not a parameter (exact name: user$validation
  user[["validation"]] <- NULL           # would match validation_fraction)
  ctx$user <- user
  ctx
}

# The post-fit stages' settings and the rows they hold out, which the trees
# do not see (R/stages.R).
fit_hold_out <- function(ctx) {
  stages <- stage_setup(ctx$user, ctx$y, ctx$outcome, ctx$seed)
  ctx$user <- stages$user
  if (length(stages$held_all)) {
    stages$held_x <- lapply(stages$held, function(i) ctx$x[i, , drop = FALSE])
    stages$held_y <- lapply(stages$held, function(i) ctx$y[i])
    ctx$x <- ctx$x[-stages$held_all, , drop = FALSE]
    ctx$y <- ctx$y[-stages$held_all]
    if (!is.null(ctx$weights$sampling)) ctx$weights$sampling <- ctx$weights$sampling[-stages$held_all]
    if (!is.null(ctx$subjects)) ctx$subjects <- ctx$subjects[-stages$held_all]  # `id` (R/step-subjects.R)
    ctx$n <- nrow(ctx$x)
  }
  ctx$stages <- stages
  ctx
}

# The fit's parameters as the user and the method give them (the design
# steps read them; finished by fit_checks() for the final columns).
fit_parameters <- function(ctx) {
  ctx$family$check_parameters(ctx$user)  # parameters the family refuses (R/family-*.R)
  ctx$requested <- resolve_parameters(ctx$method, ctx$user, ctx$n, ctx$outcome)
  ctx$params <- ctx$requested
  ctx
}

# The parameters finished for the design's columns, the parts' and stages'
# checks, the outcome's scaling and the validation rows.
fit_checks <- function(ctx) {
  params <- finish_parameters(ctx$params, ncol(ctx$x))
  ctx$params <- class_weights_balanced(params, ctx$user, ctx$class_weights)
  check_predictor_draws(ctx$requested, ncol(ctx$x))
  parts <- used_parts(ctx$params)
  if (!is.null(ctx$validation) && !any(vapply(parts, `[[`, TRUE, "uses_validation"))) {
    stop(sprintf("`validation` is used only by the %s (parts that choose their settings on validation data), which this fit does not use.",
                 paste0("\"", names(Filter(function(p) p$uses_validation, svf_registry$parts$splitter)),
                        "\" splitter", collapse = ", ")), call. = FALSE)
  }
  ctx$scaling <- ctx$family$scaling(ctx$y)
  ctx$valid <- validation_data(ctx$validation, ctx$design$spec, ncol(ctx$x),
                               ctx$family$validation_outcome(ctx$y, ctx$scaling))
  for (part in parts) if (!is.null(part$check)) part$check(ctx$params, ctx$y, ctx$validation)
  ctx$stages <- stage_prepare(ctx$stages, ctx$params, ctx$outcome)
  ctx
}

# The engine's forest grown on `rows` of the fit's design with `params`
# (`grow`: engine_fit(), or svforest_future()'s stand-in for the model's own
# forest).
fit_engine <- function(ctx, rows, params, ntree_max, scaling = ctx$scaling, grow = engine_fit) {
  y <- ctx$y[rows]
  x <- if (length(rows) == ctx$n) ctx$x else ctx$x[rows, , drop = FALSE]
  engine_y <- ctx$family$engine_y(y, scaling)
  # `id`'s subjects of these rows, coded 0..S-1 (R/step-subjects.R)
  if (!is.null(ctx$subjects)) attr(engine_y, "subjects") <- as.integer(factor(ctx$subjects[rows])) - 1L
  grow(engine_data(x, ctx$factors), engine_y, ctx$weights$sampling[rows],
             ctx$family$num_classes(ctx$y),
             engine_parameters(params, y, ctx$trees$ntree, ctx$seed, ctx$first_tree, ctx$progress_delay, ntree_max),
             ctx$valid, ctx$num_threads, ctx$verbose)
}

# A forest grown as the model's on some of its rows alone (the fold forests
# of calibrate = "cv", R/uncertainty.R): row-count parameters and scaling
# its own; with the engine's record of its rows' leaves (engine_fit()).
fit_rows <- function(ctx, rows) {
  sub <- ctx$family$scaling(ctx$y[rows])
  params <- finish_parameters(resolve_parameters(ctx$method, ctx$user, length(rows), ctx$outcome), ncol(ctx$x))
  params <- class_weights_balanced(params, ctx$user, ctx$class_weights)
  fit <- fit_engine(ctx, rows, params, ctx$trees$ntree, sub)
  list(forest = fit$forest, scaling = sub, training_leaves = fit$training_leaves)
}

# The model of a fit from the engine's results, in its sections
# (?svforest_model; each section's constructor in R/section-*.R).
fit_model <- function(ctx, res, call) {
  params <- ctx$params
  if (!is.null(res$sigma)) params$sigma <- res$sigma
  ntree <- length(res$forest$trees)  # grown by the out-of-bag rule when ntree_max > ntree
  oob <- oob_results(res$oob, ctx$y, ctx$outcome, params$aggregation, ctx$scaling, ntree)
  if (!is.null(res$oob)) {
    # the share of each tree's out-of-bag rows that chose its structure
    # (left out of the scoring rows: svforest_importance()), and whether the
    # scoring rows chose splits too (RSVF): out-of-bag figures then optimistic
    oob <- c(list(oob_choosing_share = res$oob_choosing_share, oob_optimistic = isTRUE(res$splitter_uses_oob)), oob)
  }
  structure(list(
    outcome = new_outcome_section(ctx$outcome, ctx$family$model_fields(ctx$y, ctx$scaling), ctx$design$outcome_expression),
    design = ctx$design$spec,
    rows = new_rows_section(ctx$n, ctx$class_weights, ctx$weights$sampling, ctx$weights$rows_used),
    params = new_params_section(ctx$method, params),
    forest = new_forest_section(res$forest, res$selection, design_means(ctx$x)),
    provenance = new_provenance_section(call, ctx$seed, ctx$first_tree),
    oob = new_oob_section(oob),
    stages = new_stages_section()), class = "svforest")
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
# the paired drops of each row's squared error; for event times of each
# row's pseudo-value of 1 - Somers' D, 2 (1 - C): outcome/OobTally.h): a few out-of-bag trees per
# row make the error curve noisy, and noise alone must not grow a forest
tree_growth_z <- 2


# Outcomes of a kind no forest fits: a clear error before any other check
# (a family of its own may hold an outcome in columns).
check_outcome_kind <- function(y, family) {
  if (is.matrix(y) && ncol(y) > 1 && !family$matrix_outcome) {
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
