# Case and class weights: checked here, turned into the engine's sampling
# weights (one positive weight per row used), stored in the model (the
# pre-fit step of R/step-weights.R).
#
# They act through the rows each tree draws (src/core/forest/Sampler.h):
# the bootstrap draws rows with probability proportional to their weight
# (as ranger's case.weights); the "all" sampler, and the subsample for the
# rows it draws, repeat each row about weight / smallest weight times. Every splitter and leaf
# model then sees the weights as row multiplicities: RSVF's Newton solvers
# as row weights, LIBLINEAR and LIBSVM as repeated rows.

# Case weights as given: NULL, or one finite non-negative number per row,
# not all zero. hardhat's case weights (parsnip) are accepted as they are.
check_case_weights <- function(w, n) {
  if (is.null(w)) return(NULL)
  if (inherits(w, "hardhat_case_weights")) w <- as.double(unclass(w))
  if (!is.numeric(w) || is.factor(w) || !is.null(dim(w))) {
    stop(sprintf("`case_weights` must be a numeric vector, not %s.", describe(w)), call. = FALSE)
  }
  if (length(w) != n) {
    stop(sprintf("`case_weights` has %d values but the training data have %d rows.", length(w), n), call. = FALSE)
  }
  if (anyNA(w)) stop(sprintf("`case_weights` has %d missing values.", sum(is.na(w))), call. = FALSE)
  if (any(!is.finite(w))) stop("`case_weights` must be finite.", call. = FALSE)
  if (any(w < 0)) stop(sprintf("`case_weights` must be non-negative; %d are negative.", sum(w < 0)), call. = FALSE)
  if (!any(w > 0)) stop("`case_weights` are all zero: no row is left to fit.", call. = FALSE)
  as.double(w)
}

# Class weights: NULL, or a positive weight per class, named by the
# outcome's levels (every level once; a weight for an unknown level is an
# error). Returned in the order of levels(y).
check_class_weights <- function(cw, y, family) {
  if (is.null(cw)) return(NULL)
  if (family$num_classes(y) == 0L) {  # R/family.R
    stop(sprintf("`class_weights` are for classification; this outcome is %s (use `case_weights`).", family$describe),
         call. = FALSE)
  }
  lev <- levels(y)
  if (!is.numeric(cw) || is.null(names(cw)) || anyNA(names(cw)) || any(names(cw) == "") ||
      anyDuplicated(names(cw))) {
    stop(sprintf("`class_weights` must be a numeric vector named by the classes, e.g. c(%s), not %s.",
                 paste0(lev[seq_len(min(2, length(lev)))], " = 1", collapse = ", "), describe(cw)),
         call. = FALSE)
  }
  unknown <- setdiff(names(cw), lev)
  if (length(unknown)) {
    stop(sprintf("`class_weights` names %s, which %s not a class of `y` (%s).",
                 paste0('"', unknown, '"', collapse = ", "), if (length(unknown) > 1) "are" else "is",
                 paste0('"', lev, '"', collapse = ", ")), call. = FALSE)
  }
  absent <- setdiff(lev, names(cw))
  if (length(absent)) {
    stop(sprintf("`class_weights` has no weight for class%s %s.", if (length(absent) > 1) "es" else "",
                 paste0('"', absent, '"', collapse = ", ")), call. = FALSE)
  }
  if (any(!is.finite(cw)) || any(cw <= 0)) {
    stop("`class_weights` must be positive and finite (leave rows out with `case_weights` of 0).", call. = FALSE)
  }
  stats::setNames(as.double(cw[lev]), lev)
}

# The rows a weighted fit uses and the engine's weight of each: rows of case
# weight 0 are left out (the fit is the one without them); the weight of a
# row is its case weight times its class's weight. `sampling` is NULL when
# all weights are equal (then the fit is exactly the unweighted one).
# `rows_used`: NULL when every row is used, else a logical per given row.
weighting <- function(case_weights, class_weights, y) {
  # no n-long temporaries without weights (a million-row fit)
  if (is.null(case_weights) && is.null(class_weights)) return(list(rows_used = NULL, sampling = NULL))
  n <- length(y)
  keep <- if (is.null(case_weights)) rep(TRUE, n) else case_weights > 0
  w <- if (is.null(case_weights)) rep(1, n) else case_weights
  if (!is.null(class_weights)) w <- w * class_weights[as.integer(y)]
  w <- w[keep]
  if (any(!is.finite(w) | w <= 0)) {
    stop("The products of `case_weights` and `class_weights` overflow or underflow (below 1e-308 or above 1e308) for ",
         sum(!is.finite(w) | w <= 0), " rows; rescale the weights.", call. = FALSE)
  }
  list(rows_used = if (all(keep)) NULL else keep,
       sampling = if (length(w) && any(w != w[1])) w else NULL)
}

# `balanced` is the class weighting of the SVMs: with class weights the
# weights replace it, so a fit may not ask for both.
class_weights_balanced <- function(params, user, class_weights) {
  if (is.null(class_weights) || is.null(params$balanced)) return(params)
  if (!is.null(user[["balanced"]]) && !isFALSE(user[["balanced"]])) {
    stop("Give either `class_weights` or `balanced`: class weights replace the SVMs' class balancing.",
         call. = FALSE)
  }
  params$balanced <- FALSE
  params
}
