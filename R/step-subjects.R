#' @include prefit-steps.R
NULL

# Pre-fit step: subjects (`id`, issue #59), and the checks of a
# counting-process survival outcome, Surv(entry, exit, event): its entry
# times (check_survival_entry(), called by the survival family's check). With
# `id`, a survival forest's trees draw subjects, not rows: every row of a
# drawn subject goes in (core/forest/SubjectSampler.h), so out-of-bag rows
# are whole subjects. The ids reach the engine with the outcome
# (fit_engine(), R/svforest.R; survival_forest_fit(), R/engine-survival.R);
# nothing is kept in the model or replayed on new rows (prediction reads a
# row's covariates as usual).
subjects_step <- new_prefit_step(
  "subjects",
  phase = "rows",
  args = "id",
  fit = function(ctx) {
    id <- ctx$step_args[["id"]]
    if (is.null(id)) return(ctx)
    ctx$subjects <- check_subject_ids(id, ctx$y, ctx$n, !is.null(ctx$step_args[["case_weights"]]),
                                      identical(ctx$user[["importance"]], "permutation"))
    ctx
  },
  state = function(model) NULL,
  check = NULL,
  combine = NULL,
  sql = function(design, state) design
)

# Whether `y` is a counting-process survival outcome, Surv(entry, exit, event).
survival_counting <- function(y) inherits(y, "Surv") && identical(attr(y, "type"), "counting")

# The subject codes 0..S-1 of the ids `id` (one per training row) of outcome
# `y`, checked: a survival outcome (right-censored or counting-process), no
# missing ids, no case weights, and a subject's counting-process rows must
# not overlap in time.
check_subject_ids <- function(id, y, n, weighted, importance) {
  if (!inherits(y, "Surv") || !attr(y, "type") %in% c("right", "counting", "mright", "mcounting")) {
    stop(paste("`id` is for survival outcomes (Surv(time, status) or Surv(entry, exit, event); competing risks with",
               "an event factor)."), call. = FALSE)
  }
  if (is.data.frame(id) || !is.null(dim(id)) || is.list(id)) stop("`id` must be a vector, one id per row.", call. = FALSE)
  if (weighted) stop("`case_weights` cannot be combined with `id` (the trees draw subjects, unweighted).", call. = FALSE)
  if (length(id) != n) {
    stop(sprintf("`id` has %d values but the data have %d rows: give one subject id per row.", length(id), n),
         call. = FALSE)
  }
  if (anyNA(id)) stop(sprintf("`id` has %d missing values; every row needs its subject.", sum(is.na(id))), call. = FALSE)
  if (importance) {
    stop(paste("`importance = \"permutation\"` at fit time is not available with `id`: compute it with",
               "svforest_importance(fit, data)."), call. = FALSE)
  }
  codes <- as.integer(factor(id)) - 1L
  if (attr(y, "type") %in% c("counting", "mcounting")) {
    check_subject_overlap(codes, as.double(unclass(y)[, 1L]), survival_time(y))
  }
  codes
}

# A subject's rows (entry, exit] must not overlap: sorted by entry, each
# row starts at or after the previous row's exit.
check_subject_overlap <- function(codes, entry, exit) {
  o <- order(codes, entry, exit)
  same <- codes[o][-1L] == codes[o][-length(o)]
  bad <- same & entry[o][-1L] < exit[o][-length(o)]
  if (any(bad)) {
    first <- o[which(bad)[1L] + 1L]
    stop(sprintf(paste("`id`: %d subject%s ha%s rows that overlap in time (e.g. row %d enters at %s, before the",
                       "subject's earlier row exits at %s); a subject's rows (entry, exit] must not overlap."),
                 length(unique(codes[o][-1L][bad])), if (sum(bad) == 1L) "" else "s",
                 if (sum(bad) == 1L) "s" else "ve", first, format(entry[first]),
                 format(exit[o][which(bad)[1L]])), call. = FALSE)
  }
}

# Entry times of a counting-process outcome: present, finite and before
# each row's exit (Surv() itself refuses exit <= entry only with a warning).
check_survival_entry <- function(entry, exit) {
  if (anyNA(entry)) {
    stop(sprintf(paste("`y` has %d missing entry times; a row of Surv(entry, exit, event) needs its entry time, before",
                       "its exit (Surv() makes an entry at or after the exit missing, with a warning): a row is at",
                       "risk over (entry, exit]."),
                 sum(is.na(entry))), call. = FALSE)
  }
  if (any(!is.finite(entry))) stop(sprintf("`y` has %d infinite entry times.", sum(!is.finite(entry))), call. = FALSE)
  late <- !is.na(exit) & entry >= exit
  if (any(late)) {
    stop(sprintf("`y` has %d row%s whose entry time is at or after the exit time (e.g. row %d: entry %s, exit %s); a row is at risk over (entry, exit].",
                 sum(late), if (sum(late) == 1L) "" else "s", which(late)[1L], format(entry[which(late)[1L]]),
                 format(exit[which(late)[1L]])), call. = FALSE)
  }
}
