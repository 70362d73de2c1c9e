#' @include family.R
NULL

# Predictions of the forests of trees of the classification and regression
# families (R/family-classification.R, R/family-regression.R register their
# types with these): the engine's predictions in chunks of rows.

# The types every family with a forest of trees predicts: each tree's leaf
# and prediction, and the local explanations of linear leaves (R/importance.R).
register_prediction_type("leaf", c("classification", "regression"), function(object, newdata, args, num_threads) {
  predict_chunked(object, newdata, "leaf", num_threads)
})
register_prediction_type("trees", c("classification", "regression"), function(object, newdata, args, num_threads) {
  predict_chunked(object, newdata, "trees", num_threads)
})
register_prediction_type("local", c("classification", "regression"), function(object, newdata, args, num_threads) {
  predict_local(object, newdata, num_threads)
})

# Prediction of `type` in chunks of rows.
predict_chunked <- function(object, newdata, type, num_threads) {
  n <- NROW(newdata)
  lev <- object$levels
  K <- length(lev)
  ntree <- length(object$forest$trees)
  # Rows go through in chunks, so the intermediate copies (model frame, design
  # matrix, finiteness checks, engine buffers) are bounded by the chunk, not
  # by n. Only the result itself is allocated for all rows.
  chunk <- predict_chunk_rows(object)
  if (!is.data.frame(newdata) && !is.matrix(newdata) && !inherits(newdata, "Matrix")) chunk <- Inf
  if (n <= chunk) return(predict_rows(object, newdata, type, num_threads))
  out <- switch(type,
    class = integer(n),
    response = double(n),
    prob = matrix(0, n, K, dimnames = list(NULL, lev)),
    votes = matrix(0L, n, K, dimnames = list(NULL, lev)),
    leaf = matrix(0L, n, ntree),
    trees = if (K == 0) matrix(0, n, ntree) else structure(matrix(0L, n, ntree), levels = lev))
  for (start in seq(1, n, by = chunk)) {
    idx <- start:min(n, start + chunk - 1)
    res <- predict_rows(object, slice_rows(newdata, idx), type, num_threads)
    if (type == "class") out[idx] <- as.integer(res)
    else if (type == "response") out[idx] <- res
    else out[idx, ] <- res
    # The chunk's copies are garbage now. Next to a large newdata, R would
    # let such garbage grow to about the size of newdata before collecting
    # it; a young-generation collection per chunk is cheap and keeps the
    # peak at one chunk.
    rm(res)
    gc(verbose = FALSE, full = FALSE)
  }
  if (type == "class") out <- factor(lev[out], levels = lev)
  out
}

# Prediction of one chunk of rows.
predict_rows <- function(object, newdata, type, num_threads) {
  data <- new_engine_data(object, newdata)
  regression <- identical(object$type, "regression")
  # the class by the model's aggregation, decided in the engine (R/aggregation.R)
  outputs <- switch(type, leaf = , leaf0 = "leaves", trees = if (regression) "tree_values" else "tree_class",
                    class = "class", character())
  res <- .svf_predict(object$forest, data, num_threads, list(outputs = outputs, aggregation = object$params$aggregation))
  lev <- object$levels
  switch(type,
    trees = if (regression) res$tree_values * object$outcome_scale + object$outcome_center
            else structure(res$tree_class + 1L, levels = lev),
    # internal (R/uncertainty.R): the leaves, 0-based, with the predictions as attribute "fit"
    leaf0 = structure(res$leaves, fit = res$prob[, 1] * object$outcome_scale + object$outcome_center),
    response = res$prob[, 1] * object$outcome_scale + object$outcome_center,
    class = factor(lev[res$class + 1L], levels = lev),
    prob = {
      colnames(res$prob) <- lev
      stage_probabilities(object, res$prob)  # e.g. calibration (R/stages.R)
    },
    votes = {
      colnames(res$votes) <- lev
      res$votes
    },
    leaf = res$leaves + 1L
  )
}

# Rows per chunk: about 2^22 values of newdata (32 MB as doubles), at least
# 1024 rows. Option `svforest.predict_chunk_rows` overrides it.
predict_chunk_rows <- function(object) {
  opt <- getOption("svforest.predict_chunk_rows")
  if (!is.null(opt)) return(check_count(opt, "options(svforest.predict_chunk_rows)", 1))
  max(1024, floor(2^22 / max(1, object$forest$num_features)))
}

# Rows `idx` of a data frame, matrix or Matrix, keeping column types.
slice_rows <- function(x, idx) {
  if (is.data.frame(x)) {
    cols <- lapply(x, function(col) if (is.null(dim(col))) col[idx] else col[idx, , drop = FALSE])
    return(structure(cols, names = names(x), row.names = .set_row_names(length(idx)),
                     class = "data.frame"))
  }
  x[idx, , drop = FALSE]
}
