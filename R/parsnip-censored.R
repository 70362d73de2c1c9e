#' Survival forests through parsnip: the censored regression mode
#'
#' svforest registers engine `"svforest"` of [parsnip::rand_forest()] in
#' mode `"censored regression"` (the mode parsnip itself defines; the
#' `censored` package is not needed; parsnip itself needs the prodlim
#' package for any censored regression fit): `rand_forest(mode = "censored
#' regression") |> set_engine("svforest")` fits the default survival forest
#' of [svforest()] on a `survival::Surv()` outcome, with `fit()` (a formula
#' such as `Surv(time, status) ~ .`) or `fit_xy()` (a `Surv` `y`); a
#' formula `Surv(entry, exit, event) ~ .` fits with delayed entry
#' ([svforest_survival]), whose predictions work as below but which has no
#' censoring weights (yardstick's Brier scores and ROC curves refuse it).
#' `trees`, `min_n` and `mtry` and the engine arguments are those of the
#' other modes (see [svforest_engine]); as there, a fit uses one thread and
#' a seed drawn from R's generator unless given as engine arguments.
#'
#' Predictions, in parsnip's formats:
#' * `type = "survival"` with `eval_time`: a list column `.pred`, per row a
#'   tibble of `.eval_time` and `.pred_survival` (the forest's survival
#'   curve at those times, `predict(type = "survival", times = eval_time)`).
#' * `type = "time"`: `.pred_time`, the expected survival time restricted
#'   to the last training time (`predict(type = "time")`).
#' * `type = "linear_pred"`: `.pred_linear_pred`, the forest's risk score
#'   (`predict(type = "risk")`) with its sign changed, so that, as for
#'   censored's models, it increases with survival time; `increasing =
#'   FALSE` gives the risk itself (higher: earlier event).
#'
#' `multi_predict(fit, new_data, type = , trees = , eval_time = )` gives
#' these (type `"time"` by default) for the forests of the first `trees`
#' trees.
#'
#' These work through workflows, `augment()` and `tune::tune_grid()` with
#' yardstick's survival metrics (`concordance_survival`, `brier_survival`,
#' `brier_survival_integrated`, `roc_auc_survival`) and `eval_time`.
#' The Brier scores and the ROC curve read inverse probability of censoring
#' weights, which parsnip's own censoring model computes only with the
#' censored package installed; for this engine the fit keeps the
#' Kaplan-Meier curve of the training rows' censoring times (weighted by
#' the case weights) and gives Graf et al.'s weights from it (a row with an
#' event at T <= t weighs 1 / G(T-), one still followed at t 1 / G(t-),
#' one censored before t has none; G bounded below at 0.05, as parsnip
#' does).
#' @name svforest_censored_engine
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE) &&
#'     "censored regression" %in% parsnip::get_model_env()$rand_forest_modes) {
#'   library(survival)
#'   spec <- parsnip::set_engine(parsnip::rand_forest(trees = 20, mode = "censored regression"),
#'                               "svforest", seed = 1)
#'   fit <- parsnip::fit(spec, Surv(time, status) ~ age + sex + ph.ecog, data = lung)
#'   print(predict(fit, lung[1:3, ], type = "survival", eval_time = c(180, 365))$.pred[[1]])
#'   predict(fit, lung[1:3, ], type = "time")
#' }
NULL

# Registers the censored regression mode of engine "svforest" (called by
# register_parsnip_engine(), after the engine's other modes; the main and
# engine arguments registered there serve every mode).
register_parsnip_censored <- function() {
  env <- parsnip::get_model_env()
  mode <- "censored regression"
  if (!mode %in% env$rand_forest_modes ||
      any(env$rand_forest_fit$engine == "svforest" & env$rand_forest_fit$mode == mode)) {
    return(invisible(FALSE))
  }
  parsnip::set_model_engine("rand_forest", mode = mode, eng = "svforest")
  parsnip::set_dependency("rand_forest", eng = "svforest", pkg = "svforest", mode = mode)
  # the formula interface: parsnip's censoring model (for the IPCW metrics)
  # reads the formula, which fit_xy() makes from x and y for such engines
  parsnip::set_fit(
    model = "rand_forest", eng = "svforest", mode = mode,
    value = list(
      interface = "formula",
      protect = c("formula", "data", "weights"),
      data = c(formula = "formula", data = "data", weights = "case_weights"),
      func = c(pkg = "svforest", fun = "svforest_parsnip_censored_fit"),
      defaults = list(num_threads = 1L, seed = quote(sample.int(10^5, 1)), verbose = FALSE)
    )
  )
  parsnip::set_encoding(
    model = "rand_forest", eng = "svforest", mode = mode,
    options = list(predictor_indicators = "none", compute_intercept = FALSE,
                   remove_intercept = FALSE, allow_sparse_x = FALSE)
  )
  prediction <- function(type, post = NULL, ...) {
    list(pre = NULL, post = post, func = c(fun = "predict"),
         args = list(object = quote(object$fit), newdata = quote(new_data), type = type, ...))
  }
  # `eval_time` is predict_survival()'s own argument, checked by parsnip
  parsnip::set_pred(model = "rand_forest", eng = "svforest", mode = mode, type = "survival",
                    value = list(pre = NULL, post = NULL,
                                 func = c(pkg = "svforest", fun = "svforest_parsnip_survival"),
                                 args = list(object = quote(object$fit), new_data = quote(new_data),
                                             eval_time = quote(eval_time))))
  parsnip::set_pred(model = "rand_forest", eng = "svforest", mode = mode, type = "time",
                    value = prediction("time", post = function(result, object) unname(result)))
  # the risk (higher: earlier event); predict_linear_pred._svforest() turns
  # its sign by `increasing`
  parsnip::set_pred(model = "rand_forest", eng = "svforest", mode = mode, type = "linear_pred",
                    value = prediction("risk", post = function(result, object) unname(result)))
  invisible(TRUE)
}

#' Fit function of the parsnip engine's censored regression mode
#'
#' Called by parsnip for `rand_forest(mode = "censored regression") |>
#' set_engine("svforest")`: maps `min_n` and `mtry` as in the other modes
#' (see [svforest_parsnip_fit()]) and calls [svforest()] with the formula.
#' Not meant to be called directly.
#' @param formula,data A formula with a `survival::Surv()` outcome, and the data.
#' @param ... Arguments of [svforest()].
#' @param min_n,mtry parsnip's main arguments.
#' @return An [svforest()] survival model.
#' @keywords internal
#' @export
svforest_parsnip_censored_fit <- function(formula, data, ..., min_n = NULL, mtry = NULL) {
  outcome <- eval(formula[[2L]], data, environment(formula))
  if (isTRUE(is_competing_outcome(outcome))) {  # R/outcome-competing.R
    stop("parsnip's censored regression mode is for single-event outcomes; it has no competing-risks mode. ",
         "Fit a competing-risks outcome with svforest() itself (see ?svforest_competing).", call. = FALSE)
  }
  predictors <- attr(stats::terms(formula, data = data), "term.labels")
  args <- parsnip_method_args(list(...), "survival", nrow(data), length(predictors), min_n, mtry)
  model <- call_svforest(list(formula = formula, data = data), args)
  # the censoring distribution of the training rows, for the IPCW weights
  # of yardstick's Brier scores (.censoring_weights_graf._svforest())
  # (delayed entry, Surv(entry, exit, event): none; those weights assume every row at risk from time 0)
  if (survival_counting(outcome)) return(model)
  y <- as.matrix(outcome)
  model$censoring <- censoring_km(y[, "time"], y[, "status"], args[["case_weights"]])  # R/oob-survival.R
  model
}


#' Survival predictions of the parsnip engine
#'
#' Called by parsnip for `predict(fit, new_data, type = "survival",
#' eval_time = )` of `rand_forest(mode = "censored regression") |>
#' set_engine("svforest")`; not meant to be called directly.
#' @param object An [svforest()] survival model.
#' @param new_data Predictors.
#' @param eval_time Times (parsnip has checked them).
#' @return parsnip's survival format: a tibble with list column `.pred`,
#'   per row a tibble of `.eval_time` and `.pred_survival`.
#' @keywords internal
#' @export
svforest_parsnip_survival <- function(object, new_data, eval_time) {
  curves <- stats::predict(object, new_data, type = "survival", times = eval_time)
  rows <- lapply(seq_len(nrow(curves)), function(i) {
    tibble::new_tibble(list(.eval_time = eval_time, .pred_survival = unname(curves[i, ])))
  })
  tibble::new_tibble(list(.pred = rows))
}

# parsnip's linear predictor of a censored model increases with survival
# time (`increasing = TRUE`, as censored's Cox models): the risk, negated.
#' @rawNamespace S3method(parsnip::predict_linear_pred, "_svforest")
predict_linear_pred._svforest <- function(object, new_data, ..., increasing = TRUE) {
  if (!is.logical(increasing) || length(increasing) != 1 || is.na(increasing)) {
    stop("`increasing` must be TRUE or FALSE.", call. = FALSE)
  }
  risk <- parsnip::predict_linear_pred.model_fit(object, new_data, ...)
  if (increasing) -risk else risk
}

# Graf et al.'s inverse probability of censoring weights, as parsnip adds
# them to survival predictions for yardstick's Brier scores and tune: at
# each `.eval_time` t a row with an event at T <= t weighs 1 / G(T-), one
# still followed at t 1 / G(t-), one censored before t gets NA (no weight);
# G is the censoring curve of the training rows, bounded below at `trunc`
# as parsnip bounds it. parsnip's own method reads a censoring model that
# needs the censored package; this one reads the curve the fit keeps.
#' @rawNamespace S3method(parsnip::.censoring_weights_graf, "_svforest")
.censoring_weights_graf._svforest <- function(object, predictions, cens_predictors = NULL, trunc = 0.05,
                                              eps = 10^-10, ...) {
  curve <- object$fit$censoring
  if (isTRUE(object$fit$survival$delayed_entry)) {
    stop("Censoring weights (for yardstick's Brier scores and ROC curves) are not available for a fit with delayed entry, Surv(entry, exit, event).",
         call. = FALSE)
  }
  if (is.null(curve)) {
    stop("This model holds no censoring distribution: fit it in parsnip's \"censored regression\" mode.",
         call. = FALSE)
  }
  if (!is.null(cens_predictors)) warning("`cens_predictors` is not used.", call. = FALSE)
  is_surv <- vapply(predictions, inherits, TRUE, what = "Surv")
  if (sum(is_surv) != 1L || !".pred" %in% names(predictions)) {
    stop("`predictions` must hold one `Surv` column (the observed outcome) and the list column `.pred`.",
         call. = FALSE)
  }
  y <- predictions[[which(is_surv)]]
  if (!identical(attr(y, "type"), "right")) stop("The observed outcome must be right-censored.", call. = FALSE)
  sizes <- vapply(predictions$.pred, nrow, integer(1))
  row <- rep(seq_along(sizes), sizes)
  t <- unlist(lapply(predictions$.pred, function(p) p$.eval_time), use.names = FALSE)
  y <- as.matrix(y)
  time <- y[row, "time"]
  event <- time <= t & y[row, "status"] == 1
  at <- pmax(ifelse(event, time - eps, ifelse(time > t, t - eps, NA_real_)), 0)
  g <- censoring_at(curve, at)  # R/oob-survival.R
  positive <- g[!is.na(g) & g > 0]
  if (length(positive) && min(positive) < trunc) trunc <- min(positive) / 2
  g <- ifelse(is.na(g), NA_real_, pmax(g, trunc))
  predictions$.pred <- lapply(seq_along(sizes), function(i) {
    p <- predictions$.pred[[i]]
    in_row <- row == i
    p$.weight_time <- at[in_row]
    p$.pred_censored <- g[in_row]
    p$.weight_censored <- 1 / g[in_row]
    p
  })
  predictions
}
