# The sections on each method are written in its file, R/method-*.R (same help page).
#' Fit a support vector forest
#'
#' Grows an ensemble of trees whose leaves hold linear SVMs (or class
#' frequencies), following one of the published methods (see
#' [svforest_methods()]) or a combination of engine parts.
#'
#' @section Engine parts and parameters (passed through `...`):
#' \describe{
#' \item{`sampler`}{`"all"` rows, `"bootstrap"` or `"subsample"` (these two
#'   give an out-of-bag error).}
#' \item{`sample_fraction`}{share of rows drawn by the sampler (default 1, or
#'   0.632 for `"subsample"`).}
#' \item{`splitter`}{`"random_axis"` (RSVT), `"psvm"` (proximal SVM
#'   oblique splits, with `nu`, `m_max`, `n_min`), `"transform"` (learned
#'   transformations, with `transform_rank` (default `NA`: automatic),
#'   `transform_center` (default `TRUE`: affine subspaces; `FALSE`: the
#'   paper's through the origin), `subspace_dim` (default 10),
#'   `dim_per_class` (default `NA`), `transform_choice` (default `"oob"`:
#'   each node's transform and dimension chosen on its out-of-bag rows;
#'   `"inbag"`: the paper's, on its own rows),
#'   `transform_iter` (default 30), `transform_step` (default 0.5),
#'   `node_tries` (default 1) and
#'   `min_node_size` (default 5)), `"cart"` (entropy splits, see method
#'   "tdsvm") or `"oob_svm"` (RSVF, with `n_theta`, `n_omega`, `n_tau`,
#'  `proj_dim`, `delta_tau`, `split_tolerance`, `split_max_iter`,
#'  `screen_fraction`, `screen_keep` and `min_leaf_size`).}
#' \item{`leaf`}{`"linear_svm"`, `"logistic"` (L2-regularised logistic
#'   regression, LIBLINEAR, with the parameters of `"linear_svm"`),
#'   `"constant"` (class frequencies) or `"kernel_svm"` (RBF SVM with the
#'   first `cost` and `gamma` outside method "tdsvm").}
#' Only the parameters of the parts a fit uses are accepted (another one is
#' an error naming the part it belongs to) and stored in the model's
#' `params`.
#' \item{`aggregation`}{`"vote"` (majority vote, ties broken by averaged
#'   probabilities), `"prob"` (largest averaged probability) or
#'   `"max_confidence"` (the most confident tree).}
#' \item{`leaf_size_factor`, `min_leaf_size`, `split_rule`, `max_depth`}{tree
#'   size (`max_depth = 0`: unlimited; the method default is 0, 9 for `"transform"`).}
#' \item{`rare_classes`}{`"negative"` or `"constant"`, see above.}
#' \item{`cost`, `cv_folds`, `min_class_rows`, `balanced`, `tolerance`,
#'   `cv_tolerance`}{the leaf SVMs: grid of `C`, folds of the inner CV (1: no
#'   CV, the first `cost` is used), fewest rows a class needs for the leaf to
#'   get an SVM, class balancing (`TRUE`, `FALSE` or `"task"`: balanced with
#'   more than two classes, the task's class shares with two, see method
#'   "rsvf"; they apply to the cross-validation fits too),
#'   LIBLINEAR's stopping tolerance for the final
#'   fit (default 0.01, LIBLINEAR's own) and for the CV fits (default 0.1:
#'   only their held-out accuracy is used, and it is faster).}
#' \item{`first_tree`}{index (from 0) of the first tree grown (default 0):
#'   a fit with `ntree = m, first_tree = k` grows trees `k + 1` to `k + m` of
#'   the forest with that `seed`, so machines can grow parts of one forest
#'   that [combine()] merges; see [svforest_future()].}
#' \item{`scale`}{how predictors are scaled for the SVMs and oblique splits
#'   (see "Predictor scaling" below): `"minmax"`, `"rank"` or `"none"`
#'   (`TRUE` and `FALSE`, the values of earlier versions, mean `"minmax"`
#'   and `"none"`).}
#' }
#'
#' @section Predictor scaling (`scale`):
#' \describe{
#' \item{`"minmax"` (default)}{each predictor is mapped to \[0, 1\] by its
#'   training minimum and maximum (dense input), or divided by its largest
#'   absolute value (a `dgCMatrix`: zeros stay zero). Affine, so oblique
#'   splits and local coefficients are reported in the predictors' own units.
#'   A few huge values squeeze the other rows of a predictor together.}
#' \item{`"rank"`}{each design column is replaced by its empirical
#'   distribution function on the training rows (mid-ranks: a value's share of
#'   training values below it plus half the share equal to it), then min-max
#'   scaled, so a 0/1 column (factor level, missingness indicator) stays 0/1.
#'   Values between two training values are interpolated linearly, values
#'   beyond the training range get the smallest or largest training value's
#'   rank. The map is stored in the model (at most 1,000 knots per column,
#'   evenly spaced in rank) and applied to every later input: `predict()`,
#'   validation and calibration rows, [svforest_importance()]. It depends only
#'   on the order of each predictor's values: outliers and heavy tails do not
#'   matter, and a strictly increasing transformation of a predictor (`log`,
#'   `sqrt`) gives the same model. It is computed after missing values are
#'   imputed, from the rows the trees are grown on (case weights do not
#'   weigh it). Oblique splits, coefficient importance and local explanations
#'   (`predict(type = "local")`: coefficients, contributions and `centre`)
#'   are then in rank units. Dense input only: a `dgCMatrix` is an error
#'   (ranks would turn its zeros into non-zero values). For method
#'   `"transform"`, which standardises predictors itself, `"rank"` is the
#'   one value that changes the fit.}
#' \item{`"none"`}{the predictors as they are.}
#' }
#'
#' @section Regression:
#' A numeric `y` (integer or double; a factor, character or logical `y` is
#' classification) fits a regression forest. The outcome is standardised
#' inside the model (mean and standard deviation; predictions are on the
#' original scale). Methods: `"rsvf"` (the default for a numeric outcome:
#' out-of-bag scored oblique splits, the candidates judged by the
#' out-of-bag squared error of the children's ridge models with
#' `lambda = 1 / cost`, and ridge leaves), `"rsvt"` (random axis splits,
#' ridge leaves) and `"tdsvm"` (CART variance-reduction splits, RBF
#' epsilon-SVR leaves; `sigma`, `cost` and `gamma` chosen on validation data
#' by R-squared). `"psvm"` and `"transform"` are classification only. Leaves
#' for a numeric outcome: `"ridge"` (closed form, `lambda` chosen from a grid
#' by `cv_folds`-fold cross-validation inside the leaf; default grid
#' `10^(-3:1)`), `"linear_svr"` (LIBLINEAR's L2-loss SVR, primal solver,
#' `cost` chosen by cross-validation, tube `epsilon`), `"kernel_svr"`
#' (LIBSVM's RBF epsilon-SVR with `cost`, `gamma`, `epsilon`) and
#' `"constant"` (the mean). `epsilon` (default 0.1) is on the standardised
#' outcome. A leaf with a constant outcome predicts it, and so does a forest
#' fitted to a constant outcome. `predict()` gives `type = "response"`
#' (default) or `"leaf"`; the model holds the out-of-bag mean squared error
#' (`oob_error`), `oob_rsquared` and `oob_predictions` when the sampler
#' leaves rows out. Permutation importance is the increase of the mean
#' squared error ([svforest_importance()]); coefficient importance reads
#' ridge and linear SVR leaves.
#'
#' @section Case and class weights:
#' `case_weights` (one finite, non-negative number per training row) and
#' `class_weights` (a positive number per class, named by the classes) weigh
#' the rows of the fit; a row's weight is its case weight times its class's
#' weight. They act through the rows each tree draws, as ranger's
#' `case.weights`: the `"bootstrap"` sampler draws rows with probability
#' proportional to the weights; the `"all"` sampler (and the parameter
#' search of `"tdsvm"`) repeats each row about weight / smallest weight
#' times (deterministic systematic sampling: integer weights whose smallest
#' is 1 repeat each row exactly that often; at most 10 copies per row on
#' average), and so does `"subsample"` with the rows it draws (as without
#' weights: drawing without replacement by weight could not make a row
#' count more than once). Every splitter and leaf model then sees the weights as row
#' multiplicities: RSVF's Newton solvers as row weights, LIBLINEAR and
#' LIBSVM as repeated rows. Rows of weight 0 are left out before the fit
#' (the model is the one fitted without them; `num_rows` and the
#' out-of-bag elements count only the rows used, and `rows_used` marks
#' them). Validation rows (`validation`, and the held-out share of
#' `"tdsvm"`) count once. Class weights replace the SVMs' class balancing
#' (`balanced` is then `FALSE`; giving both is an error). parsnip's case
#' weights and caret's `weights` are passed on as `case_weights`.
#'
#' @section Calibrated probabilities:
#' `calibrate = "platt"`, `"temperature"` or `"isotonic"` holds out a stratified
#' `calibration_fraction` share of the training rows (default 0.25, drawn
#' from `seed`), grows the forest on the others and fits a calibration map
#' of the class probabilities on the held-out rows, which
#' `predict(type = "prob")` applies; see [svforest_calibrate()] (which
#' calibrates a fitted model on data of your own instead). `num_rows` and
#' the out-of-bag elements then count the rows the trees were grown on.
#' For a numeric outcome, `calibrate = "conformal"` holds out a random
#' `calibration_fraction` share (default 0.25) in the same way, for the
#' conformal prediction intervals and quantiles of [predict.svforest()];
#' `calibrate = "cv"` holds none out and scores every row with five fold
#' forests instead (cross-conformal, about five times the fit time).
#'
#' @section Missing values (`na_action`):
#' `na_action` (passed through `...`, matched by its exact name) says what
#' happens to missing predictor values (`NA`, `NaN`; also `NA` stored in the
#' `x` slot of a `dgCMatrix`):
#' \describe{
#' \item{`"impute"` (default)}{The fit and `predict()` fill them in, for
#'   every method, classification and regression. The model stores, for
#'   every numeric predictor, the median of its observed training values (0
#'   when all are missing; for a `dgCMatrix` the implicit zeros count as
#'   observed; rows of case weight 0 do not count), and, when training data
#'   have `NA` in 2 to 100 numeric predictors (dense input), their means and
#'   covariances (pairwise-complete, shrunk 10% toward the diagonal). A
#'   missing numeric value is then filled with its conditional mean given
#'   the row's observed numeric values under that normal model (correlated
#'   predictors fill each other in); the medians fill the rest (a row with
#'   no observed numeric value, more than 100 numeric predictors, sparse
#'   input), in training and new data. Each
#'   numeric or logical predictor that has `NA` in the training data also
#'   gets a 0/1 design column `<column>_missing` (1 where the value was
#'   missing), so that missingness that carries signal is learnt; a logical
#'   predictor's `NA` is filled with its most frequent value. A factor (or
#'   character) predictor with `NA` in training gets the level
#'   `"(missing)"`, an indicator column like any level. At prediction time
#'   the same values are used: an `NA` in a column that had none in training
#'   gets the stored median (numeric), or the most frequent training level
#'   (a factor without a `"(missing)"` level), and no indicator column
#'   exists for it. A row with every predictor missing is fitted and
#'   predicted (as the medians with all indicators on). `validation` data go
#'   through the same imputation. Permutation importance permutes an
#'   indicator column together with its predictor.}
#' \item{`"fail"`}{Missing values are an error naming the column, at fit
#'   time and at prediction time with the model.}
#' }
#' Infinite values and a missing outcome are errors either way. Models
#' saved by versions without `na_action` do not impute (`NA` in `newdata`
#' stays an error).
#'
#' @section Input handling:
#' Factor and character predictors become one indicator column per level;
#' levels unseen in training are an error at prediction time. Missing
#' predictor values are imputed by default (see "Missing values" above);
#' infinite values are an error naming the column; so are columns
#' of other types (dates, complex numbers, lists). Logical columns count as
#' 0/1. Constant predictors are kept but never split on and get zero weight
#' (also in a `dgCMatrix`, where a column holding one non-zero value in every
#' row is constant): when no predictor varies, every tree is one leaf and all
#' rows get the same prediction. Duplicated rows are kept as they are (they
#' weigh more). Explicit zeros stored in a `dgCMatrix` are the same as
#' implicit ones, and a `dgCMatrix` without non-zeros is all-constant data.
#' Matrix column names, when given, must be unique and non-empty: `predict()`
#' matches columns by them. An outcome level with no rows is kept (it is never
#' predicted) with a warning; a level that is `NA` is an error. Zero rows or
#' zero predictor columns are an error; one predictor is fine.
#'
#' @param x A data frame, numeric matrix or `Matrix::dgCMatrix` of
#'   predictors, or a formula for the formula method.
#' @param y A factor with at least two non-empty levels (character and logical
#'   vectors are converted to factors).
#' @param formula A formula `outcome ~ predictors`.
#' @param data A data frame for the formula method.
#' @param method Method preset; see [svforest_methods()]. `NULL` (default):
#'   `"rsvt"` for a factor outcome, `"rsvf"` for a numeric one (regression).
#' @param ntree Number of trees, a whole number from 1 to 10^6 (method
#'   default when `NULL`: 10 for `"rsvt"`, 100 for `"psvm"`, 20 for
#'   `"transform"`, 1 for `"tdsvm"`, 20 for `"rsvf"`).
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
#' @param ... Method parameters (see the sections below), and `case_weights`,
#'   `class_weights`, `validation`, `importance` and `na_action`
#'   (`"impute"`, the default, or `"fail"`; see "Missing values" below),
#'   each matched by its exact name.
#' @return An object of class `svforest`: a plain list that can be saved with
#'   [saveRDS()]. `oob_error` holds the out-of-bag error when the sampler
#'   leaves rows out, else `NA`.
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
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass)
  terms <- attr(mf, "terms")
  if (attr(terms, "response") == 0) stop("`formula` needs an outcome on its left side.", call. = FALSE)
  y <- stats::model.response(mf)
  tt <- stats::delete.response(terms)
  if (length(attr(tt, "term.labels")) == 0) stop("`formula` has no predictors.", call. = FALSE)
  # a frame of its own (with terms) so that transformed predictors, e.g.
  # log(a), are evaluated once and found again by model.matrix()
  xf <- stats::model.frame(tt, data, na.action = stats::na.pass)
  user <- list(...)
  design <- frame_design(tt, xf, check_na_action(user[["na_action"]]), na_rows(user, nrow(xf)))
  if (is.data.frame(user[["validation"]])) user[["validation"]] <- frame_validation(formula, user[["validation"]])
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, call)
}

#' @rdname svforest
#' @export
svforest.default <- function(x, y, ..., method = NULL, ntree = NULL, num_threads = NULL, seed = NULL,
                             verbose = NULL) {
  call <- match.call()
  if (missing(y)) stop("`y` is missing: give the outcome, or use the formula interface.", call. = FALSE)
  user <- list(...)
  design <- x_design(x, check_na_action(user[["na_action"]]), na_rows(user, NROW(x)))
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, call)
}

# Shared by both interfaces: checks, engine call, model object.
fit_forest <- function(design, y, method, ntree, num_threads, seed, verbose, user, call) {
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
  ntree <- check_count(if (is.null(ntree)) preset$ntree else ntree, "ntree", 1, 1e6)
  num_threads <- engine_threads(resolve_threads(num_threads))
  seed <- resolve_seed(seed)
  validation <- user[["validation"]]  # data, not a parameter: never stored in the model (exact name:
  user[["validation"]] <- NULL       # user$validation would match validation_fraction)
  importance <- user[["importance"]]  # what to compute after the fit (R/importance.R)
  user[["importance"]] <- NULL
  # rows held out for calibration (R/calibration.R): the trees do not see them
  calibration <- if (outcome == "regression" && isTRUE(user[["calibrate"]] %in% c("conformal", "cv"))) {
    conformal_rows(user[["calibrate"]], user[["calibration_fraction"]], n, seed)  # R/uncertainty.R
  } else calibration_rows(user[["calibrate"]], user[["calibration_fraction"]], y, outcome, seed)
  user[["calibrate"]] <- NULL
  user[["calibration_fraction"]] <- NULL
  if (!is.null(calibration$held)) {
    cal_x <- x[calibration$held, , drop = FALSE]
    cal_y <- y[calibration$held]
    x <- x[-calibration$held, , drop = FALSE]
    y <- y[-calibration$held]
    if (!is.null(weights$sampling)) weights$sampling <- weights$sampling[-calibration$held]
    n <- nrow(x)
  }
  params <- finish_parameters(resolve_parameters(method, user, n, outcome), ncol(x))
  params <- class_weights_balanced(params, user, class_weights)
  if (identical(params$scale, "rank") || (identical(params$scale, "auto") && !methods::is(x, "dgCMatrix"))) {
    # the rank map of the rows the trees see (R/rank.R), stored in the design
    # so that every later design matrix gets it too ("auto": none when it
    # ranks no column)
    rank <- rank_fit(x, params$scale)
    if (!all(vapply(rank$columns, is.null, TRUE))) {
      design$spec$rank <- rank
      x <- rank_apply(x, rank)
      if (!is.null(calibration$held)) cal_x <- rank_apply(cal_x, rank)
    }
  }
  parts <- used_parts(params)
  if (!is.null(validation) && !any(vapply(parts, `[[`, TRUE, "uses_validation"))) {
    stop(sprintf("`validation` is used only by the %s (parts that choose their settings on validation data), which this fit does not use.",
                 paste0("\"", names(Filter(function(p) p$uses_validation, svf_registry$parts$splitter)),
                        "\" splitter", collapse = ", ")), call. = FALSE)
  }
  scaling <- if (outcome == "regression") outcome_scaling(y)
  valid <- validation_data(validation, design$spec, ncol(x), if (outcome == "regression") scaling else levels(y))
  for (part in parts) if (!is.null(part$check)) part$check(params, y, validation)
  importance <- check_importance_arg(importance, params, outcome)

  engine_y <- if (outcome == "regression") (y - scaling$center) / scaling$scale else as.integer(y) - 1L
  res <- engine_fit(engine_data(x), engine_y, weights$sampling, if (outcome == "regression") 0L else nlevels(y),
                    engine_parameters(params, y, ntree, seed, first_tree, progress_delay),
                    valid, num_threads, verbose)
  forest <- res$forest
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
  model <- structure(c(model, oob_results(res$oob, y, outcome, params$aggregation, scaling)), class = "svforest")
  model$variable_importance <- fit_importance(model, x, y, importance, num_threads)
  if (outcome == "regression") {  # R/uncertainty.R
    model$splitter_uses_oob <- isTRUE(res$splitter_uses_oob)
    model$spread_offset <- spread_offset(forest, x, ntree, num_threads)
  }
  if (identical(calibration$method, "cv")) {
    # fold forests, grown as this one on the other folds' rows
    fold_fit <- function(rows) {
      # as a fit to these rows alone would: parameters that depend on the
      # number of rows, and the outcome's scaling
      fold_params <- finish_parameters(resolve_parameters(method, user, length(rows), outcome), ncol(x))
      fold_scaling <- outcome_scaling(y[rows])
      forest <- engine_fit(engine_data(x[rows, , drop = FALSE]), (y[rows] - fold_scaling$center) / fold_scaling$scale,
                           weights$sampling[rows], 0L,
                           engine_parameters(fold_params, y[rows], ntree, seed, first_tree, progress_delay),
                           valid, num_threads, verbose)$forest
      list(forest = forest, scaling = fold_scaling)
    }
    model$conformal <- fit_conformal_cv(model, x, y, calibration$folds, fold_fit, num_threads)
  } else if (!is.null(calibration) && outcome == "regression") {
    model$conformal <- fit_conformal(model, design_rows(forest, cal_x), cal_y, num_threads)
  } else if (!is.null(calibration)) {
    prob <- .svf_predict(forest, design_rows(forest, cal_x), num_threads, FALSE, FALSE, FALSE)$prob
    model$calibration <- fit_calibration(prob, as.integer(cal_y), calibration$method)
  }
  model
}

# "regression" for a numeric outcome, else "classification" (factors,
# characters, logicals).
outcome_type <- function(y) if (is.numeric(y) && !is.factor(y)) "regression" else "classification"

# The out-of-bag elements of a model. Classification: error rate, its curve,
# predicted classes and the votes (kept so that combine() can merge the
# out-of-bag votes of parts). Regression: mean squared error, its curve,
# R^2, mean predictions and their sums and counts (on the engine's scale).
oob_results <- function(oob, y, outcome, aggregation, scaling) {
  if (is.null(oob)) {
    return(list(oob_error = NA_real_, oob_error_curve = NULL, oob_predictions = NULL))
  }
  if (outcome == "regression") {
    has <- oob$count > 0
    pred <- ifelse(has, oob$sum / pmax(oob$count, 1L), NA_real_) * scaling$scale + scaling$center
    # as combine() computes it from the parts' sums
    mse <- if (any(has)) mean((pred[has] - y[has])^2) else NA_real_
    return(list(oob_error = mse, oob_error_curve = oob$error_curve * scaling$scale^2,
                oob_rsquared = oob_rsquared(mse, y[has]), oob_predictions = pred,
                oob_sum = oob$sum, oob_count = oob$count, oob_y = y))
  }
  has_votes <- rowSums(oob$votes) > 0
  cls <- if (identical(aggregation, "max_confidence")) oob$predicted + 1L
         else max.col(oob$votes, ties.method = "first")
  cls[!has_votes] <- NA
  list(oob_error = oob$error, oob_error_curve = oob$error_curve,
       oob_predictions = factor(levels(y)[cls], levels = levels(y)),
       oob_votes = oob$votes, oob_y = as.integer(y))
}

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
  as.double(y)
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
