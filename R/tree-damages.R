# Damaged copies of saved trees, one kind of damage at a time: what the
# model checks (R/model-check.R, src/model_convert.cpp) must refuse. Used by
# tests/testthat/test-model-checks.R; it reads trees only through the
# accessors of R/tree-access.R.

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
  add("compact_layout_unknown", function(t) { t$layout <- 3L; t })
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
  # layout 2 stores a value every leaf shares once: one value or one per leaf, nothing between
  if (tree$n_leaves > 2) add("compact_leaf_kind_two", function(t) { t$leaf_kind <- rep(t$leaf_kind[1], 2); t })
  add("compact_leaf_real_length_empty", function(t) { t$leaf_real_length <- raw(0); t })
  # layout 2 packs split kinds in 2 bits a node, the last byte's spare bits 0
  if (length(tree$split_kind) < tree$n_nodes && tree$n_nodes %% 4 != 0) {
    add("compact_split_kind_spare_bits", function(t) { n <- length(t$split_kind); t$split_kind[n] <- t$split_kind[n] | as.raw(0x80); t })
  }
  # layout 1 (formats 3 and 4) stores every leaf's
  if (length(tree$leaf_kind) < tree$n_leaves || length(tree$split_kind) < tree$n_nodes) add("compact_shared_in_layout_1", function(t) { t$layout <- 1L; t })
  out
}
