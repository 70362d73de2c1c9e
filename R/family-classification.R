#' @include family.R
NULL

# The classification family: a factor outcome (characters and logicals are
# made factors), fitted on its level codes; every outcome no later family
# claims comes here, so a wrong kind of `y` gets its error from check_outcome().
register_family(
  name = "classification",
  priority = 1,  # asked last: every outcome no other family claims
  detects = function(y) TRUE,
  matrix_outcome = FALSE,
  check = function(y, n) check_outcome(y, n),
  check_rows = function(y) {
    if (sum(tabulate(y, nlevels(y)) > 0) < 2) {
      stop("The rows of positive `case_weights` hold only one class; a classifier needs two.", call. = FALSE)
    }
  },
  check_formula_outcome = no_formula_outcome_checks,
  preset = function(preset) apply_family_defaults(preset, "classification"),  # every method fits classes
  check_parameters = no_parameter_checks,
  scaling = function(y) NULL,
  engine_y = function(y, scaling) as.integer(y) - 1L,
  num_classes = function(y) nlevels(y),
  engine_fit = function(...) engine_fit(...),  # R/engine.R (looked up when called)
  validation_outcome = function(y, scaling) levels(y),
  model_fields = function(y, scaling) list(levels = levels(y), class_counts = tabulate(y, nlevels(y))),
  fields = list(outcome = character(), oob = character(), stages = character()),
  oob = function(oob, y, aggregation, scaling, ntree) {
    tally <- list(oob_votes = oob$votes, oob_prob_sum = oob$shares, oob_count = oob$count)
    if (identical(aggregation, "max_confidence")) {
      tally$oob_confidence <- oob$confidence
      tally$oob_confident_class <- ifelse(oob$confident_class < 0L, NA_integer_, oob$confident_class + 1L)
    }
    # each row's tally of its even-numbered trees: the error at the forest's size
    if (!is.null(oob$even_count)) tally[oob_even_names] <- list(oob$even_votes, oob$even_shares, oob$even_count)
    out <- oob_class_results(tally, as.integer(y), levels(y), aggregation, n_trees = ntree)  # R/oob-classification.R
    out$oob_error_curve <- oob$error_curve  # (none from a forest grown in parts, svforest_future())
    out
  },
  merge_oob = function(a, b) merge_engine_tallies(a, b),
  combine_oob = function(out, parts) {
    aggregation <- out$params$aggregation
    combine_tally_oob(out, parts, oob_class_tally_names(aggregation), function(tally, y) {
      oob_class_results(tally, y, out$levels, aggregation, n_trees = length(out$forest$trees))
    })
  },
  predict_oob = function(object, type, args) predict_forest_oob(object, type),  # R/predict-oob.R
  importance = function(object, x, y, num_threads, oob, per_class) {
    yi <- importance_outcome(object, y, NROW(x))  # R/importance.R: class codes from 0
    forest_permutation_importance(object, x, yi, num_threads, oob, per_class,
                                  function(yi) identical(as.integer(yi + 1L), as.integer(object$oob_y)))
  },
  fit_importance = TRUE,
  check_model = function(object, fail) {
    lev <- object$levels
    if (!is.character(lev) || length(lev) < 2 || anyNA(lev) || anyDuplicated(lev)) fail("'levels' is damaged")
    if (!identical(object$forest$num_classes, length(object$levels))) {
      fail("'forest$num_classes' does not match 'levels'")
    }
  },
  print_outcome = function(x) paste("  Classes:              ", paste(x$levels, collapse = ", "), ""),
  combining = function(x) x$params$aggregation,
  oob_text = function(x) sprintf("%.2f%%", 100 * x$oob_error),
  oob_label = "OOB error",
  summary = leaf_share_summary("an SVM", "class frequencies"),
  glance = no_glance_figures,
  tree_table = list(  # svforest_tree() and svforest_sql() (R/tree-leaves.R, R/tree-sql.R)
    leaf_predictions = function(object, tr, L) {
      counts <- tree_leaf_counts(object$forest, tr)
      lapply(seq_len(L), function(l) stats::setNames(counts[, l] / sum(counts[, l]), object$levels))
    },
    linear_leaf = function(object, w, b, lin) {
      cls <- object$levels[lin$classes]
      colnames(w) <- if (length(cls) == 2L) cls[2] else cls
      attr(w, "classes") <- cls
      list(w = w, b = b)
    },
    node_means = TRUE,
    sql_check = function(object, fail) {
      if (!object$params$aggregation %in% c("prob", "vote")) fail(sprintf("the \"%s\" aggregation", object$params$aggregation))
    }),
  methods = function() method_names(),
  holdout_score = list(metric = "accuracy", better = "higher", score = function(fit, newdata, truth, num_threads) {
    mean(stats::predict(fit, newdata, num_threads = num_threads) == truth)
  }),
  score_type = "prob",
  calibration_stage = "calibration",
  calibration_method = function(calibrate, fraction) {
    if (identical(calibrate, "conformal")) {
      stop("`calibrate = \"conformal\"` calibrates prediction intervals of a regression forest (a numeric outcome); for class probabilities use \"platt\", \"temperature\" or \"isotonic\".", call. = FALSE)
    }
    if (is.null(calibrate)) "none" else calibrate
  },
  default_type = "class",
  describe = "a factor"
)

# The forest's classes, probabilities (through the post-fit stages, e.g. a
# calibration), tree votes, leaves and each tree's class (R/predict.R).
for (type in c("class", "prob", "votes")) {
  register_prediction_type(type, "classification", local({
    engine_type <- type
    function(object, newdata, args, num_threads) predict_chunked(object, newdata, engine_type, num_threads)
  }))
}
rm(type)

# A classification outcome: a factor (characters and logicals made one) of
# one class per row, at least two classes with rows.
check_outcome <- function(y, n) {
  if (is.character(y) || is.logical(y)) y <- factor(y)
  if (!is.factor(y)) {
    stop(sprintf(paste("`y` must be a factor (classification), a numeric vector (regression), a",
                       "survival::Surv(time, status) (survival) or Surv(time, event) with an event factor whose",
                       "first level is censoring (competing risks), not %s."),
                 describe(y)), call. = FALSE)
  }
  if (length(y) != n) {
    stop(sprintf("`y` has %d values but the predictors have %d rows.", length(y), n), call. = FALSE)
  }
  if (anyNA(y)) stop(sprintf("`y` has %d missing values.", sum(is.na(y))), call. = FALSE)
  if (anyNA(levels(y))) stop("`y` has a level that is NA (see addNA()); give the missing class a name.", call. = FALSE)
  # tabulate(), not table(): table() makes several n-long temporaries
  counts <- stats::setNames(tabulate(y, nlevels(y)), levels(y))
  if (sum(counts > 0) < 2) {
    stop("`y` must have at least two classes with rows; found ",
         if (sum(counts > 0) == 1) paste0('only "', names(counts)[counts > 0], '"') else "none", ".",
         call. = FALSE)
  }
  if (any(counts == 0)) {
    warning(sprintf("Level%s %s of `y` %s no rows; the model keeps %s but never predicts %s.",
                    if (sum(counts == 0) > 1) "s" else "",
                    paste0('"', names(counts)[counts == 0], '"', collapse = ", "),
                    if (sum(counts == 0) > 1) "have" else "has",
                    if (sum(counts == 0) > 1) "them" else "it",
                    if (sum(counts == 0) > 1) "them" else "it"), call. = FALSE)
  }
  y
}
