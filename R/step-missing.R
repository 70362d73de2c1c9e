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
  combine = equal_states("imputation of missing values")
)

# The design of a model frame with its missing values filled in and the
# indicator columns appended; the fill of its columns, from `rows`, kept in
# the design (column origins: the indicators' predictors).
impute_frame_fit <- function(mf, rows, build) {
  na <- frame_na_spec(if (is.null(rows)) mf else mf[rows, , drop = FALSE])
  filled <- frame_na_apply(mf, na)
  design <- build(filled$mf)
  na$indicator_names <- indicator_names(na$indicators, colnames(design$x))
  design$x <- frame_add_indicators(design$x, filled$indicators, na)
  design$spec$na_action <- "impute"
  design$spec$impute <- na
  design$spec$origin <- c(design$spec$origin, match(na$indicators, design$spec$predictors))
  design
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
