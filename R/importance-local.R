# Local explanations of linear leaves (predict(type = "local"), R/importance.R's
# svforest_importance() page).

# --- local explanations ------------------------------------------------------

# predict(type = "local"): see predict.svforest().
predict_local <- function(object, newdata, num_threads) {
  means <- object$feature_means
  if (is.null(means)) {
    stop("This model stores no training column means (fitted by an older svforest): refit it for local explanations.",
         call. = FALSE)
  }
  linear <- linear_leaf_parts()
  if (!any(vapply(object$forest$trees, function(t) any(tree_leaf_kinds(t) %in% linear), TRUE))) {
    stop(sprintf("Local explanations need linear leaves (leaf = %s); this %s model has %s leaves only.",
                 paste0("\"", linear, "\"", collapse = ", "), object$method, paste0("\"", unique(unlist(lapply(object$forest$trees, tree_leaf_kinds))), "\"",
                                       collapse = " and ")), call. = FALSE)
  }
  data <- new_engine_data(object, newdata)
  x <- if (data$type == "dense") data$x else {
    Matrix::t(Matrix::sparseMatrix(i = data$j + 1L, p = data$p, x = data$x, dims = c(data$ncol, data$nrow)))
  }
  res <- .svf_local_linear(object$forest, data, num_threads)
  n <- nrow(x)
  feat <- object$design$feature_names
  if (is.null(feat)) feat <- paste0("V", seq_len(ncol(x)))
  lev <- object$levels
  centred <- as.matrix(x) - matrix(means, n, length(means), byrow = TRUE)
  if (identical(object$forest$num_classes, 0L)) {
    # a number: per unit of the predictor, in units of the outcome
    coef <- matrix(res$coef * object$outcome_scale, n, length(feat), dimnames = list(NULL, feat))
    return(structure(list(coefficients = coef, contributions = coef * centred, trees = res$trees[, 1],
                          centre = means, class = NULL), class = "svforest_local"))
  }
  if (length(lev) == 2) {
    coef <- matrix(res$coef, n, length(feat), dimnames = list(NULL, feat))
    contrib <- coef * centred
    trees <- res$trees[, 1]
  } else {
    coef <- array(res$coef, c(n, length(feat), length(lev)), dimnames = list(NULL, feat, lev))
    contrib <- coef * as.vector(centred)  # recycled over the classes
    trees <- res$trees
    colnames(trees) <- lev
  }
  structure(list(coefficients = coef, contributions = contrib, trees = trees, centre = means,
                 class = if (length(lev) == 2) lev[2] else lev),
            class = "svforest_local")
}

#' @export
print.svforest_local <- function(x, ...) {
  d <- dim(x$coefficients)
  cat(sprintf("Local linear explanations of %d rows, %d predictor columns", d[1], d[2]))
  if (is.null(x$class)) cat(" (regression)\n")
  else if (length(d) == 2) cat(sprintf(", towards class \"%s\"\n", x$class))
  else cat(sprintf(", %d classes\n", d[3]))
  cat("Elements: coefficients, contributions, trees, centre\n")
  invisible(x)
}

# Training column means, stored in the model as the centre of the local
# contributions.
design_means <- function(x) {
  m <- if (methods::is(x, "dgCMatrix")) Matrix::colMeans(x) else colMeans(x)
  stats::setNames(as.double(m), colnames(x))
}

# --- plot and vip ------------------------------------------------------------

# Horizontal bar chart of an importance vector, largest on top; `measure`
# names what a permutation importance measures, `fit_permutation` whether
# the model could have one from its fit.
plot_importance <- function(imp, n_max = 30, ..., measure = "mean decrease in accuracy", fit_permutation = TRUE) {
  if (is.null(imp)) {
    stop(if (fit_permutation) {
      "The model holds no variable importance: fit with `importance = \"permutation\"` (or \"coefficients\"), or plot svforest_importance()."
    } else {
      "The model holds no variable importance: fit with `importance = \"coefficients\"` (permutation importance is computed afterwards, svforest_importance(fit, data))."
    }, call. = FALSE)
  }
  type <- attr(imp, "type")
  if (is.matrix(imp)) imp <- imp[, "overall"]
  imp <- utils::head(sort(imp, decreasing = TRUE), n_max)
  old <- graphics::par(mar = c(4.2, max(4, 0.6 * max(nchar(names(imp)))), 2.5, 1))
  on.exit(graphics::par(old))
  graphics::barplot(rev(imp), horiz = TRUE, las = 1, col = "steelblue", border = NA,
                    main = "Variable importance",
                    xlab = if (identical(type, "coefficients")) "mean |coefficient| (scaled predictors)" else measure, ...)
  invisible(imp)
}
