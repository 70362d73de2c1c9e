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
    L <- length(t$leaf_size)
    expect_gte(L, 1)
    expect_length(t$leaf_counts, L * K)
    counts <- matrix(t$leaf_counts, nrow = K)
    expect_identical(as.integer(colSums(counts)), t$leaf_size)
    expect_true(all(t$leaf_type %in% c(0L, 1L)))
    expect_identical(sort(t$leaf_id[t$leaf_id >= 0]), seq_len(L) - 1L)
    # SVM outputs: classes with at least svm_min_rows rows in the leaf
    present <- colSums(counts >= max(1L, fit$forest$svm_min_rows) & counts > 0)
    outputs <- ifelse(present == 2, 1L, present)
    expect_equal(length(t$coef), sum(outputs[t$leaf_type == 1L]) * (p + 1))
    expect_true(all(t$leaf_coef_start[t$leaf_type == 0L] == -1L))
    if (all_rows) expect_identical(sum(t$leaf_size), as.integer(n))
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
# model: route a row with `x <= split_value` going left; a constant leaf gives
# its class frequencies and votes for its majority class; an SVM leaf scores
# the scaled row ((x - center) * factor, plus a bias of 1): a binary leaf
# picks the second class present when the score is positive, a multi-class
# leaf the class whose one-vs-rest score is largest. `x` is the numeric design
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
    for (i in seq_len(n)) {
      node <- 1L
      while (tree$leaf_id[node] < 0) {
        go_left <- x[i, tree$split_var[node] + 1L] <= tree$split_value[node]
        node <- (if (go_left) tree$left_child[node] else tree$right_child[node]) + 1L
      }
      l <- tree$leaf_id[node] + 1L
      counts <- tree$leaf_counts[(l - 1L) * K + seq_len(K)]
      dist <- numeric(K)
      if (tree$leaf_type[l] == 1L) {
        present <- which(counts >= max(1L, f$svm_min_rows) & counts > 0)
        row <- c(xs[i, ], 1)
        score <- function(o) sum(tree$coef[tree$leaf_coef_start[l] + (o - 1L) * (p + 1L) + seq_len(p + 1L)] * row)
        cls <- if (length(present) == 2) {
          if (score(1L) > 0) present[2] else present[1]
        } else {
          present[which.max(vapply(seq_along(present), score, 0))]
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
