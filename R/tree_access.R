# Reading the trees of a fitted model.
#
# A tree is stored as the plain R list the engine returns (see
# src/model_convert.cpp). Only the functions in this file know that list's
# layout: print(), summary(), plot(), combine() and the tests read trees
# through them.
#
# Conventions: nodes and leaves are numbered from 1 (positions in the tree);
# predictors are numbered from 0, as in the engine. `K` is the number of
# classes, `p` the number of predictor columns.
#
# The format (model format 2) is the same for every method: per node
# left_child, right_child, leaf_id (-1 for split nodes), split_kind (-1 for
# leaves) and the offsets (from 0) of its payload in split_int / split_real;
# per leaf leaf_kind, leaf_size and the offsets of its payload in leaf_int /
# leaf_real. Each split and leaf kind owns its payload's layout
# (src/core/tree/SplitKinds.h, src/core/leaves/*.h); every classification
# leaf's integer payload starts with its K class counts.

# Split kind codes, as in src/core/tree/SplitKinds.h.
split_kind_names <- c("axis", "oblique", "transform", "affine_transform")

# Leaf kind codes as saved in models, named (from the engine's registry).
leaf_kind_codes <- function() .svf_leaf_kinds()

# Number of nodes (split nodes and leaves) of `tree`: an integer.
tree_n_nodes <- function(tree) length(tree$leaf_id)

# Number of leaves of `tree`: an integer.
tree_n_leaves <- function(tree) length(tree$leaf_size)

# Training (in-bag) rows that reached each leaf: an integer vector, one value
# per leaf.
tree_leaf_sizes <- function(tree) tree$leaf_size

# Class counts of the training rows of each leaf: a K x L integer matrix
# (column l: leaf l).
tree_leaf_counts <- function(tree, K) {
  matrix(tree$leaf_int[outer(seq_len(K), tree$leaf_int_start, `+`)], nrow = K)
}

# The model of each leaf: a character vector, one value per leaf, among
# "constant" (class frequencies), "linear_svm", "kernel_svm", "logistic".
tree_leaf_kinds <- function(tree) {
  codes <- leaf_kind_codes()
  names(codes)[match(tree$leaf_kind, codes)]
}

# Leaves that hold a model of their own (anything but class frequencies or
# a regression leaf's mean).
tree_leaf_is_model <- function(tree) !tree$leaf_kind %in% leaf_kind_codes()[c("constant", "mean")]

# The `C` of each leaf's model (chosen by cross-validation or the search; the
# first double of every model leaf's payload): a double vector, one value
# per leaf, NA for leaves without a model.
tree_leaf_costs <- function(tree) {
  cost <- tree$leaf_real[tree$leaf_real_start + 1L]
  cost[!tree_leaf_is_model(tree)] <- NA_real_
  cost
}

# Where a kernel leaf's fields start in its integer payload (after the K
# counts: one-against-one flag, k, classes, class_sv, l, pointers, indices).
kernel_leaf_layout <- function(tree, leaf, K) {
  at <- tree$leaf_int_start[leaf] + K
  k <- tree$leaf_int[at + 2L]
  list(ovo = tree$leaf_int[at + 1L] == 1L, k = k, classes_at = at + 2L,
       n_sv = tree$leaf_int[at + 3L + 2L * k])
}

# Support vectors of each leaf's kernel SVM: an integer vector, one value per
# leaf, 0 for leaves without a kernel SVM.
tree_leaf_sv_counts <- function(tree, K) {
  out <- integer(tree_n_leaves(tree))
  for (l in which(tree$leaf_kind == leaf_kind_codes()[["kernel_svm"]])) {
    out[l] <- kernel_leaf_layout(tree, l, K)$n_sv
  }
  out
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
# predictors <= value), "transform" (learned transformation and two
# subspaces through the origin) or "affine_transform" (learned
# transformation of centred predictors and two affine subspaces).
tree_split_kinds <- function(tree) {
  kind <- rep(NA_character_, tree_n_nodes(tree))
  split <- tree$leaf_id < 0
  kind[split] <- split_kind_names[tree$split_kind[split] + 1L]
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
# with x[var] <= value go left). Payload: int [var], real [value].
tree_axis_splits <- function(tree) {
  nodes <- which(tree_split_kinds(tree) %in% "axis")
  data.frame(node = nodes, var = tree$split_int[tree$split_int_start[nodes] + 1L],
             value = tree$split_real[tree$split_real_start[nodes] + 1L])
}

# Training (in-bag) rows that reached each node: a double vector, one value
# per node (a split node holds the rows of its leaves).
tree_node_rows <- function(tree) {
  n <- tree_n_nodes(tree)
  rows <- numeric(n)
  # children have larger positions than their parent: fill from the end
  for (i in rev(seq_len(n))) {
    rows[i] <- if (tree$leaf_id[i] >= 0) tree$leaf_size[tree$leaf_id[i] + 1L]
               else rows[tree$left_child[i] + 1L] + rows[tree$right_child[i] + 1L]
  }
  rows
}

# Predictors (from 0) of the axis splits, in node order.
tree_split_vars <- function(tree) tree_axis_splits(tree)$var

# The oblique split of node `node`: list(vars = predictors (from 0),
# weights, value); rows with sum(weights * x[vars]) <= value go left.
# Payload: int [m, vars], real [value, weights].
tree_oblique_split <- function(tree, node) {
  i <- tree$split_int_start[node]
  r <- tree$split_real_start[node]
  m <- tree$split_int[i + 1L]
  list(vars = tree$split_int[i + 1L + seq_len(m)], weights = tree$split_real[r + 1L + seq_len(m)],
       value = tree$split_real[r + 1L])
}

# The transformation split of node `node` for `p` predictors:
# list(transform = r x p matrix T, left = r x k basis of the left child's
# subspace, right = r x k basis of the right child's, affine). A "transform"
# split (affine FALSE) sends a row x left when the left subspace
# reconstructs z = T x with the smaller (or equal) residual. Payload: int
# [r, k], real [T, left, right]. An "affine_transform" split (affine TRUE)
# also has `center` (p values), `left_mean` and `right_mean` (r values
# each): with z = T (x - center), the row goes left when
# ||z - left_mean||^2 - ||left' (z - left_mean)||^2 is at most the same for
# the right child. Payload: int [r, k], real [center, T, left_mean,
# right_mean, left, right].
tree_transform_split <- function(tree, node, p) {
  i <- tree$split_int_start[node]
  r <- tree$split_int[i + 1L]
  k <- tree$split_int[i + 2L]
  affine <- tree$split_kind[node] == 3L
  start <- tree$split_real_start[node]
  if (!affine) {
    v <- tree$split_real[start + seq_len(r * (p + 2 * k))]
    return(list(transform = matrix(v[seq_len(r * p)], r, p),
                left = matrix(v[r * p + seq_len(r * k)], r, k),
                right = matrix(v[r * p + r * k + seq_len(r * k)], r, k), affine = FALSE))
  }
  v <- tree$split_real[start + seq_len(p + r * (p + 2 + 2 * k))]
  at <- p + r * p
  list(center = v[seq_len(p)], transform = matrix(v[p + seq_len(r * p)], r, p),
       left_mean = v[at + seq_len(r)], right_mean = v[at + r + seq_len(r)],
       left = matrix(v[at + 2 * r + seq_len(r * k)], r, k),
       right = matrix(v[at + 2 * r + r * k + seq_len(r * k)], r, k), affine = TRUE)
}

# Whether each row of x goes left at transformation split `split` (from
# tree_transform_split()), computed in R.
transform_split_left <- function(split, x) {
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
# the largest score wins. Linear SVM and logistic leaves: int [counts (K), c,
# classes (c)], real [C, coef]. Ridge and linear SVR leaves (regression): no
# classes, one output.
tree_linear_leaf <- function(forest, tree, leaf) {
  codes <- leaf_kind_codes()
  if (tree$leaf_kind[leaf] %in% codes[c("ridge", "linear_svr")]) {
    # regression: real [lambda or C, coef (p + 1)], one output
    p <- forest$num_features
    coef <- tree$leaf_real[tree$leaf_real_start[leaf] + 1L + seq_len(p + 1L)]
    return(list(classes = integer(), coef = matrix(coef, p + 1L, 1L)))
  }
  if (!tree$leaf_kind[leaf] %in% codes[c("linear_svm", "logistic")]) return(NULL)
  K <- forest$num_classes
  p <- forest$num_features
  at <- tree$leaf_int_start[leaf] + K
  c <- tree$leaf_int[at + 1L]
  classes <- tree$leaf_int[at + 1L + seq_len(c)] + 1L
  outputs <- if (c == 2) 1L else c
  coef <- tree$leaf_real[tree$leaf_real_start[leaf] + 1L + seq_len(outputs * (p + 1L))]
  list(classes = classes, coef = matrix(coef, p + 1L, outputs))
}

# The kernel SVM of leaf `leaf` (K classes): NULL for a leaf of another kind,
# else list(multiclass = "ovo" (one-against-one, LIBSVM's voting) or "ovr"
# (one per class against the others), classes = the classes (from 1) it
# chooses among, n_sv = its number of support vectors, gamma = its RBF
# width, rho = its offsets (one per class pair for "ovo", one per class for
# "ovr")). Payload: see src/core/leaves/KernelSvmLeaf.h.
tree_kernel_leaf <- function(tree, leaf, K) {
  if (tree$leaf_kind[leaf] != leaf_kind_codes()[["kernel_svm"]]) return(NULL)
  lay <- kernel_leaf_layout(tree, leaf, K)
  k <- lay$k
  n_rho <- if (lay$ovo) k * (k - 1L) / 2 else k
  r <- tree$leaf_real_start[leaf]
  list(multiclass = if (lay$ovo) "ovo" else "ovr",
       classes = tree$leaf_int[lay$classes_at + seq_len(k)] + 1L,
       n_sv = lay$n_sv,
       gamma = tree$leaf_real[r + 2L],
       rho = tree$leaf_real[r + 2L + seq_len(n_rho)])
}

# All linear-model coefficients stored in `tree` (a double vector): empty
# when no leaf holds a linear model.
tree_linear_coefficients <- function(tree) {
  codes <- leaf_kind_codes()
  lin <- which(tree$leaf_kind %in% codes[c("linear_svm", "logistic")])
  starts <- c(tree$leaf_real_start, length(tree$leaf_real))
  # a leaf's doubles run to the next larger payload offset; the first is its C
  unlist(lapply(lin, function(l) {
    end <- min(starts[starts > tree$leaf_real_start[l]])
    tree$leaf_real[(tree$leaf_real_start[l] + 2L):end]
  }))
}

# Everything that defines the partition and the leaves' training rows, for
# comparing the structure of two trees: identical when they route rows
# alike and their leaves hold the same rows (with K, the leaves' class
# counts too).
tree_shape <- function(tree, K = NULL) {
  list(children = lapply(tree_split_nodes(tree), function(i) tree_children(tree, i)),
       leaf_of_node = vapply(seq_len(tree_n_nodes(tree)), function(i) tree_node_leaf(tree, i), 0L),
       axis_splits = tree_axis_splits(tree),
       leaf_sizes = tree_leaf_sizes(tree),
       leaf_counts = if (!is.null(K)) tree_leaf_counts(tree, K))
}

# Damaged copies of `tree` for the model-check tests: a named list of trees,
# each broken in one way that predict() must reject with an R error naming
# the tree. Covers the node and leaf arrays of every tree and the payload of
# each split and leaf kind that `tree` holds (K classes, p predictors).
tree_damages <- function(tree, K, p) {
  out <- list()
  add <- function(name, f) out[[name]] <<- f(tree)
  internal <- tree_split_nodes(tree)
  leaves_at <- which(tree$leaf_id >= 0)
  codes <- leaf_kind_codes()
  # every leaf's payload starts with its class counts
  add("leaf_counts_negative", function(t) { t$leaf_int[t$leaf_int_start[1] + 1L] <- -3L; t })
  add("leaf_counts_zero", function(t) { t$leaf_int[t$leaf_int_start[1] + seq_len(K)] <- 0L; t })
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
  kinds <- tree_split_kinds(tree)
  first_of <- function(kind) which(kinds %in% kind)[1]
  axis <- first_of("axis")
  if (!is.na(axis)) {
    at <- tree$split_int_start[axis] + 1L
    add("split_var_high", function(t) { t$split_int[at] <- 99L; t })
    add("split_var_negative", function(t) { t$split_int[at] <- -5L; t })
  }
  tf <- first_of(c("transform", "affine_transform"))
  if (!is.na(tf)) {
    at <- tree$split_int_start[tf] + 1L
    add("tf_rank_zero", function(t) { t$split_int[at] <- 0L; t })
    add("tf_dim_zero", function(t) { t$split_int[at + 1L] <- 0L; t })
    add("tf_int_start_high", function(t) { t$split_int_start[tf] <- length(t$split_int) - 1L; t })
    add("tf_dim_above_rank", function(t) { t$split_int[at + 1L] <- t$split_int[at] + 1L; t })
    add("tf_rank_huge", function(t) { t$split_int[at] <- .Machine$integer.max; t })
    add("tf_values_truncated", function(t) { t$split_real <- utils::head(t$split_real, -1); t })
    add("tf_values_integer", function(t) { t$split_real <- integer(length(t$split_real)); t })
    add("tf_start_high", function(t) { t$split_real_start[tf] <- length(t$split_real); t })
    add("tf_kind_swapped", function(t) {  # the other transformation kind, one value short of its payload
      t$split_kind[tf] <- if (t$split_kind[tf] == 2L) 3L else 2L
      r <- t$split_int[at]
      k <- t$split_int[at + 1L]
      need <- if (t$split_kind[tf] == 3L) p + r * (p + 2 + 2 * k) else r * (p + 2 * k)
      t$split_real <- utils::head(t$split_real, t$split_real_start[tf] + need - 1L)
      t
    })
  }
  ob <- first_of("oblique")
  if (!is.na(ob)) {
    at <- tree$split_int_start[ob] + 1L
    add("oblique_count_zero", function(t) { t$split_int[at] <- 0L; t })
    add("oblique_count_high", function(t) { t$split_int[at] <- 1e6L; t })
    add("oblique_index_high", function(t) { t$split_int[at + 1L] <- 99L; t })
    add("oblique_weight_truncated", function(t) { t$split_real <- utils::head(t$split_real, -1); t })
  }
  lin <- which(tree$leaf_kind %in% codes[c("linear_svm", "logistic")])[1]
  if (!is.na(lin)) {
    at <- tree$leaf_int_start[lin] + K + 1L
    add("linear_classes_one", function(t) { t$leaf_int[at] <- 1L; t })
    add("linear_classes_many", function(t) { t$leaf_int[at] <- K + 1L; t })
    add("linear_class_out_of_range", function(t) { t$leaf_int[at + 1L] <- K + 3L; t })
    add("linear_classes_unsorted", function(t) { t$leaf_int[at + 2L] <- t$leaf_int[at + 1L]; t })
    add("coef_empty", function(t) { t$leaf_real <- numeric(0); t })
    add("coef_integer", function(t) { t$leaf_real <- as.integer(t$leaf_real); t })
    add("linear_coef_start_high", function(t) { t$leaf_real_start[lin] <- 1000000L; t })
    add("linear_coef_start_negative", function(t) { t$leaf_real_start[lin] <- -1L; t })
  }
  ker <- which(tree$leaf_kind == codes[["kernel_svm"]])[1]
  if (!is.na(ker)) {
    lay <- kernel_leaf_layout(tree, ker, K)
    ptr_at <- lay$classes_at + 2L * lay$k + 2L  # first support vector pointer
    add("kernel_ovo_flag", function(t) { t$leaf_int[lay$classes_at - 1L] <- 5L; t })
    add("kernel_class_count", function(t) { t$leaf_int[lay$classes_at] <- 1L; t })
    add("kernel_svm_class", function(t) { t$leaf_int[lay$classes_at + 1L] <- K + 7L; t })
    add("kernel_class_sv", function(t) { t$leaf_int[lay$classes_at + lay$k + 1L] <- -1L; t })
    add("kernel_sv_count", function(t) { t$leaf_int[ptr_at - 1L] <- 1e6L; t })
    add("kernel_sv_ptr", function(t) { t$leaf_int[ptr_at + lay$n_sv] <- 1e6L; t })
    add("kernel_sv_index", function(t) { t$leaf_int[ptr_at + lay$n_sv + 1L] <- p + 9L; t })
    add("kernel_gamma", function(t) { t$leaf_real[t$leaf_real_start[ker] + 2L] <- NA; t })
    add("kernel_values_truncated", function(t) { t$leaf_real <- utils::head(t$leaf_real, -1); t })
  }
  out
}
