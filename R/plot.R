#' Plot a support vector forest
#'
#' Four panels: the distribution of leaf sizes (with the minimum leaf size),
#' the leaves of each tree split into SVM and constant leaves, the `C`
#' chosen by the leaves' cross-validation, and the error against the number
#' of trees: out-of-bag when the sampler leaves rows out, else on `newdata`
#' and `y` when given. For a tree decomposition model (method `"tdsvm"`)
#' the last panel is the validation curve of the search instead: accuracy of
#' every parameter pair tried against the ceiling size `sigma`, the best of
#' each stage joined, the chosen one marked.
#'
#' @param x A fitted [svforest()] model.
#' @param newdata,y Optional labelled data for the error curve: give both or
#'   neither; `y` holds one class (of the model's levels) per row of
#'   `newdata`, without missing values (a survival forest: a
#'   [survival::Surv()] outcome, and the curve is 1 - Harrell's C of the
#'   risk after 1, 2, ... trees). They are checked also when the
#'   out-of-bag or validation curve is shown instead. Without them a
#'   survival forest's last panel shows its out-of-bag Harrell's C and
#'   integrated Brier score.
#' @param what `"forest"` (the four panels) or `"importance"`: a bar chart
#'   of the model's `variable_importance` (fit with `importance =`, see
#'   [svforest_importance()]), largest on top (at most `n_max = 30` bars;
#'   `n_max` can be given in `...`).
#' @param tree A tree number: draw that tree instead (see "One tree").
#' @param max_depth With `tree`: the deepest level drawn (default 4); a
#'   split node at that depth is drawn as `... (n rows)`.
#' @param ... Passed to the error-curve [plot()], or to [graphics::barplot()]
#'   for the importance; with `tree`, `cex` (the text size).
#' @return `x`, invisibly; with `tree`, the drawn boxes instead: a data
#'   frame with `node`, `kind`, `x`, `y` (depth) and `label`, with the text
#'   size as attribute `cex` and the boxes' text (labels over two lines) as
#'   attribute `text`, invisibly.
#' @section One tree:
#'   `plot(fit, tree = k)` draws tree `k` as [svforest_tree()] gives it: an
#'   axis cut as `x3 <= 1.2` (a rank-transformed column's cut in the
#'   column's raw units), a hyperplane as its three largest terms (weight
#'   times the column's training range)
#'   (`0.41 x1 - 1.3 x2 + ... <= 0.7`), a leaf with its largest class share
#'   (or its mean, or `model` for a leaf with a linear or kernel model) and
#'   its training rows. A row goes to the left child ("yes") when it
#'   satisfies the split. Drawn with base graphics, the text as large as the
#'   device lets the boxes of a level stand apart (at most `cex = 0.9`); a
#'   larger device, or a smaller `max_depth`, gives larger text.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' plot(fit, newdata = iris, y = iris$Species)
#' plot(fit, tree = 1, max_depth = 3)
#' @export
plot.svforest <- function(x, newdata = NULL, y = NULL, what = c("forest", "importance"), tree = NULL,
                          max_depth = 4L, ...) {
  check_model(x)
  if (!is.null(tree)) return(plot_tree(x, tree, max_depth, ...))  # R/tree-plot.R
  what <- check_choice(if (identical(what, c("forest", "importance"))) "forest" else what, "what",
                       c("forest", "importance"))
  if (what == "importance") {
    plot_importance(x$variable_importance, ...)  # R/importance.R
    return(invisible(x))
  }
  if (is.null(newdata) != is.null(y)) stop("Give both `newdata` and `y` for the error curve, or neither.", call. = FALSE)
  # checked (and computed) before drawing, also when the OOB or validation curve is shown
  new_curve <- if (!is.null(newdata)) held_out_curve(y, x, newdata)
  s <- summary(x)
  old <- graphics::par(mfrow = c(2, 2), mar = c(4.2, 4.2, 2.5, 1))
  on.exit(graphics::par(old))

  graphics::hist(s$leaf_size, breaks = 30, col = "grey80", border = "white",
                 main = "Leaf sizes", xlab = "rows in leaf")
  if (!is.null(s$min_leaf_size)) graphics::abline(v = s$min_leaf_size, col = "firebrick", lty = 2)

  trees <- x$forest$trees
  per_tree <- rbind(
    SVM = vapply(trees, function(t) sum(tree_leaf_is_model(t)), 0L),
    constant = vapply(trees, function(t) sum(!tree_leaf_is_model(t)), 0L))
  # room above the bars for the legend, which would cover them at 480 px
  graphics::barplot(per_tree, col = c("steelblue", "grey75"), border = NA, names.arg = seq_along(trees),
                    main = "Leaves per tree", xlab = "tree", ylab = "leaves",
                    ylim = c(0, 1.3 * max(1, colSums(per_tree))))
  graphics::legend("top", legend = rownames(per_tree), fill = c("steelblue", "grey75"),
                   bty = "n", cex = 0.8, horiz = TRUE)

  if (sum(s$cost) > 0) {
    graphics::barplot(s$cost, col = "steelblue", border = NA, main = "C chosen in SVM leaves",
                      xlab = "C", ylab = "leaves")
  } else {
    graphics::plot.new()
    graphics::title("No SVM leaves")
  }

  curve <- NULL
  label <- NULL
  if (!is.null(x$tdsvm)) {
    plot_tdsvm_curve(x$tdsvm)
    return(invisible(x))
  }
  if (!is.null(x$oob_error_curve)) {
    curve <- x$oob_error_curve
    label <- "OOB error"
  } else if (!is.null(newdata) && !is.null(y)) {
    curve <- new_curve
    label <- attr(new_curve, "label")
  } else if (is.numeric(x$oob_concordance) && is.finite(x$oob_error)) {
    plot_survival_oob(x)
    return(invisible(x))
  }
  if (is.null(curve)) {
    graphics::plot.new()
    graphics::title("Error vs trees")
    graphics::text(0.5, 0.5, "give newdata and y\n(or a sampler with OOB rows)")
  } else {
    graphics::plot(seq_along(curve), curve, type = "l", lwd = 2, col = "firebrick",
                   main = paste(label, "vs trees"), xlab = "trees", ylab = label, ...)
  }
  invisible(x)
}

# The error curve over trees on held-out rows, with its label as attribute
# "label": by the outcome's class (a Surv outcome's method is in
# R/predict-survival.R).
held_out_curve <- function(y, object, newdata) UseMethod("held_out_curve")
held_out_curve.default <- function(y, object, newdata) {
  # a forest of curves (a time grid) is scored against a Surv outcome only
  if (!is.null(object$forest$times)) {
    stop(sprintf("`y` must be a survival::Surv outcome for this forest of survival curves, not %s.", describe(y)),
         call. = FALSE)
  }
  structure(error_curve(object, newdata, y), label = "error on newdata")
}

# A survival forest's out-of-bag figures (the model keeps no per-tree
# curve): Harrell's C and the integrated Brier score.
plot_survival_oob <- function(x) {
  v <- c("Harrell's C" = x$oob_concordance, "IBS" = x$oob_ibs)
  at <- graphics::barplot(v, col = c("steelblue", "grey60"), border = NA, ylim = c(0, 1),
                          main = "Out-of-bag fit", ylab = "")
  graphics::text(at, v, formatC(v, digits = 3, format = "f"), pos = 3, cex = 0.9)
}

plot_tdsvm_curve <- function(sel) {
  curve <- sel$curve
  best <- tdsvm_stages(curve)
  graphics::plot(curve$sigma, 100 * curve$accuracy, log = "x", pch = 1, col = "grey50",
                 main = "Validation accuracy (search)", xlab = "ceiling size sigma",
                 ylab = "accuracy (%)")
  graphics::lines(best$sigma, 100 * best$accuracy, type = "b", pch = 19, lwd = 2, col = "firebrick")
  chosen <- best[best$sigma == sel$sigma, ]
  graphics::points(chosen$sigma, 100 * chosen$accuracy, pch = 8, cex = 2, col = "steelblue")
}
