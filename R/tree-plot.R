# One tree drawn with base graphics (plot(fit, tree = k)): the package
# already draws with `graphics`, so the picture needs no further dependency.

# Draws tree `tree` down to depth `max_depth`; returns the drawn boxes
# (node, x, y, label) invisibly.
plot_tree <- function(object, tree, max_depth = 4L, cex = NULL) {
  tree <- check_tree_index(object, tree)
  if (!is.numeric(max_depth) || length(max_depth) != 1 || is.na(max_depth) || max_depth < 0 ||
      max_depth != round(max_depth)) {
    stop(sprintf("`max_depth` must be a whole number of at least 0, not %s.", describe(max_depth)), call. = FALSE)
  }
  tab <- svforest_tree(object, tree)
  layout <- tree_plot_layout(tab, max_depth)
  shown <- layout$node
  cut <- tab$kind[shown] != "leaf" & tab$depth[shown] >= max_depth
  label <- ifelse(tab$kind[shown] == "leaf", sprintf("%s\nn = %d", tab$label[shown], tab$n_inbag[shown]),
                  tab$label[shown])
  label[cut] <- sprintf("... (%d rows)", tab$n_inbag[shown][cut])
  # drawn on two lines (a rule's terms, then its cut): boxes stay narrow
  text <- sub(" <= ", "\n<= ", sub("... (", "...\n(", label, fixed = TRUE), fixed = TRUE)
  old <- graphics::par(mar = c(0.5, 0.5, 2, 0.5))
  on.exit(graphics::par(old))
  graphics::plot.new()
  graphics::plot.window(xlim = c(0.4, max(layout$x) + 0.6), ylim = c(-max(layout$y) - 0.5, 0.5))
  if (is.null(cex)) cex <- tree_plot_cex(layout, text)
  graphics::title(sprintf("Tree %d of %d (%s)", tree, length(object$forest$trees), object$method))
  parent_at <- match(tab$parent[shown], shown)
  has_parent <- !is.na(parent_at)
  is_left <- has_parent & shown == tab$left[tab$parent[shown]]
  if (any(has_parent)) {  # a one-leaf tree has no edges
    graphics::segments(layout$x[parent_at[has_parent]], -layout$y[parent_at[has_parent]],
                       layout$x[has_parent], -layout$y[has_parent], col = "grey60")
    graphics::text((layout$x[parent_at[is_left]] + layout$x[is_left]) / 2,
                   -(layout$y[parent_at[is_left]] + layout$y[is_left]) / 2, "yes", cex = cex * 0.8,
                   col = "grey40")
  }
  fill <- ifelse(tab$kind[shown] == "leaf", "grey92", ifelse(tab$kind[shown] == "axis", "lightyellow", "lightblue"))
  w <- graphics::strwidth(text, cex = cex) / 2 + 0.05
  h <- graphics::strheight(text, cex = cex) / 2 + 0.08
  graphics::rect(layout$x - w, -layout$y - h, layout$x + w, -layout$y + h, col = fill, border = "grey50")
  graphics::text(layout$x, -layout$y, text, cex = cex)
  invisible(structure(data.frame(node = shown, kind = tab$kind[shown], x = layout$x, y = layout$y, label = label,
                                 stringsAsFactors = FALSE), cex = cex, text = text))
}

# The largest text size (at most 0.9) at which no two boxes of a level
# overlap and a box fits between levels, measured on the open plot.
tree_plot_cex <- function(layout, label) {
  # a box is the text (proportional to cex) plus 0.1 wide and 0.16 high
  w <- graphics::strwidth(label, cex = 1)
  fit <- 0.7 / max(graphics::strheight(label, cex = 1))
  for (d in unique(layout$y)) {
    at <- which(layout$y == d)
    at <- at[order(layout$x[at])]
    if (length(at) < 2) next
    need <- (w[at[-1]] + w[at[-length(at)]]) / 2
    fit <- min(fit, (0.95 * diff(layout$x[at]) - 0.1) / need)
  }
  min(0.9, fit)
}

# Positions of the nodes down to `max_depth`: leaves (and cut nodes) at
# 1, 2, ... from left to right, a split node above the middle of its
# children, depth downwards.
tree_plot_layout <- function(tab, max_depth) {
  nodes <- integer()
  x <- numeric()
  slot <- 0
  visit <- function(i) {
    if (tab$kind[i] == "leaf" || tab$depth[i] >= max_depth) {
      slot <<- slot + 1
      nodes <<- c(nodes, i)
      x <<- c(x, slot)
      return(slot)
    }
    a <- visit(tab$left[i])
    b <- visit(tab$right[i])
    nodes <<- c(nodes, i)
    x <<- c(x, (a + b) / 2)
    (a + b) / 2
  }
  visit(1L)
  ord <- order(nodes)
  list(node = nodes[ord], x = x[ord], y = tab$depth[nodes[ord]])
}
