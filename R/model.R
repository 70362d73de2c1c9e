#' @include aggregation.R
NULL

#' The sections of a fitted svforest model
#'
#' A fitted model (class `svforest`, model format 5) is a plain list of
#' named sections, each written by one constructor and checked by its own
#' check before [predict.svforest()] trusts it:
#'
#' \describe{
#'   \item{`outcome`}{the outcome family's fields: `type` (`"classification"`,
#'     `"regression"`, ...), what the family's `model_fields` hook writes
#'     (`levels` and `class_counts`; `outcome_center` and `outcome_scale`),
#'     and `expression`, the outcome of the formula.}
#'   \item{`design`}{how new data become the engine's predictors (columns,
#'     factor levels, contrasts, imputation, rank scaling).}
#'   \item{`rows`}{`n`, the rows the trees were grown on; `class_weights`,
#'     `sampling_weights` and `used` (the rows of positive case weight).}
#'   \item{`params`}{`method` and `values`, the resolved parameters.}
#'   \item{`forest`}{the engine's forest (`engine`: trees, number of classes
#'     and features, scaling), the state a method keeps beside its trees
#'     (`selection`: the `"tdsvm"` method's model selection, `fit$tdsvm`) and
#'     the column means of the design (`feature_means`).}
#'   \item{`provenance`}{`call`, `seed`, `first_tree`, `tree_streams` (a
#'     combined forest's per-tree streams), `format_version` and
#'     `package_version`.}
#'   \item{`oob`}{the out-of-bag results: what the family's `oob` hook writes
#'     (`oob_error`, `oob_predictions`, `oob_prob`, ...; the tallies that
#'     [combine()] merges: `oob_votes`, `oob_prob_sum`, `oob_count`, and for
#'     `aggregation = "max_confidence"` `oob_confidence` and `oob_confident_class`), and
#'     `oob_choosing_share`, `oob_optimistic`.}
#'   \item{`stages`}{the post-fit stages' results (`variable_importance`,
#'     `conformal`, `calibration`, and those of registered stages).}
#' }
#'
#' The names of the flat models of formats 2 and 3 still read the same
#' values: `fit$name` and `fit[["name"]]` look `name` up in the table below;
#' a section's name not in the table gives the section; any other name is
#' looked up in the sections `outcome`, `oob` and `stages` (so a field that
#' an outcome family or a stage adds is read by its own name). `ntree` is
#' derived from the forest, not stored. Three names are those of a section
#' and mean one thing each, the field of the table below: `fit$forest` is the
#' engine's forest (`forest$engine`), `fit$outcome` the outcome's expression
#' and `fit$params` the resolved parameter values; the sections themselves
#' are `model_section(fit, "forest")` and so on. Assigning through a name
#' (`fit$name <- value`) writes where reading finds it; a name the model does
#' not hold yet must be an out-of-bag element, the field of a stage or one an
#' outcome family declares, or one caret's `train()` writes (`xNames`,
#' `problemType`, `tuneValue`, `obsLevels`, `param`; it goes to `oob`,
#' `stages` or `outcome`): any
#' other name, e.g. a misspelt `fit$calibraton <- 1`, is an error.
#' `model_section(fit, "rows")` gives a section itself, also of a model of
#' format 2 or 3 (arranged in sections as [upgrade_model()] does).
#'
#' | name | where it is read |
#' |---|---|
#' | `type`, `levels`, `class_counts`, `outcome_center`, `outcome_scale` | `outcome` |
#' | `outcome` | `outcome$expression` |
#' | `design` | `design` |
#' | `num_rows` | `rows$n` |
#' | `class_weights`, `sampling_weights` | `rows` |
#' | `rows_used` | `rows$used` |
#' | `method` | `params$method` |
#' | `params` | `params$values` |
#' | `forest` | `forest$engine` |
#' | `tdsvm` | `forest$selection` |
#' | `feature_means` | `forest$feature_means` |
#' | `ntree` | derived: the number of trees of `forest$engine` |
#' | `call`, `seed`, `first_tree`, `tree_streams`, `format_version`, `package_version` | `provenance` |
#' | `oob_*` (`oob_error`, `oob_prob`, `oob_predictions`, `oob_y`, ...) | `oob` |
#' | `variable_importance`, `conformal`, `calibration` | `stages` |
#'
#' @param object A fitted [svforest()] model.
#' @param section The name of a section (see above).
#' @return `model_section()`: the section, a list (`NULL` when the model has
#'   none of that name).
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' names(fit)
#' model_section(fit, "rows")$n
#' identical(fit$oob_error, model_section(fit, "oob")$oob_error)
#' fit$ntree
#' @name svforest_model
NULL

# The sections of the current format, in order.
model_section_names <- c("outcome", "design", "rows", "params", "forest", "provenance", "oob", "stages")

# Out-of-bag elements besides the families' results: the outcome the
# results were scored on, and the fit's notes on the rows that chose splits.
oob_extra_names <- c("oob_y", "oob_choosing_share", "oob_optimistic")

# Where each name of the flat formats (2 and 3) lives in the sections.
model_legacy_paths <- c(
  list(type = c("outcome", "type"), outcome = c("outcome", "expression"), levels = c("outcome", "levels"),
       class_counts = c("outcome", "class_counts"), outcome_center = c("outcome", "outcome_center"),
       outcome_scale = c("outcome", "outcome_scale"),
       design = "design",
       num_rows = c("rows", "n"), class_weights = c("rows", "class_weights"),
       sampling_weights = c("rows", "sampling_weights"), rows_used = c("rows", "used"),
       method = c("params", "method"), params = c("params", "values"),
       forest = c("forest", "engine"), tdsvm = c("forest", "selection"),
       feature_means = c("forest", "feature_means"),
       call = c("provenance", "call"), seed = c("provenance", "seed"), first_tree = c("provenance", "first_tree"),
       tree_streams = c("provenance", "tree_streams"), format_version = c("provenance", "format_version"),
       package_version = c("provenance", "package_version"),
       variable_importance = c("stages", "variable_importance"), conformal = c("stages", "conformal"),
       calibration = c("stages", "calibration")),
  sapply(c(oob_element_names, oob_extra_names), function(n) c("oob", n), simplify = FALSE))

# Names derived from the sections, not stored.
model_derived <- list(ntree = function(x) length(.subset2(section_of(x, "forest"), "engine")$trees))

# A model of format 2 or 3: one flat list (the current format has sections).
model_is_flat <- function(x) !is.null(.subset2(x, "format_version"))

# Section `name` of a sectioned model, NULL when it is missing or not a list.
section_of <- function(x, name) {
  s <- .subset2(x, name)
  if (is.list(s)) s else NULL
}

# Where `name` is read from in the sections of `x`: a path (section, or
# section and field), or NULL.
model_field_path <- function(x, name) {
  path <- model_legacy_paths[[name]]
  if (!is.null(path)) return(path)
  if (name %in% model_section_names) return(name)
  for (s in c("outcome", "oob", "stages")) if (name %in% names(section_of(x, s))) return(c(s, name))
  NULL
}

# The fields other packages write on a model they fitted: caret's train()
# (through svforest_caret(), R/caret.R).
model_foreign_fields <- c("xNames", "problemType", "tuneValue", "obsLevels", "param")

# Where a name the model does not hold yet may be written: a known
# out-of-bag element goes to `oob`, the field of a stage (R/stages.R) or of
# an outcome family (its `fields`, R/family.R) to `stages` or `outcome`.
# Any other name is an error: a typo (`fit$calibraton <- 1`) must not become
# a silent new stage.
model_new_field_path <- function(name) {
  if (name %in% c(oob_element_names, oob_extra_names, family_section_fields("oob"))) return(c("oob", name))
  if (name %in% family_section_fields("outcome")) return(c("outcome", name))
  if (name %in% c(stage_field_names(), family_section_fields("stages"), model_foreign_fields)) return(c("stages", name))
  stop(sprintf("`%s` is not a field of an svforest model (see ?svforest_model); its fields are the sections (%s), the names of the table there, and the fields of the outcome families and stages.",
               name, paste(model_section_names, collapse = ", ")), call. = FALSE)
}

model_get <- function(x, name) {
  if (model_is_flat(x)) return(.subset2(x, name))
  if (!is.null(model_derived[[name]])) return(model_derived[[name]](x))
  path <- model_field_path(x, name)
  if (length(path) == 1) return(.subset2(x, path))
  if (length(path) == 2) return(.subset2(section_of(x, path[1]), path[2]))
  NULL
}

model_set <- function(x, name, value) {
  cls <- oldClass(x)
  x <- unclass(x)
  if (model_is_flat(x)) {
    x[[name]] <- value
  } else if (!is.null(model_derived[[name]])) {
    if (!identical(value, model_derived[[name]](x))) {
      stop(sprintf("`%s` is derived from the model's sections and cannot be set.", name), call. = FALSE)
    }
  } else {
    path <- model_field_path(x, name)
    if (is.null(path)) path <- model_new_field_path(name)
    if (length(path) == 1) {
      x[[path]] <- value
    } else {
      s <- section_of(x, path[1])
      if (is.null(s)) s <- list()
      s[[path[2]]] <- value
      x[[path[1]]] <- s
    }
  }
  class(x) <- cls
  x
}

#' @export
`$.svforest` <- function(x, name) model_get(x, name)

#' @export
`[[.svforest` <- function(x, i, ...) {
  if (is.character(i) && length(i) == 1) model_get(x, i) else .subset2(x, i, ...)
}

#' @export
`$<-.svforest` <- function(x, name, value) model_set(x, name, value)

#' @export
`[[<-.svforest` <- function(x, i, value) {
  if (is.character(i) && length(i) == 1) return(model_set(x, i, value))
  cls <- oldClass(x)
  x <- unclass(x)
  x[[i]] <- value
  class(x) <- cls
  x
}

#' @rdname svforest_model
#' @export
model_section <- function(object, section) {
  if (!inherits(object, "svforest")) {
    stop(sprintf("`object` must be an svforest model, not %s.", describe(object)), call. = FALSE)
  }
  check_choice(section, "section", model_section_names)
  .subset2(model_sectioned(object), section)
}

# A model in sections: a flat model (format 2 or 3) arranged as the current
# format's sections, its trees and format number kept (upgrade_model()
# rewrites the trees); a sectioned model as it is.
model_sectioned <- function(x) {
  if (!model_is_flat(x)) return(x)
  flat <- unclass(x)
  get <- function(name) .subset2(flat, name)
  taken <- c(names(model_legacy_paths), names(model_derived))
  extra <- flat[setdiff(names(flat), taken)]
  oob <- c(flat[intersect(names(flat), grep("^oob_", names(model_legacy_paths), value = TRUE))],
           extra[startsWith(names(extra), "oob_")])
  stages <- c(flat[intersect(names(flat), c("variable_importance", "conformal", "calibration"))],
              extra[!startsWith(names(extra), "oob_")])
  out <- list(
    outcome = new_outcome_section(get("type"), flat[intersect(names(flat), family_field_names)], get("outcome")),
    design = get("design"),
    rows = new_rows_section(get("num_rows"), get("class_weights"), get("sampling_weights"), get("rows_used")),
    params = new_params_section(get("method"), get("params")),
    forest = new_forest_section(get("forest"), get("tdsvm"), get("feature_means")),
    provenance = new_provenance_section(get("call"), get("seed"), get("first_tree"), get("format_version"),
                                        get("package_version"), get("tree_streams")),
    oob = new_oob_section(oob),
    stages = new_stages_section(stages))
  attributes(out) <- c(attributes(out), attributes(x)[setdiff(names(attributes(x)), "names")])
  out
}

# The outcome families' fields of the flat formats.
family_field_names <- c("levels", "class_counts", "outcome_center", "outcome_scale")
