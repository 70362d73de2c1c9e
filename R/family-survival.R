#' @include family.R engine-survival.R
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
  "survival",
  detects = function(y) inherits(y, "Surv"),
  check = function(y, n) check_survival_outcome(y, n),
  check_rows = function(y) {
    if (!any(survival_status(y) == 1L)) {
      stop("Every row of positive `case_weights` is censored: a survival forest needs at least one event.",
           call. = FALSE)
    }
  },
  scaling = function(y) NULL,
  engine_y = function(y, scaling) y,
  num_classes = function(y) 0L,
  validation_outcome = function(y, scaling) NULL,
  model_fields = function(y, scaling) {
    list(survival = list(time_max = max(survival_time(y)), events = sum(survival_status(y))))
  },
  oob = function(oob, y, aggregation, scaling, ntree) {
    survival_oob_results(list(oob_chf_sum = oob$chf_sum, oob_count = oob$count), y)
  },
  check_model = function(object, fail) check_survival_model(object, fail),
  print_outcome = function(x) {
    sprintf("  Outcome:               survival (right-censored; %d events)", as.integer(x$survival$events))
  },
  combining = function(x) "average cumulative hazard",
  oob_text = function(x) {
    sprintf("Harrell's C %.4f, integrated Brier score %.4f", 1 - x$oob_error, x$oob_ibs)
  },
  default_type = "survival",
  describe = "a survival outcome (Surv)",
  engine_outcome = "regression",
  engine_fit = function(data, y, weights, num_classes, params, validation, num_threads, verbose) {
    survival_forest_fit(data, y, weights, params, num_threads)
  },
  methods = "hybrid",
  parameters = function(params, user) survival_parameters(params, user),
  predict_oob = function(object, type, args) predict_survival_oob(object, type, args),
  merge_oob = function(a, b) merge_survival_tally(a, b),
  combine_oob = function(out, parts) combine_survival_oob(out, parts),
  importance = function(object, x, y, num_threads) survival_importance(object, x, y, num_threads),
  summary = function(object) {
    list(oob_ibs = object$oob_ibs, survival = object$survival,
         leaf_line = sprintf("Leaves: Nelson-Aalen cumulative hazards on %d event times", length(object$forest$times)))
  }
)

# The default's regression parameters as a survival forest uses them: its
# hybrid splitter (log-rank criteria) and Nelson-Aalen leaves, on bootstrap
# or subsample trees (out-of-bag rows score it).
survival_parameters <- function(params, user) {
  for (part in c("splitter", "leaf")) {
    if (!is.null(user[[part]])) {
      stop(sprintf("`%s`: a survival forest has the hybrid splitter (log-rank cuts and hyperplanes) and Nelson-Aalen leaves; leave `%s` out.",
                   part, part), call. = FALSE)
    }
  }
  if (!params$sampler %in% c("bootstrap", "subsample")) {
    stop("`sampler` must be \"bootstrap\" or \"subsample\" for a survival forest: its out-of-bag rows choose and score the trees.",
         call. = FALSE)
  }
  params$leaf <- "nelson_aalen"
  params
}

# The columns of a checked right-censored Surv outcome.
survival_time <- function(y) as.double(unclass(y)[, 1L])
survival_status <- function(y) as.integer(unclass(y)[, 2L])

# A right-censored outcome: positive finite times, status 0/1 (Surv() codes
# logical and 1/2 status so), one per row, at least one event.
check_survival_outcome <- function(y, n) {
  type <- attr(y, "type")
  if (!identical(type, "right")) {
    stop(sprintf("`y` is a Surv object of type \"%s\"; svforest fits right-censored outcomes only, Surv(time, status).",
                 if (is.character(type)) type[1] else "unknown"), call. = FALSE)
  }
  if (NROW(y) != n) stop(sprintf("`y` has %d rows but the predictors have %d rows.", NROW(y), n), call. = FALSE)
  time <- survival_time(y)
  status <- unclass(y)[, 2L]
  if (anyNA(time)) stop(sprintf("`y` has %d missing times.", sum(is.na(time))), call. = FALSE)
  if (anyNA(status)) {
    stop(sprintf("`y` has %d missing status values (Surv() makes a status other than 0/1, TRUE/FALSE or 1/2 missing).",
                 sum(is.na(status))), call. = FALSE)
  }
  if (any(!is.finite(time))) stop(sprintf("`y` has %d infinite times.", sum(!is.finite(time))), call. = FALSE)
  if (any(time <= 0)) {
    stop(sprintf("`y` has %d times that are zero or negative; survival times must be positive.", sum(time <= 0)),
         call. = FALSE)
  }
  if (!all(status %in% c(0, 1))) stop("The status of `y` must be 0 (censored) or 1 (event).", call. = FALSE)
  if (!any(status == 1)) stop("Every row of `y` is censored: a survival forest needs at least one event.", call. = FALSE)
  y
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
  if (!is.integer(f$num_features) || length(f$num_features) != 1 || is.na(f$num_features) || f$num_features < 1) {
    fail("'forest$num_features' is damaged")
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
