#' Predict with a support vector forest
#'
#' @param object A fitted [svforest()] model.
#' @param newdata New predictors: a data frame (columns matched by name), a
#'   numeric matrix or a `dgCMatrix` (matched by column name when both have
#'   names, else by position).
#' @param type `"class"` (factor), `"prob"` (n x K matrix of averaged leaf
#'   distributions, rows sum to 1), `"votes"` (n x K matrix of tree votes),
#'   or `"leaf"` (n x ntree matrix of leaf numbers, starting at 1).
#' @param num_threads Threads, as in [svforest()].
#' @param ... Not used.
#' @return See `type`.
#' @details An SVM leaf contributes its predicted class (a one-hot vector) to
#'   the averaged probabilities and a constant leaf its class frequencies.
#'   With `aggregation = "vote"` the class is the majority vote, ties broken
#'   by the averaged probabilities, then by level order. With
#'   `aggregation = "max_confidence"` it is the class of the tree whose leaf
#'   is most confident: the SVM decision value of the leaf's predicted class
#'   (`|w'x|` for a binary leaf, the largest one-vs-rest value otherwise), or
#'   `2 f - 1` for a leaf with class frequencies (`f` its majority share);
#'   the first such tree on ties. `"prob"` and `"votes"` are the same for
#'   every aggregation.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' head(predict(fit, iris, type = "prob"))
#' table(predict(fit, iris), iris$Species)
#' @export
predict.svforest <- function(object, newdata, type = c("class", "prob", "votes", "leaf"),
                             num_threads = NULL, ...) {
  check_model(object)
  if (missing(newdata) || is.null(newdata)) {
    stop("`newdata` is required: svforest models do not store their training data.", call. = FALSE)
  }
  if (!is.character(type)) stop("`type` must be a string.", call. = FALSE)
  type <- check_choice(type[1], "type", c("class", "prob", "votes", "leaf"))
  num_threads <- resolve_threads(num_threads)
  data <- new_engine_data(object, newdata)
  max_conf <- type == "class" && identical(object$params$aggregation, "max_confidence")
  res <- .svf_predict(object$forest, data, num_threads, type == "leaf", FALSE, max_conf)
  lev <- object$levels
  switch(type,
    class = factor(lev[if (max_conf) res$max_confidence_class + 1L
                       else predicted_class(res$votes, res$prob, object$params$aggregation)], levels = lev),
    prob = {
      colnames(res$prob) <- lev
      res$prob
    },
    votes = {
      colnames(res$votes) <- lev
      res$votes
    },
    leaf = res$leaves + 1L
  )
}

# Column index of the predicted class.
predicted_class <- function(votes, prob, aggregation) {
  if (nrow(votes) == 0) return(integer())
  score <- if (identical(aggregation, "prob")) prob else votes + 0.5 * prob
  max.col(score, ties.method = "first")
}

# Error after 1, 2, ... trees on labelled data (uses each tree's class).
error_curve <- function(object, newdata, y) {
  data <- new_engine_data(object, newdata)
  res <- .svf_predict(object$forest, data, 1L, FALSE, TRUE)
  yi <- as.integer(factor(y, levels = object$levels))
  K <- length(object$levels)
  votes <- matrix(0L, nrow(res$tree_class), K)
  idx <- seq_len(nrow(votes))
  vapply(seq_len(ncol(res$tree_class)), function(t) {
    cell <- cbind(idx, res$tree_class[, t] + 1L)
    votes[cell] <<- votes[cell] + 1L
    mean(max.col(votes, ties.method = "first") != yi)
  }, 0)
}
