# RSVT's leaf cross-validation solves its problems with the dense Newton
# solver; they must be the problems LIBLINEAR solves for the leaf itself.

test_that("the dense Newton solver matches LIBLINEAR at every C of the leaf grid", {
  set.seed(2)
  x <- matrix(rnorm(250 * 6), 250, 6)
  y <- as.integer(x[, 1] - x[, 2] + 0.5 * x[, 3] + rnorm(250, sd = 0.7) > 0.8)  # imbalanced
  expect_lt(mean(y), 0.4)
  rows <- sort(sample(0:249, 180))
  for (cost in c(0.25, 1, 4)) {
    ll <- svforest:::.svf_binary_svm(x, y, 1L, rows, cost, 1e-8, FALSE)
    nt <- svforest:::.svf_binary_svm_dense(x, y, 1L, rows, cost, 1e-8)
    expect_equal(nt, ll, tolerance = 1e-6)
  }
})

test_that("the dense Newton solver stops by LIBLINEAR's relative gradient rule", {
  set.seed(3)
  x <- matrix(rnorm(200 * 3), 200, 3)
  y <- as.integer(x[, 1] + rnorm(200, sd = 0.5) > 0)
  exact <- svforest:::.svf_binary_svm_dense(x, y, 1L, 0:199, 1, 1e-10)
  loose <- svforest:::.svf_binary_svm_dense(x, y, 1L, 0:199, 1, 0.5)
  # a loose tolerance stops early, yet already near the optimum
  expect_false(isTRUE(all.equal(loose, exact, tolerance = 1e-10)))
  expect_lt(max(abs(loose - exact)), 0.1 * max(abs(exact)))
})

test_that("one-class problems are refused by the dense solver", {
  x <- matrix(runif(20), 10, 2)
  expect_error(svforest:::.svf_binary_svm_dense(x, rep(1L, 10), 1L, 0:9, 1, 0.01), "one class")
})

test_that("RSVT leaves on few predictors are still LIBLINEAR's solution at the chosen C", {
  set.seed(4)
  x <- matrix(runif(300 * 3), 300, 3, dimnames = list(NULL, paste0("x", 1:3)))
  y <- factor(ifelse(x[, 1] + x[, 2] + rnorm(300, sd = 0.2) > 1, "b", "a"))
  # one leaf holding every row: min_leaf_size above n
  fit <- svforest(x, y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1,
                  min_leaf_size = 1000)
  tree <- fit$forest$trees[[1]]
  expect_identical(tree_n_leaves(tree), 1L)
  chosen <- tree_leaf_costs(fit$forest, tree)[1]
  expect_true(chosen %in% c(0.25, 0.5, 1, 2, 4))
  ll <- svforest:::.svf_binary_svm(x, as.integer(y) - 1L, 1L, 0:299, chosen, 1e-8, FALSE)
  expect_equal(as.vector(tree_linear_leaf(fit$forest, tree, 1)$coef)[seq_along(ll)], ll, tolerance = 1e-3)
})

test_that("leaves on many dense predictors start LIBLINEAR from the Newton solver and are still its solution", {
  # p + 1 > 160: the conjugate-gradient Newton steps on the leaf's distinct
  # rows (bootstrap repeats as weights) give LIBLINEAR its start
  set.seed(5)
  p <- 170
  x <- matrix(runif(400 * p), 400, p, dimnames = list(NULL, paste0("x", 1:p)))
  y <- factor(c("a", "b", "c")[1 + (x[, 1] + x[, 2] > 1) + (x[, 3] > 0.7)])
  fit <- svforest(x, y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1, min_leaf_size = 1000,
                  cv_folds = 1, cost = 1)
  tree <- fit$forest$trees[[1]]
  expect_identical(tree_n_leaves(tree), 1L)
  leaf <- tree_linear_leaf(fit$forest, tree, 1)
  expect_identical(leaf$classes, 1:3)
  # the leaf stops at tolerance = 0.01, as LIBLINEAR from 0 does (which is
  # itself within about 1% of the exact solution here)
  for (k in 1:3) {
    ll <- svforest:::.svf_binary_svm(x, as.integer(y) - 1L, k - 1L, 0:399, 1, 1e-8, FALSE)
    expect_equal(as.vector(leaf$coef[, k]), ll, tolerance = 0.03)
  }
})

test_that("columns with ranges beyond the doubles are scaled to finite values", {
  x <- as.matrix(iris[, 1:4])
  x[, 1] <- ifelse(seq_len(150) %% 2 == 0, 1e308, -1e308)  # range overflows
  x[, 2] <- x[, 2] * 1e-310                                # subnormal range
  y <- factor(ifelse(seq_len(150) %% 2 == 0, "even", "odd"))
  fit <- svforest(x, y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1, min_leaf_size = 1000)
  f <- fit$forest
  expect_true(all(is.finite(f$scale_factor)))
  expect_gt(f$scale_factor[1], 0)       # used: it separates the classes
  expect_identical(f$scale_factor[2], 0)  # treated as constant
  coef <- tree_linear_leaf(f, f$trees[[1]], 1)$coef
  expect_length(coef, 5)
  expect_true(all(is.finite(coef)))
  expect_identical(predict(fit, x), y)
})

test_that("balanced = \"task\" in a leaf holding the whole task is the unweighted SVM, C selection included", {
  set.seed(5)
  x <- matrix(runif(400 * 3), 400, 3, dimnames = list(NULL, paste0("x", 1:3)))
  y <- factor(ifelse(x[, 1] + 0.5 * x[, 2] + rnorm(400, sd = 0.25) > 1.15, "b", "a"))
  expect_lt(mean(y == "b"), 0.35)
  one_leaf <- function(balanced) {
    f <- svforest(x, y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1, min_leaf_size = 1000,
                  balanced = balanced, cost = c(0.01, 0.1, 1, 10))$forest
    list(leaf_cost = tree_leaf_costs(f, f$trees[[1]]), coef = tree_linear_leaf(f, f$trees[[1]], 1)$coef)
  }
  task <- one_leaf("task")
  plain <- one_leaf(FALSE)
  balanced <- one_leaf(TRUE)
  # the task's shares undo the balancing exactly (up to rounding in the folds)
  expect_identical(task$leaf_cost, plain$leaf_cost)
  expect_equal(task$coef, plain$coef, tolerance = 1e-4)
  expect_gt(max(abs(balanced$coef - plain$coef)), 0.05)
})
