#' Explaining a support vector forest with DALEX, pdp, iml, kernelshap and shapviz
#'
#' The model-agnostic explainers work on a fitted [svforest()] model without
#' a wrapper: svforest registers the methods they look up (when those
#' packages are loaded), so that a classification forest is explained
#' through its class probabilities and a regression forest through its
#' predictions.
#'
#' * **DALEX**: `yhat()` gives the probability of the second class for two
#'   classes (DALEX's convention; give `y` as 0/1 for the second class), the
#'   matrix of class probabilities for more, the prediction for regression;
#'   `model_info()` reports `"classification"`, `"multiclass"` or
#'   `"regression"`. So `DALEX::explain(fit, data = x, y = y01)`,
#'   `model_performance()`, `model_parts()` and `model_profile()` work as
#'   for ranger.
#' * **pdp**: `pdp::partial(fit, pred.var = "x1", train = x, prob = TRUE)`
#'   gives partial dependence of a class probability (the first class by
#'   default, as for every pdp model; `which.class` chooses another).
#' * **iml**: `iml::Predictor$new(fit, data = x, y = y)` predicts class
#'   probabilities (one column per class) unless `type` or `predict.function`
#'   is given.
#' * **kernelshap**: `kernelshap(fit, X, bg_X)` and `permshap(fit, X, bg_X)`
#'   explain the class probabilities (regression: the prediction) when
#'   `pred_fun` is not given. The explicit one-line recipe, which works with
#'   any version of these packages, is
#'   `kernelshap(fit, X, bg_X, pred_fun = function(m, X) predict(m, X, type = "prob"))`.
#' * **shapviz**: `shapviz::shapviz(fit, X_pred = x)` (or
#'   [svforest_shap()]) gives the exact attributions of the linear leaves,
#'   see [svforest_shap()]; `shapviz(kernelshap(fit, X, bg_X))` plots the
#'   model-agnostic ones.
#'
#' @name svforest_explainers
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
#' # what the explainers see: class probabilities
#' head(svforest_explainer_predict(fit, iris))
#' @seealso [svforest_importance()], [predict.svforest()] (`type = "local"`)
NULL

#' @rdname svforest_explainers
#' @param object A fitted [svforest()] model.
#' @param newdata Predictors, as for [predict.svforest()].
#' @return `svforest_explainer_predict()`: the class probabilities (a matrix,
#'   one column per class) of a classification forest, the predictions of a
#'   regression forest, the risk of a survival forest, and the first cause's
#'   expected time lost (`predict(type = "risk", cause = 1)`) of a
#'   competing-risks forest.
#' @export
svforest_explainer_predict <- function(object, newdata) {
  check_model(object)
  score <- as.list(model_family(object)$score_type)  # R/family-*.R: a type, and any further arguments
  do.call(stats::predict, c(list(object, newdata, type = score[[1]]), score[-1]))
}

# --- DALEX -------------------------------------------------------------------

# DALEX's yhat(): probabilities for classes (the second class's for two,
# as DALEX's 0/1 `y` expects), predictions for numbers.
#' @exportS3Method DALEX::yhat
yhat.svforest <- function(X.model, newdata, ...) {
  pred <- svforest_explainer_predict(X.model, newdata)
  if (is.matrix(pred) && ncol(pred) == 2) return(as.numeric(pred[, 2]))
  pred
}

#' @exportS3Method DALEX::model_info
model_info.svforest <- function(model, is_multiclass = FALSE, ...) {
  # DALEX's task: class probabilities (two classes or more), or a number per row
  type <- if (!identical(model_family(model)$score_type, "prob")) "regression"
          else if (length(model$levels) > 2 || isTRUE(is_multiclass)) "multiclass" else "classification"
  structure(list(package = "svforest", ver = as.character(utils::packageVersion("svforest")), type = type),
            class = "model_info")
}

# --- pdp -----------------------------------------------------------------------

# pdp asks the task; with it, `prob = TRUE` reads predict(type = "prob").
#' @exportS3Method pdp::get_task
get_task.svforest <- function(object) object$type

# --- iml -----------------------------------------------------------------------

# iml's prediction function for a model: probabilities for classes unless
# `type` says otherwise.
#' @exportS3Method iml::create_predict_fun2
create_predict_fun2.svforest <- function(model, task, predict.fun = NULL, type = NULL) {
  function(newdata) {
    pred <- if (is.null(type)) svforest_explainer_predict(model, newdata) else stats::predict(model, newdata, type = type)
    if (is.factor(pred)) {
      pred <- stats::setNames(as.data.frame(lapply(levels(pred), function(l) as.numeric(pred == l))), levels(pred))
    }
    data.frame(pred, check.names = FALSE)
  }
}

# --- kernelshap ------------------------------------------------------------------

# kernelshap() and permshap() call pred_fun(object, X) and need numbers: the
# default is the probabilities (or predictions).
#' @exportS3Method kernelshap::kernelshap
kernelshap.svforest <- function(object, X, bg_X = NULL, pred_fun = NULL, ...) {
  if (is.null(pred_fun)) pred_fun <- svforest_explainer_predict
  NextMethod(pred_fun = pred_fun)
}

#' @exportS3Method kernelshap::permshap
permshap.svforest <- function(object, X, bg_X = NULL, pred_fun = NULL, ...) {
  if (is.null(pred_fun)) pred_fun <- svforest_explainer_predict
  NextMethod(pred_fun = pred_fun)
}

# --- exact attributions of linear leaves ----------------------------------------------

#' Exact attributions of the linear leaves, for shapviz
#'
#' Each linear leaf (`"linear_svm"`, `"logistic"`, `"ridge"`, `"linear_svr"`)
#' is a linear model `b + w'x` of the rows that reach it, so its exact
#' Shapley values against a reference point `c` (with the predictors
#' independent) are `w_j (x_j - c_j)`. This function averages them over the
#' trees a row falls in (the contributions of
#' `predict(fit, newdata, type = "local")`, `c` the training column means)
#' and adds up the indicator columns of a factor under the factor's name, so
#' there is one attribution per predictor as given. Within the leaves a row
#' falls in they are exact: two rows that reach the same leaves differ in
#' prediction by exactly the difference of their attribution sums (for
#' regression; for classes, of the leaves' decision values). What they do not
#' attribute is which leaf a row falls in: `baseline` is the mean, over the
#' rows, of the prediction minus the sum of its attributions (regression),
#' and 0 for classes, whose attributions are on the scale of the leaf SVMs'
#' decision values (towards the second class for two classes; one set per
#' class for more). Methods without linear leaves (`"psvm"`,
#' `"transform"`, `"tdsvm"`) give an error: use kernelshap there (see
#' [svforest_explainers]). So do survival and competing-risks forests, whose
#' leaves hold curves: kernelshap and permshap explain their risk (the
#' first cause's for competing risks), as [svforest_explainer_predict()]
#' gives it.
#'
#' @param object A fitted [svforest()] model with linear leaves.
#' @param X_pred Rows to explain (as `newdata` of [predict.svforest()]).
#' @param X The predictor values shown in the plots (default `X_pred`).
#' @param num_threads Threads, as in [svforest()].
#' @param ... Not used.
#' @return With shapviz installed, a `"shapviz"` object (for more than two
#'   classes an `"mshapviz"`, one per class) for `shapviz::sv_importance()`,
#'   `sv_dependence()`, `sv_waterfall()` and the rest. Without shapviz, the
#'   list of `S` (the attribution matrix), `X` and `baseline`, or one such
#'   list per class; either way `s$S`, or `s$<class>$S` for more than two
#'   classes, holds the attributions.
#' @examples
#' fit <- svforest(mpg ~ ., data = mtcars, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
#' s <- svforest_shap(fit, mtcars[1:5, -1], num_threads = 1)
#' @export
svforest_shap <- function(object, X_pred, X = X_pred, num_threads = NULL, ...) {
  check_model(object)
  check_no_dots(...)
  check_shap_outcome(object)
  local <- stats::predict(object, X_pred, type = "local", num_threads = num_threads)
  groups <- importance_groups(object)
  collapse <- function(contrib) {
    S <- vapply(groups$groups, function(g) rowSums(contrib[, g + 1L, drop = FALSE]), numeric(nrow(contrib)))
    S <- matrix(S, nrow(contrib), length(groups$names), dimnames = list(NULL, groups$names))
    S
  }
  X <- as.data.frame(if (methods::is(X, "Matrix")) as.matrix(X) else X)
  if (identical(groups$names, paste0("V", seq_along(groups$names))) && ncol(X) == length(groups$names)) {
    names(X) <- groups$names
  }
  keep <- intersect(groups$names, names(X))
  if (length(keep) != length(groups$names)) {
    stop(sprintf("`X` lacks predictor%s %s of the model.", if (length(groups$names) - length(keep) > 1) "s" else "",
                 paste0("`", setdiff(groups$names, keep), "`", collapse = ", ")), call. = FALSE)
  }
  X <- X[, groups$names, drop = FALSE]
  contrib <- local$contributions
  if (length(dim(contrib)) == 3) {
    S <- lapply(stats::setNames(nm = dimnames(contrib)[[3]]), function(k) collapse(contrib[, , k]))
    baseline <- stats::setNames(rep(0, length(S)), names(S))
  } else {
    S <- collapse(contrib)
    baseline <- if (!identical(model_family(object)$score_type, "prob")) {
      mean(stats::predict(object, X_pred, num_threads = num_threads) - rowSums(S))
    } else 0
  }
  # shapviz's objects, or lists of the same shape without it
  one <- if (requireNamespace("shapviz", quietly = TRUE)) function(S, b) shapviz::shapviz(S, X = X, baseline = b)
         else function(S, b) list(S = S, X = X, baseline = b)
  if (!is.list(S)) return(one(S, baseline))
  out <- lapply(stats::setNames(nm = names(S)), function(k) one(S[[k]], baseline[[k]]))
  if (requireNamespace("shapviz", quietly = TRUE)) shapviz::mshapviz(out) else out
}

# svforest_shap() reads linear leaves (predict(type = "local")): a forest
# whose outcome has no such type (event times: its leaves hold curves) is
# pointed to the model-agnostic explainers of what it predicts.
check_shap_outcome <- function(object) {
  family <- model_family(object)
  if ("local" %in% prediction_type_names(family$name)) return(invisible())
  score <- as.list(family$score_type)
  extra <- ""
  if (length(score) > 1L) extra <- paste0(", ", names(score)[-1], " = ", vapply(score[-1], format, ""), collapse = "")
  call <- sprintf("predict(fit, X, type = \"%s\"%s)", score[[1]], extra)
  stop(sprintf(paste("svforest_shap() gives the exact attributions of linear leaves (classification and regression",
                     "forests with `type = \"local\"`); this forest's outcome is %s, whose leaves hold curves.",
                     "kernelshap(fit, X, bg_X) or permshap(fit, X, bg_X) explain the score the explainers read,",
                     "%s (svforest_explainer_predict()), and shapviz() plots their result; see ?svforest_explainers."),
               family$describe, call), call. = FALSE)
}

#' @exportS3Method shapviz::shapviz
shapviz.svforest <- function(object, X_pred, X = X_pred, ...) svforest_shap(object, X_pred, X, ...)
