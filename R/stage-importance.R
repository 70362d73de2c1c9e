#' @include stages.R
NULL

# The post-fit stage (R/stages.R): svforest(..., importance = ) computes
# the importance right after the fit, into `variable_importance`; a
# combined forest drops it (svforest_importance() computes it again).
importance_stage <- new_stage(
  name = "importance",
  field = "variable_importance",
  args = "importance",
  setup = function(args, y, outcome, seed) {
    if (is.null(args$importance)) return(NULL)
    list(kind = args$importance)
  },
  prepare = function(settings, params, outcome) {
    kind <- check_importance_arg(settings$kind)
    if (kind == "permutation" && !svf_registry$families[[outcome]]$fit_importance) {
      # a family with its own importance keeps no trees' out-of-bag rows to score
      stop(sprintf("`importance = \"permutation\"` at fit time is not available for %s: compute it on rows of your choice with svforest_importance(fit, x, y).",
                   svf_registry$families[[outcome]]$describe), call. = FALSE)
    }
    if (kind == "none") NULL else list(kind = kind)
  },
  run = function(model, settings, data) fit_importance(model, data$x, data$y, settings$kind, data$num_threads)
)
