#' @include model.R
NULL

# The `provenance` section: how the model came about (its call, seed and
# first tree index; a combined forest's per-tree streams) and the model
# format and package version that wrote it.
new_provenance_section <- function(call, seed, first_tree, format_version = model_format_version,
                                   package_version = svforest_version(),
                                   tree_streams = NULL) {
  list(call = call, seed = seed, first_tree = first_tree, tree_streams = tree_streams,
       format_version = format_version, package_version = package_version)
}

# The format number is checked first, by check_model().
check_provenance_section <- function(object, fail) {
  p <- section_of(object, "provenance")
  seed <- p$seed
  if (!is.numeric(seed) || length(seed) != 1) fail("'seed' is damaged")
  first <- p$first_tree
  if (!is.null(first) && (!is.numeric(first) || length(first) != 1 || is.na(first) || first < 0)) {
    fail("'first_tree' is damaged")
  }
  streams <- p$tree_streams
  if (!is.null(streams) && (!is.data.frame(streams) || nrow(streams) != model_get(object, "ntree"))) {
    fail("'tree_streams' is damaged")
  }
}
