# Reading the trees of a fitted model.
#
# A tree is stored as the plain R list the engine returns (see
# src/model_convert.cpp). Only the functions in this file know that list's
# layout: print(), summary(), plot(), support_vectors_used(), combine() and
# the tests read trees through them. When the saved tree format changes,
# these functions are re-implemented and nothing else needs to change.
#
# Conventions: nodes and leaves are numbered from 1 (positions in the tree);
# predictors are numbered from 0, as in the engine. `K` is the number of
# classes, `p` the number of predictor columns.
#
# This implementation reads the format with one array per field (format
# version 1): per node split_var, split_value, left_child, right_child,
# leaf_id (-1 for split nodes), split_coef_start / split_coef_count into
# split_index / split_weight (oblique splits), tf_start / tf_rank / tf_dim
# into tf_values (transformation splits); per leaf leaf_size, leaf_counts,
# leaf_type (0 constant, 1 linear SVM, 2 kernel SVM one-against-one, 3 kernel
# SVM one-against-others), leaf_cost, leaf_coef_start into coef, and the
# kernel arrays (leaf_gamma, leaf_sv_start, leaf_sv_count, ...).

# Number of nodes (split nodes and leaves) of `tree`: an integer.
tree_n_nodes <- function(tree) length(tree$leaf_id)

# Number of leaves of `tree`: an integer.
tree_n_leaves <- function(tree) length(tree$leaf_size)

# Training (in-bag) rows that reached each leaf: an integer vector, one value
# per leaf.
tree_leaf_sizes <- function(tree) tree$leaf_size

# Class counts of the training rows of each leaf: a K x L integer matrix
# (column l: leaf l).
tree_leaf_counts <- function(tree, K) matrix(tree$leaf_counts, nrow = K)

# The model of each leaf: a character vector, one value per leaf, among
# "constant" (class frequencies), "linear_svm", "kernel_svm" (and, with the
# engine that has them, "logistic").
tree_leaf_kinds <- function(tree) {
  kinds <- c("constant", "linear_svm", "kernel_svm", "kernel_svm")
  kinds[tree$leaf_type + 1L]
}

# The `C` of each leaf's SVM (chosen by cross-validation or the search): a
# double vector, one value per leaf, NA for leaves without an SVM.
tree_leaf_costs <- function(tree) {
  cost <- as.double(tree$leaf_cost)
  cost[tree$leaf_type == 0L] <- NA_real_
  cost
}

# Support vectors of each leaf's kernel SVM: an integer vector, one value per
# leaf, 0 for leaves without a kernel SVM.
tree_leaf_sv_counts <- function(tree) {
  if (is.null(tree$leaf_sv_count)) return(integer(tree_n_leaves(tree)))
  count <- tree$leaf_sv_count
  count[!tree$leaf_type %in% c(2L, 3L)] <- 0L
  count
}

# Depth of the tree (0: a single leaf): an integer.
tree_depth <- function(tree) {
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
# predictors <= value) or "transform" (learned transformation and two
# subspaces).
tree_split_kinds <- function(tree) {
  kind <- ifelse(tree$leaf_id >= 0, NA_character_, "axis")
  kind[tree$leaf_id < 0 & tree$split_coef_start >= 0] <- "oblique"
  kind[tree$leaf_id < 0 & tree$tf_start >= 0] <- "transform"
  kind
}

# Positions (from 1) of the split nodes, in node order.
tree_split_nodes <- function(tree) which(tree$leaf_id < 0)

# The children of split node `node`: an integer vector c(left, right) of node
# positions (from 1). A row goes left when it satisfies the split.
tree_children <- function(tree, node) c(tree$left_child[node], tree$right_child[node]) + 1L

# The leaf at node position `node`: its number (from 1), NA for a split node.
tree_node_leaf <- function(tree, node) {
  id <- tree$leaf_id[node]
  if (id < 0) NA_integer_ else id + 1L
}

# Axis splits: a data frame with one row per axis split node, in node order:
# `node` (position, from 1), `var` (predictor, from 0) and `value` (rows
# with x[var] <= value go left).
tree_axis_splits <- function(tree) {
  nodes <- which(tree_split_kinds(tree) %in% "axis")
  data.frame(node = nodes, var = tree$split_var[nodes], value = tree$split_value[nodes])
}

# Predictors (from 0) of the axis splits, in node order.
tree_split_vars <- function(tree) tree_axis_splits(tree)$var

# The oblique split of node `node`: list(vars = predictors (from 0),
# weights, value); rows with sum(weights * scaled x[vars]) <= value go left.
tree_oblique_split <- function(tree, node) {
  idx <- tree$split_coef_start[node] + seq_len(tree$split_coef_count[node])
  list(vars = tree$split_index[idx], weights = tree$split_weight[idx], value = tree$split_value[node])
}

# The transformation split of node `node` for `p` predictors:
# list(transform = r x p matrix T, left = r x k basis of the left child's
# subspace, right = r x k basis of the right child's). A row x goes left
# when the left subspace reconstructs T x with the smaller (or equal)
# residual.
tree_transform_split <- function(tree, node, p) {
  r <- tree$tf_rank[node]
  k <- tree$tf_dim[node]
  v <- tree$tf_values[tree$tf_start[node] + seq_len(r * (p + 2 * k))]
  list(transform = matrix(v[seq_len(r * p)], r, p),
       left = matrix(v[r * p + seq_len(r * k)], r, k),
       right = matrix(v[r * p + r * k + seq_len(r * k)], r, k))
}

# The linear SVM of leaf `leaf` of `tree` in `forest` (the model's `forest`
# element): NULL for a leaf of another kind, else list(classes, coef).
# `classes` are the classes (from 1) the SVM chooses among, in level order;
# `coef` is a (p + 1) x outputs matrix of weights on the scaled predictors
# followed by the bias. With two classes there is one output, and a positive
# score picks classes[2]; with more, one output per class (one-vs-rest) and
# the largest score wins.
tree_linear_leaf <- function(forest, tree, leaf) {
  if (tree$leaf_type[leaf] != 1L) return(NULL)
  K <- forest$num_classes
  p <- forest$num_features
  counts <- tree_leaf_counts(tree, K)[, leaf]
  classes <- which(counts >= max(1L, forest$svm_min_rows) & counts > 0)
  outputs <- if (length(classes) == 2) 1L else length(classes)
  coef <- tree$coef[tree$leaf_coef_start[leaf] + seq_len(outputs * (p + 1L))]
  list(classes = classes, coef = matrix(coef, p + 1L, outputs))
}

# The kernel SVM of leaf `leaf`: NULL for a leaf of another kind, else
# list(multiclass = "ovo" (one-against-one, LIBSVM's voting) or "ovr" (one
# per class against the others), classes = the classes (from 1) it chooses
# among, n_sv = its number of support vectors, gamma = its RBF width,
# rho = its offsets (one per class pair for "ovo", one per class for "ovr")).
tree_kernel_leaf <- function(tree, leaf) {
  if (!tree$leaf_type[leaf] %in% c(2L, 3L)) return(NULL)
  ovo <- tree$leaf_type[leaf] == 2L
  n_class <- tree$leaf_class_count[leaf]
  n_rho <- if (ovo) n_class * (n_class - 1L) / 2 else n_class
  list(multiclass = if (ovo) "ovo" else "ovr",
       classes = tree$svm_class[tree$leaf_class_start[leaf] + seq_len(n_class)] + 1L,
       n_sv = tree$leaf_sv_count[leaf],
       gamma = tree$leaf_gamma[leaf],
       rho = tree$svm_rho[tree$leaf_rho_start[leaf] + seq_len(n_rho)])
}

# All linear-model coefficients stored in `tree` (a double vector): empty
# when no leaf holds a linear model.
tree_linear_coefficients <- function(tree) tree$coef

# Everything that defines the partition and the leaves' training rows, for
# comparing the structure of two trees: identical when they route rows
# alike and their leaves hold the same rows.
tree_shape <- function(tree) {
  list(children = lapply(tree_split_nodes(tree), function(i) tree_children(tree, i)),
       leaf_of_node = vapply(seq_len(tree_n_nodes(tree)), function(i) tree_node_leaf(tree, i), 0L),
       axis_splits = tree_axis_splits(tree),
       leaf_sizes = tree_leaf_sizes(tree),
       leaf_counts = tree$leaf_counts)
}

# Damaged copies of `tree` for the model-check tests: a named list of trees,
# each broken in one way that predict() must reject with an R error naming
# the tree. Covers the node and leaf arrays of every tree and the payload of
# each split and leaf kind that `tree` holds.
tree_damages <- function(tree) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  internal <- tree_split_nodes(tree)
  leaves_at <- which(tree$leaf_id >= 0)
  add("leaf_counts_truncated", function(t) { t$leaf_counts <- utils::head(t$leaf_counts, -1); t })
  add("leaf_counts_negative", function(t) { t$leaf_counts[1] <- -3L; t })
  add("leaf_counts_zero", function(t) { t$leaf_counts[seq_len(length(t$leaf_counts) / length(t$leaf_size))] <- 0L; t })
  add("leaf_counts_double", function(t) { t$leaf_counts <- as.double(t$leaf_counts); t })
  add("leaf_id_double", function(t) { t$leaf_id <- as.double(t$leaf_id); t })
  add("leaf_id_out_of_range", function(t) { t$leaf_id[leaves_at[1]] <- 50L; t })
  add("leaf_type_unknown", function(t) { t$leaf_type[1] <- 7L; t })
  add("leaf_size_empty", function(t) { t$leaf_size <- integer(0); t })
  add("leaf_cost_truncated", function(t) { t$leaf_cost <- t$leaf_cost[-1]; t })
  add("no_nodes", function(t) {
    for (el in c("split_var", "left_child", "right_child", "leaf_id")) t[[el]] <- integer(0)
    t$split_value <- numeric(0)
    t
  })
  if (length(leaves_at) >= 2) {
    add("leaf_id_twice", function(t) { t$leaf_id[leaves_at[2]] <- t$leaf_id[leaves_at[1]]; t })
  }
  if (length(internal) >= 1) {
    add("split_value_missing", function(t) { t$split_value <- NULL; t })
    add("split_var_double", function(t) { t$split_var <- as.double(t$split_var); t })
    add("left_child_out_of_range", function(t) { t$left_child[internal[1]] <- length(t$leaf_id); t })
    add("right_child_out_of_range", function(t) { t$right_child[internal[1]] <- 1000L; t })
    add("right_child_na", function(t) { t$right_child[internal[1]] <- NA_integer_; t })
    add("root_child_negative", function(t) { t$left_child[1] <- -1L; t })
  }
  if (length(internal) >= 2) {
    add("left_child_backwards", function(t) { t$left_child[internal[2]] <- 0L; t })
    add("left_child_self", function(t) { t$left_child[internal[2]] <- internal[2] - 1L; t })
  }
  kinds <- tree_split_kinds(tree)
  axis <- which(kinds %in% "axis")
  if (length(axis)) {
    add("split_var_high", function(t) { t$split_var[axis[1]] <- 99L; t })
    add("split_var_negative", function(t) { t$split_var[axis[1]] <- -5L; t })
  }
  tf <- which(kinds %in% "transform")
  if (length(tf)) {
    node <- tf[1]
    add("tf_start_high", function(t) { t$tf_start[node] <- length(t$tf_values); t })
    add("tf_start_below", function(t) { t$tf_start[node] <- -2L; t })
    add("tf_rank_zero", function(t) { t$tf_rank[node] <- 0L; t })
    add("tf_dim_above_rank", function(t) { t$tf_dim[node] <- t$tf_rank[node] + 1L; t })
    add("tf_values_truncated", function(t) { t$tf_values <- utils::head(t$tf_values, -1); t })
    add("tf_values_integer", function(t) { t$tf_values <- integer(length(t$tf_values)); t })
    add("tf_start_truncated", function(t) { t$tf_start <- t$tf_start[-1]; t })
    add("tf_also_oblique", function(t) { t$split_coef_start[node] <- 0L; t$split_coef_count[node] <- 1L; t })
  }
  ob <- which(kinds %in% "oblique")
  if (length(ob)) {
    node <- ob[1]
    add("oblique_start_high", function(t) { t$split_coef_start[node] <- length(t$split_index); t })
    add("oblique_index_high", function(t) { t$split_index[t$split_coef_start[node] + 1L] <- 99L; t })
    add("oblique_weight_truncated", function(t) { t$split_weight <- utils::head(t$split_weight, -1); t })
  }
  lin <- which(tree$leaf_type == 1L)
  if (length(lin)) {
    k <- lin[1]
    add("coef_truncated", function(t) { t$coef <- utils::head(t$coef, -1); t })
    add("coef_empty", function(t) { t$coef <- numeric(0); t })
    add("coef_integer", function(t) { t$coef <- as.integer(t$coef); t })
    add("linear_coef_start_high", function(t) { t$leaf_coef_start[k] <- 1000000L; t })
    add("linear_coef_start_negative", function(t) { t$leaf_coef_start[k] <- -1L; t })
    add("linear_coef_start_na", function(t) { t$leaf_coef_start[k] <- NA_integer_; t })
  }
  ker <- which(tree$leaf_type %in% c(2L, 3L))
  if (length(ker)) {
    k <- ker[1]
    add("kernel_sv_index", function(t) { t$sv_index[1] <- 99L; t })
    add("kernel_sv_ptr", function(t) { t$sv_ptr[length(t$sv_ptr)] <- 1e6L; t })
    add("kernel_sv_count", function(t) { t$leaf_sv_count[k] <- 1e6L; t })
    add("kernel_svm_class", function(t) { t$svm_class[t$leaf_class_start[k] + 1] <- 7L; t })
    add("kernel_class_count", function(t) { t$leaf_class_count[k] <- 1L; t })
    add("kernel_rho", function(t) { t$leaf_rho_start[k] <- 1e6L; t })
    add("kernel_coef", function(t) { t$leaf_coef_start[k] <- length(t$coef); t })
    add("kernel_gamma", function(t) { t$leaf_gamma[k] <- NA; t })
    add("kernel_sv_value_type", function(t) { t$sv_value <- as.integer(t$sv_value); t })
    add("kernel_class_sv", function(t) { t$svm_class_sv[t$leaf_class_start[k] + 1] <- -1L; t })
  }
  out
}
