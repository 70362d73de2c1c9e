# The leaves and nodes of svforest_tree()'s table (R/tree-table.R): what
# each predicts, as its outcome family reads a leaf (the family's
# `tree_table`, R/family-*.R), and svforest_tree_summary().

# "setosa 0.95" (the leaf's largest class share) or a regression mean.
prediction_label <- function(pred, leaves) {
  if (is.null(pred)) return("model")
  if (length(pred) == 1L && is.null(names(pred))) return(format_number(pred))
  if (is.null(leaves)) {  # event times: the middle of each curve's points, "S(t)" or "CIF <cause>(t)"
    times <- sub("^.*\\((.*)\\)$", "\\1", names(pred))
    per <- length(unique(times))  # the points of one curve
    at <- seq((per + 1L) %/% 2L, length(pred), by = per)
    value <- formatC(pred[at], digits = 2, format = "f")
    if (length(at) == 1L) return(sprintf("%s %s", names(pred)[at], value))
    causes <- sub("^CIF (.*)\\(.*$", "\\1", names(pred)[at])  # competing risks: every cause at one time
    return(sprintf("CIF %s (at %s)", paste(causes, value, collapse = ", "), times[at[1L]]))
  }
  k <- which.max(pred)
  sprintf("%s %s", names(pred)[k], formatC(pred[k], digits = 2, format = "f"))
}

# Per leaf of `tr`: prediction (class shares or the outcome's mean; NULL
# for a regression leaf with a model), leaf_model, and the linear leaves'
# coefficients and intercepts on the user's scale.
tree_leaf_table <- function(object, tr, map) {
  forest <- object$forest
  L <- tree_n_leaves(tr)
  model <- tree_leaf_kinds(tr)
  prediction <- model_family(object)$tree_table$leaf_predictions(object, tr, L)  # R/family-*.R
  coefficients <- intercept <- vector("list", L)
  linear <- tree_linear_leaves(forest, tr)
  for (l in which(!vapply(linear, is.null, TRUE))) {
    user <- linear_leaf_user_scale(object, linear[[l]], map)
    coefficients[[l]] <- user$coefficients
    intercept[[l]] <- user$intercept
  }
  list(prediction = prediction, leaf_model = model, coefficients = coefficients, intercept = intercept)
}

# A linear leaf's weights on the scaled predictors, (value - center) *
# factor, turned into weights per unit of each term and an intercept
# (regression: in the outcome's units).
linear_leaf_user_scale <- function(object, lin, map) {
  p <- nrow(map)
  coef <- matrix(lin$coef, nrow = p + 1L)
  w <- coef[seq_len(p), , drop = FALSE] * map$scale_factor
  b <- coef[p + 1L, ] - colSums(w * map$scale_center)
  scaled <- model_family(object)$tree_table$linear_leaf(object, w, b, lin)  # R/family-*.R
  w <- scaled$w
  b <- scaled$b
  rownames(w) <- map$term
  list(coefficients = w, intercept = stats::setNames(b, colnames(w)))
}

# The prediction of every node: leaves' own; a split node's from the
# training rows of its leaves (class counts, or regression means weighted
# by rows when every leaf below is constant).
node_predictions <- function(object, tr, leaf_prediction, left, right, leaf) {
  nodes <- tree_nodes(tr)
  n <- length(leaf)
  rows <- tree_node_rows(tr)
  out <- vector("list", n)
  out[leaf] <- leaf_prediction[nodes$leaf_id[leaf] + 1L]
  if (!model_family(object)$tree_table$node_means) return(out)  # e.g. a node's curve is not the mean of its leaves'
  for (i in rev(which(!leaf))) {
    a <- out[[left[i]]]
    b <- out[[right[i]]]
    if (is.null(a) || is.null(b)) next
    out[[i]] <- (a * rows[left[i]] + b * rows[right[i]]) / rows[i]
  }
  out
}

#' Which predictors the splits of a forest use
#'
#' Counts, over every tree, the axis cuts on each term and the hyperplanes
#' that give it a weight, with the mean depth (0: the root) at which each
#' term is used.
#'
#' @param object A fitted [svforest()] model.
#' @return A data frame, one row per term (see [svforest_tree()]), sorted by
#'   total use: `term`, `axis` (axis cuts), `hyperplane` (hyperplanes with a
#'   non-zero weight on the term), `mean_depth_axis`, `mean_depth_hyperplane`
#'   (`NA` when unused) and `weight_hyperplane` (mean absolute weight of
#'   the term in the hyperplanes that use it).
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' svforest_tree_summary(fit)
#' @export
svforest_tree_summary <- function(object) {
  check_model(object)
  map <- design_map(object)
  p <- nrow(map)
  count <- list(axis = numeric(p), hyperplane = numeric(p))
  depth <- count
  weight <- numeric(p)
  for (t in seq_along(object$forest$trees)) {
    tab <- svforest_tree(object, t)
    for (i in which(tab$kind %in% c("axis", "hyperplane"))) {
      w <- tab$terms[[i]]
      j <- match(names(w)[w != 0], map$term)
      k <- tab$kind[i]
      count[[k]][j] <- count[[k]][j] + 1
      depth[[k]][j] <- depth[[k]][j] + tab$depth[i]
      if (k == "hyperplane") weight[j] <- weight[j] + abs(w[w != 0])
    }
  }
  mean_or_na <- function(s, n) ifelse(n > 0, s / pmax(n, 1), NA_real_)
  out <- data.frame(term = map$term, axis = as.integer(count$axis), hyperplane = as.integer(count$hyperplane),
                    mean_depth_axis = mean_or_na(depth$axis, count$axis),
                    mean_depth_hyperplane = mean_or_na(depth$hyperplane, count$hyperplane),
                    weight_hyperplane = mean_or_na(weight, count$hyperplane), stringsAsFactors = FALSE)
  out <- out[order(-(out$axis + out$hyperplane), seq_len(p)), ]
  rownames(out) <- NULL
  out
}
