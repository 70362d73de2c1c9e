# Validation data (for parts that choose their settings on it, the "cart"
# splitter) and what a fitted model tells about its support vectors.

# Formula interface: a validation data frame holds the outcome too.
frame_validation <- function(formula, data) {
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass)
  list(x = data, y = stats::model.response(mf))
}

# Engine input for user-given validation data, built like the training design.
# NULL when none is given (the search then holds out a share of the rows).
# `outcome`: the training outcome's levels, or for regression its scaling
# (outcome_scaling()), which the validation outcome gets too.
validation_data <- function(validation, spec, p, outcome) {
  if (is.null(validation)) return(list(data = NULL, y = if (is.list(outcome)) double() else integer()))
  if (!is.list(validation) || is.data.frame(validation) || is.null(validation$x) || is.null(validation$y)) {
    stop("`validation` must be list(x = predictors, y = outcome), or a data frame with the outcome ",
         "when the model is given by a formula.", call. = FALSE)
  }
  yv <- validation$y
  regression <- is.list(outcome)
  if (regression) {
    if (!is.numeric(yv) || anyNA(yv) || any(!is.finite(yv))) {
      stop(sprintf("`validation$y` must be finite numbers, as the training outcome, not %s.", describe(yv)), call. = FALSE)
    }
  } else {
    if (!(is.factor(yv) || is.character(yv) || is.logical(yv))) {
      stop(sprintf("`validation$y` must be a factor, not %s.", describe(yv)), call. = FALSE)
    }
    yv <- as.character(yv)
    if (anyNA(yv) || !all(yv %in% outcome)) {
      stop("`validation$y` has missing values or classes not in the training outcome.", call. = FALSE)
    }
  }
  # new_engine_data() reads the design and, for sparse input, whether scaling
  # keeps zeros (always so for sparse training data)
  shell <- list(design = spec,
                forest = list(num_features = p, scale_center = if (identical(spec$type, "sparse")) 0 else 1))
  data <- tryCatch(new_engine_data(shell, validation$x), error = function(e) {
    stop(sub("`newdata`", "`validation$x`", conditionMessage(e), fixed = TRUE), call. = FALSE)
  })
  n <- if (identical(data$type, "csr")) data$nrow else nrow(data$x)
  if (n != length(yv)) {
    stop(sprintf("`validation$x` has %d rows but `validation$y` has %d values.", n, length(yv)), call. = FALSE)
  }
  if (n == 0) stop("`validation$x` has no rows.", call. = FALSE)
  list(data = data, y = if (regression) (as.double(yv) - outcome$center) / outcome$scale else match(yv, outcome) - 1L)
}

#' Support vectors used per row
#'
#' For each row of `newdata`, the number of support vectors the kernel SVM
#' leaves it reaches evaluate (summed over trees; 0 in constant and linear
#' leaves). Its mean is the "NSV" of the tree decomposition paper: the cost
#' of a prediction.
#' @param object A fitted [svforest()] model.
#' @param newdata New predictors, as for [predict.svforest()].
#' @return An integer vector, one value per row.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, method = "tdsvm", seed = 1, num_threads = 1)
#' mean(support_vectors_used(fit, iris))
#' @export
support_vectors_used <- function(object, newdata) {
  leaves <- predict.svforest(object, newdata, type = "leaf", num_threads = 1L)
  .svf_support_vectors_used(object$forest, leaves)
}
