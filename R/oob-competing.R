#' @include oob-survival.R outcome-competing.R
NULL

# Out-of-bag results of a competing-risks forest. The tally (what combine()
# adds up) is per row the sum of its scoring out-of-bag trees' cumulative
# incidence functions (CIF) of each cause on the training event times
# (`oob_cif_sum`, n x times x causes) and their number (`oob_count`).
# Derived from it, for a fit and a combined forest alike:
# `oob_predictions` (n x causes: each cause's expected time lost to it,
# competing_years_lost(); NA rows: no tree left them out),
# `oob_concordance` (Wolbers' C of each cause, oob_wolbers_c()), `oob_ibs`
# (each cause's integrated Brier score, IPCW, integrated_brier_score()) and
# `oob_error`, 1 - the first cause's C. `oob_y` keeps the training outcome.

competing_oob_names <- c("oob_cif_sum", "oob_count", "oob_y", "oob_predictions", "oob_concordance", "oob_error",
                         "oob_ibs", "oob_unavailable")

# The out-of-bag elements of a model from its `tally` and outcome `y` (a
# competing-risks outcome as svforest() takes it, R/outcome-competing.R);
# `times`: the forest's grid (the training event times of any cause).
competing_oob_results <- function(tally, y, times = NULL) {
  parts <- competing_parts(y)
  if (is.null(times)) times <- event_times(parts$time, as.integer(parts$status != 0L))  # R/oob-survival.R
  if (!any(tally$oob_count > 0L)) return(c(tally, list(oob_y = y, oob_error = NA_real_)))
  causes <- parts$causes
  none <- tally$oob_count == 0L
  risk <- matrix(NA_real_, length(none), length(causes), dimnames = list(NULL, dimnames(tally$oob_cif_sum)[[3L]]))
  concordance <- ibs <- stats::setNames(numeric(length(causes)), causes)
  large <- length(tally$oob_cif_sum) >= 1e7  # (80 MB: 33,000 rows of 150 times and 2 causes)
  # one cause's out-of-bag CIF at the grid columns `cols` (n x cols; NA rows: no tree left them out):
  # the slice divided in place (a temporary), then shaped
  cif_columns <- function(k, cols) {
    cif <- tally$oob_cif_sum[, cols, k, drop = FALSE] / tally$oob_count
    dim(cif) <- dim(cif)[1:2]
    cif[none, ] <- NA_real_
    cif
  }
  upto <- which(times < max(times))  # the columns competing_years_lost() reads
  for (k in seq_along(causes)) {
    if (large) invisible(gc(verbose = FALSE))  # the last cause's slice is gone before this one's is made
    # one cause's expected time lost from one n x grid allocation (the columns it reads)
    cif <- cif_columns(k, upto)
    risk[, k] <- competing_years_lost(cif, times[upto], horizon = max(times))
    cif <- NULL  # released before the Brier score
    concordance[k] <- oob_wolbers_c(parts$time, parts$status, risk[, k], k, parts$entry)
    # (delayed entry: no integrated Brier score; its censoring weights assume every row at risk from
    # time 0); the Brier score reads one grid column at a time from the tally
    ibs[k] <- if (!is.null(parts$entry)) NA_real_ else integrated_brier_score(parts$time, parts$status, function(cols) 1 - cif_columns(k, cols), times,
                                     cause = k)
  }
  c(tally, list(oob_y = y, oob_predictions = risk, oob_concordance = concordance,
                oob_error = 1 - unname(concordance[1L]), oob_ibs = ibs))
}

# Each cause's expected time lost to it by `horizon`: the integral from 0
# of its CIF, a step function on `times` (0 before the first), as
# randomForestSRC's competing-risks "risk". `cif`: n x times x causes (an
# n x causes matrix back) or n x times (a vector back).
competing_years_lost <- function(cif, times, horizon = max(times)) {
  upto <- which(times < horizon)
  width <- diff(c(times[upto], horizon))
  if (length(dim(cif)) == 2L) {
    if (length(upto) < ncol(cif)) cif <- cif[, upto, drop = FALSE]  # (no copy when every column counts)
    return(as.vector(cif %*% width))
  }
  out <- vapply(seq_len(dim(cif)[3L]), function(k) as.vector(cause_slice(cif, k)[, upto, drop = FALSE] %*% width),
                numeric(dim(cif)[1L]))
  out <- matrix(out, nrow = dim(cif)[1L], ncol = dim(cif)[3L])
  colnames(out) <- dimnames(cif)[[3L]]
  out
}

# One cause's n x times matrix of an n x times x causes array (any n).
cause_slice <- function(cif, k) {
  matrix(cif[, , k], nrow = dim(cif)[1L], ncol = dim(cif)[2L], dimnames = dimnames(cif)[1:2])
}

# Wolbers' concordance of `risk` (higher: an earlier event of `cause`)
# for one cause of a competing-risks outcome (Wolbers et al. 2009): a pair
# is comparable when row i has an event of `cause` and row j is known to
# have none by i's time: j's time is later, or j's time is i's and j is
# censored then, or j had an event of another cause by i's time (it never
# has this one). Concordant when i's risk is higher; tied risks count 1/2.
# With one cause it is Harrell's C as survival::concordance() counts it.
# Rows with NA risk are left out; NA without comparable pairs. With
# `entry` (delayed entry), a pair counts only when j had entered by i's
# time (entry_j < time_i).
oob_wolbers_c <- function(time, status, risk, cause, entry = NULL) {
  keep <- !is.na(risk)
  time <- time[keep]
  status <- status[keep]
  risk <- risk[keep]
  if (!is.null(entry)) return(wolbers_c_entry(time, status, entry[keep], risk, cause))
  if (!all(is.finite(risk)) || !all(is.finite(time))) return(wolbers_c_pairwise(time, status, risk, cause))
  # the engine's Harrell's C (O(n log n)) counts pairs whose earlier time is
  # an event and the other's strictly later: on each time's dense rank r,
  # rows of the cause sit at 2r, the censored at 2r + 1 (after the events
  # of their own time, before any later time's) and rows of another cause
  # past every time, censored; the counts are those above, exactly
  rank <- match(time, sort(unique(time)))
  other <- status != 0L & status != cause
  at <- ifelse(status == 0L, 2 * rank + 1, 2 * rank)
  at[other] <- 2 * (length(time) + 1)
  .svf_harrell_c(as.double(at), as.integer(status == cause), as.double(risk))
}

# Wolbers' C under truncation: the engine's Harrell's C under truncation
# on the ranks above, each entry on the same scale (2 c + 1/2, c the number
# of distinct times at or before it: below 2 r exactly when the entry is
# before the r-th time).
wolbers_c_entry <- function(time, status, entry, risk, cause) {
  if (!all(is.finite(risk)) || !all(is.finite(time))) return(wolbers_c_pairwise(time, status, risk, cause, entry))
  if (!any(status == cause)) return(NA_real_)
  u <- sort(unique(time))
  rank <- match(time, u)
  other <- status != 0L & status != cause
  at <- ifelse(status == 0L, 2 * rank + 1, 2 * rank)
  at[other] <- 2 * (length(time) + 1)
  .svf_harrell_c_entry(as.double(at), as.integer(status == cause), 2 * findInterval(entry, u) + 0.5,
                       as.double(risk))$c
}

# The same count pair by pair (O(n^2)): rows with infinite risk or time.
wolbers_c_pairwise <- function(time, status, risk, cause, entry = NULL) {
  other <- status != 0L & status != cause
  agree <- 0
  pairs <- 0
  for (i in which(status == cause)) {
    known <- time > time[i] | (time == time[i] & status == 0L) | (other & time <= time[i])
    if (!is.null(entry)) known <- known & entry < time[i]
    pairs <- pairs + sum(known)
    agree <- agree + sum(risk[known] < risk[i]) + sum(risk[known] == risk[i]) / 2
  }
  if (pairs == 0) NA_real_ else agree / pairs
}

# combine(): the out-of-bag elements of the competing-risks forest made of
# `parts` (in tree order): their tallies added, the results derived again
# (to rounding: the sums add in another order than the whole forest's).
combine_competing_oob <- function(out, parts) {
  oob <- section_of(out, "oob")  # the model's out-of-bag section (R/section-oob.R)
  oob[intersect(competing_oob_names, names(oob))] <- NULL
  tallies <- lapply(parts, function(model) list(oob_cif_sum = model$oob_cif_sum, oob_count = model$oob_count))
  if (any(vapply(tallies, function(t) any(vapply(t, is.null, TRUE)), TRUE))) {
    oob$oob_error <- NA_real_
    oob$oob_unavailable <- "not available for the combined forest: a part holds no out-of-bag tally"
  } else {
    res <- competing_oob_results(Reduce(merge_competing_tally, tallies), parts[[1]]$oob_y, out$forest$times)
    oob[names(res)] <- res
  }
  out$oob <- new_oob_section(oob)
  out
}

# Two tallies of consecutive trees added element by element (the same
# names: the engine's, as svforest_future() merges them, or the model's).
merge_competing_tally <- function(a, b) {
  stopifnot(identical(names(a), names(b)))
  stats::setNames(Map(`+`, a, b), names(a))
}
