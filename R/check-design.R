# Checks of the parts of a frame design that predict() reads without
# looking: the factors' contrasts (their codes become the engine's input)
# and the terms (model.matrix() orders the design columns by them). A
# damaged one would give other columns or other numbers, so predictions
# that look fine; here it is an error naming the element. Only what the
# fit recorded is compared (no model frame is built), so predict() on one
# row stays fast.

check_design_codings <- function(d, fail) {
  if (!identical(d$type, "frame")) return(invisible())
  check_design_contrasts(d, fail)
  if (!is.null(d$columns)) {
    check_plain_terms(d, fail)
  } else if (!is.null(d$predictors)) {
    check_frame_terms(d, fail)
  }
  invisible()
}

# Each contrast: finite numbers, one row per level of its factor.
check_design_contrasts <- function(d, fail) {
  for (v in names(d$contrasts)) {
    m <- d$contrasts[[v]]
    where <- sprintf("'design$contrasts' of factor `%s`", v)
    if (!v %in% names(d$xlevels)) fail(sprintf("%s has no levels in 'design$xlevels'", where))
    if (!is.numeric(m) || !is.matrix(m) || ncol(m) < 1) fail(sprintf("%s is not a numeric matrix", where))
    if (anyNA(m) || !all(is.finite(m))) fail(sprintf("%s holds NA or infinite codes", where))
    if (nrow(m) != length(d$xlevels[[v]])) fail(sprintf("%s does not have one row per level", where))
  }
}

# A plain design (R/design.R, plain_frame_design()): the terms name the
# columns in their order, as the feature names do.
check_plain_terms <- function(d, fail) {
  labels <- attr(d$terms, "term.labels")
  if (!identical(d$feature_names[seq_along(labels)], labels)) {
    fail("'design$terms' does not match 'design$feature_names' (terms reordered or of another formula)")
  }
}

# A model-frame design: the terms' variables are the fit's predictors, in
# the same order, and their terms give the design columns' origins.
check_frame_terms <- function(d, fail) {
  tt <- d$terms
  vars <- as.list(attr(tt, "variables"))[-1L]
  response <- attr(tt, "response")
  if (length(response) == 1 && !is.na(response) && response > 0) vars <- vars[-response]
  if (!identical(vapply(vars, frame_column_name, ""), d$predictors)) {
    fail("'design$terms' does not match 'design$predictors' (terms reordered or of another formula)")
  }
  factors <- attr(tt, "factors")
  if (is.null(factors)) return(invisible())  # a wide model's light terms (R/design.R): variables checked
  labels <- attr(tt, "term.labels")
  if (!is.matrix(factors) || !identical(colnames(factors), labels)) {
    fail("'design$terms' is damaged (its term labels do not match its terms)")
  }
  term_var <- term_variables(tt, d$predictors)
  n_indicators <- if (identical(d$na_action, "impute")) length(d$impute$indicators) else 0L
  origin <- d$origin[seq_len(length(d$origin) - n_indicators)]
  if (!identical(runs(term_var), runs(origin))) {
    fail("'design$terms' does not match 'design$origin' (terms reordered or of another formula)")
  }
}

# The name model.frame() gives the column of a variable of a formula.
frame_column_name <- function(v) {
  if (is.symbol(v)) return(as.character(v))  # most variables: no deparse
  paste(deparse(v, width.cutoff = 500L, backtick = is.language(v)), collapse = " ")
}

# A sequence with consecutive repeats (NA included) dropped.
runs <- function(x) {
  x <- as.integer(x)
  if (length(x) < 2) return(x)
  now <- x[-1]
  before <- x[-length(x)]
  same <- (is.na(now) & is.na(before)) | (!is.na(now) & !is.na(before) & now == before)
  x[!c(FALSE, same)]
}
