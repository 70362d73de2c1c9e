# Reading the saved trees. Every tree has the same arrays whatever the method
# (see src/core/tree/Tree.h): per node left_child, right_child, leaf_id,
# split_kind and the offsets of its payload in split_int / split_real; per
# leaf leaf_kind, leaf_size and the offsets of its payload in leaf_int /
# leaf_real. Each kind owns its payload's layout (src/core/tree/SplitKinds.h,
# src/core/leaves/); only this file reads layouts in R.

# Leaf kind codes as saved in models, named (from the engine's registry).
leaf_kind_codes <- function() .svf_leaf_kinds()

tree_n_leaves <- function(tree) length(tree$leaf_kind)

tree_leaf_sizes <- function(tree) tree$leaf_size

# Kind of each leaf, by name ("constant", "linear_svm", "kernel_svm", ...).
tree_leaf_kinds <- function(tree) {
  codes <- leaf_kind_codes()
  names(codes)[match(tree$leaf_kind, codes)]
}

# Leaves that hold a model of their own (not class frequencies).
tree_leaf_is_model <- function(tree) tree$leaf_kind != leaf_kind_codes()[["constant"]]

# C of each model leaf (the first double of its payload), NA for constant leaves.
tree_leaf_costs <- function(tree) {
  cost <- tree$leaf_real[tree$leaf_real_start + 1L]
  cost[!tree_leaf_is_model(tree)] <- NA_real_
  cost
}

# Class counts of the leaves (the first K integers of every classification
# leaf's payload), a K x leaves matrix.
tree_leaf_counts <- function(tree, K) {
  idx <- outer(seq_len(K) - 1L, tree$leaf_int_start, `+`) + 1L
  matrix(tree$leaf_int[idx], nrow = K)
}

# Support vectors of each leaf (kernel leaves; 0 elsewhere).
tree_leaf_sv_counts <- function(tree, K) {
  out <- integer(tree_n_leaves(tree))
  kernel <- which(tree$leaf_kind == leaf_kind_codes()[["kernel_svm"]])
  for (l in kernel) {
    at <- tree$leaf_int_start[l] + K  # after the class counts: ovo flag, k, classes, class_sv, l
    k <- tree$leaf_int[at + 2L]
    out[l] <- tree$leaf_int[at + 3L + 2L * k]
  }
  out
}

# Predictor (0-based) of each axis split; NA for other nodes.
tree_split_vars <- function(tree) {
  axis <- !is.na(tree$split_kind) & tree$split_kind == 0L
  out <- rep(NA_integer_, length(tree$split_kind))
  out[axis] <- tree$split_int[tree$split_int_start[axis] + 1L]
  out
}

tree_depth <- function(tree) {
  depth <- integer(length(tree$leaf_id))
  for (i in seq_along(depth)) {
    if (tree$leaf_id[i] < 0) {
      depth[tree$left_child[i] + 1] <- depth[i] + 1L
      depth[tree$right_child[i] + 1] <- depth[i] + 1L
    }
  }
  max(depth)
}
