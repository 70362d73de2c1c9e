# Shared expectations about fitted models and predictions.

# Structural invariants of a fitted model: one tree per `ntree`, and in every
# tree the leaves' class counts add up to their sizes, SVM leaves own a slice
# of `coef` of the right length, constant leaves own none. With the sampler
# "all" every tree holds all `n` training rows.
expect_valid_model <- function(fit, n, p, levels, ntree, all_rows = TRUE) {
  expect_s3_class(fit, "svforest")
  expect_identical(fit$levels, levels)
  expect_identical(fit$ntree, as.integer(ntree))
  expect_identical(fit$num_rows, as.integer(n))
  f <- fit$forest
  K <- length(levels)
  expect_identical(f$num_classes, K)
  expect_identical(f$num_features, as.integer(p))
  expect_length(f$trees, ntree)
  for (t in f$trees) {
    L <- tree_n_leaves(t)
    expect_gte(L, 1)
    counts <- tree_leaf_counts(f, t)
    expect_equal(dim(counts), c(K, L))
    expect_identical(as.integer(colSums(counts)), tree_leaf_sizes(t))
    kinds <- tree_leaf_kinds(t)
    expect_true(all(kinds %in% c("constant", "linear_svm")))
    # every leaf is reached from exactly one node
    at <- vapply(seq_len(tree_n_nodes(t)), function(i) tree_node_leaf(t, i), 0L)
    expect_identical(sort(at[!is.na(at)]), seq_len(L))
    # SVM leaves: one output for two classes, else one per class, each with
    # p weights and a bias; constant leaves have no linear model
    n_coef <- 0
    for (l in seq_len(L)) {
      lin <- tree_linear_leaf(f, t, l)
      if (kinds[l] == "constant") {
        expect_null(lin)
        next
      }
      expect_gte(length(lin$classes), 2)
      expect_true(all(counts[lin$classes, l] > 0))
      expect_equal(dim(lin$coef), c(p + 1, if (length(lin$classes) == 2) 1 else length(lin$classes)))
      expect_false(anyNA(lin$coef))
      n_coef <- n_coef + length(lin$coef)
    }
    expect_length(tree_linear_coefficients(f, t), n_coef)
    if (all_rows) expect_identical(sum(tree_leaf_sizes(t)), as.integer(n))
  }
  invisible(fit)
}

# A prediction of `type` for `n` rows of a model with `levels` and `ntree`
# trees has the right shape and content.
expect_valid_prediction <- function(pred, type, n, levels, ntree) {
  K <- length(levels)
  switch(type,
    class = {
      expect_s3_class(pred, "factor")
      expect_identical(levels(pred), levels)
      expect_length(pred, n)
      expect_false(anyNA(pred))
    },
    prob = {
      expect_true(is.matrix(pred) && is.double(pred))
      expect_identical(dim(pred), c(as.integer(n), K))
      expect_identical(colnames(pred), levels)
      expect_true(all(pred >= 0 & pred <= 1))
      expect_equal(rowSums(pred), rep(1, n))
    },
    votes = {
      expect_true(is.matrix(pred) && is.integer(pred))
      expect_identical(dim(pred), c(as.integer(n), K))
      expect_identical(colnames(pred), levels)
      expect_true(all(pred >= 0L))
      expect_identical(rowSums(pred), rep(as.double(ntree), n))
    },
    leaf = {
      expect_true(is.matrix(pred) && is.integer(pred))
      expect_identical(dim(pred), c(as.integer(n), as.integer(ntree)))
    })
  invisible(pred)
}

# Reference implementation of prediction, in plain R, from the documented
# model (read through the tree accessors): route a row with `x <= value`
# of its axis split going left; a constant leaf gives its class frequencies
# and votes for its majority class; an SVM leaf scores the scaled row
# ((x - center) * factor, plus a bias of 1): a binary leaf picks its second
# class when the score is positive, a multi-class leaf the class whose
# one-vs-rest score is largest. `x` is the numeric design
# matrix (columns in the model's order). Returns list(prob, votes).
reference_predict <- function(fit, x) {
  f <- fit$forest
  K <- f$num_classes
  p <- f$num_features
  n <- nrow(x)
  xs <- sweep(sweep(x, 2, f$scale_center), 2, f$scale_factor, "*")
  prob <- matrix(0, n, K)
  votes <- matrix(0L, n, K)
  for (tree in f$trees) {
    axis <- tree_axis_splits(f, tree)
    all_counts <- tree_leaf_counts(f, tree)
    for (i in seq_len(n)) {
      node <- 1L
      while (is.na(tree_node_leaf(tree, node))) {
        split <- axis[axis$node == node, ]
        go_left <- x[i, split$var + 1L] <= split$value
        node <- tree_children(tree, node)[if (go_left) 1L else 2L]
      }
      l <- tree_node_leaf(tree, node)
      counts <- all_counts[, l]
      dist <- numeric(K)
      lin <- tree_linear_leaf(f, tree, l)
      if (!is.null(lin)) {
        score <- as.vector(c(xs[i, ], 1) %*% lin$coef)
        cls <- if (length(lin$classes) == 2) {
          if (score > 0) lin$classes[2] else lin$classes[1]
        } else {
          lin$classes[which.max(score)]
        }
        dist[cls] <- 1
      } else {
        dist <- counts / sum(counts)
        cls <- which.max(counts)
      }
      prob[i, ] <- prob[i, ] + dist
      votes[i, cls] <- votes[i, cls] + 1L
    }
  }
  list(prob = prob / length(f$trees), votes = votes)
}

# A model without its call (which records the thread count or the caller),
# through the model's names (?svforest_model).
without_call <- function(m) {
  m$call <- NULL
  m
}
