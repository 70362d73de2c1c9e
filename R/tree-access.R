# Reading the trees of a fitted model.
#
# A tree is stored as the R list the engine returns (see
# src/model_convert.cpp). Only the functions in this file know that list's
# layout: print(), summary(), plot(), combine() and the tests read trees
# through them.
#
# Conventions: nodes and leaves are numbered from 1 (positions in the tree);
# predictors are numbered from 0, as in the engine. `forest` is the model's
# `forest` element (its number of classes and predictors).
#
# The format is the same for every method: per node left_child, right_child,
# leaf_id (-1 for split nodes), split_kind (-1 for leaves) and the offsets
# (from 0) of its payload in split_int / split_real; per leaf leaf_kind,
# leaf_size and the offsets of its payload in leaf_int / leaf_real. Model
# format 3 saves a tree in a compact layout (element `layout`; see
# src/core/tree/TreeCodec.h) that keeps only what cannot be derived; model
# format 2 saved these arrays as they are (the "plain" layout, still read).
# The node arrays are read through tree_nodes(), whichever the layout; the
# plain layout of any tree is tree_plain(). Each split and leaf kind owns its
# payload's layout: R reads a payload only through the engine's description
# of it (tree_describe()), named fields whose attribute `at`, when the values
# are stored as such, is their position (from 1) in the integer or double
# payload array of the tree's plain layout.

# The engine's leaf kinds: a data frame with name, code (as saved in
# models), part (the leaf part, as R names it, that writes the kind),
# holds_model, linear, classification and regression.
leaf_kind_table <- function() .svf_leaf_kinds()

# Leaf kind codes as saved in models, named.
leaf_kind_codes <- function() {
  k <- .svf_leaf_kinds()
  stats::setNames(k$code, k$name)
}

# The leaf parts whose leaves are linear models.
linear_leaf_parts <- function() {
  k <- .svf_leaf_kinds()
  unique(k$part[k$linear])
}

# (A survival forest's trees are read with its grid of `times`, a
# competing-risks forest's also with its number of causes.)
forest_num_causes <- function(forest) if (is.null(forest$num_causes)) 0L else as.integer(forest$num_causes)

# Descriptions of payloads of `tree`: part "leaf" (leaves `index`) or
# "split" (nodes `index`; a leaf node gives an empty list). A list, one
# named list of fields per element of `index` (with `kind`, the kind's
# name), or with `field` only that field (NULL where a payload has none).
tree_describe <- function(forest, tree, part, index, field = NULL) {
  .svf_describe(tree, forest$num_classes, forest$num_features, part, as.integer(index), field, length(forest$times),
                forest_num_causes(forest))
}

# The node and leaf arrays of `tree` (left_child, right_child, leaf_id,
# split_kind, leaf_kind, leaf_size and, when the tree has them, leaf_oob),
# whichever its layout. Functions below
# take a tree or these arrays.
tree_nodes <- function(tree) if (is.null(tree$layout)) tree else .svf_tree_nodes(tree)

# `tree` in the plain layout (model format 2's 14 arrays), checked; errors
# name it as tree `index`.
tree_plain <- function(forest, tree, index = 1L) {
  .svf_tree_layout(tree, forest$num_classes, forest$num_features, "plain", index, length(forest$times),
                   forest_num_causes(forest))
}

# `tree` in the compact layout (the plain one when it is not in the
# grower's order), checked.
tree_compact <- function(forest, tree, index = 1L) {
  .svf_tree_layout(tree, forest$num_classes, forest$num_features, "compact", index, length(forest$times),
                   forest_num_causes(forest))
}

# Number of nodes (split nodes and leaves) of `tree`: an integer.
tree_n_nodes <- function(tree) if (is.null(tree$layout)) length(tree$leaf_id) else tree$n_nodes

# Number of leaves of `tree`: an integer.
tree_n_leaves <- function(tree) if (is.null(tree$layout)) length(tree$leaf_size) else tree$n_leaves

# Training (in-bag) rows that reached each leaf: an integer vector, one value
# per leaf.
tree_leaf_sizes <- function(tree) tree_nodes(tree)$leaf_size

# Class counts of the training rows of each leaf: a K x L integer matrix
# (column l: leaf l).
tree_leaf_counts <- function(forest, tree) {
  counts <- tree_describe(forest, tree, "leaf", seq_len(tree_n_leaves(tree)), "counts")
  matrix(as.integer(unlist(counts)), nrow = forest$num_classes)
}

# The leaf part of each leaf (as the fit named it): a character vector, one
# value per leaf, e.g. "constant" (class frequencies, or a regression leaf's
# mean), "linear_svm", "kernel_svm", "logistic".
tree_leaf_kinds <- function(tree) {
  k <- .svf_leaf_kinds()
  k$part[match(tree_nodes(tree)$leaf_kind, k$code)]
}

# The payload kind of each leaf (e.g. "class_counts", the compact class
# frequencies of "constant" leaves).
tree_leaf_payload_kinds <- function(tree) {
  k <- .svf_leaf_kinds()
  k$name[match(tree_nodes(tree)$leaf_kind, k$code)]
}

# Leaves that hold a model of their own (anything but class frequencies or
# a regression leaf's mean).
tree_leaf_is_model <- function(tree) {
  k <- .svf_leaf_kinds()
  k$holds_model[match(tree_nodes(tree)$leaf_kind, k$code)]
}

# One numeric field of every leaf: a vector, `missing` where a leaf has none.
tree_leaf_values <- function(forest, tree, field, missing) {
  v <- tree_describe(forest, tree, "leaf", seq_len(tree_n_leaves(tree)), field)
  vapply(v, function(x) if (is.null(x)) missing else x[[1]], missing)
}

# The `C` of each leaf's model (chosen by cross-validation or the search; a
# ridge leaf's lambda): a double vector, one value per leaf, NA for leaves
# without a model.
tree_leaf_costs <- function(forest, tree) {
  cost <- tree_leaf_values(forest, tree, "cost", NA_real_)
  lambda <- tree_leaf_values(forest, tree, "lambda", NA_real_)
  ifelse(is.na(cost), lambda, cost)
}

# Support vectors of each leaf's kernel SVM (or SVR): an integer vector, one
# value per leaf, 0 for leaves without one.
tree_leaf_sv_counts <- function(forest, tree) tree_leaf_values(forest, tree, "n_sv", 0L)

# Depth of the tree (0: a single leaf): an integer.
tree_depth <- function(tree) {
  tree <- tree_nodes(tree)
  n <- tree_n_nodes(tree)
  depth <- integer(n)
  for (i in seq_len(n)) {
    if (tree$leaf_id[i] < 0) {
      depth[tree$left_child[i] + 1L] <- depth[i] + 1L
      depth[tree$right_child[i] + 1L] <- depth[i] + 1L
    }
  }
  max(depth)
}

# The split of each node: a character vector, one value per node: NA for a
# leaf, else "axis" (predictor <= value), "oblique" (weighted sum of a few
# predictors <= value), "transform" (learned transformation and two
# subspaces through the origin) or "affine_transform" (learned
# transformation of centred predictors and two affine subspaces).
tree_split_kinds <- function(tree) {
  tree <- tree_nodes(tree)
  codes <- .svf_split_kinds()
  kind <- rep(NA_character_, tree_n_nodes(tree))
  split <- tree$leaf_id < 0
  kind[split] <- names(codes)[match(tree$split_kind[split], codes)]
  kind
}

# Positions (from 1) of the split nodes, in node order.
tree_split_nodes <- function(tree) which(tree_nodes(tree)$leaf_id < 0)

# The children of split node `node`: an integer vector c(left, right) of node
# positions (from 1). A row goes left when it satisfies the split.
tree_children <- function(tree, node) {
  tree <- tree_nodes(tree)
  c(tree$left_child[node], tree$right_child[node]) + 1L
}

# The leaf at node position `node`: its number (from 1), NA for a split node.
tree_node_leaf <- function(tree, node) {
  id <- tree_nodes(tree)$leaf_id[node]
  if (id < 0) NA_integer_ else id + 1L
}

# Axis splits: a data frame with one row per axis split node, in node order:
# `node` (position, from 1), `var` (predictor, from 0) and `value` (rows
# with x[var] <= value go left).
tree_axis_splits <- function(forest, tree) {
  nodes <- which(tree_split_kinds(tree) %in% "axis")
  # a field at a time, one number per node (a forest has many nodes)
  field <- function(name, empty) if (length(nodes)) as.vector(unlist(tree_describe(forest, tree, "split", nodes, name))) else empty
  data.frame(node = nodes, var = field("var", integer()), value = field("value", numeric()))
}

# Training (in-bag) rows that reached each node: a double vector, one value
# per node (a split node holds the rows of its leaves).
tree_node_rows <- function(tree) {
  tree <- tree_nodes(tree)
  leaf_sums_up(tree, as.double(tree$leaf_size), numeric(tree_n_nodes(tree)))
}

# Out-of-bag rows that reached each node at fit time (the tree's choosing
# and scoring rows alike; 0 everywhere when the sampler used every row): an
# integer vector, one value per node, or NULL for a tree saved before the
# counts were kept.
tree_node_oob <- function(tree) {
  tree <- tree_nodes(tree)
  if (is.null(tree$leaf_oob)) return(NULL)
  leaf_sums_up(tree, tree$leaf_oob, integer(tree_n_nodes(tree)))
}

# Per-leaf values (by leaf id) summed up the tree into `out` (one value per
# node): a split node gets the sum over its leaves. Children have larger
# positions than their parent, so one pass from the end fills every node.
leaf_sums_up <- function(tree, leaf_values, out) {
  for (i in rev(seq_along(out))) {
    out[i] <- if (tree$leaf_id[i] >= 0) leaf_values[tree$leaf_id[i] + 1L]
              else out[tree$left_child[i] + 1L] + out[tree$right_child[i] + 1L]
  }
  out
}

# Predictors (from 0) of the axis splits, in node order.
tree_split_vars <- function(forest, tree) tree_axis_splits(forest, tree)$var

# The oblique split of node `node`: list(vars = predictors (from 0),
# weights, value); rows with sum(weights * x[vars]) <= value go left.
tree_oblique_split <- function(forest, tree, node) tree_oblique_splits(forest, tree, node)[[1]]

# tree_oblique_split() of several nodes: a list.
tree_oblique_splits <- function(forest, tree, nodes) {
  lapply(tree_describe(forest, tree, "split", nodes), function(s) {
    list(vars = as.vector(s$vars), weights = as.vector(s$weights), value = as.vector(s$value))
  })
}

# The transformation split of node `node`: a list with `rank` (r, the rows
# of the learned T), `dim` (k, the subspaces' dimension), `affine` and
# `projected`. Stored as learned (projected FALSE): transform = r x p matrix
# T, left = r x k basis of the left child's subspace, right = r x k basis of
# the right child's. A "transform" split (affine FALSE) sends a row x left
# when the left subspace reconstructs z = T x with the smaller (or equal)
# residual. An "affine_transform" split (affine TRUE) also has `center` (p
# values), `left_mean` and `right_mean` (r values each): with z = T (x -
# center), the row goes left when ||z - left_mean||^2 - ||left' (z -
# left_mean)||^2 is at most the same for the right child.
# Stored folded (projected TRUE, the "projected_" kinds, written when
# smaller): left_projection = left' T and right_projection = right' T (k x p
# each); without affine, x goes left when ||left_projection x|| >=
# ||right_projection x||; with it, also mean_direction (w, p values),
# offset (e), left_shift and right_shift (b, k values each), and x goes left
# when e - 2 w'x - ||left_projection x - left_shift||^2 + ||right_projection
# x - right_shift||^2 <= 0 (the affine rule above, expanded).
tree_transform_split <- function(forest, tree, node) {
  s <- tree_describe(forest, tree, "split", node)[[1]]
  out <- lapply(s[setdiff(names(s), "kind")], function(v) { attr(v, "at") <- NULL; v })
  out$projected <- startsWith(s$kind, "projected")
  out
}

# Whether each row of x goes left at transformation split `split` (from
# tree_transform_split()), computed in R.
transform_split_left <- function(split, x) {
  if (split$projected) {
    a <- split$left_projection %*% t(x)
    b <- split$right_projection %*% t(x)
    if (!split$affine) return(colSums(a^2) >= colSums(b^2))
    return(split$offset - 2 * as.vector(x %*% split$mean_direction) - colSums((a - split$left_shift)^2) +
             colSums((b - split$right_shift)^2) <= 0)
  }
  if (!split$affine) {
    z <- split$transform %*% t(x)
    return(colSums(crossprod(split$left, z)^2) >= colSums(crossprod(split$right, z)^2))
  }
  z <- split$transform %*% (t(x) - split$center)
  residual <- function(m, u) { d <- z - m; colSums(d^2) - colSums(crossprod(u, d)^2) }
  residual(split$left_mean, split$left) <= residual(split$right_mean, split$right)
}

# The linear model of leaf `leaf` of `tree` in `forest` (the model's `forest`
# element): NULL for a leaf of another kind, else list(classes, coef).
# `classes` are the classes (from 1) the model chooses among, in level order;
# `coef` is a (p + 1) x outputs matrix of weights on the scaled predictors
# followed by the bias. With two classes there is one output, and a positive
# score picks classes[2]; with more, one output per class (one-vs-rest) and
# the largest score wins. Regression leaves (ridge, linear SVR): no classes,
# one output.
tree_linear_leaf <- function(forest, tree, leaf) tree_linear_leaves(forest, tree, leaf)[[1]]

# tree_linear_leaf() of several leaves (all by default): a list.
tree_linear_leaves <- function(forest, tree, leaves = seq_len(tree_n_leaves(tree))) {
  k <- .svf_leaf_kinds()
  linear <- k$linear[match(tree_nodes(tree)$leaf_kind[leaves], k$code)]
  out <- vector("list", length(leaves))
  d <- tree_describe(forest, tree, "leaf", leaves[linear])
  out[linear] <- lapply(d, function(l) {
    coef <- l$coef
    attr(coef, "at") <- NULL
    list(classes = if (is.null(l$classes)) integer() else as.vector(l$classes) + 1L, coef = coef)
  })
  out
}

# The kernel SVM of leaf `leaf`: NULL for a leaf of another kind, else
# list(multiclass = "ovo" (one-against-one, LIBSVM's voting) or "ovr" (one
# per class against the others), classes = the classes (from 1) it chooses
# among, n_sv = its number of support vectors, gamma = its RBF width, rho =
# its offsets (one per class pair for "ovo", one per class for "ovr")).
tree_kernel_leaf <- function(forest, tree, leaf) {
  d <- tree_describe(forest, tree, "leaf", leaf)[[1]]
  if (d$kind != "kernel_svm") return(NULL)
  list(multiclass = if (d$one_vs_one) "ovo" else "ovr", classes = as.vector(d$classes) + 1L,
       n_sv = as.vector(d$n_sv), gamma = as.vector(d$gamma), rho = as.vector(d$rho))
}

# All linear-model coefficients stored in `tree` (a double vector): empty
# when no leaf holds a linear model.
tree_linear_coefficients <- function(forest, tree) {
  coef <- tree_describe(forest, tree, "leaf", seq_len(tree_n_leaves(tree)), "coef")
  k <- .svf_leaf_kinds()
  linear <- k$linear[match(tree_nodes(tree)$leaf_kind, k$code)]
  as.vector(unlist(coef[linear]))
}

# Everything that defines the partition and the leaves' training rows, for
# comparing the structure of two trees: identical when they route rows
# alike and their leaves hold the same rows (with counts = TRUE, the leaves'
# class counts too).
tree_shape <- function(tree, forest, counts = FALSE) {
  nodes <- tree_nodes(tree)
  list(children = lapply(tree_split_nodes(nodes), function(i) tree_children(nodes, i)),
       leaf_of_node = vapply(seq_len(tree_n_nodes(nodes)), function(i) tree_node_leaf(nodes, i), 0L),
       axis_splits = tree_axis_splits(forest, tree),
       leaf_sizes = tree_leaf_sizes(tree),
       leaf_counts = if (counts) tree_leaf_counts(forest, tree))
}
