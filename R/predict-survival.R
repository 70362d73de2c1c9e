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

# Each tree's leaf (numbered from 1 as in svforest_tree()'s `leaf` column) and
# each tree's survival curves, as for the other forests (ranger's
# `type = "terminalNodes"` and `predict.all`).
register_prediction_type("leaf", "survival", function(object, newdata, args, num_threads) {
  survival_leaves(object, newdata, num_threads) + 1L
})
register_prediction_type("trees", "survival", args = "times",
                         check = function(args) list(times = check_times(args$times)),
                         run = function(object, newdata, args, num_threads) {
                           survival_tree_curves(object, survival_leaves(object, newdata, num_threads), args$times)
                         })

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

# The forest's CHF of the rows of `newdata` on its event times (n x times).
survival_chf_grid <- function(object, newdata, num_threads) {
  f <- object$forest
  survival_by_chunks(object, newdata, function(data) {
    survival_engine_chf(f, data, num_threads)
  })
}

# `run(data)` on the engine data of the rows of `newdata`, in chunks of rows
# (predict_chunk_rows()), its matrices bound by rows.
survival_by_chunks <- function(object, newdata, run) {
  n <- NROW(newdata)
  chunk <- predict_chunk_rows(object)
  starts <- if (n > 0) seq(1, n, by = chunk) else 1
  parts <- lapply(starts, function(start) {
    rows <- if (n > chunk) slice_rows(newdata, start:min(n, start + chunk - 1)) else newdata
    run(new_engine_data(object, rows))
  })
  do.call(rbind, parts)
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
  times <- survival_times_asked(object, times)
  chf <- cbind(matrix(0, nrow(grid), 1L), grid)[, findInterval(times, event) + 1L, drop = FALSE]
  dimnames(chf) <- list(NULL, as.character(times))
  # the time grid beside the matrix (ranger's `unique.death.times`)
  attr(chf, "times") <- times
  if (type == "survival") exp(-chf) else chf
}

# predict()'s `times` (NULL: the training event times), with one warning
# when some lie past the last training event time, where every curve is flat.
survival_times_asked <- function(object, times) {
  event <- object$forest$times
  if (is.null(times)) return(event)
  last <- event[length(event)]
  if (any(times > last)) {
    warning(sprintf("%d of `times` (up to %s) lie past the last training event time (%s): the curves are flat there, at their value at %s, which says nothing about later events.",
                    sum(times > last), format(max(times)), format(last), format(last)), call. = FALSE)
  }
  times
}

# The leaf (from 0) of every row of `newdata` in every tree (n x ntree).
survival_leaves <- function(object, newdata, num_threads) {
  f <- object$forest
  survival_by_chunks(object, newdata, function(data) {
    .svf_predict(f, data, as.integer(num_threads), list(outputs = "leaves"))$leaves
  })
}

# Each tree's survival curves at `times`: n x length(times) x ntree (ranger's
# `predict.all = TRUE`), from the leaves `leaves` (0-based, n x ntree). Their
# cumulative hazards average to the forest's.
survival_tree_curves <- function(object, leaves, times) {
  f <- object$forest
  times <- survival_times_asked(object, times)
  at <- findInterval(times, f$times)  # grid positions (0: before the first event time)
  out <- array(0, c(nrow(leaves), length(times), ncol(leaves)),
               dimnames = list(NULL, as.character(times), NULL))
  for (t in seq_len(ncol(leaves))) {
    chf <- survival_leaf_chf(f, f$trees[[t]], at)
    out[, , t] <- exp(-chf[leaves[, t] + 1L, , drop = FALSE])
  }
  attr(out, "times") <- times
  out
}

# The CHF of every leaf of tree `tr` (leaves x length(at)) at grid positions
# `at` (1: the first event time, 0: before it): each leaf's last step at or
# before the position.
survival_leaf_chf <- function(forest, tr, at) {
  steps <- tree_describe(forest, tr, "leaf", seq_len(tree_n_leaves(tr)))
  chf <- vapply(steps, function(leaf) {
    c(0, as.vector(leaf$cumulative_hazard))[findInterval(at - 1L, as.vector(leaf$time_index)) + 1L]
  }, numeric(length(at)))
  t(matrix(chf, nrow = length(at)))
}

# 1 - Harrell's C of the forest's risk on labelled rows (`y` a Surv) after
# 1, 2, ... trees (plot()'s error curve).
held_out_curve.Surv <- function(y, object, newdata) {
  if (!is.null(object$competing)) return(competing_error_curve(object, newdata, y))  # R/predict-competing.R
  structure(survival_error_curve(object, newdata, y), label = "1 - Harrell's C on newdata")
}

survival_error_curve <- function(object, newdata, y) {
  if (!inherits(y, "Surv") || NROW(y) != NROW(newdata) || anyNA(y)) {
    stop(sprintf("`y` must be a survival::Surv outcome without missing values, one per row of `newdata` (%d), not %s.",
                 NROW(newdata), describe(y)), call. = FALSE)
  }
  f <- object$forest
  leaves <- survival_leaves(object, newdata, 1L)
  grid <- seq_along(f$times)
  risk <- vapply(seq_along(f$trees), function(t) rowSums(survival_leaf_chf(f, f$trees[[t]], grid))[leaves[, t] + 1L],
                 numeric(nrow(leaves)))
  risk <- matrix(risk, nrow = nrow(leaves))
  mean_risk <- t(apply(risk, 1, cumsum))
  if (ncol(risk) == 1L) mean_risk <- t(mean_risk)
  vapply(seq_len(ncol(risk)), function(k) 1 - oob_harrell_c(y, mean_risk[, k] / k), 0)
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
