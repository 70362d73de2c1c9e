#' Survival forests through parsnip: the censored regression mode
#'
#' svforest registers engine `"svforest"` of [parsnip::rand_forest()] in
#' mode `"censored regression"` (the mode parsnip itself defines; the
#' `censored` package is not needed): `rand_forest(mode = "censored
#' regression") |> set_engine("svforest")` fits the default survival forest
#' of [svforest()] on a `survival::Surv()` outcome, with `fit()` (a formula
#' such as `Surv(time, status) ~ .`) or `fit_xy()` (a `Surv` `y`).
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
#' These work through workflows and `tune::tune_grid()` with yardstick's
#' survival metrics (`concordance_survival`, `brier_survival`,
#' `brier_survival_integrated`, `roc_auc_survival`) and `eval_time`.
#' @name svforest_censored_engine
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE) &&
#'     "censored regression" %in% parsnip::get_model_env()$rand_forest_modes) {
#'   library(survival)
#'   spec <- parsnip::set_engine(parsnip::rand_forest(trees = 20, mode = "censored regression"),
#'                               "svforest", seed = 1)
#'   fit <- parsnip::fit(spec, Surv(time, status) ~ age + sex + ph.ecog, data = lung)
#'   predict(fit, lung[1:3, ], type = "survival", eval_time = c(180, 365))$.pred[[1]]
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
  parsnip::set_fit(
    model = "rand_forest", eng = "svforest", mode = mode,
    value = list(
      interface = "data.frame",
      protect = c("x", "y", "weights"),
      data = c(x = "x", y = "y", weights = "case_weights"),
      func = c(pkg = "svforest", fun = "svforest_parsnip_fit"),
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
