#' Plot a support vector forest
#'
#' Four panels: the distribution of leaf sizes (with the minimum leaf size),
#' the leaves of each tree split into SVM and constant leaves, the `C`
#' chosen by the leaves' cross-validation, and the error against the number
#' of trees: out-of-bag when the sampler leaves rows out, else on `newdata`
#' and `y` when given. For a tree decomposition model (method `"tdsvm"`)
#' the last panel is the validation curve of the search instead: accuracy of
#' every parameter pair tried against the ceiling size `sigma`, the best of
#' each stage joined, the chosen one marked. An event-time forest
#' (survival or competing risks) holds curves in its leaves, never SVMs: its
#' second panel counts each tree's leaves, its third shows the spread of the
#' leaves' curves (each leaf's survival at the quartiles of the event times;
#' for competing risks each cause's cumulative incidence at the middle one),
#' and its last, without `newdata`, its out-of-bag concordance (Harrell's C;
#' for competing risks Wolbers' C of each cause) and integrated Brier score.
#'
#' @param x A fitted [svforest()] model.
#' @param newdata,y Optional labelled data for the error curve: give both or
#'   neither; `y` holds one class (of the model's levels) per row of
#'   `newdata`, without missing values (a survival forest: a
#'   [survival::Surv()] outcome, and the curve is 1 - Harrell's C of the
#'   risk after 1, 2, ... trees; a competing-risks forest: its outcome,
#'   `Surv(time, event)` with an event factor, and the curve is 1 - Wolbers'
#'   C of the first cause). They are checked also when the
#'   out-of-bag or validation curve is shown instead.
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
    # what a permutation importance measures: the drop in accuracy, the rise in squared error, the drop in C
    measure <- if (!is.null(x$forest$times)) "mean decrease in Harrell's C"
               else if (is.null(x$levels)) "mean increase in squared error" else "mean decrease in accuracy"
    plot_importance(x$variable_importance, ..., measure = measure,
                    fit_permutation = model_family(x)$fit_importance)  # R/importance-local.R
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

  if (!is.null(x$forest$times)) {
    plot_event_leaves(x)  # an event-time forest's leaves are curves, never SVMs
  } else {
    plot_leaf_models(x, s)
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

# The leaves of each tree split into SVM and constant leaves, and the `C`
# the SVM leaves chose (the second and third panels).
plot_leaf_models <- function(x, s) {
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
}

# An event-time forest's leaves (the second and third panels): leaves per
# tree, and the spread of the leaves' curves, each leaf's survival (or, for
# competing risks, each cause's cumulative incidence at the middle one) at
# the quartiles of the event times, as svforest_tree() summarises them.
plot_event_leaves <- function(x) {
  trees <- x$forest$trees
  graphics::barplot(vapply(trees, tree_n_leaves, 0L), col = "grey75", border = NA, names.arg = seq_along(trees),
                    main = "Leaves per tree", xlab = "tree", ylab = "leaves")
  summarise <- model_family(x)$tree_table$leaf_predictions  # R/family-*.R
  values <- do.call(rbind, lapply(seq_along(trees), function(t) {
    do.call(rbind, summarise(x, trees[[t]], tree_n_leaves(trees[[t]])))
  }))
  causes <- x$competing$causes
  if (is.null(causes)) {
    main <- "Leaves' survival S(t) at event-time quartiles"
  } else {
    per_cause <- ncol(values) / length(causes)
    middle <- ceiling(per_cause / 2)
    times <- x$forest$times
    at <- unique(ceiling(length(times) * c(0.25, 0.5, 0.75)))[middle]
    values <- matrix(values[, (seq_along(causes) - 1L) * per_cause + middle], nrow(values),
                     dimnames = list(NULL, causes))
    main <- sprintf("Leaves' CIF at time %s", format_number(times[at]))
  }
  graphics::boxplot(values, col = "grey85", border = "grey30", ylim = c(0, 1), main = main, ylab = "",
                    cex.axis = 0.8, outcex = 0.5)
}

# An event-time forest's out-of-bag figures (the model keeps no per-tree
# curve): its concordance (survival: Harrell's C; competing risks: Wolbers'
# C of each cause) and integrated Brier score.
plot_survival_oob <- function(x) {
  causes <- x$competing$causes
  c_name <- if (is.null(causes)) "Harrell's C" else "Wolbers' C"
  v <- rbind(as.vector(x$oob_concordance), as.vector(x$oob_ibs))
  dimnames(v) <- list(c(c_name, "Integrated Brier score"), if (is.null(causes)) "" else causes)
  at <- graphics::barplot(v, beside = TRUE, col = c("steelblue", "grey60"), border = NA, ylim = c(0, 1.25),
                          main = "Out-of-bag fit", ylab = "", yaxt = "n")
  graphics::axis(2, at = seq(0, 1, 0.25))
  graphics::text(at, v, formatC(v, digits = 3, format = "f"), pos = 3, cex = 0.8)
  graphics::legend("top", legend = rownames(v), fill = c("steelblue", "grey60"), bty = "n", cex = 0.8, horiz = TRUE)
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
