# RSVF: splits chosen by the out-of-bag errors of the children's linear SVMs.

# XOR of two halves with a gap around both boundaries: inside each half along
# x1 the class is a threshold on x2, so the children of the cut x1 = 0.5 are
# each separable, while no single hyperplane separates the node. x3 is noise.
gapped_xor <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::runif(3 * n * 3), ncol = 3, dimnames = list(NULL, paste0("x", 1:3)))
    keep <- abs(x[, 1] - 0.5) > 0.05 & abs(x[, 2] - 0.5) > 0.1
    x <- x[keep, ][seq_len(n), ]
    y <- as.integer(xor(x[, 1] > 0.5, x[, 2] > 0.5))
    list(x = x, y = y)
  })
}

# Errors of a cold-started binary SVM (the engine's solver) trained on `rows`
# and applied to `test`, computed here from its weights.
svm_errors <- function(x, y, rows, test) {
  w <- svforest:::.svf_binary_svm(x, y, 1L, as.integer(rows - 1L), 1, 0.1, TRUE)
  lo <- apply(x, 2, min)
  xs <- sweep(sweep(x, 2, lo), 2, apply(x, 2, max) - lo, "/")
  pred <- as.integer(cbind(xs[test, , drop = FALSE], 1) %*% w > 0)
  sum(pred != y[test])
}

test_that("the split SVM solver matches LIBLINEAR, with bootstrap repeats as weights", {
  set.seed(1)
  x <- matrix(runif(300 * 4), 300, 4)
  y <- as.integer(x[, 1] + x[, 2] + rnorm(300, sd = 0.3) > 1)
  rows <- sample(0:299, 300, replace = TRUE)
  ll <- svforest:::.svf_binary_svm(x, y, 1L, rows, 1, 1e-8, FALSE)
  nt <- svforest:::.svf_binary_svm(x, y, 1L, rows, 1, 1e-8, TRUE)
  expect_equal(nt, ll, tolerance = 1e-6)
})

test_that("the split criterion: a cut that makes both children separable lowers the OOB error, a noise cut does not", {
  d <- gapped_xor(400, seed = 11)
  set.seed(12)
  inbag <- sample(400, 400, replace = TRUE)
  oob <- setdiff(1:400, inbag)
  res <- svforest:::.svf_rsvf_criterion(
    d$x, d$y, 2L, as.integer(inbag - 1L), as.integer(oob - 1L),
    features = list(1L, 3L), weights = list(1, 1), taus = c(0.5, 0.5), delta_tau = 0, min_leaf = 5L)
  # e: the node's own SVM, checked against the same SVM computed here
  expect_identical(res$parent_errors, as.double(svm_errors(d$x, d$y, inbag, oob)))
  expect_gt(res$parent_errors, 0.25 * length(oob))  # no hyperplane fits an XOR
  # candidate 1 (x1 <= 0.5): both children are separable with a margin
  left <- d$x[, 1] <= 0.5
  expect_identical(res$child_errors[1],
                   as.double(svm_errors(d$x, d$y, inbag[left[inbag]], oob[left[oob]]) +
                               svm_errors(d$x, d$y, inbag[!left[inbag]], oob[!left[oob]])))
  expect_identical(res$child_errors[1], 0)
  # candidate 2 (x3 <= 0.5, noise): each child is still an XOR
  expect_gt(res$child_errors[2], 0.25 * length(oob))
  expect_identical(res$chosen, 1)
  # alone, the noise cut is not taken unless it lowers the error
  only_noise <- svforest:::.svf_rsvf_criterion(
    d$x, d$y, 2L, as.integer(inbag - 1L), as.integer(oob - 1L),
    features = list(3L), weights = list(1), taus = 0.5, delta_tau = 0, min_leaf = 5L)
  expect_identical(only_noise$chosen, if (only_noise$child_errors < only_noise$parent_errors) 1 else 0)
})

test_that("delta_tau puts the rows of the band into both children", {
  d <- gapped_xor(200, seed = 13)
  inbag <- 1:150
  oob <- 151:200
  # tau just above the 3rd smallest x1 of the in-bag rows: the left child has
  # 3 in-bag rows, fewer than min_leaf = 5, so the candidate is invalid ...
  v <- sort(d$x[inbag, 1])
  crit <- function(delta) {
    svforest:::.svf_rsvf_criterion(d$x, d$y, 2L, as.integer(inbag - 1L), as.integer(oob - 1L),
                                   list(1L), list(1), v[3], delta, 5L)$child_errors
  }
  expect_identical(crit(0), -1)
  # ... unless a band around tau adds rows above it to the left child too
  band <- (v[7] - v[3]) / (max(v) - min(v))
  expect_gte(crit(band), 0)
  # in grown trees the band makes leaves share rows: leaf sizes add up to more
  # than the bootstrap sample
  xd <- xor_linear(600, p = 2, seed = 14)
  plain <- svforest(xd$x, xd$y, method = "rsvf", ntree = 3, seed = 2, num_threads = 1)
  banded <- svforest(xd$x, xd$y, method = "rsvf", ntree = 3, seed = 2, num_threads = 1, delta_tau = 0.1)
  expect_true(all(vapply(plain$forest$trees, function(t) sum(tree_leaf_sizes(t)), 0) == 600))
  split_trees <- vapply(banded$forest$trees, function(t) tree_n_leaves(t) > 1, TRUE)
  expect_true(any(split_trees))
  expect_true(all(vapply(banded$forest$trees[split_trees], function(t) sum(tree_leaf_sizes(t)), 0) > 600))
})

test_that("rsvf finds the quadrant cuts of an XOR of linear problems and beats one linear SVM", {
  train <- xor_linear(1500, p = 5, seed = 15)
  test <- xor_linear(3000, p = 5, seed = 16)
  fit <- svforest(train$x, train$y, method = "rsvf", ntree = 10, seed = 3, num_threads = 2)
  # the root cut is on x1 or x2 (the quadrant predictors) although the
  # candidates' predictors are drawn uniformly among 5
  root_vars <- vapply(fit$forest$trees, function(t) tree_oblique_split(fit$forest, t, 1L)$vars + 1L, 0L)
  expect_gte(mean(root_vars %in% 1:2), 0.9)
  global <- svforest(method = "rsvt", train$x, train$y, ntree = 1, min_leaf_size = 1500, seed = 1, num_threads = 2)
  acc <- accuracy(predict(fit, test$x), test$y)
  expect_gt(acc, 0.9)
  expect_gte(acc - accuracy(predict(global, test$x), test$y), 0.15)
  # the OOB error estimates the held-out error (it is somewhat optimistic:
  # the OOB rows chose the splits)
  expect_lt(abs(fit$oob_error - (1 - acc)), 0.04)
  mc <- svforest(train$x, train$y, method = "rsvf", ntree = 10, seed = 3, num_threads = 2,
                 aggregation = "max_confidence")
  expect_identical(mc$forest, fit$forest)  # aggregation does not change the trees
  acc_mc <- accuracy(predict(mc, test$x), test$y)
  expect_gt(acc_mc, 0.85)
  expect_lt(abs(mc$oob_error - (1 - acc_mc)), 0.05)
})

test_that("trees respect max_depth and min_leaf_size", {
  d <- xor_linear(800, p = 3, seed = 17)
  depth <- function(fit) vapply(fit$forest$trees, tree_depth, 0L)
  for (md in 1:3) {
    fit <- svforest(d$x, d$y, method = "rsvf", ntree = 4, max_depth = md, seed = 4, num_threads = 2)
    expect_true(all(depth(fit) <= md))
  }
  expect_true(any(depth(fit) == 3))
  fit <- svforest(d$x, d$y, method = "rsvf", ntree = 4, seed = 4, num_threads = 2, min_leaf_size = 150)
  expect_true(all(all_leaf_sizes(fit) >= 150))
  stump <- svforest(d$x, d$y, method = "rsvf", ntree = 2, seed = 4, num_threads = 2, min_leaf_size = 500)
  expect_true(all(n_leaves(stump) == 1))
})

test_that("the node's own SVM is solved (not one Newton step): a separable node is not split", {
  # x1 separates the classes with a gap, but a far cluster of class 1 pulls
  # the first Newton step from 0 (ridge least squares on +-1): it misclassifies
  # dozens of rows, which a noise cut could "improve" on. The solved SVM makes
  # no error, so no candidate lowers the node's OOB error: every tree is one
  # leaf, also with split_max_iter = 1 (the children's steps, the default).
  withr_seed(5, {
    x1 <- c(stats::runif(200, 0, 0.3), stats::runif(140, 0.38, 0.45), stats::runif(100, 0.9, 1))
    x <- cbind(x1 = x1, x2 = stats::runif(440))
  })
  y <- factor(rep(0:1, c(200, 240)))
  yy <- ifelse(y == "1", 1, -1)
  xs <- cbind(apply(x, 2, function(v) (v - min(v)) / diff(range(v))), 1)
  cw <- ifelse(yy > 0, 440 / (2 * 240), 440 / (2 * 200))  # balanced costs
  one_step <- solve(diag(3) + 2 * crossprod(xs, cw * xs), 2 * crossprod(xs, cw * yy))
  expect_gt(sum(sign(xs %*% one_step) != yy), 20)
  solved <- svforest:::.svf_binary_svm(x, as.integer(y) - 1L, 1L, 0:439, 1, 0.1, TRUE)
  expect_identical(sum(sign(xs %*% solved) != yy), 0L)
  fit <- svforest(x, y, method = "rsvf", ntree = 10, seed = 1, num_threads = 1)
  expect_identical(fit$params$split_max_iter, 1L)
  expect_true(all(n_leaves(fit) == 1))
})

test_that("max-confidence picks the tree with the largest decision value", {
  d <- xor_linear(600, p = 2, seed = 18)
  fit <- svforest(d$x, d$y, method = "rsvf", ntree = 5, seed = 5, num_threads = 1,
                  aggregation = "max_confidence", max_depth = 2)
  newx <- xor_linear(50, p = 2, seed = 19)$x
  f <- fit$forest
  lo <- f$scale_center
  xs <- cbind(sweep(sweep(newx, 2, lo), 2, f$scale_factor, "*"), 1)
  leaves <- predict(fit, newx, type = "leaf")
  expected <- character(nrow(newx))
  for (i in seq_len(nrow(newx))) {
    best <- -Inf
    for (t in seq_along(f$trees)) {
      tr <- f$trees[[t]]
      l <- leaves[i, t]
      counts <- tree_leaf_counts(f, tr)[, l]
      lin <- tree_linear_leaf(f, tr, l)
      if (!is.null(lin)) {
        expect_identical(lin$classes, 1:2)
        dec <- sum(lin$coef[, 1] * xs[i, ])
        conf <- abs(dec)
        cls <- if (dec > 0) 2L else 1L
      } else {
        cls <- which.max(counts)
        conf <- 2 * max(counts) / sum(counts) - 1
      }
      if (conf > best) { best <- conf; expected[i] <- fit$levels[cls] }
    }
  }
  expect_identical(as.character(predict(fit, newx)), expected)
})

# threads over trees, saveRDS, combine and prediction types: test-contract.R
test_that("a single rsvf tree is the same when threads score the candidates of a node", {
  d <- xor_linear(500, p = 3, noise = 0.1, seed = 20)
  # 1 tree: the threads score candidates of one node
  a <- svforest(d$x, d$y, method = "rsvf", ntree = 1, seed = 6, num_threads = 1)
  b <- svforest(d$x, d$y, method = "rsvf", ntree = 1, seed = 6, num_threads = 2)
  expect_identical(a$forest, b$forest)
  expect_identical(a$oob_error_curve, b$oob_error_curve)
  expect_output(print(a), "OOB error: +[0-9.]+%")
  expect_true(any(n_leaves(a) > 1))
})

test_that("rsvf works on sparse input", {
  d <- xor_linear(400, p = 4, seed = 21)
  xs <- Matrix::Matrix(d$x * (abs(d$x) > 0.3), sparse = TRUE)
  fit <- svforest(xs, d$y, method = "rsvf", ntree = 4, seed = 7, num_threads = 2, proj_dim = 2)
  for (t in fit$forest$trees) {
    kinds <- tree_split_kinds(t)
    expect_true(all(kinds[!is.na(kinds)] == "oblique"))
    for (node in tree_split_nodes(t)) expect_length(tree_oblique_split(fit$forest, t, node)$vars, 2)
  }
  expect_identical(predict(fit, xs), predict(fit, as.matrix(xs)))
})

test_that("rsvf parameters are checked and the paper's settings are valid arguments", {
  d <- xor_linear(100, p = 2, seed = 22)
  expect_error(svforest(d$x, d$y, method = "rsvf", n_theta = 0), "n_theta")
  expect_error(svforest(d$x, d$y, method = "rsvf", n_tau = 1.5), "n_tau")
  expect_error(svforest(d$x, d$y, method = "rsvf", delta_tau = 2), "delta_tau")
  expect_error(svforest(d$x, d$y, method = "rsvf", split_tolerance = 0), "split_tolerance")
  expect_error(svforest(d$x, d$y, method = "rsvf", aggregation = "max"), "aggregation")
  expect_error(rsvf_paper_settings("mnist"), "dataset")
  for (s in c("letter", "kth")) {
    settings <- rsvf_paper_settings(s)
    expect_true(all(setdiff(names(settings), "ntree") %in% names(svforest:::resolve_parameters("rsvf", list(), 100))))
  }
  expect_identical(rsvf_paper_settings("kth")[c("n_theta", "n_omega", "n_tau")],
                   list(n_theta = 44L, n_omega = 2L, n_tau = 40L))
  fit <- svforest(d$x, d$y, method = "rsvf", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$params[c("cost", "cv_folds", "sampler", "splitter")],
                   list(cost = 1, cv_folds = 1L, sampler = "bootstrap", splitter = "oob_svm"))
})

test_that("balanced = \"task\": a two-class task keeps its class shares, so the SVMs aim at accuracy", {
  # 20% positives, two overlapping Gaussians: a balanced SVM's threshold sits
  # midway (accuracy ~0.77), the accuracy-optimal one nearer the minority (~0.85)
  gauss <- function(n, seed) withr_seed(seed, {
    y <- stats::rbinom(n, 1, 0.2)
    x <- cbind(x1 = stats::rnorm(n, 1.5 * y), x2 = stats::rnorm(n))
    list(x = x, y = factor(y))
  })
  tr <- gauss(600, 31)
  te <- gauss(3000, 32)
  acc <- function(...) {
    fit <- svforest(tr$x, tr$y, method = "rsvf", ntree = 5, seed = 3, num_threads = 2, ...)
    mean(predict(fit, te$x) == te$y)
  }
  task <- acc()
  balanced <- acc(balanced = TRUE)
  expect_gt(task, balanced + 0.04)
  expect_gt(task, 0.82)
  # the factors restore the task's shares on top of balancing
  expect_equal(svforest:::class_factors("task", factor(c(0, 1, 1, 1, 1))), c(0.4, 1.6))
  expect_equal(svforest:::class_factors("task", factor(1:3)), c(1, 1, 1))
  expect_equal(svforest:::class_factors(TRUE, factor(c(0, 1, 1, 1, 1))), c(1, 1))
  # with equal shares (and with more classes) "task" is plain balancing
  d <- xor_linear(300, p = 3, seed = 23)
  d$y <- factor(d$y)
  keep <- c(which(d$y == levels(d$y)[1])[1:100], which(d$y == levels(d$y)[2])[1:100])
  a <- svforest(d$x[keep, ], d$y[keep], method = "rsvf", ntree = 3, seed = 4, num_threads = 1)
  b <- svforest(d$x[keep, ], d$y[keep], method = "rsvf", ntree = 3, seed = 4, num_threads = 1, balanced = TRUE)
  expect_identical(a$forest, b$forest)
  expect_identical(a$params$balanced, "task")
  expect_error(svforest(d$x, d$y, method = "rsvf", balanced = "yes"), "`balanced` must be TRUE, FALSE or")
})

test_that("candidate screening acts on large nodes only, and is reproducible", {
  fit_with <- function(d, fraction, threads = 1) {
    svforest(d$x, d$y, method = "rsvf", ntree = 2, max_depth = 2, screen_fraction = fraction, screen_keep = 1,
             seed = 4, num_threads = threads)
  }
  # below 2,000 distinct in-bag rows per node (a 500-row subsample at 0.25)
  # every candidate is scored in full: screening changes nothing
  small <- xor_linear(400, p = 4, seed = 3)
  expect_identical(fit_with(small, 0.25)$forest, fit_with(small, 1)$forest)
  # at the root of 4,000 rows the subsample has over 500 rows: with
  # screen_keep = 1 only the screening's winner is scored in full
  big <- xor_linear(4000, p = 4, seed = 3)
  screened <- fit_with(big, 0.25)
  expect_false(identical(screened$forest, fit_with(big, 1)$forest))
  expect_identical(fit_with(big, 0.25, threads = 2)$forest, screened$forest)
  expect_gt(mean(predict(screened, big$x) == big$y), 0.8)
})
