# Transformation forests: nuclear-norm learned transforms at split nodes.

# Rows drawn from a union of subspaces: class k lies in a dim-dimensional
# subspace of R^d; all classes' subspaces are tilted copies of one base
# subspace (small principal angles), so the raw data is hard to split and a
# learned transform helps. The subspaces are fixed; `seed` draws the rows.
union_of_subspaces <- function(n_per_class, K = 4, d = 12, dim = 2, tilt = 0.35, noise = 0.02,
                               seed = 1) {
  bases <- withr_seed(100 + K + d, {
    base <- qr.Q(qr(matrix(stats::rnorm(d * d), d)))[, 1:dim]
    lapply(seq_len(K), function(k) qr.Q(qr(base + tilt * matrix(stats::rnorm(d * dim), d, dim))))
  })
  withr_seed(seed, {
    x <- do.call(rbind, lapply(bases, function(U) {
      t(U %*% matrix(stats::rnorm(dim * n_per_class), dim)) +
        noise * matrix(stats::rnorm(n_per_class * d), n_per_class, d)
    }))
    colnames(x) <- paste0("x", seq_len(d))
    list(x = x, y = factor(rep(paste0("c", seq_len(K)), each = n_per_class)))
  })
}

unit_rows <- function(m) m / sqrt(rowSums(m^2))

# Smallest principal angle (degrees) between the column spaces of a and b.
smallest_angle <- function(a, b, rank) {
  qa <- svd(a)$u[, seq_len(rank), drop = FALSE]
  qb <- svd(b)$u[, seq_len(rank), drop = FALSE]
  acos(min(1, max(svd(crossprod(qa, qb))$d))) * 180 / pi
}

two_subspaces <- function(m = 40, d = 8, seed = 3) {
  withr_seed(seed, {
    Q <- qr.Q(qr(matrix(stats::rnorm(d * d), d)))
    s1 <- Q[, 1:2]
    s2 <- qr.Q(qr(cbind(Q[, 1] * cos(0.25) + Q[, 3] * sin(0.25), Q[, 2] * cos(0.4) + Q[, 4] * sin(0.4))))
    list(a = t(s1 %*% matrix(stats::rnorm(2 * m), 2)), b = t(s2 %*% matrix(stats::rnorm(2 * m), 2)))
  })
}

test_that("the objective decreases and the learned T separates two close subspaces", {
  g <- two_subspaces()
  n <- nrow(g$a) + nrow(g$b)
  a <- unit_rows(g$a) / sqrt(n)
  b <- unit_rows(g$b) / sqrt(n)
  nuc <- function(m) sum(svd(m)$d)
  objective <- function(T) nuc(T %*% t(a)) + nuc(T %*% t(b)) - nuc(T %*% t(rbind(a, b)))
  r <- svforest:::.svf_learn_transform(a, b, 0L, 60L, 0.5, 2L)
  obj <- r$objective
  expect_length(obj, 61)
  # the trace is the objective of the iterates, computed independently in R at the start
  expect_equal(obj[1], objective(diag(ncol(a))), tolerance = 1e-8)
  expect_equal(min(obj), objective(r$T), tolerance = 1e-6)
  expect_lt(min(obj), 0.05 * obj[1])
  expect_true(all(diff(obj[1:10]) < 0))  # early steps descend
  expect_equal(max(svd(r$T)$d), 1, tolerance = 1e-6)  # ||T||_2 = 1
  # the paper's Fig. 1 claim: the smallest principal angle between the two
  # classes grows (here from about 14 degrees to nearly 90)
  before <- smallest_angle(t(g$a), t(g$b), 2)
  after <- smallest_angle(r$T %*% t(g$a), r$T %*% t(g$b), 2)
  expect_lt(before, 20)
  expect_gt(after, 80)
  # bases are the top left singular vectors of each transformed group
  ua <- svd(r$T %*% t(a))$u[, 1:2]
  expect_equal(abs(crossprod(ua, r$basis_a)), diag(2), tolerance = 1e-6)
})

test_that("a fat transform reduces the dimension and still separates the groups", {
  g <- two_subspaces(d = 10)
  n <- nrow(g$a) + nrow(g$b)
  r <- svforest:::.svf_learn_transform(unit_rows(g$a) / sqrt(n), unit_rows(g$b) / sqrt(n), 4L, 60L,
                                       0.5, 2L)
  expect_identical(dim(r$T), c(4L, 10L))
  expect_lt(min(r$objective), 0.1 * r$objective[1])
  expect_gt(smallest_angle(r$T %*% t(g$a), r$T %*% t(g$b), 2), 60)
})

test_that("routing agrees with a direct computation in R", {
  tr <- union_of_subspaces(40)
  te <- union_of_subspaces(30, seed = 2)
  fit <- svforest(tr$x, tr$y, method = "transform", ntree = 3, seed = 4, num_threads = 1,
                  subspace_dim = 2, transform_rank = 6, transform_center = FALSE)
  leaves <- predict(fit, te$x, type = "leaf")
  for (t in seq_along(fit$forest$trees)) {
    tree <- fit$forest$trees[[t]]
    kinds <- tree_split_kinds(tree)
    # (folded into projections where that is smaller: 2 x 2 x 12 values against 6 x 16)
    expect_true(all(kinds[!is.na(kinds)] == "projected_transform"))
    p <- ncol(te$x)
    for (i in seq_len(nrow(te$x))) {
      node <- 1L
      while (is.na(tree_node_leaf(tree, node))) {
        split <- tree_transform_split(fit$forest, tree, node)
        expect_identical(split$rank, 6L)  # transform_rank
        expect_lte(split$dim, 2L)  # subspace_dim
        expect_identical(dim(split$left_projection), c(split$dim, p))  # U_A' T
        # squared norms of the projections onto the two subspaces
        e_a <- sum((split$left_projection %*% te$x[i, ])^2)
        e_b <- sum((split$right_projection %*% te$x[i, ])^2)
        node <- tree_children(tree, node)[if (e_a >= e_b) 1L else 2L]
      }
      expect_identical(tree_node_leaf(tree, node), leaves[i, t])
    }
  }
})

test_that("at a node, the learned T routes held-out rows of two class groups better", {
  # groups of three classes each: a group spans 6 dimensions but is modelled
  # by a 2-dimensional subspace, so the raw subspaces overlap; T makes each
  # group closer to low-rank and the groups closer to orthogonal
  tr <- union_of_subspaces(40, K = 6, d = 16, tilt = 0.5, noise = 0.05, seed = 5)
  te <- union_of_subspaces(150, K = 6, d = 16, tilt = 0.5, noise = 0.05, seed = 6)
  in_a <- tr$y %in% c("c1", "c3", "c5")
  x <- unit_rows(tr$x) / sqrt(nrow(tr$x))
  routed_right <- function(iterations) {
    r <- svforest:::.svf_learn_transform(x[in_a, ], x[!in_a, ], 0L, iterations, 0.5, 2L)
    z <- r$T %*% t(te$x)
    to_a <- colSums(crossprod(r$basis_a, z)^2) >= colSums(crossprod(r$basis_b, z)^2)
    mean(to_a == te$y %in% c("c1", "c3", "c5"))
  }
  identity <- routed_right(0L)
  learned <- routed_right(50L)
  expect_gt(learned, identity + 0.04)
})

test_that("on a union of subspaces one transformation tree beats 100 ranger trees", {
  tr <- union_of_subspaces(40, K = 6, d = 16, tilt = 0.1, noise = 0.05, seed = 5)
  te <- union_of_subspaces(150, K = 6, d = 16, tilt = 0.1, noise = 0.05, seed = 6)
  fit <- svforest(tr$x, tr$y, method = "transform", ntree = 1, sample_fraction = 1, seed = 1,
                  num_threads = 2, subspace_dim = 2, transform_center = FALSE)
  acc <- mean(predict(fit, te$x) == te$y)
  expect_gt(acc, 0.85)
  skip_if_not_installed("ranger")
  rf <- ranger::ranger(x = tr$x, y = tr$y, num.trees = 100, num.threads = 2, seed = 1)
  expect_gt(acc, mean(predict(rf, te$x)$predictions == te$y) + 0.04)
})

test_that("dim_per_class grows each node's subspaces with its classes", {
  # ten 3-dimensional classes: a root group of five classes spans about 15
  # dimensions, which a fixed 3-dimensional subspace models badly; with
  # dim_per_class = 3 a node with c classes uses ceiling(3 c / 2) dimensions
  # for both groups (the identity learner isolates the idea)
  tr <- union_of_subspaces(30, K = 10, d = 30, dim = 3, tilt = 0.5, noise = 0.05, seed = 5)
  te <- union_of_subspaces(100, K = 10, d = 30, dim = 3, tilt = 0.5, noise = 0.05, seed = 6)
  fit <- function(...) {
    svforest(tr$x, tr$y, method = "transform", ntree = 1, sample_fraction = 1, seed = 1,
             num_threads = 1, transform_iter = 0, transform_center = FALSE, ...)
  }
  fixed <- fit(subspace_dim = 3)
  grown <- fit(subspace_dim = 25, dim_per_class = 3)
  capped <- fit(subspace_dim = 10, dim_per_class = 3)
  split_dims <- function(f) {
    tree <- f$forest$trees[[1]]
    vapply(tree_split_nodes(tree), function(node) tree_transform_split(f$forest, tree, node)$dim, 0L)
  }
  expect_identical(split_dims(grown)[1], 15L)  # all ten classes at the root
  expect_true(all(split_dims(grown) %in% ceiling(3 * (2:10) / 2)))
  expect_gt(length(unique(split_dims(grown))), 2)
  expect_lte(max(split_dims(capped)), 10L)  # subspace_dim caps it
  acc <- function(f) mean(predict(f, te$x) == te$y)
  expect_gt(acc(grown), acc(fixed) + 0.03)
  expect_gt(acc(grown), 0.98)
  expect_error(fit(dim_per_class = 0), "dim_per_class")
  expect_identical(fit(dim_per_class = NA)$forest, fit()$forest)  # NA: the default, fixed dimension
})

# threads, saveRDS, combine and prediction types: test-contract.R
test_that("transform forests subsample, average probabilities and stop at depth 9", {
  tr <- union_of_subspaces(30)
  a <- svforest(tr$x, tr$y, method = "transform", ntree = 6, seed = 8, num_threads = 1)
  expect_false(is.na(a$oob_error))  # subsampling leaves rows out
  expect_identical(a$params$aggregation, "prob")
  expect_identical(a$params$max_depth, 9L)
  expect_true(all(vapply(a$forest$trees, function(t) tree_depth(t) <= 9, TRUE)))
})

test_that("max_depth and min_node_size limit the trees", {
  tr <- union_of_subspaces(30)
  fit <- svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 1, num_threads = 1,
                  max_depth = 1)
  for (t in fit$forest$trees) expect_lte(tree_n_leaves(t), 2)
  big <- svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 1, num_threads = 1,
                  min_node_size = 1000)
  for (t in big$forest$trees) expect_identical(tree_n_leaves(t), 1L)
})

test_that("transform parameters are checked and damaged transformation splits are rejected", {
  tr <- union_of_subspaces(10)
  fit_tf <- function(...) svforest(tr$x, tr$y, method = "transform", ntree = 1, num_threads = 1, ...)
  expect_error(fit_tf(transform_rank = 1), "transform_rank")
  expect_error(fit_tf(subspace_dim = 0), "subspace_dim")
  expect_error(fit_tf(transform_iter = -1), "transform_iter")
  expect_error(fit_tf(transform_step = 0), "transform_step")
  expect_error(fit_tf(min_node_size = 1), "min_node_size")
  expect_error(fit_tf(splitter = "nuclear"), "splitter")

  expect_error(fit_tf(transform_center = "yes"), "transform_center")
  expect_error(fit_tf(transform_center = c(TRUE, FALSE)), "transform_center")
  for (center in c(TRUE, FALSE)) {
    fit <- fit_tf(seed = 1, transform_center = center)
    tree <- fit$forest$trees[[1]]
    kinds <- if (center) c("affine_transform", "projected_affine_transform") else c("transform", "projected_transform")
    expect_true(all(tree_split_kinds(tree)[tree_split_nodes(tree)] %in% kinds))
    damage <- tree_damages(fit$forest, tree)
    expect_gte(sum(startsWith(names(damage), "tf_")), 9)  # the transformation splits' payload is damaged too
    for (what in names(damage)) {
      m <- fit
      m$forest$trees[[1]] <- damage[[what]]
      expect_error(predict(m, tr$x), "tree 1", info = paste(center, what))
    }
  }
})

# Information gain (nats) of a two-way routing `left` of labels y.
info_gain <- function(y, left) {
  h <- function(z) { p <- table(z) / length(z); p <- p[p > 0]; -sum(p * log(p)) }
  h(y) - mean(left) * h(y[left]) - mean(!left) * h(y[!left])
}

# Rows of x sent left by the root's transformation split.
# (shape: the forest's num_classes and num_features)
root_left <- function(tree, x, shape) transform_split_left(tree_transform_split(shape, tree, 1L), x)

test_that("node_tries keeps the division with the largest information gain", {
  tr <- union_of_subspaces(30, K = 6, d = 16, tilt = 0.5, noise = 0.05, seed = 5)
  fit <- function(tries, seed) {
    svforest(tr$x, tr$y, method = "transform", ntree = 1, sample_fraction = 1, seed = seed,
             num_threads = 1, subspace_dim = 2, transform_iter = 10, max_depth = 1,
             node_tries = tries, transform_center = FALSE)$forest$trees[[1]]
  }
  default <- svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 3, num_threads = 1,
                      transform_iter = 5)
  one <- svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 3, num_threads = 1,
                  transform_iter = 5, node_tries = 1)
  expect_identical(one$forest, default$forest)  # 1: the first usable division, as before
  expect_identical(one$params$node_tries, 1L)
  improved <- 0
  shape <- list(num_classes = nlevels(tr$y), num_features = ncol(tr$x))
  for (seed in 1:6) {
    # all rows in the tree, so the root sees every training row; the first of
    # five tries draws the same division (same generator state) as a single try
    first <- fit(1, seed)
    best <- fit(5, seed)
    g_first <- info_gain(tr$y, root_left(first, tr$x, shape))
    g_best <- info_gain(tr$y, root_left(best, tr$x, shape))
    expect_gte(g_best, g_first - 1e-12)
    if (g_best > g_first + 1e-9) improved <- improved + 1
    else expect_identical(tree_transform_split(shape, best, 1L), tree_transform_split(shape, first, 1L))  # no better try: the first is kept
  }
  expect_gt(improved, 0)  # the tries matter
})

test_that("node_tries > 1 is deterministic across threads", {
  tr <- union_of_subspaces(30)
  fit <- function(threads) {
    svforest(tr$x, tr$y, method = "transform", ntree = 4, seed = 2, num_threads = threads,
             transform_iter = 5, node_tries = 3)
  }
  a <- fit(1)
  expect_identical(a$forest, fit(2)$forest)
  expect_identical(a$params$node_tries, 3L)
  tf_fit <- function(...) svforest(tr$x, tr$y, method = "transform", ntree = 1, num_threads = 1, ...)
  for (bad in list(0, -1, 1.5, NA, "2", 1001, c(2, 3)))
    expect_error(tf_fit(node_tries = bad), "`node_tries` must be a single whole number")
})

# Two Gaussian classes at +m and -m (centred data): both classes lie along
# the same line through the origin, so subspaces through the origin cannot
# tell them apart (issues 18 and 20: the forest predicted one class).
centred_two_class <- function(n, seed) {
  withr_seed(seed, {
    y <- factor(rep(c("a", "b"), length.out = n))
    m <- c(1.2, -0.8, 0.6, 0, 0)
    x <- matrix(stats::rnorm(n * 5), n, 5) + outer(ifelse(y == "a", 1, -1), m)
    colnames(x) <- paste0("x", 1:5)
    list(x = x, y = y)
  })
}

test_that("with defaults, transformation forests separate a centred two-class problem", {
  tr <- centred_two_class(300, 1)
  te <- centred_two_class(1000, 2)
  fit <- svforest(tr$x, tr$y, method = "transform", seed = 1, num_threads = 2)
  expect_true(fit$params$transform_center)
  pred <- predict(fit, te$x)
  expect_gt(mean(pred == te$y), 0.85)  # the Bayes rate is about 0.97
  expect_gt(min(table(pred)), 300)  # both classes predicted
  kinds <- unlist(lapply(fit$forest$trees, tree_split_kinds))
  expect_true(all(kinds[!is.na(kinds)] %in% c("affine_transform", "projected_affine_transform")))
})

test_that("affine splits ignore the predictors' units, and routing agrees with R", {
  tr <- centred_two_class(200, 3)
  te <- centred_two_class(200, 4)
  # one predictor in huge units, shifted far from zero
  big <- function(x) { x[, 2] <- 1e4 * x[, 2] + 5e5; x }
  fit <- svforest(tr$x, tr$y, method = "transform", ntree = 5, seed = 2, num_threads = 1)
  fit_big <- svforest(big(tr$x), tr$y, method = "transform", ntree = 5, seed = 2, num_threads = 1)
  expect_gt(mean(predict(fit_big, big(te$x)) == predict(fit, te$x)), 0.98)
  expect_gt(mean(predict(fit_big, big(te$x)) == te$y), 0.85)
  leaves <- predict(fit_big, big(te$x), type = "leaf")
  xb <- big(te$x)
  for (t in 1:2) {
    tree <- fit_big$forest$trees[[t]]
    leaf <- integer(nrow(xb))
    for (i in seq_len(nrow(xb))) {
      node <- 1L
      while (is.na(tree_node_leaf(tree, node))) {
        split <- tree_transform_split(fit_big$forest, tree, node)
        expect_true(split$affine)
        node <- tree_children(tree, node)[if (transform_split_left(split, xb[i, , drop = FALSE])) 1L else 2L]
      }
      leaf[i] <- tree_node_leaf(tree, node)
    }
    expect_gt(mean(leaf == leaves[, t]), 0.99)  # rounding may flip a row on a boundary
  }
})

test_that("transform_center = FALSE keeps the paper's splits through the origin", {
  tr <- union_of_subspaces(30)
  paper <- svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 3, num_threads = 1,
                    transform_center = FALSE)
  kinds <- unlist(lapply(paper$forest$trees, tree_split_kinds))
  expect_true(all(kinds[!is.na(kinds)] %in% c("transform", "projected_transform")))
  expect_identical(paper$forest, svforest(tr$x, tr$y, method = "transform", ntree = 2, seed = 3, num_threads = 2,
                                          transform_center = FALSE)$forest)
})

test_that("on wide data the automatic rank learns T inside the node's top 32 principal directions", {
  withr_seed(9, {
    n <- 120
    y <- factor(rep(c("a", "b", "c"), length.out = n))
    x <- matrix(stats::rnorm(n * 80), n, 80) + 1.5 * outer(as.integer(y), c(1, -1, rep(0, 78)))
  })
  fit <- function(threads, ...) {
    svforest(x, y, method = "transform", ntree = 3, seed = 5, num_threads = threads, transform_iter = 5, ...)
  }
  a <- fit(1)
  expect_identical(a$forest, fit(2)$forest)  # the randomized range finder draws from the tree's generator
  tree <- a$forest$trees[[1]]
  split <- tree_transform_split(a$forest, tree, 1L)
  # T = W P (32 x 80), stored folded into the subspaces' projections U' T
  expect_identical(split$rank, 32L)
  expect_true(split$projected)
  expect_identical(dim(split$left_projection), c(split$dim, 80L))
  square <- fit(1, transform_rank = 80)
  expect_identical(tree_transform_split(square$forest, square$forest$trees[[1]], 1L)$rank, 80L)
  path <- tempfile(fileext = ".rds")
  saveRDS(a, path)
  expect_identical(predict(readRDS(path), x, type = "prob"), predict(a, x, type = "prob"))
})

# Two Gaussian classes whose means differ in 4 of p predictors (the rest noise).
shifted_means <- function(n, p, seed) {
  withr_seed(seed, {
    y <- factor(rep(c("a", "b"), length.out = n))
    x <- matrix(stats::rnorm(n * p), n, p)
    x[, 1:4] <- x[, 1:4] + outer(ifelse(y == "a", 0.6, -0.6), rep(1, 4))
    colnames(x) <- paste0("x", seq_len(p))
    list(x = x, y = y)
  })
}

test_that("the out-of-bag choice of transform and dimension generalises where the in-bag one overfits", {
  # 120 rows, 30 predictors: a square 30 x 30 T learned on a node's few rows
  # separates them by chance, and the in-bag gain always prefers it (issue 18)
  te <- shifted_means(1000, 30, 99)
  acc <- function(seed, ...) {
    tr <- shifted_means(120, 30, seed)
    fit <- svforest(tr$x, tr$y, method = "transform", seed = 1, num_threads = 1, ...)
    mean(predict(fit, te$x) == te$y)
  }
  oob <- vapply(1:2, acc, 0)
  inbag <- vapply(1:2, acc, 0, transform_choice = "inbag")
  expect_true(all(oob > 0.75))  # in-bag (the default before): 0.70 and 0.61
  expect_true(all(oob > inbag + 0.08))
  expect_identical(svforest(te$x[1:50, ], te$y[1:50], method = "transform", ntree = 1)$params$transform_choice, "oob")
})

test_that("the out-of-bag choice is deterministic across threads, and without enough out-of-bag rows it is the in-bag one", {
  tr <- shifted_means(150, 40, 4)  # 40 predictors: T = W P inside the top 32 directions
  fit <- function(threads, ...) {
    svforest(tr$x, tr$y, method = "transform", ntree = 4, seed = 6, num_threads = threads, transform_iter = 5, ...)
  }
  for (args in list(list(), list(transform_center = FALSE), list(node_tries = 2), list(transform_rank = 40))) {
    a <- do.call(fit, c(list(1), args))
    expect_identical(a$forest, do.call(fit, c(list(2), args))$forest, info = paste(names(args), collapse = " "))
    expect_false(identical(a$forest, do.call(fit, c(list(1), args, transform_choice = "inbag"))$forest))
  }
  # every row in bag (no out-of-bag rows), or fewer than 10 out of bag: the in-bag rule at every node
  for (fraction in c(1, 0.95)) {
    expect_identical(fit(2, sample_fraction = fraction)$forest,
                     fit(2, sample_fraction = fraction, transform_choice = "inbag")$forest)
  }
  for (bad in list("OOB", NA, TRUE, c("oob", "inbag"), 1))
    expect_error(fit(1, transform_choice = bad), "`transform_choice` must be one of \"oob\", \"inbag\"")
})

test_that("a transformation split folded into its projections routes rows as the split it folds", {
  # a one-split forest whose root split is replaced by random rules
  base <- svforest(as.matrix(iris[, 1:4]), iris$Species, method = "transform", ntree = 1, max_depth = 1, seed = 1,
                   num_threads = 1)
  stopifnot(tree_n_nodes(base$forest$trees[[1]]) == 3)
  codes <- svforest:::.svf_split_kinds()
  with_rule <- function(kind, ints, reals) {
    m <- base
    tr <- tree_plain(m$forest, m$forest$trees[[1]])
    tr$split_kind[1] <- as.integer(kind)
    tr$split_int <- as.integer(ints)
    tr$split_real <- as.double(reals)
    tr$split_int_start[1] <- 0L
    tr$split_real_start[1] <- 0L
    m$forest$trees[[1]] <- tr
    m
  }
  withr_seed(3, {
    p <- 4
    x <- matrix(stats::rnorm(4000 * p), ncol = p)
    orth <- function(r, k) qr.Q(qr(matrix(stats::rnorm(r * k), r, k)))
    for (affine in c(FALSE, TRUE)) {
      r <- 4
      k <- 1
      t_mat <- matrix(stats::rnorm(r * p), r, p)
      values <- if (affine) {
        c(stats::rnorm(p), t_mat, stats::rnorm(r), stats::rnorm(r), orth(r, k), orth(r, k))
      } else {
        c(t_mat, orth(r, k), orth(r, k))
      }
      kind <- if (affine) "affine_transform" else "transform"
      folded <- svforest:::.svf_transform_rule(kind, r, k, values, p)
      expect_identical(folded$kind, codes[[paste0("projected_", kind)]])
      expect_lt(length(folded$reals), length(values))
      as_learned <- with_rule(codes[[kind]], c(r, k), values)
      as_folded <- with_rule(folded$kind, folded$ints, folded$reals)
      leaf <- predict(as_learned, x, type = "leaf")
      expect_identical(predict(as_folded, x, type = "leaf"), leaf)
      expect_true(all(c(1L, 2L) %in% leaf))  # both sides are reached
    }
  })
})
