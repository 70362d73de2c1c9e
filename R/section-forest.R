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
  means <- forest$feature_means
  if (!is.null(means) && !is.numeric(means)) fail("'feature_means' is damaged")
  selection <- forest$selection
  if (!is.null(selection) && !is.list(selection)) fail("'tdsvm' is damaged")
}
