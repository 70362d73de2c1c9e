#' @include model.R
NULL

# The `forest` section, what the engine returned: its forest (trees,
# classes, features, scaling), the "tdsvm" method's model selection, and
# the design's column means (centre of local explanations, R/importance.R).
new_forest_section <- function(engine, selection, feature_means) {
  list(engine = engine, selection = selection, feature_means = feature_means)
}

# The engine checks every tree again when it reads them (C++).
check_forest_section <- function(object, fail) {
  forest <- section_of(object, "forest")
  if (!is.list(forest$engine) || !is.list(forest$engine$trees)) fail("'forest' is damaged")
  # the number of predictor columns sizes every new row (R/design-new.R)
  p <- forest$engine$num_features
  if (!is.integer(p) || length(p) != 1L || is.na(p) || p < 1L) fail("'forest$num_features' is damaged")
  design <- section_of(object, "design")
  columns <- if (is.list(design)) design$feature_names
  if (is.character(columns) && length(columns) != p) {
    fail(sprintf("'forest$num_features' (%d) does not match the design's %d columns", p, length(columns)))
  }
  means <- forest$feature_means
  if (!is.null(means) && !is.numeric(means)) fail("'feature_means' is damaged")
  selection <- forest$selection
  if (!is.null(selection) && !is.list(selection)) fail("'tdsvm' is damaged")
}
