#' @include registry.R
NULL

# Outcome families: what an outcome kind means for a fit and a model. Each
# family is its own file (R/family-classification.R, R/family-regression.R)
# and registers here; fit_forest(), predict() and check_model() ask the
# family of the outcome instead of branching on its name. A new outcome kind
# (survival, ...) is a file of its own plus its register_family() call.
#
# A family is list(
#   name,          the model's `type` ("classification", "regression", ...)
#   detects,       function(y): TRUE when y is this family's outcome
#                  (families are asked in order of registration, last first)
#   check,         function(y, n): the outcome checked and coded (an error
#                  for bad values), e.g. characters made a factor
#   check_rows,    optional function(y): checks of the rows left after zero
#                  case weights dropped some
#   scaling,       function(y): list(center, scale) of the outcome as the
#                  engine sees it, or NULL
#   engine_y,      function(y, scaling): the engine's outcome vector
#   num_classes,   function(y): the engine's number of classes (0: numeric)
#   validation_outcome, function(y, scaling): what validation_data() needs
#                  to code a validation outcome as the training one
#   model_fields,  function(y, scaling): the family's elements of the model
#   oob,           function(oob, y, aggregation, scaling, ntree): the model's
#                  out-of-bag elements from the engine's tallies (`ntree`:
#                  the forest's trees, the size its figures are carried to)
#   check_model,   function(object, fail): stops (via fail(what)) when the
#                  family's elements of a model are damaged
#   print_outcome, function(x): print()'s line naming the outcome
#   combining,     function(x): how print() names the trees' combination
#   oob_text,      function(x): the out-of-bag error as print() shows it
#   oob_label,     print()'s name for it (default "OOB error"; a family whose
#                  figure is not an error names it otherwise)
#   engine_outcome, the outcome kind the engine, presets and parts fit
#                  ("classification" or "regression"; default: `name`)
#   default_type,  predict()'s type when none is given
#   describe,      how the outcome is named in messages ("numeric", ...)
# and optional hooks for a family the classification/regression engine does
# not fit (NULL: the package's own behaviour):
#   engine_fit,    a function with engine_fit()'s arguments and result
#                  (R/engine.R): the family's own engine call, also used by
#                  svforest_future()'s workers
#   methods,       the methods that fit this outcome (others are an error)
#   parameters,    function(params, user): the fit's resolved parameters as
#                  the family fits them (its own parts; an error for a part
#                  it cannot use)
#   merge_oob,     function(a, b): the engine tallies (`oob` of engine_fit())
#                  of consecutive trees merged (svforest_future())
#   combine_oob,   function(out, parts): combine()'s out-of-bag elements of
#                  the combined model `out` from its parts
#   predict_oob,   function(object, type, args): predict() without newdata
#                  (the training rows out of bag)
#   importance,    function(object, x, y, num_threads): permutation importance
#                  of a model on predictors `x` (as newdata) and outcome `y`
#                  (svforest_importance(); such a family has no out-of-bag
#                  or fit-time permutation importance)
#   summary,       function(object): elements summary() adds (`leaf_line`:
#                  its line on the leaves)
#   glance,        function(object): named numbers glance() adds as columns
#   ntree,         the trees of a fit that gives no `ntree` (NULL: the
#                  method's default); the family's forest grows exactly so many
#   matrix_outcome, TRUE when the family's outcome is a matrix (a Surv
#                  object) that its own `check` validates; other families
#                  refuse a matrix `y` before any check
# )
svf_registry$families <- list()

# A method's preset with the outcome family's own tree count, if any (a
# family's forest then grows exactly that many trees).
family_preset <- function(family, preset) {
  if (!is.null(family$ntree)) preset$ntree <- preset$ntree_max <- as.integer(family$ntree)
  preset
}

register_family <- function(name, detects, check, scaling, engine_y, num_classes, validation_outcome, model_fields,
                            oob, check_model, print_outcome, combining, oob_text, default_type, describe = name,
                            check_rows = NULL, engine_outcome = name, engine_fit = NULL, methods = NULL,
                            parameters = NULL, merge_oob = NULL, combine_oob = NULL, predict_oob = NULL, summary = NULL,
                            importance = NULL, oob_label = "OOB error", glance = NULL,
                            matrix_outcome = FALSE, ntree = NULL) {
  svf_registry$families[[name]] <- list(
    name = name, detects = detects, check = check, check_rows = check_rows, scaling = scaling,
    engine_y = engine_y, num_classes = num_classes, validation_outcome = validation_outcome,
    model_fields = model_fields, oob = oob,
    check_model = check_model, print_outcome = print_outcome, combining = combining, oob_text = oob_text,
    oob_label = oob_label, default_type = default_type, describe = describe, engine_outcome = engine_outcome, engine_fit = engine_fit,
    methods = methods, parameters = parameters, merge_oob = merge_oob, combine_oob = combine_oob, predict_oob = predict_oob, summary = summary,
    importance = importance, glance = glance, matrix_outcome = matrix_outcome, ntree = ntree)
  invisible(name)
}

# Names of the registered families.
family_names <- function() names(svf_registry$families)

# The family of an outcome `y`: the last registered family that detects it
# (so a later, more specific family wins over a general one).
outcome_family <- function(y) {
  for (family in rev(svf_registry$families)) if (isTRUE(family$detects(y))) return(family)
  stop(sprintf("`y` must be one of the outcomes svforest fits (%s), not %s.",
               paste(family_names(), collapse = ", "), describe(y)), call. = FALSE)
}

# A method the family cannot fit (its `methods`) is an error naming its default.
check_family_method <- function(family, method) {
  if (!is.null(family$methods) && !method %in% family$methods) {
    stop(sprintf("Method \"%s\" does not fit %s; use the default, method = \"%s\" (or method = NULL).", method,
                 family$describe, family$methods[1]), call. = FALSE)
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

# The types of every family that take predict() argument `arg`.
prediction_types_taking <- function(arg) {
  types <- unlist(lapply(svf_registry$prediction_types, function(types) {
    names(Filter(function(t) arg %in% t$args, types))
  }), use.names = FALSE)
  unique(types)
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
