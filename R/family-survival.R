#' @include family.R engine-survival.R
NULL

#' Survival forests
#'
#' A right-censored `survival::Surv(time, status)` outcome in [svforest()]
#' fits a survival forest; a counting-process `Surv(entry, exit, event)`
#' one with delayed entry, and `id` keeps a subject's rows together.
#'
#' @section Survival outcomes:
#' `svforest(Surv(time, status) ~ ., data)` or `svforest(x, y = Surv(time,
#' status))` fits the default forest, method `"hybrid"`, on a right-censored
#' outcome: times positive and finite, status 0 (censored) or 1 (event),
#' given as 0/1, logical or 1/2 (as [survival::Surv()] reads it), tied times
#' allowed, at least one event (a time of 0 is an error: give an event on
#' the day of entry a small positive time). A numeric status of three or more
#' values (0/1/2) codes competing risks: give it as an event factor whose
#' first level is censoring ([svforest_competing]); in a formula's
#' `Surv(time, status)` it is an error that shows the factor.
#' Left- and interval-censored `Surv`
#' objects, other methods, and the parameters `splitter` and `leaf` are
#' errors. Trees on 63.2% of the rows, drawn without replacement, are grown to nodes of 20 rows
#' holding at least the square root of the training events E (above 1,024 events, 32 (E / 1024)^(1/8):
#' the square root makes large data's nodes too coarse; a node with fewer is a leaf): at
#' each node the best log-rank axis cut among `mtry` predictors (above 1,024 events `ceiling(sqrt(p))`) competes with
#' a ridge hyperplane fitted to the node's martingale residuals, kept where it
#' also separates the node's choosing out-of-bag rows better; each tree keeps
#' the best (by Harrell's C on those rows) of that structure and two grown
#' on the same sample, one with axis cuts alone and one that keeps every
#' hyperplane winning in-bag. Leaves hold the Nelson-Aalen cumulative hazard of their
#' in-bag rows on the forest's curve grid (`ntime`: at most 150 of the training event times by
#' default, at their quantiles, `ntime = Inf` every one; exact at each grid time; splits read
#' the rows' own times); the forest's cumulative hazard
#' (CHF) is the trees' average and its survival `exp(-CHF)`. The
#' parameters are the default method's, with a survival forest's own defaults
#' where you give none (`ntree`, `sampler`, `min_node_size`, `min_leaf_size`:
#' the rows a log-rank cut leaves on either side), and its own knobs
#' `min_node_events`, `tree_rival` and `oblique_fit`: each with its survival
#' default on [svforest_parameters], tuned by the censored regression
#' engine of parsnip ([svforest_dials]). `mtry`, `oblique_mtry`,
#' `n_oblique`, `split_ridge`, `oblique_rows`, `oblique_choice`,
#' `tree_choice`, `max_depth`, `max_bins`, `sample_fraction`, `scale` and
#' `factor_coding` act as for the default method;
#' with `ntree_max` the forest grows by out-of-bag error (1 - Harrell's C),
#' as the other outcomes do.
#' Data frames with factors and missing predictor values go through the
#' default's design ([svforest_missing_values]); a factor held as level
#' codes (over 10 levels, `factor_coding = "auto"`) is coded per tree: each
#' tree orders its levels by the mean martingale score of the tree's in-bag
#' rows of each level (one Nelson-Aalen hazard per tree, not per node), so
#' out-of-bag rows never shape the values they are scored with. `case_weights` reweight the trees' draw, as ranger's
#' `case.weights`: the subsample takes its 63.2% of distinct rows without
#' replacement, each row in proportion to its weight, so nodes and leaves
#' count distinct rows and weights do not change the trees' size
#' (`sampler = "bootstrap"` draws with replacement by weight, a row drawn
#' twice counting twice, as in ranger); `min_node_events` counts events
#' unweighted. `class_weights` and `calibrate` do not apply.
#'
#' Predictions ([predict.svforest()]): `type = "survival"` (the default) and
#' `"chf"` give an n x `length(times)` matrix with the times as attribute
#' `times` (ranger's `unique.death.times` for the default times, the
#' grid times). `"risk"` is the sum of the CHF over
#' the grid times, `sum(predict(fit, x, type = "chf"))` row by
#' row (ranger's and randomSurvivalForest's mortality, the expected number
#' of events over the training times): higher means an earlier event; it is
#' a ranking score for concordance indices, not a probability. aorsf's risk
#' at a horizon `h` is the probability of an event by `h`, `1 - S(h)`:
#' `1 - predict(fit, x, type = "survival", times = h)[, 1]`. `"time"` is the
#' mean survival time restricted to the largest training time (the area
#' under the survival curve from 0 to that time). A time before the first
#' event time gets survival 1, one after the last event time the curve's
#' last value, with a warning (the forest knows nothing after it).
#' `"leaf"` gives each tree's leaf (the `leaf` column of [svforest_tree()]),
#' `"trees"` each tree's survival curves (n x times x ntree, as ranger's
#' `predict.all`). `predict(fit)` without `newdata` gives each training row's
#' out-of-bag prediction (`NA` for a row no tree left out; rows of case
#' weight 0 are not in the model).
#'
#' Out of bag, every fit holds the tally [combine()] adds up
#' (`oob_chf_sum`, each row's CHF summed over its out-of-bag trees that
#' score it, and their number `oob_count`) and, derived from it,
#' `oob_predictions` (the out-of-bag risk), `oob_concordance` (Harrell's C of
#' that risk, as `survival::concordance(y ~ risk, reverse = TRUE)` computes
#' it), `oob_error` (1 - C) and `oob_ibs`, the integrated Brier score: at
#' each grid time (the forest's times) up to the 75th percentile of the event
#' times, the Brier score with inverse probability of censoring weights
#' (Graf et al. 1999; the censoring distribution by Kaplan-Meier of the
#' training rows), averaged over that span by the trapezoidal rule; rows
#' count equally (case weights act on the trees' samples).
#' [print()] and [summary()] show both. A combined forest (or one grown by
#' [svforest_future()] in several chunks) adds the sums in another order:
#' its out-of-bag results agree with the whole forest's to rounding.
#'
#' Permutation importance: `importance = "permutation"` at fit time gives
#' each predictor's mean over trees of the drop in the tree's Harrell's C on
#' its out-of-bag rows when the predictor is permuted among them;
#' `svforest_importance(fit, data)` the drop in the forest's Harrell's C on
#' rows you give. `type = "coefficients"` reads the hyperplanes.
#'
#' @section Delayed entry and subjects:
#' `svforest(Surv(entry, exit, event) ~ ., data)` fits a survival forest
#' with delayed entry (left truncation), e.g. a cohort on the age time scale
#' (`entry` the age at recruitment) or follow-up that starts after
#' diagnosis: a row is at risk at time `t` when `entry < t <= exit`. That
#' risk set enters everything the forest computes from the outcome: the
#' log-rank statistic of the axis cuts, the martingale residuals
#' `event - (H(exit) - H(entry))` (and the Cox step) the hyperplanes are
#' fitted to, the Nelson-Aalen leaves (a forest of one-leaf trees on every
#' row gives `survfit(Surv(entry, exit, event) ~ 1, ctype = 1)`) and the
#' out-of-bag Harrell's C, over the pairs whose later row had entered by
#' the earlier event (as `survival::concordance()` counts them). As with
#' `survfit()` and `coxph()`, S(t | x) is the product of the conditional
#' survival over the event times, so rows entering late inform only the
#' later times. Entries may be any finite numbers below the exits (the
#' exits positive); `Surv()` makes an entry at or after its exit missing,
#' which is an error here. The time grid (`ntime`) is placed at the event
#' times' quantiles as for right-censored outcomes. Not available with
#' delayed entry: the out-of-bag integrated Brier score (`oob_ibs` is `NA`).
#' An event factor in `Surv(entry, exit, event)` fits a competing-risks
#' forest with delayed entry ([svforest_competing]). Permutation importance reads Harrell's C over the comparable
#' pairs, at fit time and in [svforest_importance()].
#'
#' `id`: a vector of subject ids, one per row (in the formula method also
#' the name of a column of `data`, which `.` then leaves out of the predictors), for several rows per subject
#' (time-varying covariates, split follow-up, repeated episodes): each tree
#' draws subjects (`sample_fraction` of them, with replacement for
#' `sampler = "bootstrap"`), and every row of a drawn subject goes in, so
#' out-of-bag rows are whole subjects and the out-of-bag figures stay
#' honest. A subject's rows `(entry, exit]` must not overlap; `id` takes
#' no `case_weights`, nor `importance = "permutation"` at fit time (use
#' [svforest_importance()] on rows you give). Prediction reads each row's covariates as usual;
#' without `id` rows are drawn one by one.
#' @name svforest_survival
#' @seealso [predict.svforest()] (section "Scoring new data").
#' @examples
#' if (requireNamespace("survival", quietly = TRUE)) {
#'   library(survival)
#'   fit <- svforest(Surv(time, status) ~ ., data = lung, ntree = 20, seed = 1, num_threads = 1)
#'   print(fit)
#'   predict(fit, na.omit(lung)[1:3, ], type = "survival", times = c(180, 365))
#' }
NULL


# The survival family: a right-censored `survival::Surv(time, status)`
# outcome, fitted by the engine's survival forest (R/engine-survival.R):
# the default method's hybrid splitter with log-rank criteria and
# Nelson-Aalen leaves on the grid of training event times. Its parameters
# are the default's regression ones (one parameter source), its predictions
# survival curves, cumulative hazards, risks and restricted mean times
# (R/predict-survival.R), its out-of-bag results Harrell's C and an
# integrated Brier score (R/oob-survival.R).
register_family(
  name = "survival",
  priority = 3,  # a Surv object is numeric too: asked before regression
  detects = function(y) inherits(y, "Surv"),
  matrix_outcome = TRUE,
  check = function(y, n) check_survival_outcome(y, n),
  check_rows = function(y) {
    if (!any(survival_status(y) == 1L)) {
      stop("Every row of positive `case_weights` is censored: a survival forest needs at least one event.",
           call. = FALSE)
    }
  },
  check_formula_outcome = function(outcome, data, env) check_survival_status_call(outcome, data, env),
  preset = function(preset) {
    check_family_method("a survival outcome (Surv)", preset$name, survival_methods)  # R/family.R
    apply_family_defaults(preset, "survival")  # R/parameters.R: its leaf, node sizes, sampler, trees
  },
  check_parameters = function(user) check_survival_parameters(user),
  scaling = function(y) NULL,
  engine_y = function(y, scaling) y,
  num_classes = function(y) 0L,
  engine_fit = function(data, y, weights, num_classes, params, validation, num_threads, verbose) {
    survival_forest_fit(data, y, weights, params, num_threads, verbose)
  },
  validation_outcome = function(y, scaling) NULL,
  model_fields = function(y, scaling) {
    list(survival = c(list(time_max = max(survival_time(y)), events = sum(survival_status(y))),
                      if (survival_counting(y)) list(delayed_entry = TRUE)))
  },
  # the censoring distribution the parsnip engine keeps (R/parsnip-censored.R)
  fields = list(outcome = "survival", oob = c("oob_chf_sum", "oob_concordance", "oob_ibs"), stages = "censoring"),
  oob = function(oob, y, aggregation, scaling, ntree) {
    survival_oob_results(list(oob_chf_sum = oob$chf_sum, oob_count = oob$count), y, oob$times)
  },
  merge_oob = function(a, b) merge_survival_tally(a, b),
  combine_oob = function(out, parts) combine_survival_oob(out, parts),
  predict_oob = function(object, type, args) predict_survival_oob(object, type, args),
  importance = function(object, x, y, num_threads, oob, per_class) {
    if (oob || per_class) stop(sprintf("`%s` is not available for a survival outcome (Surv).",
                                       if (oob) "oob" else "per_class"), call. = FALSE)
    survival_importance(object, x, y, num_threads)
  },
  fit_importance = TRUE,  # each tree's out-of-bag drop of Harrell's C (the engine's survival strategy)
  check_model = function(object, fail) check_survival_model(object, fail),
  print_outcome = function(x) {
    events <- as.integer(x$survival$events)
    sprintf("  Outcome:               survival (%s; %d event%s)",
            if (isTRUE(x$survival$delayed_entry)) "delayed entry" else "right-censored", events,
            if (events == 1L) "" else "s")
  },
  combining = function(x) "average cumulative hazard",
  oob_text = function(x) {
    if (is.na(x$oob_ibs)) return(sprintf("Harrell's C %.4f", 1 - x$oob_error))  # delayed entry: no Brier score
    sprintf("Harrell's C %.4f, integrated Brier score %.4f", 1 - x$oob_error, x$oob_ibs)
  },
  oob_label = "OOB performance",
  summary = function(object, out) {
    list(oob_ibs = object$oob_ibs, survival = object$survival,
         leaf_line = sprintf("Leaves: Nelson-Aalen cumulative hazards on %d event times", length(object$forest$times)))
  },
  glance = function(x) c(oob_concordance = 1 - x$oob_error, oob_ibs = x$oob_ibs),
  tree_table = list(leaf_predictions = function(object, tr, L) survival_leaf_summaries(object$forest, tr, L),
                    linear_leaf = function(object, w, b, lin) stop("Internal error: survival leaves are not linear.", call. = FALSE),
                    node_means = FALSE,  # a node's curve is not the mean of its leaves'
                    sql_check = function(object, fail) fail("a survival forest")),
  methods = function() survival_methods,
  holdout_score = list(metric = "concordance", better = "higher", score = function(fit, newdata, truth, num_threads) {
    risk <- stats::predict(fit, newdata, type = "risk", num_threads = num_threads)
    survival::concordance(truth ~ risk, reverse = TRUE)$concordance
  }),
  score_type = "risk",
  calibration_stage = "none",
  calibration_method = function(calibrate, fraction) {
    if (!is.null(c(calibrate, fraction))) {
      stop("`calibrate` and `calibration_fraction` are for class probabilities and regression intervals; they do not apply to a survival outcome (Surv).",
           call. = FALSE)
    }
    "none"
  },
  default_type = "survival",
  describe = "a survival outcome (Surv)"
)

# A survival leaf's curve in three numbers: its Nelson-Aalen survival
# exp(-CHF) at the quartiles of the forest's event times, named "S(time)".
survival_leaf_summaries <- function(forest, tr, L) {
  times <- forest$times
  at <- unique(ceiling(length(times) * c(0.25, 0.5, 0.75)))
  lapply(tree_describe(forest, tr, "leaf", seq_len(L)), function(leaf) {
    steps <- findInterval(at - 1L, as.vector(leaf$time_index))  # the leaf's steps at or before each time
    chf <- c(0, as.vector(leaf$cumulative_hazard))[steps + 1L]
    stats::setNames(exp(-chf), sprintf("S(%s)", format_number(times[at])))
  })
}

# The methods that fit a survival outcome.
survival_methods <- "hybrid"

# A survival forest sets its splitter and leaf itself (log-rank cuts and
# hyperplanes, Nelson-Aalen leaves), and its out-of-bag rows choose and
# score its trees: the user's parameters that would change that. A
# competing-risks forest (R/family-competing.R) names itself and its leaves.
check_survival_parameters <- function(user, forest = "a survival forest", leaves = "Nelson-Aalen leaves") {
  for (part in c("splitter", "leaf")) {
    if (!is.null(user[[part]])) {
      stop(sprintf("`%s`: %s has the hybrid splitter (log-rank cuts and hyperplanes) and %s; leave `%s` out.",
                   part, forest, leaves, part), call. = FALSE)
    }
  }
  if (!is.null(user$sampler) && !identical(user$sampler, "bootstrap") && !identical(user$sampler, "subsample")) {
    stop(sprintf("`sampler` must be \"bootstrap\" or \"subsample\" for %s: its out-of-bag rows choose and score the trees.",
                 forest), call. = FALSE)
  }
}

# The columns of a checked Surv outcome: Surv(time, status) or the
# counting-process Surv(entry, exit, event), whose time is the exit and
# whose entry times survival_entry() gives (NULL without).
survival_time <- function(y) {
  m <- unclass(y)
  as.double(m[, ncol(m) - 1L])
}
engine_outcome_value.Surv <- function(y) {
  c(list(time = survival_time(y), status = survival_status(y)), if (survival_counting(y)) list(entry = survival_entry(y)))
}
survival_status <- function(y) {
  m <- unclass(y)
  as.integer(m[, ncol(m)])
}
survival_entry <- function(y) if (survival_counting(y)) as.double(unclass(y)[, 1L])

# A right-censored outcome: positive finite times, status 0/1 (Surv() codes
# logical and 1/2 status so), one per row, at least one event.
check_survival_outcome <- function(y, n) {
  type <- attr(y, "type")
  if (!identical(type, "right") && !identical(type, "counting")) {
    stop(sprintf(paste("`y` is a Surv object of type \"%s\"; svforest fits right-censored outcomes, Surv(time,",
                       "status), and delayed entry, Surv(entry, exit, event)."),
                 if (is.character(type)) type[1] else "unknown"), call. = FALSE)
  }
  if (NROW(y) != n) stop(sprintf("`y` has %d rows but the predictors have %d rows.", NROW(y), n), call. = FALSE)
  time <- survival_time(y)
  status <- unclass(y)[, ncol(unclass(y))]
  if (identical(type, "counting")) check_survival_entry(survival_entry(y), time)
  if (anyNA(time)) {
    stop(sprintf("`y` has %d missing times; a row needs its time: drop those rows before fitting.", sum(is.na(time))),
         call. = FALSE)
  }
  if (anyNA(status)) {
    stop(sprintf(paste("`y` has %d missing status value%s (Surv() makes a status other than 0/1, TRUE/FALSE or 1/2",
                       "missing). A status of more values, such as 0/1/2 for two competing events as pbc codes a",
                       "transplant and a death, loses its censored rows so: for competing risks give the event as a",
                       "factor whose first level is censoring, e.g. %s (?svforest_competing)."),
                 sum(is.na(status)), if (sum(is.na(status)) == 1L) "" else "s", competing_fix_example()),
         call. = FALSE)
  }
  if (any(!is.finite(time))) stop(sprintf("`y` has %d infinite times.", sum(!is.finite(time))), call. = FALSE)
  if (any(time < 0)) stop(sprintf("`y` has %d negative times; survival times must be positive.", sum(time < 0)),
                          call. = FALSE)
  if (any(time == 0)) stop(zero_times_message(sum(time == 0), "survival"), call. = FALSE)
  if (!all(status %in% c(0, 1))) stop("The status of `y` must be 0 (censored) or 1 (event).", call. = FALSE)
  if (!any(status == 1)) stop("Every row of `y` is censored: a survival forest needs at least one event.", call. = FALSE)
  y
}

# Times of 0: refused (the engine's event times are positive), with the
# usual remedy for an event or censoring on the day of entry.
zero_times_message <- function(k, kind) {
  sprintf(paste("`y` has %d time%s of 0; %s times must be positive: an event or censoring on the day of entry can",
                "be given a small positive time, e.g. half the time unit."), k, if (k == 1L) "" else "s", kind)
}

# A numeric status of more than two values in the formula's Surv(time,
# status): competing risks coded as numbers (pbc's 0/1/2), whose censored
# rows Surv() would make missing (its status is 0/1, TRUE/FALSE or 1/2).
# Read before the model frame is built, so the error shows the fix in the
# user's own names.
check_survival_status_call <- function(outcome, data, env) {
  if (!is.call(outcome) || !deparse(outcome[[1L]])[1L] %in% c("Surv", "survival::Surv")) return(invisible())
  args <- as.list(outcome)[-1L]
  given <- if (is.null(names(args))) rep("", length(args)) else names(args)
  if (length(args) != 2L || !all(given %in% c("", "time", "event"))) return(invisible())
  at <- if ("event" %in% given) which(given == "event") else if ("time" %in% given) which(given == "") else 2L
  status <- tryCatch(eval(args[[at]], data, env), error = function(e) NULL)
  if (!is.numeric(status) || is.factor(status)) return(invisible())
  values <- sort(unique(status[!is.na(status)]))
  if (length(values) <= 2L) return(invisible())
  if (length(values) > 10L || any(values != round(values))) {  # not codes of causes
    stop(sprintf(paste("The status of %s has %d distinct values (%s, ...): a survival status is 0/1 (censored/event),",
                       "TRUE/FALSE or 1/2 (competing risks: an event factor, ?svforest_competing)."),
                 deparse1(outcome), length(values),
                 paste(vapply(utils::head(values, 3L), format, ""), collapse = ", ")), call. = FALSE)
  }
  stop(sprintf(paste("The status of %s has %d values (%s): a survival status is 0/1 (censored/event), TRUE/FALSE",
                     "or 1/2, and Surv() would make the other rows' status missing. More values code competing",
                     "risks: give the event as a factor whose first level is censoring, %s (naming the causes), for",
                     "a competing-risks forest (?svforest_competing); or one event of them, Surv(%s, %s == %s)."),
               deparse1(outcome), length(values), paste(utils::head(as.character(values), 5L), collapse = ", "),
               competing_fix_example(deparse1(args[[3L - at]]), deparse1(args[[at]]), values),
               deparse1(args[[3L - at]]), deparse1(args[[at]]), as.character(values[length(values)])), call. = FALSE)
}

# The event-factor form of a numeric status: Surv(time, factor(status, 0:2,
# c("censored", "cause_1", "cause_2"))) with the status's values; without
# them pbc's (0 censored, 1 transplant, 2 death).
competing_fix_example <- function(time = "time", status = "status", values = NULL) {
  if (is.null(values)) return("Surv(time, factor(status, 0:2, c(\"censored\", \"transplant\", \"death\")))")
  codes <- if (all(values == round(values)) && all(diff(values) == 1)) {
    sprintf("%s:%s", values[1L], values[length(values)])
  } else {
    sprintf("c(%s)", paste(values, collapse = ", "))
  }
  labels <- c("censored", sprintf("cause_%d", seq_len(length(values) - 1L)))
  sprintf("Surv(%s, factor(%s, %s, c(%s)))", time, status, codes, paste0("\"", labels, "\"", collapse = ", "))
}

# The family's elements of a model: the event-time grid, the horizon of the
# restricted mean time, the out-of-bag tally and results.
check_survival_model <- function(object, fail) {
  f <- object$forest
  times <- f$times
  if (!is.double(times) || !length(times) || anyNA(times) || any(!is.finite(times)) || any(times <= 0) ||
      is.unsorted(times, strictly = TRUE)) {
    fail("'forest$times' is damaged")
  }
  s <- object$survival
  if (!is.list(s) || !is.numeric(s$time_max) || length(s$time_max) != 1 || !is.finite(s$time_max) ||
      s$time_max < times[length(times)]) {
    fail("'survival' is damaged")
  }
  sums <- object$oob_chf_sum
  if (is.null(sums) != is.null(object$oob_count)) fail("'oob_chf_sum' or 'oob_count' is damaged")
  if (!is.null(sums)) {
    n <- object$num_rows
    if (!is.matrix(sums) || !is.double(sums) || !identical(dim(sums), c(as.integer(n), length(times))) ||
        !is.integer(object$oob_count) || length(object$oob_count) != n || anyNA(object$oob_count) ||
        any(object$oob_count < 0)) {
      fail("'oob_chf_sum' or 'oob_count' is damaged")
    }
  }
}
