# The one call from R into the engine's training code, for every method and
# combination of parts.

# Fits a forest.
# - data: the engine's view of the training predictors (engine_data()).
# - y: outcome as integer class codes from 0; num_classes: number of levels.
# - params: the fit's parameters (engine_parameters()): those of its parts
#   (and only those), plus ntree, seed, first_tree, progress_delay and the
#   engine's form of `balanced` (logical) and `class_factor`.
# - validation: list(data, y) of validation data (validation_data());
#   data is NULL when none was given.
# - num_threads, verbose: as for svforest().
# Returns list(forest = the forest stored in the model (without its
# out-of-bag results), oob = NULL or list(votes, error, error_curve, and
# predicted with max-confidence aggregation), selection = NULL or the
# result of a search on validation data (the model's `tdsvm` element),
# sigma = NULL or the ceiling size the search chose).
engine_fit <- function(data, y, num_classes, params, validation, num_threads, verbose) {
  params <- old_engine_fill_parameters(params, length(y), num_classes)
  if (identical(params$splitter, "cart")) {
    res <- .svf_fit_tdsvm(data, y, num_classes, params, validation$data, validation$y, num_threads, verbose)
    forest <- res$forest
    selection <- res$selection
    sigma <- res$sigma
  } else {
    forest <- .svf_fit(data, y, num_classes, params, num_threads, verbose)
    selection <- NULL
    sigma <- NULL
  }
  oob <- forest$oob
  forest$oob <- NULL
  list(forest = forest, oob = oob, selection = selection, sigma = sigma)
}

# TEMPORARY, for the old engine only: delete together with the two old entry
# points (.svf_fit, .svf_fit_tdsvm). The old engine reads some parameters
# for every fit whatever its parts (e.g. `rare_classes` and `min_class_rows`
# for the forest's `svm_min_rows`, `cost` and `gamma` in the tdsvm entry,
# `balanced` and `class_factor` in every SVM option set), while a fit now
# resolves only the parameters of its parts. This fills every missing one
# with its general default (no preset), so the old engine sees what it saw
# before; the values it fills are not used by the fit's parts.
old_engine_fill_parameters <- function(params, n, num_classes) {
  for (name in names(svf_parameters)) {
    if (is.null(params[[name]])) {
      params[[name]] <- svf_parameters[[name]]$check(parameter_default(name, list(), n, params))
    }
  }
  params$balanced <- !isFALSE(params$balanced)
  if (is.null(params$class_factor)) params$class_factor <- rep(1, num_classes)
  params
}

# The parameter list handed to engine_fit(): the model's parameters plus the
# forest's `ntree`, `seed` (a double: the engine's seeds are 64-bit),
# `first_tree` and `progress_delay` (seconds before a progress bar shows),
# with `balanced` in the engine's form (a flag and a cost factor per class,
# see class_factors()).
engine_parameters <- function(params, y, ntree, seed, first_tree, progress_delay) {
  out <- c(params, list(ntree = ntree, seed = as.double(seed), first_tree = first_tree,
                        progress_delay = progress_delay))
  if (!is.null(params$balanced)) {
    out$balanced <- !isFALSE(params$balanced)
    out$class_factor <- class_factors(params$balanced, y)
  }
  out
}
