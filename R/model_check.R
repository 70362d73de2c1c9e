# Structure checks of a model before predict() trusts it. The C++ side checks
# every tree again (types, lengths, index ranges); this layer gives clear
# messages for the common cases and rejects models of another format.

model_format_version <- 1L

check_model <- function(object) {
  fail <- function(what) {
    stop(sprintf("`object` is not a usable svforest model: %s.", what), call. = FALSE)
  }
  if (!inherits(object, "svforest") || !is.list(object)) fail("it does not inherit from class 'svforest'")
  if (!identical(object$format_version, model_format_version)) {
    fail(sprintf("it has model format %s, this version of svforest reads format %d (refit the model)",
                 describe(object$format_version), model_format_version))
  }
  needed <- c("levels", "forest", "design", "params", "ntree", "method")
  missing <- needed[!needed %in% names(object)]
  if (length(missing)) fail(paste("element", paste0("'", missing, "'", collapse = ", "), "is missing"))
  if (!is.character(object$levels) || length(object$levels) < 2) fail("'levels' is damaged")
  f <- object$forest
  if (!is.list(f) || !is.list(f$trees)) fail("'forest' is damaged")
  if (!identical(f$num_classes, length(object$levels))) fail("'forest$num_classes' does not match 'levels'")
  if (!is.list(object$design) || !is.character(object$design$type)) fail("'design' is damaged")
  if (!is.list(object$params) || !is.character(object$params$aggregation)) fail("'params' is damaged")
  invisible(object)
}
