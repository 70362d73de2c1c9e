# Competing-risks outcomes (issue 49), the input side: recognising one,
# checking it, and the engine's numeric form. Not wired into svforest() yet:
# the outcome kind that will call these arrives with the engine's outcome
# registry.
#
# Two forms are read:
# - survival's multi-state convention, Surv(time, event) with `event` a
#   factor whose first level is censoring (Surv(type = "mstate"), which
#   survival marks "mright"), from a formula or given as `y`;
# - for the x/y interface, a data frame (or list) of a numeric time and an
#   event factor whose first level is censoring.

# The first level of an event factor is censoring, whatever its name ("c",
# "lost to follow-up", "zensiert"), as survival::Surv() reads it. A later
# level with one of these names is censoring put in the wrong place: an
# error, not a cause of that name.
competing_censoring_labels <- c("0", "censored", "censor", "censoring", "cens", "none", "no event", "event-free",
                                "event free", "alive", "right-censored")

# Whether `y` is a competing-risks outcome in one of the two forms.
is_competing_outcome <- function(y) {
  if (inherits(y, "Surv")) return(attr(y, "type") %in% c("mright", "mcounting"))
  competing_frame_parts(y)$ok
}

# The time and event of the x/y form (a data frame or list of two columns,
# one numeric, one factor), or ok = FALSE.
competing_frame_parts <- function(y) {
  no <- list(ok = FALSE)
  if (!is.list(y) || inherits(y, "Surv") || length(y) != 2L) return(no)
  is_event <- vapply(y, is.factor, TRUE)
  is_time <- vapply(y, function(v) is.numeric(v) && !is.factor(v), TRUE)
  if (sum(is_event) != 1L || sum(is_time) != 1L) return(no)
  list(ok = TRUE, time = as.numeric(y[[which(is_time)]]), event = y[[which(is_event)]])
}

# The engine's form of a competing-risks outcome: list(time, status (integer
# 0 = censored, k = the k-th cause), causes (the causes' labels), cause (the
# index of the cause of interest)). `cause` is a label of `causes` or its
# number (default the first cause); `id` and `istate` (optional, one per
# row) are checked to describe one subject per row, all starting in the
# initial state: other multi-state data are not competing risks.
competing_outcome <- function(y, cause = NULL, id = NULL, istate = NULL) {
  parts <- competing_parts(y)
  n <- length(parts$time)
  check_competing_times(parts$time)
  if (anyNA(parts$status)) stop("the event has missing values: every row needs an event or censoring", call. = FALSE)
  check_competing_transitions(id, istate, n)
  causes <- parts$causes
  if (length(causes) < 2L) {
    stop("the event has one cause only (", dQuote(causes[1], FALSE), "): that is ordinary survival; ",
         "use Surv(time, status) with status 1 for the event, e.g. Surv(time, event == ", dQuote(causes[1], FALSE), ")",
         call. = FALSE)
  }
  if (!any(parts$status > 0L)) {
    stop("every row is censored (the event factor's first level, ", dQuote(parts$censoring, FALSE), "): ",
         "a competing-risks forest needs events of at least two causes", call. = FALSE)
  }
  seen <- tabulate(parts$status[parts$status > 0L], nbins = length(causes))
  if (any(seen == 0L)) {
    stop(if (sum(seen == 0L) > 1L) "causes " else "cause ", paste(dQuote(causes[seen == 0L], FALSE), collapse = ", "),
         if (sum(seen == 0L) > 1L) " have" else " has", " no events; drop the unused level",
         if (sum(seen == 0L) > 1L) "s", " before fitting (droplevels())", call. = FALSE)
  }
  list(time = parts$time, status = as.integer(parts$status), causes = causes,
       cause = competing_cause_index(cause, causes))
}

# The outcome of new rows that a model scores (importance, plot()'s
# held-out curve): time and status in the model's codes, each cause matched
# by its label, so an event factor whose causes come in another order, or
# that lacks one, scores each cause as the model knows it. A cause with
# events that the model does not know is an error.
competing_new_outcome <- function(object, y) {
  parts <- competing_parts(y)
  check_competing_times(parts$time)
  if (anyNA(parts$status)) stop("the event has missing values: every row needs an event or censoring", call. = FALSE)
  causes <- object$competing$causes
  seen <- parts$causes[sort(unique(parts$status[parts$status > 0L]))]
  unknown <- setdiff(seen, causes)
  if (length(unknown)) {
    stop("the event has cause", if (length(unknown) > 1L) "s" else "", " ",
         paste(dQuote(unknown, FALSE), collapse = ", "), " that the model does not know (its causes: ",
         paste(dQuote(causes, FALSE), collapse = ", "), ")", call. = FALSE)
  }
  list(time = parts$time, status = c(0L, match(parts$causes, causes))[parts$status + 1L], entry = parts$entry)
}

# time, status (0..K) and the causes' labels of either form, or an error
# naming what was given; with delayed entry (Surv(entry, exit, event), a
# "mcounting" Surv) also `entry`.
competing_parts <- function(y) {
  if (inherits(y, "Surv")) {
    type <- attr(y, "type")
    if (identical(type, "mcounting")) {  # delayed entry, Surv(entry, exit, event) (issue #59)
      levels <- attr(y, "inputAttributes")$event$levels
      check_censoring_level(levels)
      return(list(time = as.numeric(y[, "stop"]), status = as.integer(y[, "status"]), causes = attr(y, "states"),
                  censoring = if (length(levels)) levels[1L] else "0", entry = as.numeric(y[, "start"])))
    }
    if (!identical(type, "mright")) {
      stop("not a competing-risks outcome: a Surv object of type ", dQuote(type, FALSE), " is ordinary survival; ",
           "give the event as a factor whose first level is censoring, Surv(time, event)", call. = FALSE)
    }
    # a factor event keeps its levels here: the first must be censoring
    levels <- attr(y, "inputAttributes")$event$levels
    check_censoring_level(levels)
    return(list(time = as.numeric(y[, "time"]), status = as.integer(y[, "status"]),
                causes = attr(y, "states"), censoring = if (length(levels)) levels[1L] else "0"))
  }
  parts <- competing_frame_parts(y)
  if (!parts$ok) {
    stop("a competing-risks outcome is Surv(time, event) with `event` a factor whose first level is censoring, ",
         "or (x/y interface) a data frame of a numeric time and such a factor", call. = FALSE)
  }
  lev <- levels(parts$event)
  check_censoring_level(if (length(lev)) lev else "")
  list(time = parts$time, status = as.integer(parts$event) - 1L, causes = lev[-1], censoring = lev[1])
}

# `levels`: an event factor's levels (NULL: a numeric status, 0 censoring).
# The first is censoring; a later one named like censoring is an error.
check_censoring_level <- function(levels) {
  later <- levels[-1][tolower(levels[-1]) %in% competing_censoring_labels]
  if (is.null(levels) || !length(later)) return(invisible())
  stop("the event factor's first level is censoring (as survival::Surv() reads it), so ", dQuote(levels[1], FALSE),
       " is read as censoring and ", dQuote(later[1], FALSE), " as a cause; put censoring first: ",
       "factor(event, levels = c(", dQuote(later[1], FALSE), ", ...))", call. = FALSE)
}

check_competing_times <- function(time) {
  rows <- function(k) sprintf("%d row%s", k, if (k == 1L) "" else "s")
  if (anyNA(time)) stop("the times have missing values (", rows(sum(is.na(time))), ")", call. = FALSE)
  if (any(!is.finite(time))) stop("the times must be finite (", rows(sum(!is.finite(time))), " not)", call. = FALSE)
  if (any(time < 0)) stop("the times must not be negative (", rows(sum(time < 0)), " negative)", call. = FALSE)
}

# Competing risks: one row per subject, every subject starting in the
# initial state (no transitions between states before the event).
check_competing_transitions <- function(id, istate, n) {
  if (!is.null(id)) {
    if (length(id) != n) stop("`id` must have one value per row (", n, "), not ", length(id), call. = FALSE)
    if (anyDuplicated(id)) {
      stop("`id` repeats subjects: multi-state data with transitions are not competing risks ",
           "(one row per subject, from the initial state to its first event)", call. = FALSE)
    }
  }
  if (!is.null(istate)) {
    if (length(istate) != n) {
      stop("`istate` must have one value per row (", n, "), not ", length(istate), call. = FALSE)
    }
    if (length(unique(istate)) > 1L) {
      stop("`istate` has more than one initial state: multi-state data with transitions are not competing ",
           "risks (every subject starts in the same state)", call. = FALSE)
    }
  }
}

# The cause of interest's index among `causes`: a label, or a number.
competing_cause_index <- function(cause, causes) {
  if (is.null(cause)) return(1L)
  if (length(cause) != 1L || is.na(cause)) stop("`cause` must be one cause", call. = FALSE)
  k <- if (is.numeric(cause)) match(cause, seq_along(causes)) else match(as.character(cause), causes)
  if (is.na(k)) {
    stop("`cause` ", dQuote(as.character(cause), FALSE), " is not among the causes: ",
         paste(dQuote(causes, FALSE), collapse = ", "), call. = FALSE)
  }
  k
}
