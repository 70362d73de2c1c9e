#' @include family-survival.R oob-survival.R
NULL

# The survival family's prediction types (help: ?predict.svforest):
# "survival" and "chf" at `times` (default: the training event times),
# "risk" (the sum of the CHF over the event times) and "time" (the mean
# survival time restricted to the largest training time). predict() without
# newdata gives the same from each training row's out-of-bag trees.

survival_prediction_types <- c("survival", "chf", "risk", "time")

for (type in survival_prediction_types) {
  register_prediction_type(type, "survival", args = if (type %in% c("survival", "chf")) "times" else character(),
                           check = if (type %in% c("survival", "chf")) function(args) list(times = check_times(args$times)),
                           hint = local({
                             own <- type
                             function(family) survival_type_hint(own, family)
                           }),
                           run = local({
                             own <- type
                             function(object, newdata, args, num_threads) {
                               survival_from_grid(object, survival_chf_grid(object, newdata, num_threads), own,
                                                  args$times)
                             }
                           }))
}
rm(type)

survival_type_hint <- function(type, family) {
  stop(sprintf("`type = \"%s\"` is for survival forests (a survival::Surv outcome); this forest's outcome is %s.",
               type, svf_registry$families[[family]]$describe), call. = FALSE)
}

# `times` of predict(): NULL (the training event times) or numbers >= 0,
# finite, in any order (the columns follow them).
check_times <- function(times) {
  if (is.null(times)) return(NULL)
  if (!is.numeric(times) || is.factor(times) || !length(times)) {
    stop(sprintf("`times` must be numbers (times >= 0), not %s.", describe(times)), call. = FALSE)
  }
  if (anyNA(times)) stop(sprintf("`times` has %d missing values.", sum(is.na(times))), call. = FALSE)
  if (any(!is.finite(times)) || any(times < 0)) stop("`times` must be finite and >= 0.", call. = FALSE)
  as.double(times)
}

# The forest's CHF of the rows of `newdata` on its event times (n x times),
# in chunks of rows (predict_chunk_rows()).
survival_chf_grid <- function(object, newdata, num_threads) {
  n <- NROW(newdata)
  chunk <- predict_chunk_rows(object)
  starts <- if (n > 0) seq(1, n, by = chunk) else 1
  grids <- lapply(starts, function(start) {
    rows <- if (n > chunk) slice_rows(newdata, start:min(n, start + chunk - 1)) else newdata
    survival_engine_chf(object$forest, new_engine_data(object, rows), num_threads)
  })
  do.call(rbind, grids)
}

# The prediction of `type` from CHF rows `grid` on the forest's event times.
survival_from_grid <- function(object, grid, type, times) {
  event <- object$forest$times
  if (type == "risk") return(rowSums(grid))
  if (type == "time") {
    # the area under the step function exp(-CHF) from 0 to the largest training time
    widths <- diff(c(event, object$survival$time_max))
    return(as.vector(event[1L] + exp(-grid) %*% widths))
  }
  if (is.null(times)) times <- event
  chf <- cbind(matrix(0, nrow(grid), 1L), grid)[, findInterval(times, event) + 1L, drop = FALSE]
  dimnames(chf) <- list(NULL, as.character(times))
  if (type == "survival") exp(-chf) else chf
}

# predict(fit) without newdata: each training row's prediction from its
# out-of-bag trees (NA for a row no tree left out).
predict_survival_oob <- function(object, type, args) {
  if (is.null(object$oob_chf_sum)) {
    stop("This model holds no out-of-bag results (e.g. a combined forest whose parts hold none); give `newdata`.",
         call. = FALSE)
  }
  survival_from_grid(object, survival_oob_grid(survival_oob_tally(object)), type, args$times)
}
