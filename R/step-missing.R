#' @include prefit-steps.R
NULL

# Pre-fit step: missing predictor values, `na_action` (R/missing.R). With
# "impute" the design stores, fitted on the rows of positive case weight,
# what fills the missing values of any later rows the same way: `na_action`
# and `impute`. The fill and the indicator columns are made while the design
# matrix is built (R/design.R, for training and new rows alike), since a
# factor's missing level must exist before the factor becomes columns.
missing_values_step <- new_prefit_step(
  "missing_values",
  phase = "rows",
  args = "na_action",  # read by the design (svforest.formula(), svforest.default())
  fit = NULL,
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
