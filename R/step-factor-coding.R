#' @include prefit-steps.R
NULL

# Pre-fit step: factors held as level codes (R/factor_coding.R). The design
# gives a factor of many levels one column of codes 1..L (its contrast,
# chosen while the design matrix is built); each tree then codes the levels
# by its own in-bag rows, so the engine is given those columns. New rows
# get the same contrasts from the design: nothing to replay on the matrix.
factor_coding_step <- new_prefit_step(
  "factor_coding",
  fit = function(ctx) {
    ctx$factors <- level_code_columns(ctx$design$spec, ctx$params$factor_coding)
    ctx
  },
  state = function(model) model$design$contrasts,
  # the contrasts and the terms that order the design columns (R/check-design.R)
  check = function(state, design, fail) check_design_codings(design, fail),
  combine = equal_states("factor coding (contrasts)")
)
