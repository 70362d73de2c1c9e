#' The "svforest" engine for parsnip's rand_forest()
#'
#' When parsnip is installed, svforest registers the engine `"svforest"` for
#' [parsnip::rand_forest()] in modes `"classification"` and `"regression"` (whether parsnip is
#' loaded before or after svforest), so support vector forests work with
#' workflows, tune and the rest of tidymodels.
#'
#' Main arguments: `trees` is `ntree`; `min_n` is `min_leaf_size`, the
#' fewest training rows a leaf may hold (as for parsnip's randomForest
#' engine, where `min_n` is the terminal node size; used by the random axis
#' splitter of `"rsvt"`). `mtry` has no counterpart and is not used. The
#' method and all other parameters of [svforest()] are engine arguments:
#' `set_engine("svforest", method = "psvm", nu = 100)`.
#'
#' As for the ranger engine, the defaults are safe under parallel tuning:
#' `num_threads = 1` and a `seed` drawn from R's random generator (so
#' `set.seed()` makes fits repeatable); both can be set as engine arguments.
#' Case weights (`fit(..., case_weights = )` with hardhat's
#' `importance_weights()` or `frequency_weights()`) become `case_weights` of
#' [svforest()].
#' Predictions: `type = "class"` and `type = "prob"` (classification),
#' `type = "numeric"` (regression; the default method is then `"rsvf"`).
#'
#' Missing predictor values: `fit_xy()` passes them to [svforest()], which
#' imputes them (`na_action`); `fit()` with a formula leaves out incomplete
#' rows itself (parsnip's model frame). Either way `predict()` gives one
#' row per row of `new_data`, rows with missing values imputed.
#' @name svforest_engine
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE)) {
#'   spec <- parsnip::set_engine(parsnip::rand_forest(trees = 5, mode = "classification"),
#'                               "svforest", method = "rsvt")
#'   fit <- parsnip::fit(spec, Species ~ ., data = iris)
#'   predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' }
NULL

# Registers the engine in parsnip's model environment; does nothing when it
# is already there (e.g. svforest reloaded).
register_parsnip_engine <- function(...) {
  if (!requireNamespace("parsnip", quietly = TRUE)) return(invisible(FALSE))
  current <- parsnip::get_model_env()$rand_forest
  if (!is.null(current) && "svforest" %in% current$engine) return(invisible(FALSE))

  for (mode in c("classification", "regression")) {
    parsnip::set_model_engine("rand_forest", mode = mode, eng = "svforest")
    parsnip::set_dependency("rand_forest", eng = "svforest", pkg = "svforest", mode = mode)
    parsnip::set_fit(
      model = "rand_forest", eng = "svforest", mode = mode,
      value = list(
        interface = "data.frame",
        # parsnip's case weights arrive as `case_weights`
        protect = c("x", "y", "weights"),
        data = c(x = "x", y = "y", weights = "case_weights"),
        func = c(pkg = "svforest", fun = "svforest"),
        defaults = list(num_threads = 1L, seed = quote(sample.int(10^5, 1)), verbose = FALSE)
      )
    )
    parsnip::set_encoding(
      model = "rand_forest", eng = "svforest", mode = mode,
      options = list(predictor_indicators = "none", compute_intercept = FALSE,
                     remove_intercept = FALSE, allow_sparse_x = FALSE)
    )
  }

  parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = "trees", original = "ntree",
                         func = list(pkg = "dials", fun = "trees"), has_submodel = FALSE)
  parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = "min_n",
                         original = "min_leaf_size", func = list(pkg = "dials", fun = "min_n"),
                         has_submodel = FALSE)

  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "classification", type = "class",
    value = list(
      pre = NULL, post = NULL, func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "class")
    )
  )
  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "classification", type = "prob",
    value = list(
      pre = NULL,
      post = function(result, object) as.data.frame(result, stringsAsFactors = FALSE),
      func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "prob")
    )
  )
  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "regression", type = "numeric",
    value = list(
      pre = NULL, post = NULL, func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "response")
    )
  )
  register_parsnip_uncertainty()  # R/parsnip_quantile.R
  invisible(TRUE)
}
