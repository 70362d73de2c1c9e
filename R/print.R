#' Print and summarise a support vector forest
#'
#' @param x,object A fitted [svforest()] model.
#' @param ... Not used.
#' @return `print()` returns `x` invisibly; `summary()` an object of class
#'   `summary.svforest` with the forest's structure: trees, leaves per tree,
#'   leaf sizes, the share of SVM and constant leaves and the chosen `C`,
#'   and the out-of-bag error (with out-of-bag class probabilities, their
#'   Brier score and log-loss, see [svforest()]).
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' print(fit)
#' summary(fit)
#' @export
print.svforest <- function(x, ...) {
  check_model(x)
  cat("Support vector forest (svforest)\n\n")
  cat("  Method:               ", x$method, "\n")
  cat("  Trees:                ", x$ntree, "\n")
  cat("  Training rows:        ", x$num_rows, "\n")
  cat("  Predictors (columns): ", x$forest$num_features, "\n")
  family <- model_family(x)  # R/family.R
  cat(family$print_outcome(x), "\n", sep = "")
  cat("  Parts:                ", sprintf("%s sampler, %s splits, %s leaves, %s",
                                          x$params$sampler, x$params$splitter, x$params$leaf,
                                          family$combining(x)),
      "\n")
  # lines of the parts (e.g. the random axis splitter's minimum leaf size)
  for (part in used_parts(x$params)) if (!is.null(part$print_lines)) part$print_lines(x)
  leaves <- vapply(x$forest$trees, tree_n_leaves, 0L)
  cat("  Leaves per tree:      ", sprintf("%.1f (min %d, max %d)", mean(leaves), min(leaves), max(leaves)), "\n")
  cat(sprintf("  %-22s", paste0(oob_label(x), ":")), oob_error_text(x), "\n")
  if (!is.null(x$oob_brier)) cat("  OOB probabilities:    ", oob_scores_text(x), "\n")
  stage_print(x)  # lines of the post-fit stages (R/stages.R), e.g. calibration
  if (!is.null(x$sampling_weights) || !is.null(x$class_weights)) {
    cat("  Weights:              ", paste(c(if (!is.null(x$sampling_weights)) "case/class weights",
                                            if (!is.null(x$rows_used)) sprintf("%d rows of weight 0 left out", sum(!x$rows_used))),
                                          collapse = ", "), "\n")
  }
  invisible(x)
}

#' @rdname print.svforest
#' @export
summary.svforest <- function(object, ...) {
  check_model(object)
  trees <- object$forest$trees
  leaf_size <- unlist(lapply(trees, tree_leaf_sizes))
  svm <- unlist(lapply(trees, tree_leaf_is_model))
  cost <- unlist(lapply(trees, tree_leaf_costs, forest = object$forest))
  # the leaf models' own grid: ridge leaves choose `lambda`, the SVM and SVR
  # leaves `cost` (C); every model leaf's chosen value is counted
  leaf_part <- svf_part("leaf", object$params$leaf)
  grid <- if (!is.null(leaf_part) && "lambda" %in% leaf_part$parameters) "lambda" else "cost"
  # values the parts add (e.g. the random axis splitter's minimum leaf size)
  extra <- do.call(c, lapply(used_parts(object$params), function(part) if (!is.null(part$summary)) part$summary(object)))
  out <- structure(list(
    method = object$method, ntree = object$ntree, num_rows = object$num_rows,
    num_features = object$forest$num_features, levels = object$levels, type = object$type,
    class_counts = if (!is.null(object$class_counts)) stats::setNames(object$class_counts, object$levels),
    leaves_per_tree = vapply(trees, tree_n_leaves, 0L),
    depth = vapply(trees, tree_depth, 0L),
    leaf_size = leaf_size,
    svm_leaf_share = mean(svm),
    cost = table(factor(cost[svm], levels = sort(unique(c(object$params[[grid]], cost[svm]))))),
    leaf_grid = grid, leaf = object$params$leaf,
    tdsvm = object$tdsvm,
    oob_error = object$oob_error, oob_rsquared = object$oob_rsquared, oob_brier = object$oob_brier,
    oob_logloss = object$oob_logloss, params = object$params,
    oob_unavailable = if (is.null(object$oob_unavailable) && isTRUE(is.na(object$oob_error))) {
      oob_missing_text(object)
    } else {
      object$oob_unavailable
    }
  ), class = "summary.svforest")
  for (name in names(extra)) out[[name]] <- extra[[name]]
  family <- model_family(object)  # the family's own elements (R/family.R)
  own <- family$summary(object, out)
  out[names(own)] <- own
  out
}

#' @rdname print.svforest
#' @export
print.summary.svforest <- function(x, ...) {
  cat(sprintf("Support vector forest: method \"%s\", %d trees, %d rows, %d predictor columns\n\n",
              x$method, x$ntree, x$num_rows, x$num_features))
  if (!is.null(x$class_counts)) {
    cat("Class counts:\n")
    print(x$class_counts)
    cat("\n")
  }
  q <- function(v) paste(format(stats::quantile(v, c(0, 0.25, 0.5, 0.75, 1)), digits = 3), collapse = " / ")
  cat("Leaves per tree (min / q1 / median / q3 / max):", q(x$leaves_per_tree), "\n")
  cat("Tree depth      (min / q1 / median / q3 / max):", q(x$depth), "\n")
  cat("Leaf size       (min / q1 / median / q3 / max):", q(x$leaf_size), "\n")
  if (!is.null(x$min_leaf_size)) cat("Minimum leaf size:", x$min_leaf_size, "\n")
  cat(x$leaf_line, "\n")  # the family's line on its leaves (R/family-*.R)
  if (sum(x$cost) > 0) {
    grid <- if (is.null(x$leaf_grid)) "cost" else x$leaf_grid
    kind <- c(linear_svm = "SVM", kernel_svm = "SVM", linear_svr = "SVR", kernel_svr = "SVR")[x$leaf]
    if (is.null(x$leaf) || is.na(kind)) kind <- if (is.null(x$leaf)) "SVM" else x$leaf
    cat(sprintf("Chosen %s in %s leaves (%d leaves):\n", if (grid == "cost") "C" else grid, kind, sum(x$cost)))
    print(x$cost)
  }
  if (!is.null(x$tdsvm)) {
    cat("Tree decomposition search:", tdsvm_choice(x$tdsvm), "\n")
    cat(sprintf("  (training part %d rows, validation %d rows); best validation accuracy per stage:\n",
                x$tdsvm$n_train, x$tdsvm$n_validation))
    print(tdsvm_stages(x$tdsvm$curve), row.names = FALSE)
  }
  cat(paste0(oob_label(x), ":"), oob_error_text(x), "\n")
  if (!is.null(x$oob_brier)) cat("OOB probabilities:", oob_scores_text(x), "\n")
  invisible(x)
}

# The out-of-bag error as printed: the error rate, or for regression the
# mean squared error and R^2; marked optimistic when the rows that scored
# the trees also chose their splits (RSVF, transform_choice = "oob").
oob_error_text <- function(x) {
  if (!is.null(x$oob_unavailable)) return(x$oob_unavailable)
  if (is.na(x$oob_error)) return(oob_missing_text(x))
  text <- model_family(x)$oob_text(x)
  if (isTRUE(x$oob_optimistic)) text <- paste(text, "(optimistic: these rows chose splits)")
  text
}

# Why a model's out-of-bag figure is NA: no row out of bag, or (an
# event-time forest) rows out of bag but no pair a concordance can compare.
oob_missing_text <- function(x) {
  scored <- !is.null(x$forest$times) && is.numeric(x$oob_count) && any(x$oob_count > 0)
  if (scored) "not available (no comparable pair of out-of-bag rows: too few events)"
  else "not available (no out-of-bag rows)"
}

# What print() calls the out-of-bag figure (its family's name for it).
oob_label <- function(x) {
  label <- model_family(x)$oob_label
  if (is.null(label)) "OOB error" else label
}

# The out-of-bag probabilities' scores as printed (R/aggregation.R).
oob_scores_text <- function(x) {
  sprintf("Brier score %s, log-loss %s", format(signif(x$oob_brier, 4)), format(signif(x$oob_logloss, 4)))
}

tdsvm_choice <- function(sel) {
  paste0("sigma = ", sel$sigma, ", C = ", format(sel$cost),
         if (!is.na(sel$gamma)) paste0(", gamma = ", format(sel$gamma)) else "")
}

# Best accuracy of each stage of the search, with its parameters.
tdsvm_stages <- function(curve) {
  rows <- lapply(split(curve, curve$stage), function(d) d[which.max(d$accuracy), ])
  out <- do.call(rbind, rows)
  out$tried <- as.vector(table(curve$stage))
  out[, c("stage", "sigma", "leaves", "svm_leaves", "tried", "cost", "gamma", "accuracy")]
}
