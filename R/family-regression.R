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
  check_formula_outcome = no_formula_outcome_checks,
  preset = function(preset) apply_family_defaults(regression_preset(preset), "regression"),
  check_parameters = no_parameter_checks,
  scaling = function(y) outcome_scaling(y),
  engine_y = function(y, scaling) (y - scaling$center) / scaling$scale,
  num_classes = function(y) 0L,
  engine_fit = function(...) engine_fit(...),  # R/engine.R (looked up when called)
  validation_outcome = function(y, scaling) scaling,
  model_fields = function(y, scaling) list(outcome_center = scaling$center, outcome_scale = scaling$scale),
  fields = list(outcome = character(), oob = character(), stages = character()),
  oob = function(oob, y, aggregation, scaling, ntree) {
    tally <- list(oob_sum_whole = oob$sum_whole, oob_sum_fraction = oob$sum_fraction, oob_count = oob$count)
    out <- oob_regression_results(tally, y, scaling)  # R/oob-regression.R
    if (!is.null(oob$error_curve)) out$oob_error_curve <- oob$error_curve * scaling$scale^2  # (none from svforest_future())
    out
  },
  merge_oob = function(a, b) merge_engine_tallies(a, b),
  combine_oob = function(out, parts) {
    scaling <- list(center = out$outcome_center, scale = out$outcome_scale)
    combine_tally_oob(out, parts, oob_regression_tally_names, function(tally, y) oob_regression_results(tally, y, scaling))
  },
  predict_oob = function(object, type, args) predict_forest_oob(object, type),  # R/predict-oob.R
  importance = function(object, x, y, num_threads, oob, per_class) {
    if (per_class) stop("`per_class` is for classification forests.", call. = FALSE)
    yi <- importance_response(object, y, NROW(x))  # R/importance.R: on the engine's scale
    forest_permutation_importance(object, x, yi, num_threads, oob, per_class,
                                  function(yi) isTRUE(all.equal(yi * object$outcome_scale + object$outcome_center, object$oob_y)))
  },
  fit_importance = TRUE,
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
  summary = leaf_share_summary("a model", "the mean"),
  glance = no_glance_figures,
  tree_table = list(  # svforest_tree() and svforest_sql() (R/tree-leaves.R, R/tree-sql.R)
    leaf_predictions = function(object, tr, L) {
      prediction <- vector("list", L)
      means <- tree_leaf_values(object$forest, tr, "mean", NA_real_)
      for (l in which(tree_leaf_payload_kinds(tr) == "mean")) {
        prediction[[l]] <- means[l] * object$outcome_scale + object$outcome_center
      }
      prediction
    },
    linear_leaf = function(object, w, b, lin) {  # in the outcome's units
      w <- w * object$outcome_scale
      colnames(w) <- ".pred"
      list(w = w, b = b * object$outcome_scale + object$outcome_center)
    },
    node_means = TRUE,
    sql_check = function(object, fail) invisible(NULL)),
  methods = function() regression_methods(),
  holdout_score = list(metric = "rmse", better = "lower", score = function(fit, newdata, truth, num_threads) {
    sqrt(mean((stats::predict(fit, newdata, num_threads = num_threads) - truth)^2))
  }),
  score_type = "response",
  calibration_stage = "conformal",  # R/uncertainty.R
  calibration_method = function(calibrate, fraction) {
    # prediction intervals: the conformal stage's values
    if (is.null(calibrate) || isTRUE(calibrate %in% c("conformal", "cv", "oob"))) return("none")
    calibrate <- check_choice(calibrate, "calibrate", calibration_methods)
    if (calibrate != "none") {
      stop(sprintf("For a numeric outcome `calibrate` must be \"oob\" (the default), \"conformal\", \"cv\" or \"none\" (prediction intervals, see predict.svforest()), not %s: %s calibrates class probabilities.",
                   describe(calibrate), describe(calibrate)), call. = FALSE)
    }
    calibrate
  },
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

# The forest's prediction on the outcome's scale (R/predict.R), and
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

# A numeric outcome: finite, one value per row. A constant outcome is fitted
# (every prediction is that constant).
check_numeric_outcome <- function(y, n) {
  if (length(y) != n) {
    stop(sprintf("`y` has %d values but the predictors have %d rows.", length(y), n), call. = FALSE)
  }
  if (anyNA(y)) stop(sprintf("`y` has %d missing values.", sum(is.na(y))), call. = FALSE)
  if (any(!is.finite(y))) stop(sprintf("`y` has %d infinite values.", sum(!is.finite(y))), call. = FALSE)
  # the engine sees (y - centre) / scale; a spread beyond the largest double
  # (values near +-1.8e308 of both signs) cannot be centred
  if (!is.finite(max(y) - min(y))) {
    stop(sprintf("`y` ranges from %s to %s: its spread exceeds the largest double. Rescale it (e.g. divide by 1e10).",
                 format(min(y)), format(max(y))), call. = FALSE)
  }
  as.double(y)
}

# The outcome's scale inside the model: the engine sees (y - center) / scale,
# scale the standard deviation (1 for a constant outcome). Computed without
# overflow for values near the largest double.
outcome_scaling <- function(y) {
  m <- max(abs(y))
  center <- if (m > 0) mean(y / m) * m else 0
  dev <- y - center
  s <- max(abs(dev))
  scale <- if (s > 0) s * stats::sd(dev / s) else 1
  if (!is.finite(scale) || !(scale > 0)) scale <- 1
  list(center = center, scale = scale)
}
