# PSVM trees: proximal SVM oblique splits with class-frequency leaves.

test_that("the proximal SVM solves (I/nu + E'E) z = E'De as computed in R", {
  set.seed(1)
  A <- matrix(runif(40), 20, 2)
  d <- ifelse(A[, 1] + A[, 2] > 1, 1, -1)
  for (nu in c(0.5, 10, 1000)) {
    E <- cbind(A, -1)
    z_r <- solve(diag(3) / nu + crossprod(E), crossprod(E, d))
    expect_equal(svforest:::.svf_proximal_svm(A, d, nu), as.vector(z_r), tolerance = 1e-10)
  }
  # more rows than one block (4096): the normal equations summed block by block
  A <- matrix(runif(10000 * 3), 10000, 3)
  d <- ifelse(A[, 1] - A[, 3] > 0, 1, -1)
  E <- cbind(A, -1)
  z_r <- solve(diag(4) / 100 + crossprod(E), crossprod(E, d))
  expect_equal(svforest:::.svf_proximal_svm(A, d, 100), as.vector(z_r), tolerance = 1e-10)
})

test_that("n_min defaults to 2, and grows with n beyond 100,000 rows", {
  n_min <- function(n) svforest:::resolve_parameters("psvm", list(), n)$n_min
  expect_identical(n_min(150), 2L)
  expect_identical(n_min(100000), 2L)
  expect_identical(n_min(100001), 3L)
  expect_identical(n_min(1e6), 20L)
  expect_identical(svforest:::resolve_parameters("psvm", list(n_min = 2L), 1e6)$n_min, 2L)
})

test_that("overlay group A holds at least half the rows, and is minimal", {
  for (s in 1:200) {
    counts <- sample(0:30, sample(2:8, 1), replace = TRUE)
    if (sum(counts > 0) < 2) next
    in_a <- svforest:::.svf_overlay_classes(as.integer(counts), s)
    expect_false(any(in_a & counts == 0))
    expect_gte(sum(counts[in_a]), sum(counts) / 2)
    # classes are added until A reaches half: without the last one added it
    # was below half
    expect_true(any(sum(counts[in_a]) - counts[in_a] < sum(counts) / 2))
  }
})

test_that("oblique splits beat axis-aligned trees of the same size on a diagonal boundary", {
  set.seed(3)
  make <- function(n) {
    x <- matrix(runif(n * 6), n, 6, dimnames = list(NULL, paste0("x", 1:6)))
    list(x = x, y = factor(ifelse(x[, 1] + x[, 2] + x[, 3] > 1.5, "a", "b")))
  }
  tr <- make(600); te <- make(3000)
  psvm <- svforest(tr$x, tr$y, method = "psvm", ntree = 20, seed = 1, num_threads = 2)
  axis <- svforest(tr$x, tr$y, method = "psvm", splitter = "random_axis", min_leaf_size = 1,
                   ntree = 20, seed = 1, num_threads = 2)
  acc_psvm <- mean(predict(psvm, te$x) == te$y)
  acc_axis <- mean(predict(axis, te$x) == te$y)
  expect_gt(acc_psvm, acc_axis + 0.03)
  skip_if_not_installed("ranger")
  rf <- ranger::ranger(x = tr$x, y = tr$y, num.trees = 20, num.threads = 2, seed = 1)
  expect_gt(acc_psvm, mean(predict(rf, te$x)$predictions == te$y) + 0.02)
})

# threads, saveRDS, combine and prediction types: test-contract.R
test_that("psvm trees have oblique splits", {
  a <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 15, seed = 9, num_threads = 1)
  expect_true(any(unlist(lapply(a$forest$trees, tree_split_kinds)) %in% "oblique"))
})

test_that("psvm nodes split only when both overlay groups exceed n_min", {
  fit <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 5, seed = 2, num_threads = 1,
                  n_min = 60)
  # 150 rows: the only possible split puts >= 75 rows in A, but B must exceed 60 too
  for (t in fit$forest$trees) {
    expect_lte(length(tree_split_nodes(t)), 1)
  }
  big <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 5, seed = 2, num_threads = 1,
                  n_min = 200)
  expect_true(all(n_leaves(big) == 1))
})

test_that("engine parts combine: psvm splits with SVM leaves, random splits with constant leaves", {
  a <- svforest(Species ~ ., data = iris, splitter = "psvm", leaf = "linear_svm", ntree = 3,
                seed = 1, num_threads = 1, n_min = 10)
  expect_identical(a$params$splitter, "psvm")
  expect_identical(a$params$leaf, "linear_svm")
  b <- svforest(Species ~ ., data = iris, method = "rsvt", leaf = "constant", ntree = 3,
                seed = 1, num_threads = 1)
  expect_true(all(leaf_kinds(b) == "constant"))
  expect_gt(mean(predict(b, iris) == iris$Species), 0.8)
})

test_that("psvm rejects bad parameters", {
  expect_error(svforest(Species ~ ., data = iris, method = "psvm", nu = 0), "nu")
  expect_error(svforest(Species ~ ., data = iris, method = "psvm", m_max = 0), "m_max")
  expect_error(svforest(Species ~ ., data = iris, method = "psvm", n_min = -1), "n_min")
})

test_that("psvm_cut = 'gain' places the plane at the cut of largest information gain", {
  # One informative predictor, a rare class beyond 0.9: the least-squares
  # offset of the proximal SVM falls outside the data (about 1.24), so the
  # paper's plane sends every row one way and a depth-1 tree stays a leaf;
  # the gain cut splits at 0.9.
  set.seed(3)
  n <- 400
  x <- cbind(x1 = runif(n), x2 = runif(n))
  y <- factor(ifelse(x[, 1] > 0.9, "rare", "common"))
  xt <- cbind(x1 = seq(0.005, 0.995, by = 0.01), x2 = 0.5)
  yt <- factor(ifelse(xt[, 1] > 0.9, "rare", "common"), levels = levels(y))
  fit_with <- function(cut) {
    svforest(x, y, method = "psvm", ntree = 5, max_depth = 1, psvm_cut = cut, seed = 1, num_threads = 1)
  }
  gain <- fit_with("gain")
  plane <- fit_with("plane")
  expect_identical(gain$params$psvm_cut, "gain")
  expect_gte(mean(predict(gain, xt) == yt), 0.95)
  expect_lte(mean(predict(plane, xt) == yt), 0.91)
  # the default is the gain cut
  expect_identical(svforest(x, y, method = "psvm", ntree = 2, seed = 1, num_threads = 1)$params$psvm_cut, "gain")
  expect_error(svforest(x, y, method = "psvm", psvm_cut = "middle"), "psvm_cut")
})

test_that("node_tries keeps the draw of largest information gain", {
  set.seed(4)
  n <- 300
  x <- matrix(runif(n * 6), n, 6, dimnames = list(NULL, paste0("x", 1:6)))
  y <- factor(ifelse(x[, 1] + x[, 2] > 1, "a", "b"))
  one <- svforest(x, y, method = "psvm", ntree = 20, max_depth = 1, seed = 2, num_threads = 1)
  five <- svforest(x, y, method = "psvm", ntree = 20, max_depth = 1, node_tries = 5, seed = 2, num_threads = 1)
  # depth-1 trees: the root's training accuracy shows the split's quality
  root_acc <- function(f) mean(predict(f, x, type = "votes")[cbind(seq_len(n), as.integer(y))] / 20)
  expect_gt(root_acc(five), root_acc(one))
})
