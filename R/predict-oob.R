# predict(fit) without `newdata` for classification and regression: the
# training rows' out-of-bag predictions the fit keeps (ranger's
# `fit$predictions`), NA for a row no tree left out. Survival forests have
# their own (predict_survival_oob(), R/predict-survival.R).
predict_forest_oob <- function(object, type) {
  if (is.null(object$oob_predictions) || is.null(object$oob_count)) {
    stop("`newdata` is required: this model holds no out-of-bag predictions (its sampler uses every row, or it was combined from parts that hold none), and svforest models do not store their training data.",
         call. = FALSE)
  }
  none <- object$oob_count == 0L
  out <- switch(type,
    class = object$oob_predictions,
    response = object$oob_predictions,
    prob = object$oob_prob,
    votes = structure(object$oob_votes, dimnames = list(NULL, object$levels)),
    stop(sprintf("`type = \"%s\"` needs `newdata`.", type), call. = FALSE))
  if (is.matrix(out)) out[none, ] <- NA else out[none] <- NA
  out
}
