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

# (A survival forest's trees are read with its grid of `times`.)
# Descriptions of payloads of `tree`: part "leaf" (leaves `index`) or
# "split" (nodes `index`; a leaf node gives an empty list). A list, one
# named list of fields per element of `index` (with `kind`, the kind's
# name), or with `field` only that field (NULL where a payload has none).
tree_describe <- function(forest, tree, part, index, field = NULL) {
  .svf_describe(tree, forest$num_classes, forest$num_features, part, as.integer(index), field, length(forest$times))
}

# The node and leaf arrays of `tree` (left_child, right_child, leaf_id,
# split_kind, leaf_kind, leaf_size and, when the tree has them, leaf_oob),
# whichever its layout. Functions below
# take a tree or these arrays.
tree_nodes <- function(tree) if (is.null(tree$layout)) tree else .svf_tree_nodes(tree)

# `tree` in the plain layout (model format 2's 14 arrays), checked; errors
# name it as tree `index`.
tree_plain <- function(forest, tree, index = 1L) {
  .svf_tree_layout(tree, forest$num_classes, forest$num_features, "plain", index, length(forest$times))
}

# `tree` in the compact layout (the plain one when it is not in the
# grower's order), checked.
tree_compact <- function(forest, tree, index = 1L) {
  .svf_tree_layout(tree, forest$num_classes, forest$num_features, "compact", index, length(forest$times))
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
  d <- tree_describe(forest, tree, "split", nodes)
  data.frame(node = nodes, var = vapply(d, function(s) as.vector(s$var), 0L),
             value = vapply(d, function(s) as.vector(s$value), 0))
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

# Damaged copies of `tree` for the model-check tests: a named list of trees,
# each broken in one way that predict() must reject with an R error naming
# the tree. Covers the node and leaf arrays of every tree and the payload of
# each split and leaf kind that `tree` holds, in the plain layout; payload
# fields are found by their positions in the engine's descriptions. A
# compact tree also gets damages of its compact layout (tree_compact_damages()).
tree_damages <- function(forest, tree) {
  out <- if (is.null(tree$layout)) list() else tree_compact_damages(tree)
  tree <- tree_plain(forest, tree)
  c(out, tree_array_damages(forest, tree), tree_split_payload_damages(forest, tree),
    tree_leaf_payload_damages(forest, tree))
}

# Position (from 1) of a stored field in a tree's payload arrays, from the
# engine's description of a split or leaf.
payload_at <- function(desc, field) attr(desc[[field]], "at")

# Damages of a plain tree's node and leaf arrays (see tree_damages()).
tree_array_damages <- function(forest, tree) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  internal <- tree_split_nodes(tree)
  leaves_at <- which(tree_nodes(tree)$leaf_id >= 0)
  leaf1 <- tree_describe(forest, tree, "leaf", 1L)[[1]]
  # the first leaf's stored class counts (full or compact)
  counts_field <- if (!is.null(payload_at(leaf1, "counts"))) "counts" else "class_counts"
  counts_at <- payload_at(leaf1, counts_field) + seq_along(leaf1[[counts_field]]) - 1L
  add("leaf_counts_negative", function(t) { t$leaf_int[counts_at[1]] <- -3L; t })
  add("leaf_counts_zero", function(t) { t$leaf_int[counts_at] <- 0L; t })
  add("leaf_int_truncated", function(t) { t$leaf_int <- utils::head(t$leaf_int, -1); t })
  add("leaf_int_double", function(t) { t$leaf_int <- as.double(t$leaf_int); t })
  add("leaf_int_start_high", function(t) { t$leaf_int_start[1] <- length(t$leaf_int) + 5L; t })
  add("leaf_int_start_negative", function(t) { t$leaf_int_start[1] <- -1L; t })
  add("leaf_int_start_na", function(t) { t$leaf_int_start[1] <- NA_integer_; t })
  add("leaf_id_double", function(t) { t$leaf_id <- as.double(t$leaf_id); t })
  add("leaf_id_out_of_range", function(t) { t$leaf_id[leaves_at[1]] <- 50L; t })
  add("leaf_kind_unknown", function(t) { t$leaf_kind[1] <- 77L; t })
  add("leaf_size_empty", function(t) { t$leaf_size <- integer(0); t })
  add("leaf_real_start_truncated", function(t) { t$leaf_real_start <- t$leaf_real_start[-1]; t })
  add("no_nodes", function(t) {
    for (el in c("left_child", "right_child", "leaf_id", "split_kind", "split_int_start", "split_real_start")) {
      t[[el]] <- integer(0)
    }
    t
  })
  if (length(leaves_at) >= 2) {
    add("leaf_id_twice", function(t) { t$leaf_id[leaves_at[2]] <- t$leaf_id[leaves_at[1]]; t })
  }
  if (length(internal) >= 1) {
    add("split_real_missing", function(t) { t$split_real <- NULL; t })
    add("split_int_double", function(t) { t$split_int <- as.double(t$split_int); t })
    add("split_kind_unknown", function(t) { t$split_kind[internal[1]] <- 9L; t })
    add("split_kind_at_leaf", function(t) { t$split_kind[leaves_at[1]] <- 0L; t })
    add("split_int_start_high", function(t) { t$split_int_start[internal[1]] <- length(t$split_int) + 1L; t })
    add("split_real_start_negative", function(t) { t$split_real_start[internal[1]] <- -4L; t })
    add("left_child_out_of_range", function(t) { t$left_child[internal[1]] <- length(t$leaf_id); t })
    add("right_child_out_of_range", function(t) { t$right_child[internal[1]] <- 1000L; t })
    add("right_child_na", function(t) { t$right_child[internal[1]] <- NA_integer_; t })
    add("root_child_negative", function(t) { t$left_child[1] <- -1L; t })
  }
  if (length(internal) >= 2) {
    add("left_child_backwards", function(t) { t$left_child[internal[2]] <- 0L; t })
    add("left_child_self", function(t) { t$left_child[internal[2]] <- internal[2] - 1L; t })
  }
  out
}

# Damages of the payload of the first split of each kind `tree` holds
# (plain layout; see tree_damages()).
tree_split_payload_damages <- function(forest, tree) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  p <- forest$num_features
  kinds <- tree_split_kinds(tree)
  first_of <- function(kind) which(kinds %in% kind)[1]
  axis <- first_of("axis")
  if (!is.na(axis)) {
    at <- payload_at(tree_describe(forest, tree, "split", axis)[[1]], "var")
    add("split_var_high", function(t) { t$split_int[at] <- 99L; t })
    add("split_var_negative", function(t) { t$split_int[at] <- -5L; t })
  }
  tf <- first_of(c("transform", "affine_transform", "projected_transform", "projected_affine_transform"))
  if (!is.na(tf)) {
    d <- tree_describe(forest, tree, "split", tf)[[1]]
    at <- payload_at(d, "rank")
    dim_at <- payload_at(d, "dim")
    add("tf_rank_zero", function(t) { t$split_int[at] <- 0L; t })
    add("tf_dim_zero", function(t) { t$split_int[dim_at] <- 0L; t })
    add("tf_int_start_high", function(t) { t$split_int_start[tf] <- length(t$split_int) - 1L; t })
    add("tf_dim_above_rank", function(t) { t$split_int[dim_at] <- t$split_int[at] + 1L; t })
    add("tf_rank_huge", function(t) { t$split_int[at] <- .Machine$integer.max; t })
    add("tf_values_truncated", function(t) { t$split_real <- utils::head(t$split_real, -1); t })
    add("tf_values_integer", function(t) { t$split_real <- integer(length(t$split_real)); t })
    add("tf_start_high", function(t) { t$split_real_start[tf] <- length(t$split_real); t })
    add("tf_kind_swapped", function(t) {  # the other transformation kind, one value short of its payload
      codes <- .svf_split_kinds()
      other <- c(transform = "affine_transform", affine_transform = "transform",
                 projected_transform = "projected_affine_transform",
                 projected_affine_transform = "projected_transform")
      t$split_kind[tf] <- codes[[other[[kinds[tf]]]]]
      # the swapped kind's payload length: from its description on zeros long enough for any kind
      r <- t$split_int[at]
      start <- t$split_real_start[tf]
      t$split_real <- c(utils::head(t$split_real, start), numeric((p + 2) * (r + 1) * (2 + 2 * r)))
      need <- sum(lengths(Filter(is.double, tree_describe(forest, t, "split", tf)[[1]])))
      t$split_real <- utils::head(t$split_real, start + need - 1L)
      t
    })
  }
  ob <- first_of("oblique")
  if (!is.na(ob)) {
    d <- tree_describe(forest, tree, "split", ob)[[1]]
    at <- payload_at(d, "n_vars")
    add("oblique_count_zero", function(t) { t$split_int[at] <- 0L; t })
    add("oblique_count_high", function(t) { t$split_int[at] <- 1e6L; t })
    add("oblique_index_high", function(t) { t$split_int[payload_at(d, "vars")] <- 99L; t })
    add("oblique_weight_truncated", function(t) { t$split_real <- utils::head(t$split_real, -1); t })
  }
  out
}

# Damages of the payload of the first linear and kernel leaf of `tree`
# (plain layout; see tree_damages()).
tree_leaf_payload_damages <- function(forest, tree) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  K <- forest$num_classes
  p <- forest$num_features
  k <- leaf_kind_table()
  lin <- which((k$linear & k$classification)[match(tree$leaf_kind, k$code)])[1]
  if (!is.na(lin)) {
    d <- tree_describe(forest, tree, "leaf", lin)[[1]]
    at <- payload_at(d, "n_classes")
    cl <- payload_at(d, "classes")
    add("linear_classes_one", function(t) { t$leaf_int[at] <- 1L; t })
    add("linear_classes_many", function(t) { t$leaf_int[at] <- K + 1L; t })
    add("linear_class_out_of_range", function(t) { t$leaf_int[cl] <- K + 3L; t })
    add("linear_classes_unsorted", function(t) { t$leaf_int[cl + 1L] <- t$leaf_int[cl]; t })
    add("coef_empty", function(t) { t$leaf_real <- numeric(0); t })
    add("coef_integer", function(t) { t$leaf_real <- as.integer(t$leaf_real); t })
    add("linear_coef_start_high", function(t) { t$leaf_real_start[lin] <- 1000000L; t })
    add("linear_coef_start_negative", function(t) { t$leaf_real_start[lin] <- -1L; t })
  }
  ker <- which(tree_leaf_payload_kinds(tree) == "kernel_svm")[1]
  if (!is.na(ker)) {
    d <- tree_describe(forest, tree, "leaf", ker)[[1]]
    n_sv <- as.vector(d$n_sv)
    add("kernel_ovo_flag", function(t) { t$leaf_int[payload_at(d, "one_vs_one")] <- 5L; t })
    add("kernel_class_count", function(t) { t$leaf_int[payload_at(d, "n_classes")] <- 1L; t })
    add("kernel_svm_class", function(t) { t$leaf_int[payload_at(d, "classes")] <- K + 7L; t })
    add("kernel_class_sv", function(t) { t$leaf_int[payload_at(d, "class_sv")] <- -1L; t })
    add("kernel_sv_count", function(t) { t$leaf_int[payload_at(d, "n_sv")] <- 1e6L; t })
    add("kernel_sv_ptr", function(t) { t$leaf_int[payload_at(d, "sv_ptr") + n_sv] <- 1e6L; t })
    add("kernel_sv_index", function(t) { t$leaf_int[payload_at(d, "sv_index")] <- p + 9L; t })
    add("kernel_gamma", function(t) { t$leaf_real[payload_at(d, "gamma")] <- NA; t })
    add("kernel_values_truncated", function(t) { t$leaf_real <- utils::head(t$leaf_real, -1); t })
  }
  out
}

# Damaged copies of a compact tree (see tree_damages()).
tree_compact_damages <- function(tree) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  leaf_split <- function(t, value) {
    k <- .svf_tree_nodes(t)$split_kind
    k[which(k == -1L)[1]] <- value
    t$split_kind <- as.raw(ifelse(k < 0, 2L * abs(k) - 1L, 2L * k))  # zigzag, 1 byte each
    t
  }
  add("compact_layout_unknown", function(t) { t$layout <- 2L; t })
  add("compact_layout_double", function(t) { t$layout <- 1; t })
  add("compact_nodes_high", function(t) { t$n_nodes <- t$n_nodes + 2L; t })
  add("compact_nodes_na", function(t) { t$n_nodes <- NA_integer_; t })
  add("compact_leaves_low", function(t) { t$n_leaves <- t$n_leaves - 1L; t })
  add("compact_split_kind_integer", function(t) { t$split_kind <- as.integer(t$split_kind); t })
  add("compact_split_kind_truncated", function(t) { t$split_kind <- utils::head(t$split_kind, -1); t })
  add("compact_split_kind_unfinished", function(t) { t$split_kind[length(t$split_kind)] <- as.raw(0x80); t })
  add("compact_leaf_becomes_split", function(t) leaf_split(t, 0L))
  add("compact_split_kind_unknown", function(t) leaf_split(t, 40L))
  add("compact_split_int_truncated", function(t) { t$split_int <- utils::head(t$split_int, -1); t })
  add("compact_split_real_extra", function(t) { t$split_real <- c(t$split_real, 1); t })
  add("compact_leaf_int_extra", function(t) { t$leaf_int <- c(t$leaf_int, as.raw(2)); t })
  add("compact_leaf_length_missing", function(t) { t$leaf_int_length <- NULL; t })
  add("compact_leaf_length_negative", function(t) { t$leaf_int_length[1] <- as.raw(3); t })
  add("compact_leaf_size_long", function(t) { t$leaf_size <- c(t$leaf_size, as.raw(2)); t })
  add("compact_leaf_kind_unknown", function(t) { t$leaf_kind[1] <- as.raw(0x7e); t })
  add("compact_overlong_varint", function(t) { t$leaf_kind <- c(as.raw(c(0xff, 0xff, 0xff, 0xff, 0x7f)), t$leaf_kind[-1]); t })
  out
}
