#' @include prefit-steps.R
NULL

# Pre-fit step: case and class weights (R/weights.R). Rows of case weight 0
# are left out, so the fit is the one without them; the others reach the
# engine as sampling weights. The weights describe training rows only:
# nothing is replayed on new rows. Their state stays in the model's own
# elements class_weights, sampling_weights and rows_used.
weights_step <- new_prefit_step(
  "weights",
  phase = "rows",
  args = c("case_weights", "class_weights"),
  fit = function(ctx) {
    case_weights <- check_case_weights(ctx$step_args[["case_weights"]], ctx$n)
    ctx$class_weights <- check_class_weights(ctx$step_args[["class_weights"]], ctx$y, ctx$family)
    ctx$weights <- weighting(case_weights, ctx$class_weights, ctx$y)
    if (!is.null(ctx$weights$rows_used)) {
      ctx$x <- ctx$x[ctx$weights$rows_used, , drop = FALSE]
      ctx$y <- ctx$y[ctx$weights$rows_used]
      ctx$n <- nrow(ctx$x)
      if (!is.null(ctx$family$check_rows)) ctx$family$check_rows(ctx$y)
    }
    ctx
  },
  state = function(model) {
    list(class_weights = model$class_weights, sampling_weights = model$sampling_weights, rows_used = model$rows_used)
  },
  # the state is the model's rows section, checked with it (check_rows_section())
  check = NULL,
  combine = equal_states("case or class weights"),
  # new rows are not weighted: nothing for the SQL of a model to say
  sql = function(design, state) design
)
