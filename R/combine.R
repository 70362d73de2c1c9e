#' Combine forests fitted on the same data
#'
#' Merges support vector forests fitted on the same training data with the
#' same method and parameters into one forest that holds all their trees, for
#' example the parts of one forest grown on several machines (see
#' [svforest_future()]).
#'
#' Forests are compatible when they have the same classes, training rows and
#' class counts, predictors (design), scaling, method and parameters;
#' otherwise `combine()` stops and says what differs.
#'
#' When all forests have the same `seed`, their trees are put in tree order
#' (by `first_tree`) and may not overlap; forests grown with `seed = s` and
#' `first_tree = 0, m, 2m, ...` then combine into exactly the forest
#' `svforest(..., seed = s)` grows on one machine: same trees, same
#' predictions, same out-of-bag error. Forests with different seeds are
#' concatenated in the order given (a valid forest of independent trees; its
#' `seed` is `NA`).
#'
#' Each part stores, per training row, a tally of its out-of-bag trees that
#' adds up exactly (vote counts, class probability sums, the most confident
#' tree for `aggregation = "max_confidence"`, exact prediction sums for
#' regression), so the out-of-bag predictions, error, probabilities, Brier
#' score and log-loss of the combined forest are those of the forest grown
#' whole, for every aggregation. When a part has no tally (saved by an older
#' version), they are `NA` and `oob_unavailable` says why. The out-of-bag error *curve* (error after 1, 2, ... trees) needs
#' every tree's out-of-bag predictions, which are not stored: it is dropped
#' (`plot()` then draws the error curve on `newdata` when given).
#'
#' randomForest and dplyr also export a `combine()`: when one of them is
#' attached after svforest, write `svforest::combine()`.
#'
#' @param ... Fitted [svforest()] models, or one list of them.
#' @return An `svforest` model.
#' @examples
#' a <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
#' b <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, first_tree = 3, num_threads = 1)
#' ab <- combine(a, b)
#' whole <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' identical(predict(ab, iris, type = "prob"), predict(whole, iris, type = "prob"))
#' @export
combine <- function(...) {
  parts <- list(...)
  if (length(parts) == 1 && is.list(parts[[1]]) && !inherits(parts[[1]], "svforest")) parts <- parts[[1]]
  if (length(parts) == 0) stop("`combine()` needs at least one svforest model.", call. = FALSE)
  for (i in seq_along(parts)) {
    if (!inherits(parts[[i]], "svforest")) {
      stop(sprintf("Argument %d of `combine()` is %s, not an svforest model.", i, describe(parts[[i]])),
           call. = FALSE)
    }
    check_model(parts[[i]])
  }
  parts <- lapply(parts, model_sectioned)  # parts of formats 2 and 3 in sections (R/model.R)
  first <- parts[[1]]
  for (i in seq_along(parts)[-1]) check_compatible(first, parts[[i]], i)
  if (length(parts) == 1) return(first)

  seeds <- vapply(parts, function(p) as.double(p$seed), 0)
  starts <- vapply(parts, function(p) as.double(part_first_tree(p)), 0)
  sizes <- vapply(parts, function(p) as.double(length(p$forest$trees)), 0)
  same_seed <- length(unique(seeds)) == 1 && !anyNA(seeds)
  if (same_seed) {
    ord <- order(starts)
    parts <- parts[ord]
    starts <- starts[ord]
    sizes <- sizes[ord]
    ends <- starts + sizes
    overlap <- which(starts[-1] < ends[-length(ends)])
    if (length(overlap)) {
      stop(sprintf(paste0("The forests share seed %s and their trees overlap (trees %s-%s and %s-%s): ",
                          "they hold the same trees twice. Fit parts with disjoint `first_tree` ranges."),
                   format(seeds[1]), starts[overlap] + 1, ends[overlap], starts[overlap + 1] + 1,
                   ends[overlap + 1]), call. = FALSE)
    }
  }

  out <- parts[[1]]
  out$forest$trees <- do.call(c, lapply(parts, function(p) p$forest$trees))
  # each tree's seed and index, for drawing its out-of-bag rows again (R/importance.R)
  out$tree_streams <- do.call(rbind, lapply(parts, tree_streams))
  out <- stage_combine(out, parts)  # each post-fit stage's rule (R/stages.R)
  out$format_version <- model_format_version  # parts of formats 2 and 3 mix: both tree layouts are read
  out$seed <- if (same_seed) parts[[1]]$seed else NA_integer_
  out$first_tree <- if (same_seed) as.integer(starts[1]) else 0L
  out$call <- match.call()

  combine_oob(out, parts)  # R/aggregation.R
}

# First tree index of a model (models fitted before first_tree was stored
# start at 0).
part_first_tree <- function(object) if (is.null(object$first_tree)) 0L else object$first_tree

# Stops with a message naming what differs between forest `a` and forest `b`
# (argument `i` of combine()).
check_compatible <- function(a, b, i) {
  differ <- function(what) {
    stop(sprintf(paste("Forest %d cannot be combined with forest 1: different %s.",
                       "Combine only forests fitted on the same data with the same method and parameters."),
                 i, what), call. = FALSE)
  }
  if (!identical(a$levels, b$levels)) differ("outcome levels")
  if (!identical(a$num_rows, b$num_rows) || !identical(a$class_counts, b$class_counts) ||
      !identical(a$oob_y, b$oob_y)) {
    differ("training rows (number of rows or outcome)")
  }
  combine_prefit_steps(a, b, differ)  # weights, imputation, codings, ranks (R/prefit-steps.R)
  if (!identical(comparable_design(a$design, b$design), comparable_design(b$design, a$design))) differ("predictors")
  fa <- a$forest
  fb <- b$forest
  if (!identical(fa$num_features, fb$num_features)) differ("number of predictor columns")
  if (!identical(fa$scale_center, fb$scale_center) || !identical(fa$scale_factor, fb$scale_factor)) {
    differ("scaling of the predictors (other training data)")
  }
  if (!identical(a$method, b$method)) differ("method")
  pa <- saved_params(a)
  pb <- saved_params(b)
  keys <- union(names(pa), names(pb))
  bad <- keys[!vapply(keys, function(k) identical(pa[[k]], pb[[k]]), TRUE)]
  if (length(bad)) differ(paste0("parameters (", paste0("`", bad, "`", collapse = ", "), ")"))
  invisible(TRUE)
}

# A model's parameters, with the values of parameters added since it was
# saved as its version used them (factor_coding: indicator columns).
saved_params <- function(model) {
  params <- model$params
  if (is.null(params$factor_coding)) params$factor_coding <- "indicator"
  params
}

# A design to compare with `other`'s: without formula environments, and
# without the column origins (R/design.R) when `other`, saved before them,
# lacks them (they record the same columns).
comparable_design <- function(design, other) {
  if (is.null(other$origin)) design$origin <- design$predictors <- NULL
  strip_environments(design)
}

# Formula environments differ between R sessions (workers) but do not change
# the design: compare without them.
strip_environments <- function(x) {
  if (is.environment(x)) return(NULL)
  if (!is.null(attr(x, ".Environment"))) attr(x, ".Environment") <- NULL
  if (is.list(x)) {
    at <- attributes(x)
    x <- lapply(x, strip_environments)
    attributes(x) <- at
  }
  x
}
