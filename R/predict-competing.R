#' @include family-competing.R predict-survival.R
NULL

# The competing-risks family's prediction types (help: ?svforest_competing):
# "cif" and "chf" per cause at `times` (an n x times x causes array, or a
# matrix for one `cause`), "survival" (event-free, n x times), "risk" (each
# cause's expected time lost up to the last training event time) and
# "leaf". predict() without newdata gives the same from each training row's
# out-of-bag trees (their CIFs; no hazards).

competing_prediction_types <- c("cif", "chf", "survival", "risk")

for (type in competing_prediction_types) {
  register_prediction_type(type, "competing", args = c(if (type != "risk") "times", if (type != "survival") "cause"),
                           check = function(args) {
                             if ("times" %in% names(args)) args$times <- check_times(args$times)
                             args
                           },
                           hint = if (type == "cif") function(family) competing_type_hint(family) else NULL,
                           run = local({
                             own <- type
                             function(object, newdata, args, num_threads) {
                               competing_from_curves(object, competing_curves(object, newdata, num_threads), own,
                                                     args)
                             }
                           }))
}
rm(type)

register_prediction_type("leaf", "competing", function(object, newdata, args, num_threads) {
  survival_leaves(object, newdata, num_threads) + 1L  # R/predict-survival.R: the engine's leaves, any step forest
})

competing_type_hint <- function(family) {
  stop(sprintf("`type = \"cif\"` is for competing-risks forests (Surv(time, event) with an event factor); this forest's outcome is %s.",
               svf_registry$families[[family]]$describe), call. = FALSE)
}

# The forest's CIF and CHF (list(cif, chf), each n x times x causes) of
# engine data `data` on its event times.
competing_engine_curves <- function(forest, data, num_threads) {
  res <- .svf_predict(forest, data, as.integer(num_threads), list())
  list(cif = res$cif, chf = res$chf)
}

# The curves of the rows of `newdata`, predicted in chunks of rows (as
# survival_by_chunks()). Each curve's chunks are stacked on their own, one
# chunk's kept as the engine gives it: no side-by-side copy of both curves.
competing_curves <- function(object, newdata, num_threads) {
  f <- object$forest
  dims <- c(length(f$times), f$num_causes)
  n <- NROW(newdata)
  chunk <- predict_chunk_rows(object)
  parts <- lapply(if (n > 0) seq(1, n, by = chunk) else 1, function(start) {
    rows <- if (n > chunk) slice_rows(newdata, start:min(n, start + chunk - 1)) else newdata
    competing_engine_curves(f, new_engine_data(object, rows), num_threads)
  })
  stack <- function(curve) {
    v <- if (length(parts) == 1L) as.vector(parts[[1L]][[curve]]) else
      do.call(rbind, lapply(parts, function(p) matrix(p[[curve]], ncol = prod(dims))))
    dim(v) <- c(length(v) / prod(dims), dims)  # 0 rows too
    v
  }
  cif <- stack("cif")
  list(cif = cif, chf = stack("chf"))
}

# The prediction of `type` from curves (list(cif, chf): n x grid x causes
# arrays on the forest's event times; chf NULL out of bag) at args$times for
# args$cause.
competing_from_curves <- function(object, curves, type, args) {
  causes <- object$competing$causes
  cause <- if (is.null(args$cause)) NULL else competing_cause_index(args$cause, causes)
  grid <- object$forest$times
  if (type == "risk") {
    cif <- curves$cif
    dimnames(cif) <- list(NULL, NULL, causes)
    risk <- competing_years_lost(cif, grid)  # R/oob-competing.R
    return(if (is.null(cause)) risk else as.vector(risk[, cause]))  # unnamed for one row too
  }
  times <- survival_times_asked(object, args$times)  # R/predict-survival.R: a warning past the last event time
  at <- findInterval(times, grid) + 1L
  step <- function(m, start) cbind(matrix(start, nrow(m), 1L), m)[, at, drop = FALSE]
  slice <- function(a, k) matrix(a[, , k], nrow = dim(a)[1L], ncol = dim(a)[2L])
  if (type == "survival") {
    total <- Reduce(`+`, lapply(seq_along(causes), function(k) slice(curves$cif, k)))
    out <- 1 - step(total, 0)
    dimnames(out) <- list(NULL, as.character(times))
    return(structure(out, times = times))
  }
  curve <- if (type == "cif") curves$cif else curves$chf
  if (is.null(curve)) {
    stop(sprintf("`type = \"%s\"` has no out-of-bag version (the out-of-bag tally holds incidences); give `newdata`.",
                 type), call. = FALSE)
  }
  if (!is.null(cause)) {
    out <- step(slice(curve, cause), 0)
    dimnames(out) <- list(NULL, as.character(times))
    return(structure(out, times = times))
  }
  out <- array(0, c(dim(curve)[1L], length(times), length(causes)), dimnames = list(NULL, as.character(times), causes))
  for (k in seq_along(causes)) out[, , k] <- step(slice(curve, k), 0)
  structure(out, times = times)
}

# predict(fit) without newdata: each training row's out-of-bag prediction
# (NA for a row no tree left out).
predict_competing_oob <- function(object, type, args) {
  if (is.null(object$oob_cif_sum)) {
    stop("This model holds no out-of-bag results (e.g. a combined forest whose parts hold none); give `newdata`.",
         call. = FALSE)
  }
  cif <- object$oob_cif_sum / as.vector(object$oob_count)
  cif[object$oob_count == 0L, , ] <- NA_real_
  competing_from_curves(object, list(cif = cif, chf = NULL), type, args)
}

# 1 - Wolbers' C of the first cause on labelled rows (`y` a competing-risks
# outcome) after 1, 2, ... trees (plot()'s error curve), by the engine's
# count: Harrell's C once rows of another cause are moved past every time.
competing_error_curve <- function(object, newdata, y) {
  if (!isTRUE(is_competing_outcome(y)) || NROW(y) != NROW(newdata)) {
    stop(sprintf(paste("`y` must be a competing-risks outcome (Surv(time, event) with an event factor), one per row",
                       "of `newdata` (%d), not %s."), NROW(newdata), describe(y)), call. = FALSE)
  }
  parts <- competing_new_outcome(object, y)  # R/outcome-competing.R: the model's codes of the causes
  time <- ifelse(parts$status > 1L, 2 * max(parts$time) + 1, parts$time)
  status <- as.integer(parts$status == 1L)
  f <- object$forest
  leaves <- survival_leaves(object, newdata, 1L)
  risk <- vapply(seq_along(f$trees), function(t) competing_leaf_time_lost(f, f$trees[[t]])[leaves[, t] + 1L],
                 numeric(nrow(leaves)))
  mean_risk <- t(apply(matrix(risk, nrow = nrow(leaves)), 1, cumsum)) / rep(seq_along(f$trees), each = nrow(leaves))
  if (length(f$trees) == 1L) mean_risk <- matrix(risk, ncol = 1L)
  concordance <- function(risk) {  # with delayed entry, over the pairs comparable under truncation
    if (is.null(parts$entry)) harrell_concordance(time, status, risk) else oob_wolbers_c(parts$time, parts$status, risk, 1L, parts$entry)
  }
  structure(vapply(seq_along(f$trees), function(k) 1 - concordance(mean_risk[, k]), 0),
            label = sprintf("1 - Wolbers' C (%s) on newdata", object$competing$causes[1L]))
}

# Each leaf's expected time lost to the first cause (its CIF integrated
# over the grid to its last time).
competing_leaf_time_lost <- function(forest, tr) {
  grid <- forest$times
  vapply(tree_describe(forest, tr, "leaf", seq_len(tree_n_leaves(tr))), function(leaf) {
    cif <- c(0, matrix(as.vector(leaf$cif), nrow = forest$num_causes)[1L, ])
    curve <- cif[findInterval(seq_along(grid), as.vector(leaf$time_index) + 1L) + 1L]
    sum(curve[-length(curve)] * diff(grid))
  }, 0)
}

# plot()'s held-out curve with the x/y form of the outcome (a data frame of
# the time and the event factor), as svforest(x, y) takes it.
held_out_curve.data.frame <- function(y, object, newdata) {
  if (is.null(object$competing)) return(NextMethod())
  competing_error_curve(object, newdata, y)
}
