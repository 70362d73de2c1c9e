#' @include registry.R
NULL

# Outcome families: what an outcome kind means for a fit and a model. Each
# family is its own file (R/family-classification.R, R/family-regression.R)
# and registers here; fit_forest(), predict() and check_model() ask the
# family of the outcome instead of branching on its name. A new outcome kind
# (survival, ...) is a file of its own plus its register_family() call.
#
# A family is a list of these hooks, every one given by every family (a
# family with nothing to add says so with its own function, e.g. no extra
# summary elements: function(object) list()):
#   name,          the model's `type`
#   priority,      detection order: families are asked from the highest
#                  priority down, so a specific family (a Surv object) is
#                  asked before a general one (classification takes any)
#   detects,       function(y): TRUE when y is this family's outcome
#   matrix_outcome, TRUE when the outcome is a matrix (a Surv object) that
#                  the family's own `check` validates; other families refuse
#                  a matrix `y` before any check
#   check,         function(y, n): the outcome checked and coded (an error
#                  for bad values), e.g. characters made a factor
#   check_rows,    function(y): checks of the rows left after zero case
#                  weights dropped some
#   check_formula_outcome, function(outcome, data, env): checks of a
#                  formula's outcome expression (its left side) on `data`
#                  before the model frame is built, for values its
#                  constructor would turn into something else unseen (a
#                  Surv() status of three values); every family's is asked
#   preset,        function(preset): a method's preset as the family fits it
#                  (its leaf, defaults, trees; an error for a method that
#                  does not fit the outcome), with the parameter table's
#                  family defaults (apply_family_defaults(), R/parameters.R)
#   check_parameters, function(user): the user's parameters the family
#                  refuses before any is resolved (e.g. parts it sets itself)
#   scaling,       function(y): list(center, scale) of the outcome as the
#                  engine sees it, or NULL
#   engine_y,      function(y, scaling): the engine's outcome
#   num_classes,   function(y): the engine's number of classes (0: none)
#   engine_fit,    a function with engine_fit()'s arguments and result
#                  (R/engine.R): the engine call, also used by
#                  svforest_future()'s workers
#   validation_outcome, function(y, scaling): what validation_data() needs
#                  to code a validation outcome as the training one
#   model_fields,  function(y, scaling): the family's fields of the model's
#                  `outcome` section
#   fields,        list(outcome, oob, stages): names of the fields the family
#                  may write into those sections after the fit (a model
#                  refuses other new names, R/model.R)
#   oob,           function(oob, y, aggregation, scaling, ntree): the model's
#                  out-of-bag elements from the engine's tallies (`ntree`:
#                  the forest's trees, the size its figures are carried to)
#   merge_oob,     function(a, b): the engine tallies (`oob` of engine_fit())
#                  of consecutive trees merged (svforest_future())
#   combine_oob,   function(out, parts): combine()'s out-of-bag elements of
#                  the combined model `out` from its parts
#   predict_oob,   function(object, type, args): predict() without newdata
#   importance,    function(object, x, y, num_threads, oob, per_class):
#                  permutation importance of a model on predictors `x` (as
#                  newdata) and outcome `y` (svforest_importance())
#   fit_importance, TRUE when svforest(importance = "permutation") scores
#                  the trees' out-of-bag rows at fit time
#   check_model,   function(object, fail): stops (via fail(what)) when the
#                  family's elements of a model are damaged
#   print_outcome, function(x): print()'s line naming the outcome
#   combining,     function(x): how print() names the trees' combination
#   oob_text,      function(x): the out-of-bag figure as print() shows it
#   oob_label,     print()'s name for it ("OOB error", or another name for a
#                  figure that is not an error)
#   summary,       function(object, out): elements summary() adds to its
#                  result `out` (`leaf_line`: its line on the leaves)
#   glance,        function(object): named numbers glance() adds as columns
#   tree_table,    list(leaf_predictions = function(object, tr, L): what
#                  each leaf of tree `tr` predicts, linear_leaf =
#                  function(object, w, b, lin): a linear leaf's weights `w`
#                  and intercepts `b` on the outcome's scale, named,
#                  node_means: whether a split node predicts the mean of its
#                  leaves, sql_check = function(object, fail): what
#                  svforest_sql() cannot express of the model)
#   methods,       function(): the methods that fit the outcome
#   holdout_score, list(metric, better ("higher" or "lower"), score =
#                  function(fit, newdata, truth, num_threads)): how
#                  svforest_select() scores a fit on held-out rows
#   score_type,    the prediction type explainers read (R/explainers.R), or
#                  a list of it and predict()'s further arguments
#   calibration_stage, the post-fit stage `calibrate` configures
#                  ("calibration", "conformal" or "none")
#   calibration_method, function(calibrate, fraction): the calibration
#                  stage's method for svforest()'s `calibrate` ("none" when
#                  another stage, or none, takes it; an error for a value
#                  that does not apply to the outcome)
#   default_type,  predict()'s type when none is given
#   describe,      how the outcome is named in messages ("numeric", ...)
svf_registry$families <- list()

# The hooks every family registers (register_family() refuses a family that
# leaves one out or adds another).
family_hooks <- c("name", "priority", "detects", "matrix_outcome", "check", "check_rows",
                  "check_formula_outcome", "preset",
                  "check_parameters", "scaling", "engine_y", "num_classes", "engine_fit", "validation_outcome",
                  "model_fields", "fields", "oob", "merge_oob", "combine_oob", "predict_oob", "importance", "fit_importance",
                  "check_model", "print_outcome", "combining", "oob_text", "oob_label", "summary", "glance",
                  "tree_table", "methods", "holdout_score", "score_type", "calibration_stage", "calibration_method",
                  "default_type", "describe")

register_family <- function(...) {
  family <- list(...)
  missing <- setdiff(family_hooks, names(family))
  extra <- setdiff(names(family), family_hooks)
  if (length(missing) || length(extra) || any(vapply(family, is.null, TRUE))) {
    stop(sprintf("Internal error: family %s must give every hook once (missing: %s; unknown: %s).",
                 format(family$name), paste(missing, collapse = ", "), paste(extra, collapse = ", ")), call. = FALSE)
  }
  family <- family[family_hooks]
  families <- svf_registry$families
  families[[family$name]] <- family
  # kept in detection order (highest priority first), whatever the order of registration
  svf_registry$families <- families[order(-vapply(families, `[[`, 0, "priority"))]
  invisible(family$name)
}

# A family's hooks that have nothing to add (each family names them itself).
no_row_checks <- function(y) invisible(NULL)
no_formula_outcome_checks <- function(outcome, data, env) invisible(NULL)
no_parameter_checks <- function(user) invisible(NULL)
no_glance_figures <- function(x) numeric()

# A `summary` hook whose line on the leaves gives the shares of leaves with
# a model (`model`) and with a constant (`constant`).
leaf_share_summary <- function(model, constant) {
  function(object, out) {
    list(leaf_line = sprintf("Leaves with %s: %.1f%%, with %s: %.1f%%", model, 100 * out$svm_leaf_share, constant,
                             100 * (1 - out$svm_leaf_share)))
  }
}

# Names of the registered families, the most general first.
family_names <- function() rev(names(svf_registry$families))

# The family of an outcome `y`: the first family, by priority, that detects it.
outcome_family <- function(y) {
  for (family in svf_registry$families) if (isTRUE(family$detects(y))) return(family)
  stop(sprintf("`y` must be one of the outcomes svforest fits (%s), not %s.",
               paste(family_names(), collapse = ", "), describe(y)), call. = FALSE)
}

# The names of the fields the families write into section `section` after
# a fit (their `fields`, R/model.R).
family_section_fields <- function(section) {
  unique(unlist(lapply(svf_registry$families, function(f) f$fields[[section]]), use.names = FALSE))
}

# A method the family cannot fit is an error naming the family's default.
check_family_method <- function(family, method, methods) {
  if (!method %in% methods) {
    stop(sprintf("Method \"%s\" does not fit %s; use the default, method = \"%s\" (or method = NULL).", method,
                 family, methods[1]), call. = FALSE)
  }
}

# The family of a fitted model (its `type`), NULL when it has none.
model_family <- function(object) {
  type <- object$type
  if (!is.character(type) || length(type) != 1 || is.na(type)) return(NULL)
  svf_registry$families[[type]]
}

# The outcome type name of `y` (the model's `type`).
outcome_type <- function(y) outcome_family(y)$name

# Prediction types: what predict(type = ) returns. Each type registers with
# the family or stage that owns it:
#   name      the `type` value
#   families  the outcome families it predicts for
#   run       function(object, newdata, args, num_threads): the prediction;
#             args holds the predict() arguments the type takes, checked
#   args      names of predict()'s arguments it takes (e.g. "quantiles")
#   check     optional function(args): the args checked (an error if bad)
#   hint      optional function(object): the error for a model of another
#             family that asks for this type (NULL: the generic one)
svf_registry$prediction_types <- list()  # by family, then type name

register_prediction_type <- function(name, families, run, args = character(), check = NULL, hint = NULL) {
  for (family in families) {
    svf_registry$prediction_types[[family]][[name]] <- list(name = name, run = run, args = args, check = check,
                                                            hint = hint)
  }
  invisible(name)
}

# The names of the types a model of `family` predicts.
prediction_type_names <- function(family) names(svf_registry$prediction_types[[family]])

# The predict() arguments the registered types take.
prediction_type_arguments <- function() {
  unique(unlist(lapply(svf_registry$prediction_types, function(types) lapply(types, `[[`, "args")),
                use.names = FALSE))
}

# Which of predict()'s `...` (a list) are arguments of registered types
# (`own`: predict()'s named arguments, never taken from `...`).
type_arguments_given <- function(dots, own) {
  if (is.null(names(dots))) return(logical(length(dots)))
  names(dots) %in% setdiff(prediction_type_arguments(), own)
}

# The types that take predict() argument `arg`: those of `family` when it
# has some, else those of every family.
prediction_types_taking <- function(arg, family = NULL) {
  taking <- function(types) names(Filter(function(t) arg %in% t$args, types))
  own <- if (!is.null(family)) taking(svf_registry$prediction_types[[family]])
  if (length(own)) return(own)
  unique(unlist(lapply(svf_registry$prediction_types, taking), use.names = FALSE))
}

# The prediction type `type` of a model of family `family`, checked: a type
# of another family gets its own hint, an unknown one the list of the
# registered types.
prediction_type <- function(type, family) {
  name <- if (is.character(type) && length(type) == 1 && !is.na(type)) type else ""
  if (!name %in% prediction_type_names(family)) {
    for (other in svf_registry$prediction_types) if (!is.null(other[[name]]$hint)) other[[name]]$hint(family)
  }
  svf_registry$prediction_types[[family]][[check_choice(type, "type", prediction_type_names(family))]]
}
