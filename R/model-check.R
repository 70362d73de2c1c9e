# Structure checks of a model before predict() trusts it. The C++ side checks
# every tree again (types, lengths, index ranges); this layer gives clear
# messages for the common cases and rejects models of another format.

# 2: one tree format for every method (generic split and leaf payloads).
# 3: trees saved in the compact layout (R/tree-access.R), a third of the size
#    or less; format 2 models (plain trees) are read as they are and predict
#    identically, and upgrade_model() rewrites their trees.
# 4: the model in named sections (R/model.R, ?svforest_model), each written
#    by its constructor (R/section-*.R, design in R/design.R, stages in
#    R/stages.R) and checked by its own check; the names of formats 2 and 3
#    read the same values.
# 5: compact trees (tree layout 2) store a leaf kind or payload length that
#    every leaf shares once (a regression tree's leaves all do) and their
#    split kinds in 2 bits a node: a regression forest a sixth smaller; the
#    trees of formats 3 and 4 (layout 1) are read as they are and
#    upgrade_model() rewrites them.
model_format_version <- 5L
model_formats_read <- 2:5

#' Bring a saved model up to the current model format
#'
#' A model saved by an earlier version of svforest (with [saveRDS()]) is
#' laid out as that version wrote it, numbered by `object$format_version`.
#' `upgrade_model()` rewrites a model of format 2, 3 or 4 into the current
#' format 5: the flat list of formats 2 and 3 becomes the named sections of
#' [svforest_model], and the trees are rewritten in the current compact tree
#' layout (from the plain lists of format 2, a third of the size or less;
#' from the compact layout of formats 3 and 4, which stores every leaf's kind
#' and payload lengths and a byte for each node's split kind, up to a sixth
#' smaller). A model already of format 5
#' is returned as it is. The trees, the design and
#' every other element keep their content, so predictions
#' ([predict.svforest()], every `type`) are identical before and after, and
#' every name read from the model (`object$oob_error`, `object$levels`, ...)
#' gives the same value.
#'
#' [predict.svforest()] and the other functions also read models of formats
#' 2 to 4 directly; upgrading once saves the conversion and the size of the
#' old layout. Models of format 1 (before one tree layout served every
#' method) and of formats newer than this version are not read: the error
#' says so, and such a model must be fitted again.
#'
#' @param object An `svforest` model, typically read with [readRDS()].
#' @return The model in the current format (an `svforest` object).
#'   An error names what is damaged when `object` is not a usable model
#'   (see [predict.svforest()]).
#' @examples
#' fit <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
#' path <- tempfile(fileext = ".rds")
#' saveRDS(fit, path)
#' old <- readRDS(path)
#' new <- upgrade_model(old)
#' identical(predict(new, iris, num_threads = 1), predict(old, iris, num_threads = 1))
#' unlink(path)
#' @export
upgrade_model <- function(object) {
  check_model(object)
  version <- object$format_version
  if (identical(version, model_format_version)) return(object)
  object <- model_sectioned(object)
  if (version %in% 2:4) {
    f <- object$forest
    f$trees <- Map(function(tree, i) tree_compact(f, tree, i), f$trees, seq_along(f$trees))
    object$forest <- f
  }
  object$format_version <- model_format_version
  object
}

# One check per section (R/section-*.R, R/stages.R; the design's in
# check_design() and R/check-design.R), each error naming its section. A
# model of format 2 or 3 is checked in its sections (model_sectioned()).
check_model <- function(object) {
  fail <- function(what) {
    stop(sprintf("`object` is not a usable svforest model: %s.", what), call. = FALSE)
  }
  if (!inherits(object, "svforest") || !is.list(object)) fail("it does not inherit from class 'svforest'")
  v <- object$format_version
  if (!is.integer(v) || length(v) != 1 || !v %in% model_formats_read) {
    fail(sprintf("it has model format %s, this version of svforest reads formats %s (refit the model)",
                 describe(v), paste(range(model_formats_read), collapse = " to ")))
  }
  s <- model_sectioned(object)
  missing <- setdiff(model_section_names, names(s))
  if (length(missing)) fail(paste("section", paste0("'", missing, "'", collapse = ", "), "is missing"))
  in_section <- function(section) function(what) fail(sprintf("%s (section '%s')", what, section))
  check_forest_section(s, in_section("forest"))
  check_split_values(s, in_section("forest"))
  check_outcome_section(s, in_section("outcome"))
  check_rows_section(s, in_section("rows"))
  check_params_section(s, in_section("params"))
  check_provenance_section(s, in_section("provenance"))
  check_oob_section(s, in_section("oob"))
  check_stages_section(s, in_section("stages"))
  check_design(s$design, in_section("design"))
  # each pre-fit step's state in the design: imputation, codings (contrasts and terms,
  # R/check-design.R), ranks (R/prefit-steps.R); the weights' in the rows section
  check_prefit_steps(object, in_section("design"))
  invisible(object)
}

# A split's weights and threshold must be numbers: with NA, NaN or Inf the
# engine would send rows down one side without a word.
check_split_values <- function(object, fail) {
  engine <- section_of(object, "forest")$engine
  # `model$forest` is the engine's forest: `model$forest$engine$trees<-`
  # writes a stray copy beside the trees instead of changing them
  if (!is.null(engine$engine)) {
    fail("the engine's forest holds an element 'engine' of its own (its trees are `model$forest$trees`)")
  }
  trees <- engine$trees
  for (t in seq_along(trees)) {
    v <- if (is.list(trees[[t]])) trees[[t]]$split_real  # other damage: the engine's checks
    if (is.numeric(v) && !all(is.finite(v))) {
      fail(sprintf("tree %d holds a missing or infinite split weight or threshold (`split_real`)", t))
    }
  }
}

# The imputation of a design (R/missing.R): the shapes predict() relies on.
impute_ok <- function(d) {
  im <- d$impute
  if (!is.list(im)) return(FALSE)
  k <- length(im$indicators)
  names_ok <- is.null(im$indicator_names) ||
    (is.character(im$indicator_names) && !anyNA(im$indicator_names) && length(im$indicator_names) == k)
  if (d$type == "frame") {
    value_ok <- function(v) {
      (is.numeric(v) && length(v) >= 1 && !anyNA(v) && all(is.finite(v))) ||
        ((is.character(v) || is.logical(v)) && length(v) == 1 && !is.na(v))
    }
    j <- im$joint
    joint_cols_ok <- is.null(j) || (is.character(j$columns) && !anyNA(j$columns) &&
                                      joint_ok(j, length(j$columns)))
    return(is.list(im$values) && all(vapply(im$values, value_ok, TRUE)) && is.character(im$indicators) &&
             !anyNA(im$indicators) && names_ok && all(im$indicator_names %in% d$feature_names) && joint_cols_ok)
  }
  p <- d$input_ncol
  is.double(im$values) && !anyNA(im$values) && all(is.finite(im$values)) &&
    is.numeric(p) && length(p) == 1 && !is.na(p) && length(im$values) == p &&
    is.numeric(im$indicators) && !anyNA(im$indicators) && all(im$indicators >= 1 & im$indicators <= p) &&
    !anyDuplicated(im$indicators) && names_ok &&
    (is.null(d$feature_names) || length(d$feature_names) == p + k) && joint_ok(im$joint, p)
}

# The design is used in R only (to build the predictors of new data): a
# damaged one must give an error here, not odd results from model.matrix().
check_design <- function(d, fail) {
  if (!is.list(d) || !is.character(d$type) || length(d$type) != 1 || is.na(d$type) ||
      !d$type %in% c("frame", "matrix", "sparse")) fail("'design' is damaged")
  nm <- d$feature_names
  if (!is.null(nm) && (!is.character(nm) || anyNA(nm))) fail("'design$feature_names' is damaged")
  # the pre-fit steps' states (imputation, ranks): check_prefit_steps()
  if (d$type != "frame") return(invisible())
  if (!inherits(d$terms, "terms") || !is.list(d$xlevels) || !is.list(d$contrasts) ||
      !all(vapply(d$xlevels, function(l) is.character(l) && !anyNA(l), TRUE)) ||
      !all(vapply(d$contrasts, is.matrix, TRUE))) {
    fail("'design' of the formula is damaged")
  }
  # contrasts and the order of the terms: the factor coding step (R/step-factor-coding.R)
  # plain data frames and dates (R/design.R)
  cols <- d$columns
  if (!is.null(cols) && (!is.character(cols) || anyNA(cols) || anyDuplicated(cols) ||
                         length(cols) != length(attr(d$terms, "term.labels")))) {
    fail("'design$columns' is damaged")
  }
  dates <- d$dates
  if (!is.null(dates) && (!is.character(dates) || is.null(names(dates)) || anyNA(dates) ||
                          !all(dates %in% c("Date", "POSIXct")))) {
    fail("'design$dates' is damaged")
  }
  if (!is.null(d$origin) && !origin_ok(d)) fail("'design$origin' is damaged")
}

# Each design column's predictor (R/design.R): a position in
# `predictors` or NA, one per column.
origin_ok <- function(d) {
  o <- d$origin
  is.character(d$predictors) && !anyNA(d$predictors) && is.numeric(o) &&
    length(o) == length(d$feature_names) && all(is.na(o) | (o >= 1 & o <= length(d$predictors) & o == round(o)))
}
