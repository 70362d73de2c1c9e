#' @include prefit-steps.R
NULL

# Pre-fit step: missing predictor values, `na_action` (R/missing.R). With
# "impute" (the default) the design stores, fitted on the rows the fit uses
# (positive case weight), what fills the missing values of any later rows
# the same way: `na_action` and `impute`; the indicator columns of the
# predictors that had missing values are appended to the design matrix. It
# acts on the input before it becomes a design matrix (input_fit,
# input_replay), since a factor's missing level must exist before the factor
# becomes columns.
missing_values_step <- new_prefit_step(
  "missing_values",
  phase = "rows",
  args = "na_action",
  fit = NULL,
  input_fit = function(kind, data, args, rows, build) {
    if (!identical(check_na_action(args[["na_action"]]), "impute")) return(build(data))
    switch(kind, frame = impute_frame_fit(data, rows, build), plain = impute_plain_fit(data, rows, build),
           impute_matrix_fit(data, rows, build))
  },
  input_replay = function(kind, design, data, build) {
    if (!imputes(design)) return(build(data))
    na <- design$impute
    if (kind == "matrix") {
      if (!inherits(data, "Matrix")) storage.mode(data) <- "double"
      return(build(matrix_na_apply(data, na, design$feature_names)))
    }
    if (kind == "frame") {
      filled <- frame_na_apply(data, na)
      return(frame_add_indicators(build(filled$mf), filled$indicators, na))
    }
    filled <- plain_na_apply(data$x, data$mf, design, na)
    data$x <- filled$x
    frame_add_indicators(build(data), filled$indicators, na)
  },
  state = function(model) list(na_action = model$design$na_action, impute = model$design$impute),
  check = function(state, design, fail) {
    if (is.null(state$na_action)) return(invisible())
    if (!identical(state$na_action, "impute") && !identical(state$na_action, "fail")) {
      fail("'design$na_action' is damaged")
    }
    if (identical(state$na_action, "impute") && !impute_ok(design)) fail("'design$impute' is damaged")
  },
  combine = equal_states("imputation of missing values"),
  # each column's fill (a factor's level in attribute fill_level, for the
  # factor coding step), the indicator columns, the joint imputation
  describe = function(map, design) {
    if (!imputes(design)) return(map)
    na <- design$impute
    if (!identical(design$type, "frame")) {
      k <- design$input_ncol
      map$fill[seq_len(k)] <- unlist(na$values)
      at <- k + seq_along(na$indicators)
    } else {
      for (j in seq_len(nrow(map))) {
        fill <- na$values[[map$variable[j]]]
        if (is.null(fill)) next
        map$fill[j] <- switch(map$type[j], numeric = fill, logical = as.double(fill),
                              factor_level = as.double(fill == map$level[j] |
                                                         length(design$xlevels[[map$variable[j]]]) == 1), NA_real_)
      }
      attr(map, "fill_level") <- na$values[vapply(na$values, is.character, NA)]
      at <- match(na$indicator_names, map$name)
    }
    if (length(at)) {
      map$type[at] <- "missing_indicator"
      map$variable[at] <- if (identical(design$type, "frame")) na$indicators else map$name[na$indicators]
    }
    attr(map, "joint") <- na$joint
    map
  },
  sql = function(design, state) if (identical(state$na_action, "impute")) sql_impute(design, state$impute) else design
)

# The SQL design with missing values filled: every user column's value
# (design$raw) filled with its median, level or logical, or the numbers by
# their joint conditional mean; the indicator columns written.
sql_impute <- function(design, na) {
  map <- design$map
  raw <- design$raw
  filled <- list()
  for (j in seq_len(nrow(map))) {
    v <- map$variable[j]
    type <- map$type[j]
    if (type == "missing_indicator") {
      design$inputs[j] <- sprintf("CASE WHEN %s IS NULL THEN 1.0 ELSE 0.0 END", sql_ident(v))
    } else if (type %in% c("numeric", "input", "logical") && !is.na(map$fill[j])) {
      filled[[v]] <- sprintf("COALESCE(%s, %s)", raw(v), sql_num(map$fill[j]))
    } else if (type %in% c("factor_level", "factor_code") && is.character(na$values[[v]])) {
      filled[[v]] <- sprintf("COALESCE(%s, %s)", raw(v), sql_string(na$values[[v]]))
    }
  }
  joint <- na$joint
  if (!is.null(joint)) {
    numbers <- map$variable[map$type %in% c("numeric", "input")]
    cols <- if (is.null(joint$columns)) numbers else joint$columns
    filled[cols] <- sql_joint_fill(cols, joint, raw, filled[cols])
  }
  design$raw <- function(v) if (is.null(filled[[v]])) raw(v) else filled[[v]]
  design
}

# Conditional-mean imputation of the numeric columns `cols`: each one,
# when missing, by the pattern of the others that are observed (then its
# plain fill `otherwise` when none is).
sql_joint_fill <- function(cols, joint, raw, otherwise) {
  if (length(cols) > 10) {
    stop(sprintf("svforest_sql() writes the conditional-mean imputation one pattern of missing columns at a time; this model imputes %d numeric columns jointly (at most 10).",
                 length(cols)), call. = FALSE)
  }
  lapply(seq_along(cols), function(m) {
    others <- setdiff(seq_along(cols), m)
    k <- length(others)
    patterns <- if (k == 0) matrix(FALSE, 0, 0) else as.matrix(expand.grid(rep(list(c(FALSE, TRUE)), k)))
    patterns <- patterns[rowSums(patterns) < k, , drop = FALSE]  # at least one other observed
    cases <- vapply(seq_len(nrow(patterns)), function(r) {
      mis <- c(m, others[patterns[r, ]])
      obs <- setdiff(seq_along(cols), mis)
      beta <- solve(joint$cov[obs, obs, drop = FALSE], joint$cov[obs, m, drop = FALSE])
      when <- paste(c(sprintf("%s IS NULL", sql_ident(cols[others[patterns[r, ]]])),
                      sprintf("%s IS NOT NULL", sql_ident(cols[obs]))), collapse = " AND ")
      value <- paste(c(sql_num(joint$mean[m]),
                       sprintf("%s * (%s - %s)", sql_num(beta[, 1]), vapply(cols[obs], raw, ""), sql_num(joint$mean[obs]))),
                     collapse = " + ")
      sprintf("WHEN %s THEN %s", when, value)
    }, "")
    fill <- if (is.null(otherwise[[m]])) raw(cols[m]) else otherwise[[m]]
    sprintf("CASE WHEN %s IS NOT NULL THEN %s %s ELSE %s END", sql_ident(cols[m]), raw(cols[m]),
            paste(cases, collapse = " "), fill)
  })
}

# The design of a model frame with its missing values filled in and the
# indicator columns appended; the fill of its columns, from `rows`, kept in
# the design (column origins: the indicators' predictors).
impute_frame_fit <- function(mf, rows, build) {
  used <- frame_term_columns(mf)
  na <- frame_na_spec(mf[if (is.null(rows)) seq_len(nrow(mf)) else rows, used, drop = FALSE])
  filled <- frame_na_apply(mf, na)
  design <- build(filled$mf)
  na$indicator_names <- indicator_names(na$indicators, colnames(design$x))
  design$x <- frame_add_indicators(design$x, filled$indicators, na)
  design$spec$na_action <- "impute"
  design$spec$impute <- na
  design$spec$origin <- c(design$spec$origin, match(na$indicators, design$spec$predictors))
  design
}

# The columns of a model frame that some term reads. A formula such as
# `y ~ . - z` keeps `z` in the frame; its values must not reach the design,
# neither as a missing-value indicator nor through the imputation of the
# others.
frame_term_columns <- function(mf) {
  tt <- attr(mf, "terms")
  if (is.null(tt)) names(mf) else terms_frame_columns(tt, names(mf))
}

# Likewise for a frame of numbers (plain_frame_design(), R/design.R).
impute_plain_fit <- function(data, rows, build) {
  na <- plain_na_spec(if (is.null(rows)) data$x else data$x[rows, , drop = FALSE], names(data$mf))
  filled <- plain_na_apply(data$x, data$mf, data$spec, na)
  data$x <- filled$x
  design <- build(data)
  na$indicator_names <- indicator_names(na$indicators, colnames(design$x))
  design$x <- frame_add_indicators(design$x, filled$indicators, na)
  design$spec$na_action <- "impute"
  design$spec$impute <- na
  design
}

# Likewise for a matrix or dgCMatrix: the indicator columns named when its
# columns are named, and the input columns kept in the design.
impute_matrix_fit <- function(x, rows, build) {
  na <- matrix_na_spec(if (is.null(rows)) x else x[rows, , drop = FALSE])
  input_names <- colnames(x)
  if (!is.null(input_names)) na$indicator_names <- indicator_names(input_names[na$indicators], input_names)
  design <- build(matrix_na_apply(x, na, if (!is.null(input_names)) c(input_names, na$indicator_names)))
  design$spec <- c(design$spec, list(input_names = input_names, input_ncol = length(na$values), na_action = "impute",
                                     impute = na))
  design
}
