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

# Labels read as "censored" for the first level of an event factor given as
# it is (a Surv object has already taken its first level as censoring).
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
         "use Surv(time, status) with status 1 for the event", call. = FALSE)
  }
  seen <- tabulate(parts$status[parts$status > 0L], nbins = length(causes))
  if (any(seen == 0L)) {
    stop("cause ", paste(dQuote(causes[seen == 0L], FALSE), collapse = ", "), " has no events; ",
         "drop the unused level (droplevels()) before fitting", call. = FALSE)
  }
  list(time = parts$time, status = as.integer(parts$status), causes = causes,
       cause = competing_cause_index(cause, causes))
}

# time, status (0..K) and the causes' labels of either form, or an error
# naming what was given.
competing_parts <- function(y) {
  if (inherits(y, "Surv")) {
    type <- attr(y, "type")
    if (identical(type, "mcounting")) {
      stop("Surv(start, stop, event) describes multi-state data with transitions; competing risks take ",
           "Surv(time, event), one row per subject", call. = FALSE)
    }
    if (!identical(type, "mright")) {
      stop("not a competing-risks outcome: a Surv object of type ", dQuote(type, FALSE), " is ordinary survival; ",
           "give the event as a factor whose first level is censoring, Surv(time, event)", call. = FALSE)
    }
    # a factor event keeps its levels here: the first must be censoring
    check_censoring_level(attr(y, "inputAttributes")$event$levels)
    return(list(time = as.numeric(y[, "time"]), status = as.integer(y[, "status"]),
                causes = attr(y, "states")))
  }
  parts <- competing_frame_parts(y)
  if (!parts$ok) {
    stop("a competing-risks outcome is Surv(time, event) with `event` a factor whose first level is censoring, ",
         "or (x/y interface) a data frame of a numeric time and such a factor", call. = FALSE)
  }
  lev <- levels(parts$event)
  check_censoring_level(if (length(lev)) lev else "")
  list(time = parts$time, status = as.integer(parts$event) - 1L, causes = lev[-1])
}

# `levels`: an event factor's levels (NULL: a numeric status, 0 censoring).
check_censoring_level <- function(levels) {
  if (is.null(levels) || tolower(levels[1]) %in% competing_censoring_labels) return(invisible())
  stop("the event factor has no censoring level: its first level must be censoring (e.g. \"censored\"), ",
       "got ", dQuote(levels[1], FALSE), "; put it first: factor(event, levels = c(\"censored\", ...))",
       call. = FALSE)
}

check_competing_times <- function(time) {
  if (anyNA(time)) stop("the times have missing values (", sum(is.na(time)), " rows)", call. = FALSE)
  if (any(!is.finite(time))) stop("the times must be finite (", sum(!is.finite(time)), " rows are not)", call. = FALSE)
  if (any(time < 0)) stop("the times must not be negative (", sum(time < 0), " rows are)", call. = FALSE)
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
