#' @include family.R engine-survival.R outcome-competing.R
NULL

#' Competing-risks forests
#'
#' A competing-risks outcome in [svforest()] fits a forest of each cause's
#' cumulative incidence.
#'
#' @section Competing-risks outcomes:
#' `svforest(Surv(time, event) ~ ., data)` with `event` a factor whose first
#' level is censoring (survival's multi-state convention: [survival::Surv()]
#' makes it a `"mstate"` outcome), or `svforest(x, y)` with `y` such a `Surv`
#' or a data frame of a numeric time and such a factor, fits a
#' competing-risks forest: times positive and finite, at least two causes,
#' each with an event. The first level is censoring, whatever its name
#' (`"censored"`, `"c"`, `"lost to follow-up"`), as [survival::Surv()] reads
#' it, and every later level is a cause: a status coded as numbers, such as
#' pbc's 0 (censored), 1 (transplant) and 2 (death), becomes
#' `Surv(time, factor(status, 0:2, c("censored", "transplant", "death")))`
#' (a numeric status of three values in `Surv(time, status)` is an error
#' that shows this). A later level named as censoring (`"censored"`,
#' `"censoring"`, `"alive"`, `"0"`, ...), a cause without events (drop an
#' unused level with [droplevels()]), every row censored, negative, zero or
#' missing times are errors.
#'
#' Delayed entry (left truncation, issue #59): `Surv(entry, exit, event)`
#' with such an event factor fits a competing-risks forest whose risk sets
#' are `entry < t <= exit` in the composite log-rank cuts, the per-cause
#' martingale residuals `1[cause = k] - (H_k(exit) - H_k(entry))` the
#' hyperplanes are fitted to, the Aalen-Johansen leaves (a forest of
#' one-leaf trees on every row gives `survfit(Surv(entry, exit, event) ~ 1,
#' id = )`'s `pstate`) and the out-of-bag Wolbers' C, over the pairs whose
#' other row had entered by the event's time; `id` keeps a subject's rows
#' together, as for survival ([svforest_survival]). Each row is one
#' interval from the initial state: rows that start in another state
#' (multi-state transitions) are not read. Not available with delayed
#' entry: the out-of-bag integrated Brier score (`oob_ibs` is `NA`).
#'
#' The trees are the survival forest's ([svforest_survival]), with the same
#' parameters, defaults and knobs (`min_node_events` counts the events of
#' every cause; its default is their square root at any count): at each node the best axis cut by the composite
#' cause-specific log-rank statistic (the sum over causes of their
#' log-rank chi-squares, so a cut that separates any cause's hazard counts)
#' competes with ridge hyperplanes fitted to the rows' martingale
#' residuals: of every cause summed (the order by the risk of any event)
#' and, with `n_oblique = 3` (a competing-risks forest's default), of the
#' first and of the second cause alone, the node keeping the best cut; each tree keeps the best of its structures by
#' Wolbers' concordance of the first cause on its choosing out-of-bag rows.
#' Leaves hold each cause's Aalen-Johansen cumulative incidence (CIF) and
#' cause-specific Nelson-Aalen cumulative hazard (CHF) of their in-bag rows
#' on the forest's curve grid (`ntime`, as a survival forest's: at most 150 of the training
#' event times of any cause by default, exact at each); the forest's curves are the
#' trees' averages, so each CIF is non-decreasing from 0 and the event-free
#' survival is 1 minus their sum. With `ntree_max` the forest grows by
#' out-of-bag error (1 - Wolbers' C of the first cause).
#'
#' Predictions ([predict.svforest()]): `type = "cif"` (the default) gives,
#' for one `cause` (a label or its number), an n x `length(times)` matrix,
#' and without `cause` a 3-d array n x times x causes (dimnames: rows, times,
#' causes' labels); `type = "chf"` the same for the cause-specific cumulative
#' hazards; `type = "survival"` the event-free survival, n x times; `type =
#' "risk"` each cause's expected time lost to it up to the largest training
#' event time (the integral of its CIF, as randomForestSRC's competing-risks
#' "risk"; summed over causes it is the restricted mean time lost), an n x
#' causes matrix, or a vector for one `cause`: a ranking score for
#' concordance, not a probability (the CIF at a horizon `h` is
#' `predict(fit, x, type = "cif", cause = 1, times = h)`). `times` default
#' to the grid times; a time before the first gets CIF 0, one
#' past the last the last value, with a warning. `"leaf"` gives each tree's
#' leaf. `predict(fit)` without `newdata` gives each training row's
#' out-of-bag CIF, survival and risk (the tally holds no hazards).
#'
#' Out of bag, every fit holds the tally [combine()] adds up (`oob_cif_sum`,
#' each row's CIFs summed over its scoring out-of-bag trees, n x times x
#' causes, and `oob_count`) and from it `oob_predictions` (the time lost to
#' each cause), `oob_concordance` (Wolbers' C per cause), `oob_ibs` (the
#' integrated Brier score per cause, IPCW) and `oob_error` (1 - the first
#' cause's C); [print()], [summary()] and [glance()] show them.
#' `svforest_importance(fit, data)` gives each predictor's drop in each
#' cause's Wolbers C (a predictors x causes matrix) when the predictor is
#' permuted; fit-time permutation importance is not available. SQL export
#' ([svforest_sql()]) is not supported, and parsnip has no competing-risks
#' mode (the censored regression engine takes single-event outcomes only).
#' @name svforest_competing
#' @seealso [svforest_survival], [predict.svforest()].
#' @examples
#' if (requireNamespace("survival", quietly = TRUE)) {
#'   library(survival)
#'   d <- mgus2
#'   d$etime <- with(d, ifelse(pstat == 0, futime, ptime))
#'   d$event <- factor(with(d, ifelse(pstat == 0, 2 * death, 1)), 0:2, c("censored", "pcm", "death"))
#'   fit <- svforest(Surv(etime, event) ~ age + sex + mspike, data = d, ntree = 20, seed = 1, num_threads = 1)
#'   print(fit)
#'   predict(fit, d[1:3, ], type = "cif", cause = "pcm", times = c(60, 120))
#' }
NULL

# The competing-risks family: Surv(time, event) with an event factor whose
# first level is censoring (R/outcome-competing.R), fitted by survival's
# engine call with Aalen-Johansen leaves; predictions in
# R/predict-competing.R, out-of-bag figures in R/oob-competing.R.
register_family(
  name = "competing",
  priority = 4,  # a multi-state Surv is a Surv too: asked before survival
  detects = function(y) isTRUE(is_competing_outcome(y)),
  matrix_outcome = TRUE,
  check = function(y, n) check_competing_y(y, n),
  check_rows = function(y) {  # every cause keeps an event among the rows of positive weight
    tryCatch(invisible(competing_outcome(y)), error = function(e) {
      stop("Among the rows of positive `case_weights`, ", conditionMessage(e), call. = FALSE)
    })
  },
  check_formula_outcome = no_formula_outcome_checks,
  preset = function(preset) {
    check_family_method("a competing-risks outcome", preset$name, survival_methods)
    apply_family_defaults(apply_family_defaults(preset, "survival"), "competing")  # survival's, then its own leaf
  },
  check_parameters = function(user) {
    check_survival_parameters(user, "a competing-risks forest", "Aalen-Johansen leaves (each cause's cumulative incidence)")
  },
  scaling = function(y) NULL,
  engine_y = function(y, scaling) y,
  num_classes = function(y) 0L,
  engine_fit = function(data, y, weights, num_classes, params, validation, num_threads, verbose) {
    parts <- competing_parts(y)
    outcome <- list(time = as.double(parts$time), status = as.integer(parts$status), causes = length(parts$causes),
                    cause_names = as.character(parts$causes))  # the tally's third dimension (src/fit.cpp)
    # delayed entry (Surv(entry, exit, event)) and `id`'s subjects (R/step-subjects.R), when given
    if (!is.null(parts$entry)) outcome$entry <- parts$entry
    if (!is.null(attr(y, "subjects"))) outcome$subject <- attr(y, "subjects")
    event_forest_fit(data, outcome, weights, params, num_threads, verbose, "aalen_johansen")
  },
  validation_outcome = function(y, scaling) NULL,
  model_fields = function(y, scaling) {
    parts <- competing_parts(y)
    list(competing = c(list(time_max = max(parts$time), causes = parts$causes,
                            events = stats::setNames(tabulate(parts$status, length(parts$causes)), parts$causes)),
                       if (!is.null(parts$entry)) list(delayed_entry = TRUE)))
  },
  fields = list(outcome = "competing", oob = c("oob_cif_sum", "oob_concordance", "oob_ibs"), stages = character()),
  oob = function(oob, y, aggregation, scaling, ntree) {
    competing_oob_results(competing_engine_tally(oob, y), y, oob$times)
  },
  merge_oob = function(a, b) {
    tally <- c("chf_sum", "risk_sum", "count")  # the engine's (risk sums: what the growth rule reads)
    c(merge_competing_tally(a[tally], b[tally]), list(times = a$times))  # the curve grid
  },
  combine_oob = function(out, parts) combine_competing_oob(out, parts),
  predict_oob = function(object, type, args) predict_competing_oob(object, type, args),
  importance = function(object, x, y, num_threads, oob, per_class) {
    if (oob || per_class) stop(sprintf("`%s` is not available for a competing-risks outcome.",
                                       if (oob) "oob" else "per_class"), call. = FALSE)
    competing_importance(object, x, y, num_threads)
  },
  fit_importance = FALSE,  # svforest_importance(fit, data) scores rows you give
  check_model = function(object, fail) check_competing_model(object, fail),
  print_outcome = function(x) {
    e <- x$competing$events
    sprintf("  Outcome:               competing risks%s (%s)",
            if (isTRUE(x$competing$delayed_entry)) ", delayed entry" else "", paste(sprintf("%s: %d event%s", names(e), e, ifelse(e == 1L, "", "s")), collapse = ", "))
  },
  combining = function(x) "average cumulative incidence",
  oob_text = function(x) {
    c_text <- sprintf("Wolbers' C %s", competing_figures(x$oob_concordance))
    if (isTRUE(x$competing$delayed_entry)) return(c_text)  # no Brier score with delayed entry
    sprintf("%s; integrated Brier score %s", c_text, competing_figures(x$oob_ibs))
  },
  oob_label = "OOB performance",
  summary = function(object, out) {
    list(oob_concordance = object$oob_concordance, oob_ibs = object$oob_ibs, competing = object$competing,
         leaf_line = sprintf("Leaves: Aalen-Johansen cumulative incidences of %d causes on %d event times",
                             length(object$competing$causes), length(object$forest$times)))
  },
  glance = function(x) {
    causes <- x$competing$causes
    figure <- function(v) if (length(v) == length(causes)) unname(v) else rep(NA_real_, length(causes))
    c(stats::setNames(figure(x$oob_concordance), paste0("oob_concordance_", causes)),
      stats::setNames(figure(x$oob_ibs), paste0("oob_ibs_", causes)))
  },
  tree_table = list(leaf_predictions = function(object, tr, L) competing_leaf_summaries(object, tr, L),
                    linear_leaf = function(object, w, b, lin) stop("Internal error: competing-risks leaves are not linear.", call. = FALSE),
                    node_means = FALSE,  # a node's curves are not the mean of its leaves'
                    sql_check = function(object, fail) fail("a competing-risks forest")),
  methods = function() survival_methods,
  holdout_score = list(metric = "concordance", better = "higher", score = function(fit, newdata, truth, num_threads) {
    risk <- stats::predict(fit, newdata, type = "risk", cause = 1L, num_threads = num_threads)
    parts <- competing_parts(truth)
    oob_wolbers_c(parts$time, parts$status, risk, 1L, parts$entry)
  }),
  score_type = list("risk", cause = 1L),  # explainers read one number per row: the first cause's
  calibration_stage = "none",
  calibration_method = function(calibrate, fraction) {
    if (!is.null(c(calibrate, fraction))) {
      stop("`calibrate` and `calibration_fraction` are for class probabilities and regression intervals; they do not apply to a competing-risks outcome.",
           call. = FALSE)
    }
    "none"
  },
  default_type = "cif",
  describe = "a competing-risks outcome (Surv(time, event) with an event factor)"
)

# The engine's competing-risks leaf kind (the family chooses it).
register_part("leaf", "aalen_johansen", outcomes = "competing", family_only = TRUE,
              parameters = c("min_leaf_size", "min_node_events", "tree_rival", "oblique_fit", "ntime"))

# A checked competing-risks outcome as a multi-state Surv (the x/y form's
# data frame becomes one); the bad-input catalogue is competing_outcome()'s.
check_competing_y <- function(y, n) {
  if (NROW(y) != n) stop(sprintf("`y` has %d rows but the predictors have %d rows.", NROW(y), n), call. = FALSE)
  entry <- competing_parts(y)$entry  # delayed entry, Surv(entry, exit, event): checked as survival's (R/step-subjects.R)
  if (!is.null(entry)) check_survival_entry(entry, competing_parts(y)$time)
  parts <- competing_outcome(y)
  if (any(parts$time <= 0)) {
    stop(zero_times_message(sum(parts$time <= 0), "competing-risks"), call. = FALSE)  # R/family-survival.R
  }
  if (inherits(y, "Surv")) return(y)
  states <- c(if ("censored" %in% parts$causes) "(censored)" else "censored", parts$causes)
  survival::Surv(parts$time, factor(states[parts$status + 1L], levels = states))
}

# The engine's out-of-bag tally as the model keeps it: each cause's CIF
# sums as an n x times x causes array, and the counts. The engine hands
# the array over already shaped and named (src/fit.cpp oob_to_r()): kept
# as it comes, one copy (n x 150 x 2 doubles: 480 MB at 200,000 rows);
# an n x (times * causes) matrix is reshaped.
competing_engine_tally <- function(oob, y) {
  causes <- competing_parts(y)$causes
  sums <- oob$chf_sum
  if (!identical(dimnames(sums)[[3L]], as.character(causes))) {
    n <- length(oob$count)
    sums <- array(sums, c(n, length(sums) / n / length(causes), length(causes)), dimnames = list(NULL, NULL, causes))
  }
  list(oob_cif_sum = sums, oob_count = oob$count)
}

# "pcm 0.7012, death 0.7803": a named figure per cause.
competing_figures <- function(v) {
  if (!length(v)) return("NA")
  paste(sprintf("%s %.4f", names(v), v), collapse = ", ")
}

# Each leaf's CIF of each cause at the quartiles of the forest's event
# times, named "CIF <cause>(<time>)".
competing_leaf_summaries <- function(object, tr, L) {
  times <- object$forest$times
  causes <- object$competing$causes
  K <- length(causes)
  at <- unique(ceiling(length(times) * c(0.25, 0.5, 0.75)))
  labels <- sprintf("CIF %s(%s)", rep(causes, each = length(at)), format_number(times[at]))
  lapply(tree_describe(object$forest, tr, "leaf", seq_len(L)), function(leaf) {
    cif <- rbind(0, t(matrix(as.vector(leaf$cif), nrow = K)))  # (steps + 1) x causes
    steps <- findInterval(at - 1L, as.vector(leaf$time_index)) + 1L
    stats::setNames(as.vector(cif[steps, , drop = FALSE]), labels)
  })
}

# The family's elements of a model: the grid, the causes, the tally.
check_competing_model <- function(object, fail) {
  f <- object$forest
  times <- f$times
  if (!is.double(times) || !length(times) || any(!is.finite(times)) || any(times <= 0) ||
      is.unsorted(times, strictly = TRUE)) {
    fail("'forest$times' is damaged")
  }
  s <- object$competing
  if (!is.list(s) || !is.character(s$causes) || length(s$causes) < 2L || !identical(f$num_causes, length(s$causes)) ||
      !is.numeric(s$time_max) || length(s$time_max) != 1L || !is.finite(s$time_max) ||
      s$time_max < times[length(times)]) {
    fail("'competing' or 'forest$num_causes' is damaged")
  }
  sums <- object$oob_cif_sum
  if (is.null(sums) != is.null(object$oob_count)) fail("'oob_cif_sum' or 'oob_count' is damaged")
  if (!is.null(sums)) {
    n <- object$num_rows
    if (!is.array(sums) || !is.double(sums) ||
        !identical(dim(sums), c(as.integer(n), length(times), length(s$causes))) ||
        !is.integer(object$oob_count) || length(object$oob_count) != n || anyNA(object$oob_count) ||
        any(object$oob_count < 0)) {
      fail("'oob_cif_sum' or 'oob_count' is damaged")
    }
  }
}

# Permutation importance (svforest_importance()): for each predictor (its
# design columns together) the drop in each cause's Wolbers C of the
# forest's time lost to the cause on the rows given when its values are
# permuted among them (permutations from the model's seed).
competing_importance <- function(object, x, y, num_threads) {
  if (!isTRUE(is_competing_outcome(y))) {
    stop(sprintf("`y` must be a competing-risks outcome (Surv(time, event) with an event factor), not %s.",
                 describe(y)), call. = FALSE)
  }
  if (NROW(y) != NROW(x)) stop(sprintf("`y` has %d rows but the predictors have %d rows.", NROW(y), NROW(x)), call. = FALSE)
  parts <- competing_new_outcome(object, y)  # R/outcome-competing.R: the model's codes of the causes
  data <- importance_dense_data(new_engine_data(object, x))
  causes <- object$competing$causes
  drops <- permutation_drops(object, data, function(d) {  # R/importance-survival.R
    risk <- competing_years_lost(competing_engine_curves(object$forest, d, num_threads)$cif, object$forest$times)
    stats::setNames(vapply(seq_along(causes), function(k) oob_wolbers_c(parts$time, parts$status, risk[, k], k,
                                                                        parts$entry), 0),
                    causes)
  })
  structure(t(drops), type = "permutation")
}
