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
  preset = function(preset) apply_family_defaults(preset, "classification"),  # every method fits classes
  check_parameters = no_parameter_checks,
  scaling = function(y) NULL,
  engine_y = function(y, scaling) as.integer(y) - 1L,
  num_classes = function(y) nlevels(y),
  engine_fit = engine_fit,
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
    out <- oob_from_tally(tally, "classification", as.integer(y), levels(y), aggregation, n_trees = ntree)
    out$oob_error_curve <- oob$error_curve  # (none from a forest grown in parts, svforest_future())
    out
  },
  merge_oob = function(a, b) merge_engine_tallies(a, b),
  combine_oob = function(out, parts) combine_tally_oob(out, parts),
  predict_oob = function(object, type, args) newdata_required(),
  importance = function(object, x, y, num_threads, oob, per_class) {
    yi <- importance_outcome(object, y, NROW(x))  # R/importance.R: class codes from 0
    forest_permutation_importance(object, x, yi, num_threads, oob, per_class,
                                  function(yi) identical(as.integer(yi + 1L), as.integer(object$oob_y)))
  },
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
  summary = no_summary_elements,
  glance = no_glance_figures,
  default_type = "class",
  describe = "a factor"
)

# The forest's classes, probabilities (through the post-fit stages, e.g. a
# calibration), tree votes, leaves and each tree's class (R/predict.svforest.R).
for (type in c("class", "prob", "votes")) {
  register_prediction_type(type, "classification", local({
    engine_type <- type
    function(object, newdata, args, num_threads) predict_chunked(object, newdata, engine_type, num_threads)
  }))
}
rm(type)
