# Design matrices: turn what the user gave (formula + data, data frame,
# matrix, sparse matrix) into the numeric input of the engine, and store in
# the model everything needed to do the same to new data at predict() time.

# --- fitting -------------------------------------------------------------------

# Design from a model frame without response. Factors (and character columns)
# become one indicator column per level. `inputs` (design_inputs(),
# R/prefit-steps.R): the pre-fit steps that act on the frame before it
# becomes columns (missing values, R/step-missing.R) and the rows they are
# fitted on.
# With `level_codes` a number (factor_coding "order" or "auto",
# R/factor-coding.R) a factor of more levels than that (and at least two)
# that is a term of its own becomes one column of its level codes 1..L
# instead of L indicator columns: no n x L matrix.
# spec$origin gives, for each design column, the position in
# spec$predictors (the model frame's columns) of the predictor it comes
# from, NA for a column of several predictors (interactions): columns are
# matched to predictors by position, never by pasted names.
frame_design <- function(terms, mf, inputs = design_inputs(), level_codes = NULL) {
  for (v in names(mf)) {
    if (is.character(mf[[v]])) mf[[v]] <- factor(mf[[v]])
  }
  dates <- date_classes(mf)
  mf <- dates_as_numbers(mf, dates)
  bad <- vapply(mf, function(col) !(is.numeric(col) || is.factor(col) || is.logical(col)), TRUE)
  if (any(bad)) {
    stop(sprintf("Predictor column%s %s must be numeric, logical, factor, character, Date or POSIXct.",
                 if (sum(bad) > 1) "s" else "", paste0("`", names(mf)[bad], "`", collapse = ", ")),
         call. = FALSE)
  }
  design <- input_steps_fit("frame", mf, inputs, function(mf) frame_columns(terms, mf, dates, level_codes))
  design$spec$feature_names <- colnames(design$x)
  design
}

# The design list(spec, x) of a complete model frame (frame_design()).
frame_columns <- function(terms, mf, dates, level_codes) {
  # a column the formula only removes (`. - z`) may hold anything
  check_finite_frame(mf[terms_frame_columns(stored_terms(terms), names(mf))])
  factors <- names(mf)[vapply(mf, is.factor, TRUE)]
  xlevels <- lapply(mf[factors], levels)
  # One-level factors cannot take contrasts: they become a 0/1 column.
  contrasts <- lapply(xlevels[lengths(xlevels) > 1], indicator_contrasts)
  term_var <- term_variables(stored_terms(terms), names(mf))
  if (!is.null(level_codes)) {
    alone <- intersect(names(contrasts), names(mf)[alone_variables(stored_terms(terms), term_var)])
    alone <- alone[lengths(xlevels[alone]) > level_codes]
    contrasts[alone] <- lapply(xlevels[alone], code_contrasts)
  }
  spec <- list(type = "frame", terms = light_terms(terms), xlevels = xlevels, contrasts = contrasts)
  if (length(dates)) spec$dates <- dates
  x <- frame_matrix(spec, mf, keep_assign = TRUE)
  spec$predictors <- names(mf)
  spec$origin <- term_var[attr(x, "assign")]
  attr(x, "assign") <- NULL
  list(spec = spec, x = x)
}

# For each term of `terms`, the position in `predictors` (the model frame's
# columns, in the order of the terms' variables) of its one variable; NA for
# a term of several variables. By position: a variable's label in the terms
# is deparsed (`g g`), the frame's column name is not.
term_variables <- function(terms, predictors) {
  factors <- attr(terms, "factors")
  if (!length(factors)) return(integer())
  var <- rep(NA_integer_, ncol(factors))
  # the terms' variables are the frame's columns, in the same order
  if (nrow(factors) != length(predictors)) return(var)
  one <- which(colSums(factors > 0) == 1)
  for (j in one) var[j] <- which(factors[, j] > 0)
  var
}

# A factor's "contrast" of level codes: one column holding 1..L.
code_contrasts <- function(levels) matrix(as.double(seq_along(levels)), ncol = 1L, dimnames = list(levels, ""))

# --- dates and plain numeric data frames ----------------------------------------

# Date and POSIXct columns are used as numbers (days, seconds since
# 1970-01-01 UTC), as ranger does; the design stores which columns were
# dates (a named character vector of their classes) so that predict()
# converts new data the same way.
date_classes <- function(mf) {
  classed <- names(mf)[!vapply(lapply(mf, oldClass), is.null, NA)]  # primitives only: thousands of columns
  cls <- vapply(mf[classed], function(col) if (inherits(col, "Date")) "Date" else if (inherits(col, "POSIXct")) "POSIXct" else "",
                "", USE.NAMES = TRUE)
  cls[nzchar(cls)]
}

dates_as_numbers <- function(mf, dates, where = NULL) {
  for (v in names(dates)) {
    col <- mf[[v]]
    if (!is.null(where) && !inherits(col, dates[[v]])) {
      stop(sprintf("Column `%s` of `%s` must be a %s, as in training.", v, where, dates[[v]]), call. = FALSE)
    }
    mf[[v]] <- as.double(unclass(col))
  }
  mf
}

# A column the plain path takes as it is: a numeric vector without class
# (or a Date or POSIXct), no matrix column.
plain_column <- function(col) {
  (is.double(col) || is.integer(col)) && is.null(dim(col)) &&
    (is.null(oldClass(col)) || inherits(col, c("Date", "POSIXct")))
}

# The terms of `~ v1 + v2 + ...` built directly: stats::terms() spends time
# and memory on the square of the number of variables (its "factors"
# matrix, kept here only for narrow data as light_terms() does).
additive_terms <- function(vars, env) {
  syms <- lapply(vars, as.name)
  labels <- vars
  odd <- make.names(vars) != vars
  labels[odd] <- vapply(syms[odd], deparse, "", backtick = TRUE)
  # parsed in one go (the same left-nested sum as call("+", ...) repeated)
  rhs <- str2lang(paste(labels, collapse = " + "))
  factors <- if (length(vars)^2 <= 10000) diag(1L, length(vars))
  if (!is.null(factors)) dimnames(factors) <- list(labels, labels)
  structure(call("~", rhs), variables = as.call(c(quote(list), syms)), factors = factors, term.labels = labels,
            order = rep(1L, length(vars)), intercept = 1L, response = 0L, class = c("terms", "formula"),
            .Environment = env)
}

# Design of a data frame whose predictor columns are all plain (see
# plain_column()): the columns as they are, without model.frame() and
# model.matrix(), whose cost grows with the square of the columns. The spec
# is a "frame" one with `columns`, the predictors' names, which predict()
# takes the same way; the design matrix is the one frame_design() builds.
plain_frame_design <- function(mf, env, inputs = design_inputs()) {
  vars <- names(mf)
  dates <- date_classes(mf)
  mf <- dates_as_numbers(mf, dates)
  spec <- list(type = "frame", terms = additive_terms(vars, env), xlevels = list(), contrasts = list(),
               columns = vars)
  if (length(dates)) spec$dates <- dates
  design <- input_steps_fit("plain", list(mf = mf, x = plain_frame_matrix(spec, mf), spec = spec), inputs,
                            plain_complete)
  design$spec$feature_names <- colnames(design$x)
  design
}

# The design list(spec, x) of a plain frame's complete matrix.
plain_complete <- function(data) {
  if (anyNA(data$x) || !is.finite(sum(data$x))) check_finite_frame(data$mf)  # the error names the columns
  list(spec = data$spec, x = data$x)
}

# frame_na_apply() for a plain design: the design matrix `x` of frame `mf`
# filled in, and the indicator columns (no work when nothing is missing).
plain_na_apply <- function(x, mf, spec, na) {
  if (!anyNA(x)) return(list(x = x, indicators = matrix(0, nrow(x), length(na$indicators))))
  filled <- frame_na_apply(mf, na)
  list(x = plain_frame_matrix(spec, filled$mf), indicators = filled$indicators)
}

# The design matrix of the plain columns (named by the terms' labels, as
# model.matrix() names them).
plain_frame_matrix <- function(spec, mf) {
  x <- matrix(as.double(unlist(mf[spec$columns], use.names = FALSE)), nrow = nrow(mf), ncol = length(spec$columns))
  colnames(x) <- attr(spec$terms, "term.labels")
  x
}

# Whether a data frame's predictors take the plain path.
plain_frame <- function(df) {
  if (!length(df)) return(FALSE)
  # columns without attributes need only their type (primitives: thousands of columns)
  bare <- vapply(lapply(df, attributes), is.null, NA)
  numeric <- vapply(df, is.double, NA) | vapply(df, is.integer, NA)
  all(numeric[bare]) && all(vapply(df[!bare], plain_column, NA))
}

# The predictor names of a frame design (the variables of its formula).
frame_input_names <- function(spec) if (!is.null(spec$columns)) spec$columns else all.vars(spec$terms)

frame_add_indicators <- function(x, ind, na) {
  if (!length(na$indicators)) return(x)
  colnames(ind) <- na$indicator_names
  cbind(x, ind)
}

indicator_contrasts <- function(levels) {
  m <- diag(length(levels))
  dimnames(m) <- list(levels, levels)
  m
}

# A model must not carry its caller's local variables: keep the formula's
# environment only when it is a global or package environment (saved by
# reference); otherwise use the nearest such one. Functions used in the formula
# must then be found there at predict() time.
# The terms' "factors" matrix (variables x terms) grows with the square of
# the predictors (2.3 MB for 753 of them); when the formula gives it back
# exactly, it is dropped and stored_terms() rebuilds it.
light_terms <- function(terms) {
  env <- environment(terms)
  if (!is.null(env)) environment(terms) <- topenv(env)
  factors <- attr(terms, "factors")
  if (length(factors) > 10000 && identical(attr(stats::terms(stats::formula(terms)), "factors"), factors)) {
    attr(terms, "factors") <- NULL
  }
  terms
}

# A model's terms with their "factors" matrix (see light_terms()).
stored_terms <- function(terms) {
  if (is.null(attr(terms, "factors")) && length(attr(terms, "term.labels"))) {
    attr(terms, "factors") <- attr(stats::terms(stats::formula(terms)), "factors")
  }
  terms
}

# `keep_assign`: attribute "assign" gives each column's term (from 1).
frame_matrix <- function(spec, mf, keep_assign = FALSE) {
  for (v in names(spec$xlevels)[lengths(spec$xlevels) == 1]) {
    if (v %in% names(mf)) mf[[v]] <- as.numeric(!is.na(mf[[v]]))
  }
  x <- stats::model.matrix(stored_terms(spec$terms), mf, contrasts.arg = spec$contrasts)
  # Dropping the intercept copies the matrix once (and its attributes with
  # it); the edits after that are made in place on the copy.
  keep <- colnames(x) != "(Intercept)"
  assign <- if (keep_assign) attr(x, "assign")[keep]
  x <- if (all(keep)) `attributes<-`(x, attributes(x)[c("dim", "dimnames")]) else x[, keep, drop = FALSE]
  one_level <- names(spec$xlevels)[lengths(spec$xlevels) == 1]
  hit <- match(one_level, colnames(x))
  if (any(!is.na(hit))) colnames(x)[hit[!is.na(hit)]] <- paste0(one_level, unlist(spec$xlevels[one_level]))[!is.na(hit)]
  if (!is.double(x)) storage.mode(x) <- "double"
  if (keep_assign) attr(x, "assign") <- assign
  x
}

check_finite_frame <- function(mf) {
  bad_na <- names(mf)[vapply(mf, anyNA, TRUE)]
  if (length(bad_na)) {
    stop(sprintf("Missing values (NA/NaN) in predictor column%s %s. Remove or impute them first.",
                 if (length(bad_na) > 1) "s" else "", paste0("`", bad_na, "`", collapse = ", ")),
         call. = FALSE)
  }
  bad_inf <- names(mf)[vapply(mf, function(col) is.numeric(col) && any(is.infinite(col)), TRUE)]
  if (length(bad_inf)) {
    stop(sprintf("Infinite values in predictor column%s %s.", if (length(bad_inf) > 1) "s" else "",
                 paste0("`", bad_inf, "`", collapse = ", ")), call. = FALSE)
  }
}

# Design for the x argument of svforest.default(): data frame, matrix or
# sparse matrix. Returns list(spec, x) where x is a double matrix or dgCMatrix.
x_design <- function(x, inputs = design_inputs(), level_codes = NULL) {
  if (is.data.frame(x)) {
    if (ncol(x) == 0) stop("`x` has no columns.", call. = FALSE)
    if (is.null(names(x)) || anyDuplicated(names(x)) || any(names(x) == "")) {
      stop("`x` must have unique, non-empty column names.", call. = FALSE)
    }
    x <- as.data.frame(x)  # tibbles and friends
    check_frame_columns(x, "x")
    if (plain_frame(x)) return(plain_frame_design(x, baseenv(), inputs))
    vars <- lapply(names(x), as.name)
    rhs <- Reduce(function(a, b) call("+", a, b), vars)
    terms <- stats::terms(stats::as.formula(call("~", rhs), env = baseenv()))
    mf <- stats::model.frame(terms, x, na.action = stats::na.pass)
    return(frame_design(terms, mf, inputs, level_codes))
  }
  if (inherits(x, "Matrix")) {
    x <- as_dgc(x)
    check_column_names(x, "x")
    return(matrix_design(x, "sparse", inputs))
  }
  if (is.matrix(x)) {
    if (!(is.numeric(x) || is.logical(x))) {
      stop(sprintf("`x` must be a numeric matrix, not a %s matrix. Use a data frame for mixed types.",
                   typeof(x)), call. = FALSE)
    }
    if (!is.double(x)) storage.mode(x) <- "double"  # (a no-op assignment can still cost a copy later)
    check_column_names(x, "x")
    return(matrix_design(x, "matrix", inputs))
  }
  stop(sprintf("`x` must be a data frame, a numeric matrix or a Matrix::dgCMatrix, not %s.", describe(x)),
       call. = FALSE)
}

# Design of a numeric matrix or dgCMatrix: the columns as they are, after
# the pre-fit steps that act on the input (missing values filled in and
# indicator columns appended, R/step-missing.R).
matrix_design <- function(x, type, inputs = design_inputs()) {
  input_steps_fit("matrix", x, inputs, function(x) {
    check_finite_matrix(x, "x")
    list(spec = list(type = type, feature_names = colnames(x)), x = x)
  })
}

# Columns of a matrix or dgCMatrix are matched by name at predict() time, so
# names, when given, must identify the columns.
check_column_names <- function(x, arg) {
  nm <- colnames(x)
  if (is.null(nm)) return(invisible())
  if (anyNA(nm) || any(nm == "") || anyDuplicated(nm)) {
    stop(sprintf("`%s` must have unique, non-empty column names, or none (columns are then matched by position).",
                 arg), call. = FALSE)
  }
}

# Missing or infinite values of a numeric matrix or dgCMatrix: an error
# naming the first columns that hold them.
check_finite_matrix <- function(x, arg) {
  if (methods::is(x, "dgCMatrix")) {
    bad_entry <- which(!is.finite(x@x))
    if (!length(bad_entry)) return(invisible())
    bad <- unique(findInterval(bad_entry - 1, x@p, rightmost.closed = FALSE))
  } else {
    # anyNA() and sum() need no n x p temporary; a finite sum means every
    # value is finite (a sum that overflows gets the full check)
    if (!anyNA(x) && is.finite(sum(x))) return(invisible())
    bad <- which(colSums(!is.finite(x)) > 0)
    if (!length(bad)) return(invisible())
  }
  nm <- if (is.null(colnames(x))) paste0("column ", bad) else paste0("`", colnames(x)[bad], "`")
  stop(sprintf("`%s` contains missing or infinite values in %s%s.", arg,
               paste(utils::head(nm, 5), collapse = ", "), if (length(nm) > 5) ", ..." else ""),
       call. = FALSE)
}

# Data frame columns must not be lists.
check_frame_columns <- function(x, arg) {
  bad <- names(x)[vapply(x, is.list, TRUE)]
  if (length(bad)) {
    stop(sprintf("Column%s %s of `%s` must be numeric, logical, factor or character, not lists.",
                 if (length(bad) > 1) "s" else "", paste0("`", bad, "`", collapse = ", "), arg),
         call. = FALSE)
  }
}

as_dgc <- function(x) {
  if (!methods::is(x, "dgCMatrix")) {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
  }
  x
}

# Engine input from a design matrix; `factors` (level_code_columns()): the
# columns of level codes that each tree codes (dense designs only).
engine_data <- function(x, factors = NULL) {
  if (methods::is(x, "dgCMatrix")) {
    list(type = "sparse", i = x@i, p = x@p, x = x@x, nrow = nrow(x), ncol = ncol(x))
  } else if (length(factors$cols)) {
    list(type = "dense", x = x, factor_cols = as.integer(factors$cols - 1L), factor_levels = as.integer(factors$levels))
  } else {
    list(type = "dense", x = x)
  }
}
