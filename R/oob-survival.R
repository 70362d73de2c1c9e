#' @include family-survival.R
NULL

# Out-of-bag results of a survival forest. The tally (what combine() adds
# up) is per row the sum of its scoring out-of-bag trees' cumulative hazards
# on the forest's curve grid (`oob_chf_sum`, n x times: at most `ntime`
# columns, so it grows linearly with rows) and their number
# (`oob_count`). Derived from it, for a fit and a combined forest alike:
# `oob_predictions` (each row's out-of-bag risk, the sum of its CHF over
# the grid times; NA for a row no tree left out), `oob_concordance`
# (Harrell's C of that risk, as survival::concordance() computes it),
# `oob_error` (1 - C) and `oob_ibs` (the integrated Brier score, IPCW, see
# integrated_brier_score()). `oob_y` keeps the training outcome they score.

survival_oob_names <- c("oob_chf_sum", "oob_count", "oob_y", "oob_predictions", "oob_concordance", "oob_error",
                        "oob_ibs", "oob_unavailable")

# The out-of-bag elements of a model from its `tally` and outcome `y`.
# `times`: the forest's curve grid (the tally's columns; NULL: every event
# time, as a forest of `ntime = Inf`).
survival_oob_results <- function(tally, y, times = NULL) {
  grid <- survival_oob_grid(tally)
  if (!any(tally$oob_count > 0L)) return(c(tally, list(oob_y = y, oob_error = NA_real_)))
  risk <- rowSums(grid)
  c_index <- oob_harrell_c(y, risk)
  time <- survival_time(y)
  status <- survival_status(y)
  if (is.null(times)) times <- event_times(time, status)
  # (delayed entry: no integrated Brier score; its censoring weights assume every row at risk from time 0)
  ibs <- if (survival_counting(y)) NA_real_
         else integrated_brier_score(time, status, function(cols) exp(-grid[, cols, drop = FALSE]), times)
  c(tally, list(oob_y = y, oob_predictions = risk, oob_concordance = c_index, oob_error = 1 - c_index,
                oob_ibs = ibs))
}

# Each row's out-of-bag CHF on the event times (NA rows: no tree left it out).
survival_oob_grid <- function(tally) {
  grid <- tally$oob_chf_sum / tally$oob_count
  grid[tally$oob_count == 0L, ] <- NA_real_
  grid
}

# The distinct event times, increasing (the engine's grid, outcome/SurvivalTable.h).
event_times <- function(time, status) sort(unique(time[status == 1L]))

# Harrell's C of `risk` (higher: earlier event) over the rows with a risk,
# as survival::concordance() counts it (tied risks count 1/2, pairs tied
# in time are not compared); NA without comparable pairs.
oob_harrell_c <- function(y, risk) {
  keep <- !is.na(risk)
  if (sum(keep) < 2) return(NA_real_)
  y <- y[keep]
  risk <- risk[keep]
  res <- tryCatch(survival::concordance(y ~ risk, reverse = TRUE), error = function(e) NULL)
  if (is.null(res) || !is.finite(res$concordance)) NA_real_ else unname(res$concordance)
}

# The Kaplan-Meier estimate of the censoring distribution G (case weights
# `weights` or NULL), as survival::survfit() computes it: G just after each
# time of `time` (`surv`). The out-of-bag Brier score and parsnip's
# censoring weights (R/parsnip-censored.R) read it with censoring_at().
censoring_km <- function(time, status, weights = NULL) {
  km <- survival::survfit(survival::Surv(time, as.integer(status == 0L)) ~ 1, weights = weights)
  list(time = km$time, surv = km$surv)
}

# G at `t` (`before`: just before t).
censoring_at <- function(km, t, before = FALSE) c(1, km$surv)[findInterval(t, km$time, left.open = before) + 1L]

# The Brier scores at times `at` of the probabilities `surv` of being free
# of `cause` (rows as `time`, `status` (0 censored, else the row's cause);
# one column per time of `at`, or a function of k giving column k) with inverse probability of censoring
# weights (Graf et al. 1999; with competing risks, Gerds and Schumacher's
# form), G the Kaplan-Meier estimate of the censoring (`km`): the mean over
# rows of S(t)^2 / G(T-) for an event of `cause` by t, (1 - S(t))^2 / G(T-)
# for an event of another cause by t (it will never have this one),
# (1 - S(t))^2 / G(t) for a row still at risk after t, and 0 for a row
# censored by t. A survival outcome has one cause: S is its survival.
ipcw_brier <- function(time, status, surv, at, km = censoring_km(time, status), cause = 1L) {
  g_event <- censoring_at(km, time, before = TRUE)
  vapply(seq_along(at), function(k) {
    t <- at[k]
    s <- if (is.function(surv)) surv(k) else surv[, k]
    ended <- time <= t & status != 0L & g_event > 0
    died <- ended & status == cause
    other <- ended & status != cause
    alive <- time > t
    g_t <- censoring_at(km, t)
    (sum(s[died]^2 / g_event[died]) + sum((1 - s[other])^2 / g_event[other])) / length(s) +
      if (g_t > 0) sum((1 - s[alive])^2) / g_t / length(s) else 0
  }, 0)
}

# The integrated Brier score of survival curves `surv` (rows as `time`,
# `status`; columns at the event times `grid`; with competing risks the
# probabilities of being free of `cause`): ipcw_brier() at each event time
# up to the 75th percentile of the event times (of any cause; G from every
# row), averaged over [first, last] of those times by the trapezoidal
# rule. Rows with NA curves are left out. `surv` may be a function of
# column numbers giving those columns (the out-of-bag curves of many rows:
# only the columns scored are made, one at a time: never rows x columns).
integrated_brier_score <- function(time, status, surv, grid, cause = 1L) {
  columns <- if (is.function(surv)) surv else function(cols) surv[, cols, drop = FALSE]
  keep <- !is.na(columns(1L)[, 1L])
  if (!any(keep)) return(NA_real_)
  km <- censoring_km(time, status)
  cols <- which(grid <= stats::quantile(time[status != 0L], 0.75, names = FALSE))
  curves <- if (!is.function(surv)) columns(cols)[keep, , drop = FALSE] else function(k) columns(cols[k])[keep, 1L]
  scores <- ipcw_brier(time[keep], status[keep], curves, grid[cols], km, cause)
  if (length(scores) == 1L) return(scores)
  t <- grid[cols]
  sum(diff(t) * (scores[-1L] + scores[-length(scores)]) / 2) / (t[length(t)] - t[1L])
}

# combine(): the out-of-bag elements of the survival forest made of `parts`
# (in tree order): their tallies added, the results derived again. The sums
# of cumulative hazards add in another order than the whole forest's, so
# they agree with it to rounding (about 1e-15 relative), not bit for bit.
combine_survival_oob <- function(out, parts) {
  oob <- section_of(out, "oob")  # the model's out-of-bag section (R/section-oob.R)
  oob[intersect(survival_oob_names, names(oob))] <- NULL
  tallies <- lapply(parts, survival_oob_tally)
  if (any(vapply(tallies, function(t) any(vapply(t, is.null, TRUE)), TRUE))) {
    oob$oob_error <- NA_real_
    oob$oob_unavailable <- "not available for the combined forest: a part holds no out-of-bag tally"
  } else {
    tally <- Reduce(function(a, b) list(oob_chf_sum = a$oob_chf_sum + b$oob_chf_sum,
                                        oob_count = a$oob_count + b$oob_count), tallies)
    res <- survival_oob_results(tally, parts[[1]]$oob_y, out$forest$times)
    oob[names(res)] <- res
  }
  out$oob <- new_oob_section(oob)
  out
}

# A survival model's out-of-bag tally (NULL elements when it holds none).
survival_oob_tally <- function(model) list(oob_chf_sum = model$oob_chf_sum, oob_count = model$oob_count)

# svforest_future(): the engine tallies of consecutive trees merged (risk
# sums: what the growth rule reads, .svf_more_trees_help).
merge_survival_tally <- function(a, b) {
  list(chf_sum = a$chf_sum + b$chf_sum, risk_sum = a$risk_sum + b$risk_sum, count = a$count + b$count,
       times = a$times)
}
