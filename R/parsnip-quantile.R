#' Quantile regression and prediction intervals through parsnip
#'
#' With parsnip versions that have the `"quantile regression"` mode,
#' svforest registers engine `"svforest"` of [parsnip::rand_forest()] in it:
#' `rand_forest() |> set_mode("quantile regression", quantile_levels =
#' c(0.1, 0.5, 0.9)) |> set_engine("svforest")` (parsnip takes the levels in
#' [parsnip::set_mode()]) fits a regression forest with
#' `calibrate = "conformal"` (a quarter of the rows held out for the
#' conformal calibration; `calibration_fraction` and the other arguments of
#' [svforest()] are engine arguments) and `predict()` returns a column
#' `.pred_quantile` of class `hardhat::quantile_pred` holding the conformal
#' quantiles at `quantile_levels` (see the section "Prediction intervals and
#' quantiles" of [predict.svforest()] for what they guarantee).
#' `set_engine("svforest", calibrate = "cv")` keeps every row for the
#' forest and scores them with five fold forests instead (narrower on small
#' data, about six times the fit time, approximate coverage).
#'
#' In mode `"regression"`, `predict(fit, new_data, type = "pred_int", level
#' = 0.95)` gives the prediction interval (`.pred_lower`, `.pred_upper`):
#' conformal when the model is calibrated (`set_engine("svforest",
#' calibrate = "cv")` or `"conformal"`, or the default out-of-bag
#' calibration), else the quantile forest's own. A conformal bound needs
#' enough calibration rows: about `2 / (1 - level) - 1` (39 for `level =
#' 0.95`); with fewer, [predict.svforest()] gives infinite bounds and
#' `"pred_int"` gives `NA`, both with a warning saying how many rows the
#' level needs.
#' `type = "conf_int"` (an interval for the mean, not for a new outcome) is
#' not offered: the conformal calibration covers new outcomes only.
#' @name svforest_quantile_engine
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE) &&
#'     "quantile regression" %in% parsnip::get_model_env()$rand_forest_modes) {
#'   spec <- parsnip::set_mode(parsnip::rand_forest(trees = 5), "quantile regression",
#'                             quantile_levels = c(0.1, 0.5, 0.9))
#'   spec <- parsnip::set_engine(spec, "svforest", method = "rsvt", num_threads = 1)
#'   fit <- parsnip::fit(spec, Ozone ~ ., data = na.omit(airquality))
#'   predict(fit, na.omit(airquality)[1:3, ])
#' }
NULL

# Registers the quantile regression mode and the regression prediction
# intervals of engine "svforest" (called by register_parsnip_engine(), after
# the engine's classification and regression modes).
register_parsnip_uncertainty <- function() {
  env <- parsnip::get_model_env()
  if ("quantile regression" %in% env$rand_forest_modes &&
      !any(env$rand_forest_fit$engine == "svforest" & env$rand_forest_fit$mode == "quantile regression")) {
    mode <- "quantile regression"
    parsnip::set_model_engine("rand_forest", mode = mode, eng = "svforest")
    parsnip::set_dependency("rand_forest", eng = "svforest", pkg = "svforest", mode = mode)
    parsnip::set_fit(
      model = "rand_forest", eng = "svforest", mode = mode,
      value = list(
        interface = "data.frame",
        protect = c("x", "y", "weights"),
        data = c(x = "x", y = "y", weights = "case_weights"),
        func = c(pkg = "svforest", fun = "svforest"),
        # the quantiles need calibration rows the trees did not see
        defaults = list(num_threads = 1L, seed = quote(sample.int(10^5, 1)), verbose = FALSE,
                        calibrate = "conformal")
      )
    )
    parsnip::set_encoding(
      model = "rand_forest", eng = "svforest", mode = mode,
      options = list(predictor_indicators = "none", compute_intercept = FALSE,
                     remove_intercept = FALSE, allow_sparse_x = FALSE)
    )
    parsnip::set_pred(
      model = "rand_forest", eng = "svforest", mode = mode, type = "quantile",
      value = list(
        pre = NULL,
        post = function(result, object) {
          tibble::new_tibble(list(.pred_quantile = hardhat::quantile_pred(unname(result),
                                                                            object$spec$quantile_levels)))
        },
        func = c(fun = "predict"),
        args = list(object = quote(object$fit), newdata = quote(new_data), type = "quantiles",
                    quantiles = quote(object$spec$quantile_levels))
      )
    )
  }
  pred <- env$rand_forest_predict
  if (!any(pred$engine == "svforest" & pred$mode == "regression" & pred$type == "pred_int")) {  # not an outcome: parsnip's mode
    parsnip::set_pred(
      model = "rand_forest", eng = "svforest", mode = "regression", type = "pred_int",
      value = list(
        pre = NULL,
        post = function(result, object) parsnip_interval(result, object$fit),
        func = c(fun = "predict"),
        args = list(object = quote(object$fit), newdata = quote(new_data), type = "interval",
                    level = quote(level))
      )
    )
  }
  invisible(TRUE)
}

# predict(type = "pred_int")'s columns from predict(type = "interval"). A
# conformal bound is infinite when the calibration has too few rows for the
# level (the order statistic falls beyond its scores), and predict() has
# said why in a warning (warn_unbounded()): tidymodels wants numbers, so
# such bounds become NA.
parsnip_interval <- function(result, model) {
  lower <- unname(result[, "lower"])
  upper <- unname(result[, "upper"])
  bad <- !is.finite(lower) | !is.finite(upper)
  lower[bad] <- NA_real_
  upper[bad] <- NA_real_
  tibble::tibble(.pred_lower = lower, .pred_upper = upper)
}
