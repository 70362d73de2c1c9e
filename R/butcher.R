#' Slimmer svforest models for deployment (butcher)
#'
#' Methods for the butcher package's axes, so that `butcher::butcher(fit)`
#' drops what prediction does not need. `predict()` gives the same results
#' after every axe.
#'
#' * `axe_call()`: the stored call (then `update()` no longer works).
#' * `axe_fitted()`: the out-of-bag predictions, votes and sums
#'   (`oob_predictions`, `oob_votes`, `oob_sum`, `oob_count`, a survival forest's
#'   `oob_chf_sum`, a competing-risks forest's `oob_cif_sum`) and the
#'   out-of-bag error curve; `oob_error` stays. [combine()] of axed parts
#'   then gives no out-of-bag error.
#' * `axe_data()`: the copy of the training outcome kept for the out-of-bag
#'   elements (`oob_y`) and the marks of the rows used (`rows_used`).
#'
#' The engine's trees, the design (columns, levels, scaling, imputation
#' values), the calibration and the column means of local explanations are
#' what predictions are made of, and stay.
#' @param x A fitted [svforest()] model.
#' @param verbose Print how much memory was released.
#' @param ... Not used.
#' @return The model, smaller, with attribute `butcher_disabled` naming what
#'   no longer works.
#' @name svforest_butcher
#' @examples
#' if (requireNamespace("butcher", quietly = TRUE)) {
#'   fit <- svforest(Species ~ ., data = iris, sampler = "bootstrap", ntree = 3, seed = 1,
#'                   num_threads = 1)
#'   small <- butcher::butcher(fit)
#'   identical(predict(small, iris), predict(fit, iris))
#' }
NULL

# The model `x` without `elements` (NULL) or with them replaced, marked with
# what no longer works.
axe_elements <- function(x, replace, disabled, verbose) {
  old <- x
  for (name in names(replace)) x[[name]] <- replace[[name]]  # through the model's names (R/model.R)
  if (!identical(x, old)) attr(x, "butcher_disabled") <- union(attr(old, "butcher_disabled"), disabled)
  if (isTRUE(verbose)) {
    message(sprintf("Memory released: %s", format(utils::object.size(old) - utils::object.size(x), units = "auto")))
  }
  x
}

#' @rdname svforest_butcher
#' @exportS3Method butcher::axe_call
axe_call.svforest <- function(x, verbose = FALSE, ...) {
  axe_elements(x, list(call = call("dummy_call")), "update()", verbose)
}

#' @rdname svforest_butcher
#' @exportS3Method butcher::axe_fitted
axe_fitted.svforest <- function(x, verbose = FALSE, ...) {
  drop <- model_names_held(x, c("oob_predictions", "oob_votes", "oob_sum", "oob_count", "oob_chf_sum", "oob_cif_sum",
                                "oob_error_curve",
                                oob_even_names))
  axe_elements(x, stats::setNames(vector("list", length(drop)), drop),
               c("oob_predictions", "combine() out-of-bag error"), verbose)
}

#' @rdname svforest_butcher
#' @exportS3Method butcher::axe_data
axe_data.svforest <- function(x, verbose = FALSE, ...) {
  drop <- intersect(c("oob_y", "rows_used"), model_names_held(x))
  axe_elements(x, stats::setNames(vector("list", length(drop)), drop),
               c("svforest_importance(oob = TRUE) checks", "combine() out-of-bag error"), verbose)
}

# The names of `x` (R/model.R) among `candidates` that hold a value.
model_names_held <- function(x, candidates = c("oob_predictions", "oob_votes", "oob_sum", "oob_count",
                                               "oob_error_curve", oob_even_names, "oob_y", "rows_used")) {
  candidates[!vapply(candidates, function(n) is.null(x[[n]]), TRUE)]
}
