#' @include family.R
NULL

# The regression family: a finite numeric outcome, which the engine sees
# centred and scaled (outcome_scaling()); predictions are on the outcome's
# scale again.
register_family(
  name = "regression",
  priority = 2,
  detects = function(y) is.numeric(y) && !is.factor(y),
  matrix_outcome = FALSE,
  check = function(y, n) check_numeric_outcome(y, n),
  check_rows = no_row_checks,
  preset = function(preset) apply_family_defaults(regression_preset(preset), "regression"),
  check_parameters = no_parameter_checks,
  scaling = function(y) outcome_scaling(y),
  engine_y = function(y, scaling) (y - scaling$center) / scaling$scale,
  num_classes = function(y) 0L,
  engine_fit = engine_fit,
  validation_outcome = function(y, scaling) scaling,
  model_fields = function(y, scaling) list(outcome_center = scaling$center, outcome_scale = scaling$scale),
  fields = list(outcome = character(), oob = character(), stages = character()),
  oob = function(oob, y, aggregation, scaling, ntree) {
    tally <- list(oob_sum_whole = oob$sum_whole, oob_sum_fraction = oob$sum_fraction, oob_count = oob$count)
    out <- oob_from_tally(tally, "regression", y, NULL, NULL, scaling)
    if (!is.null(oob$error_curve)) out$oob_error_curve <- oob$error_curve * scaling$scale^2  # (none from svforest_future())
    out
  },
  merge_oob = function(a, b) merge_engine_tallies(a, b),
  combine_oob = function(out, parts) combine_tally_oob(out, parts),
  predict_oob = function(object, type, args) newdata_required(),
  importance = function(object, x, y, num_threads, oob, per_class) {
    if (per_class) stop("`per_class` is for classification forests.", call. = FALSE)
    yi <- importance_response(object, y, NROW(x))  # R/importance.R: on the engine's scale
    forest_permutation_importance(object, x, yi, num_threads, oob, per_class,
                                  function(yi) isTRUE(all.equal(yi * object$outcome_scale + object$outcome_center, object$oob_y)))
  },
  check_model = function(object, fail) {
    ok <- function(v) is.numeric(v) && length(v) == 1 && is.finite(v)
    if (!ok(object$outcome_center) || !ok(object$outcome_scale) || !(object$outcome_scale > 0)) {
      fail("'outcome_center' or 'outcome_scale' is damaged")
    }
    if (!identical(object$forest$num_classes, 0L)) fail("'forest$num_classes' does not match a regression model")
  },
  print_outcome = function(x) "  Outcome:               numeric (regression)",
  combining = function(x) "average",
  oob_text = function(x) sprintf("MSE %s, R-squared %.3f", format(signif(x$oob_error, 4)), x$oob_rsquared),
  oob_label = "OOB error",
  summary = no_summary_elements,
  glance = no_glance_figures,
  default_type = "response",
  describe = "numeric"
)

# The method's preset for a numeric outcome: its regression leaf, tree
# count and defaults; a method without a regression preset is an error.
regression_preset <- function(preset) {
  if (is.null(preset$regression)) {
    stop(sprintf("Method \"%s\" is for classification only (a factor outcome); for a numeric outcome use method %s.",
                 preset$name, paste0("\"", regression_methods(), "\"", collapse = ", ")), call. = FALSE)
  }
  preset$leaf <- preset$regression$leaf
  if (!is.null(preset$regression$ntree_max)) preset$ntree_max <- as.integer(preset$regression$ntree_max)
  preset$defaults <- utils::modifyList(preset$defaults, as.list(preset$regression$defaults))
  preset
}

# The forest's prediction on the outcome's scale (R/predict.svforest.R), and
# the quantile forest's quantiles and intervals (R/uncertainty.R).
register_prediction_type("response", "regression",
                         function(object, newdata, args, num_threads) {
                           predict_chunked(object, newdata, "response", num_threads)
                         })
register_prediction_type("quantiles", "regression", args = "quantiles",
                         check = function(args) list(quantiles = check_quantile_levels(args$quantiles)),
                         hint = function(family) uncertainty_type_hint("quantiles", family),
                         run = function(object, newdata, args, num_threads) {
                           predict_uncertainty(object, newdata, "quantiles", args$quantiles, NULL, num_threads)
                         })
register_prediction_type("interval", "regression", args = "level",
                         check = function(args) list(level = check_level(args$level)),
                         hint = function(family) uncertainty_type_hint("interval", family),
                         run = function(object, newdata, args, num_threads) {
                           predict_uncertainty(object, newdata, "interval", NULL, args$level, num_threads)
                         })

uncertainty_type_hint <- function(type, family = "classification") {
  if (identical(family, "classification")) {
    stop(sprintf("`type = \"%s\"` is for regression forests (a numeric outcome); this forest is a classifier. Use type = \"prob\" for its class probabilities.",
                 type), call. = FALSE)
  }
  stop(sprintf("`type = \"%s\"` is for regression forests (a numeric outcome); this forest's outcome is %s.",
               type, svf_registry$families[[family]]$describe), call. = FALSE)
}
