# Method "hybrid", svforest's default: axis cuts and proximal-SVM hyperplanes
# compete at each node; a hyperplane must also separate the node's
# out-of-bag rows better than the best axis cut.

# Shares of split nodes that are axis (code 0) and oblique (code 1) cuts.
split_shares <- function(fit) {
  kinds <- unlist(lapply(fit$forest$trees, function(t) { k <- tree_nodes(t)$split_kind; k[k >= 0] }))
  c(axis = mean(kinds == 0L), oblique = mean(kinds == 1L))
}

# Two classes separated by the diagonal x1 + x2 = 0 (an oblique boundary),
# plus noise predictors.
diagonal_df <- function(n, p_noise = 3, seed = 1) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * (2 + p_noise), -1, 1), n)
    colnames(x) <- paste0("x", seq_len(ncol(x)))
    data.frame(x, y = factor(ifelse(x[, 1] + x[, 2] > 0, "a", "b")))
  })
}

test_that("svforest() fits the hybrid method by default, for classes and numbers", {
  fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(fit$method, "hybrid")
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(reg$method, "hybrid")
  expect_identical(reg$type, "regression")
})

test_that("every default fit comes with out-of-bag error and out-of-bag class probabilities", {
  fit <- svforest(Species ~ ., data = iris, ntree = 20, seed = 1, num_threads = 1)
  expect_true(is.finite(fit$oob_error))
  expect_equal(dim(fit$oob_prob), c(150L, 3L))
  has <- stats::complete.cases(fit$oob_prob)
  expect_gt(mean(has), 0.9)  # 20 bootstrap trees leave almost every row out at least once
  expect_equal(rowSums(fit$oob_prob[has, ]), rep(1, sum(has)), tolerance = 1e-9)
  expect_equal(mean(as.character(fit$oob_predictions[has]) != as.character(iris$Species[has])), fit$oob_error_ensemble)
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 20, seed = 1, num_threads = 1)
  expect_true(is.finite(reg$oob_error))
  expect_true(is.finite(reg$oob_rsquared))
})

test_that("hyperplanes win where the classes are separated obliquely", {
  train <- diagonal_df(600, seed = 1)
  test <- diagonal_df(2000, seed = 2)
  hybrid <- svforest(y ~ ., data = train, ntree = 30, seed = 1, num_threads = 2)
  axis <- svforest(y ~ ., data = train, ntree = 30, seed = 1, num_threads = 2, n_oblique = 0)
  acc_hybrid <- accuracy(predict(hybrid, test), test$y)
  acc_axis <- accuracy(predict(axis, test), test$y)
  # a staircase of axis cuts approximates the diagonal; one hyperplane is it
  expect_gt(acc_hybrid, acc_axis + 0.02)
  expect_gt(acc_hybrid, 0.96)
  expect_gt(split_shares(hybrid)[["oblique"]], 0.2)
  expect_identical(split_shares(axis)[["oblique"]], 0)
})

test_that("axis cuts win where one predictor carries the signal alone", {
  withr_seed(3, {
    x <- matrix(stats::runif(800 * 6), 800)
    colnames(x) <- paste0("x", 1:6)
    d <- data.frame(x, y = factor(ifelse(x[, 1] > 0.5, "hi", "lo")))
  })
  fit <- svforest(y ~ ., data = d[1:400, ], ntree = 30, seed = 1, num_threads = 2)
  # the root of most trees cuts x1: alone (an axis cut), or as the predictor
  # of largest weight of a hyperplane (all predictors are on [0, 1])
  root_var <- vapply(fit$forest$trees, function(t) {
    t <- tree_plain(fit$forest, t)
    ints <- t$split_int[t$split_int_start[1] + seq_len(if (t$split_kind[1] == 0L) 1L else t$split_int[t$split_int_start[1] + 1L] + 1L)]
    if (t$split_kind[1] == 0L) return(ints[1])
    w <- t$split_real[t$split_real_start[1] + 1L + seq_along(ints[-1])]
    ints[-1][which.max(abs(w))]
  }, 0L)
  # (x1 is among the root's 4 drawn predictors in 2/3 of the trees; a cut on
  # noise would pick x1 in 1/6). Predictors are numbered from 0 in the tree.
  expect_gt(mean(root_var == 0L), 0.55)
  expect_gt(accuracy(predict(fit, d[401:800, ]), d$y[401:800]), 0.97)
})

test_that("the out-of-bag choice keeps hyperplanes that do not generalise out", {
  # pure noise: in-bag, a fitted hyperplane always separates a little better
  # than an axis cut; out of bag it does not
  withr_seed(4, {
    x <- matrix(stats::rnorm(400 * 8), 400)
    d <- data.frame(x, y = factor(sample(c("a", "b"), 400, replace = TRUE)))
  })
  inbag <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 2, oblique_choice = "inbag")
  oob <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 2)
  expect_gt(split_shares(inbag)[["oblique"]], split_shares(oob)[["oblique"]] + 0.1)
})

test_that("hyperplanes fit a smooth linear response better than axis cuts", {
  make <- function(n, seed) withr_seed(seed, {
    x <- matrix(stats::runif(n * 5), n)
    colnames(x) <- paste0("x", 1:5)
    data.frame(x, y = as.vector(x %*% c(3, -2, 2, 1, 0)) + stats::rnorm(n, sd = 0.1))
  })
  train <- make(500, 1)
  test <- make(1000, 2)
  rmse <- function(fit) sqrt(mean((predict(fit, test) - test$y)^2))
  hybrid <- svforest(y ~ ., data = train, ntree = 30, seed = 1, num_threads = 2)
  axis <- svforest(y ~ ., data = train, ntree = 30, seed = 1, num_threads = 2, n_oblique = 0)
  expect_lt(rmse(hybrid), 0.8 * rmse(axis))
})

test_that("mtry and oblique_mtry are checked and may not exceed the number of predictors", {
  expect_error(svforest(Species ~ ., data = iris, mtry = 0, ntree = 2, seed = 1), "mtry")
  expect_error(svforest(Species ~ ., data = iris, n_oblique = -1, ntree = 2, seed = 1), "n_oblique")
  expect_error(svforest(Species ~ ., data = iris, split_ridge = 0, ntree = 2, seed = 1), "split_ridge")
  expect_error(svforest(Species ~ ., data = iris, oblique_choice = "best", ntree = 2, seed = 1), "oblique_choice")
  expect_error(svforest(Species ~ ., data = iris, mtry = 50, ntree = 2, seed = 1), "`mtry` is 50, more than the 4")
  fit <- svforest(Species ~ ., data = iris, mtry = 4, oblique_mtry = 4, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$params$mtry, 4L)
  expect_identical(fit$params$oblique_mtry, 4L)
  # mtry = p: every node sees every predictor, still a valid forest
  expect_gt(accuracy(predict(fit, iris), iris$Species), 0.9)
})

test_that("a hybrid forest handles factors, missing values and sparse input", {
  d <- mixed_df(300)
  d$a[c(3, 10, 50)] <- NA
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  expect_gt(accuracy(predict(fit, d), d$y), 0.85)
  x <- Matrix::Matrix(as.matrix(iris[, 1:4]), sparse = TRUE)
  sp <- svforest(x, iris$Species, ntree = 10, seed = 1, num_threads = 1)
  dense <- svforest(as.matrix(iris[, 1:4]), iris$Species, ntree = 10, seed = 1, num_threads = 1)
  expect_identical(predict(sp, x, type = "prob"), predict(dense, as.matrix(iris[, 1:4]), type = "prob"))
})

test_that("a model of a wide data frame does not store the terms' predictors x terms matrix", {
  withr_seed(5, {
    d <- as.data.frame(matrix(stats::rnorm(60 * 150), 60))
    d$y <- factor(ifelse(d$V1 > 0, "a", "b"))
  })
  fit <- svforest(y ~ ., data = d, ntree = 3, seed = 1, num_threads = 1)
  expect_null(attr(fit$design$terms, "factors"))
  expect_lt(length(serialize(fit$design, NULL)), 50000)
  # rebuilt for prediction: the same design as the fit's
  again <- svforest(d[, 1:150], d$y, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(fit, d, type = "prob"), predict(again, d[, 1:150], type = "prob"))
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), d, type = "prob"), predict(fit, d, type = "prob"))
})

# Per split node of each tree: the axis cuts in a row that lead to it from
# the root or the nearest hyperplane above it, and its kind.
axis_runs <- function(fit) {
  do.call(rbind, lapply(fit$forest$trees, function(t) {
    nd <- tree_nodes(t)
    run <- integer(length(nd$split_kind))
    for (i in seq_along(run)) {  # parents come before their children
      if (nd$left_child[i] < 0) next
      below <- if (nd$split_kind[i] == 0L) run[i] + 1L else 0L
      run[c(nd$left_child[i], nd$right_child[i]) + 1L] <- below
    }
    split <- nd$split_kind >= 0L
    data.frame(run = run[split], kind = nd$split_kind[split])
  }))
}

test_that("oblique_stop ends hyperplanes below that many axis cuts in a row", {
  train <- diagonal_df(600, seed = 1)
  runs <- lapply(list(all = NA, one = 1L, two = 2L), function(stop)
    axis_runs(svforest(y ~ ., data = train, ntree = 20, seed = 1, num_threads = 2, oblique_stop = stop,
                       tree_choice = "none")))
  # without it, hyperplanes win below axis cuts too; with it, never below k in a row
  expect_gt(sum(runs$all$kind == 1L & runs$all$run >= 1L), 0)
  expect_identical(sum(runs$one$kind == 1L & runs$one$run >= 1L), 0L)
  expect_identical(sum(runs$two$kind == 1L & runs$two$run >= 2L), 0L)
  expect_gt(sum(runs$two$kind == 1L & runs$two$run == 1L), 0)
  expect_gt(mean(runs$one$kind == 1L), 0)
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 10, seed = 1, num_threads = 1, oblique_stop = 1L)
  expect_identical(sum(axis_runs(reg)$kind == 1L & axis_runs(reg)$run >= 1L), 0L)
  # survival forests (grown by the same splitter through their own entry) read it too
  lung <- stats::na.omit(survival::lung)
  surv <- lapply(list(all = NA, one = 1L), function(stop)
    axis_runs(svforest(survival::Surv(time, status) ~ ., data = lung, ntree = 20, seed = 1, num_threads = 1,
                       oblique_stop = stop)))
  expect_gt(sum(surv$all$kind == 1L & surv$all$run >= 1L), 0)
  expect_identical(sum(surv$one$kind == 1L & surv$one$run >= 1L), 0L)
  expect_error(svforest(y ~ ., data = train, ntree = 2, oblique_stop = 0), "oblique_stop")
})

test_that("max_bins: Inf is the exact search; bins cut between the training values either side", {
  train <- diagonal_df(400, seed = 3)
  exact <- svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 1, max_bins = Inf)
  # the default: 255 bins for classes (2,000 distinct values: binned)
  big <- diagonal_df(2000, seed = 3)
  default <- svforest(y ~ ., data = big, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(default$params$max_bins, 255)
  expect_identical(default$forest, svforest(y ~ ., data = big, ntree = 3, seed = 1, num_threads = 1, max_bins = 255)$forest)
  expect_false(identical(default$forest, svforest(y ~ ., data = big, ntree = 3, seed = 1, num_threads = 1,
                                                  max_bins = Inf)$forest))
  binned <- svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 1, max_bins = 16)
  expect_false(identical(binned$forest, exact$forest))
  # the same forest for any number of threads, and after a save and load
  expect_identical(svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 2, max_bins = 16)$forest,
                   binned$forest)
  path <- tempfile(fileext = ".rds")
  saveRDS(binned, path)
  expect_identical(predict(readRDS(path), train), predict(binned, train))
  # two clusters of x, the class its cluster: with two bins (one per
  # cluster) the cut lies midway between them, not at either cluster's edge
  x <- c(seq(0, 1, length.out = 200), seq(9, 10, length.out = 200))
  d <- data.frame(x = x, noise = rep(c(0, 1), 200), y = factor(ifelse(x > 5, "hi", "lo")))
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 1, max_bins = 2, n_oblique = 0)
  new <- data.frame(x = c(2, 4.9, 5.1, 8), noise = 0)
  expect_identical(as.character(predict(fit, new)), c("lo", "lo", "hi", "hi"))
  # a node whose rows fall in fewer than half of a column's bins cuts it
  # exactly: B's rows lie in a few of x2's 16 bins, their classes change at
  # 0.42, inside a bin (bin edges alone put 0.4195 on the wrong side)
  set.seed(7)
  d <- rbind(data.frame(x1 = 0, x2 = stats::runif(1500)), data.frame(x1 = 1, x2 = stats::runif(500, 0.40, 0.44)))
  d$y <- factor(ifelse(d$x1 == 1 & d$x2 > 0.42, "pos", "neg"))
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 1, max_bins = 16, n_oblique = 0,
                  max_depth = 2, mtry = 2)
  new <- data.frame(x1 = 1, x2 = c(0.405, 0.418, 0.4195, 0.4205, 0.422, 0.435))
  expect_identical(as.character(predict(fit, new)), rep(c("neg", "pos"), each = 3))
  expect_identical(unname(predict(fit, new, type = "prob")[, "pos"]), rep(c(0, 1), each = 3))
  # regression (default 1024 bins), survival and competing risks read it too
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 10, seed = 1, num_threads = 1, max_bins = 4)
  expect_false(identical(reg$forest, svforest(mpg ~ ., data = mtcars, ntree = 10, seed = 1, num_threads = 1)$forest))
  # 1,200 distinct values of numbers: binned at 1024, not at Inf
  wide <- data.frame(x1 = stats::runif(1200), x2 = stats::runif(1200))
  wide$yr <- 2 * wide$x1 + stats::rnorm(1200)
  expect_identical(svforest(yr ~ ., data = wide, ntree = 3, seed = 1, num_threads = 1)$params$max_bins, 1024)
  expect_identical(svforest(yr ~ ., data = wide, ntree = 3, seed = 1, num_threads = 1)$forest,
                   svforest(yr ~ ., data = wide, ntree = 3, seed = 1, num_threads = 1, max_bins = 1024)$forest)
  expect_false(identical(svforest(yr ~ ., data = wide, ntree = 3, seed = 1, num_threads = 1)$forest,
                         svforest(yr ~ ., data = wide, ntree = 3, seed = 1, num_threads = 1, max_bins = Inf)$forest))
  lung <- stats::na.omit(survival::lung)
  surv <- function(...) svforest(survival::Surv(time, status) ~ ., data = lung, ntree = 10, seed = 1, num_threads = 1,
                                 ...)$forest
  expect_false(identical(surv(max_bins = 8), surv()))
  expect_identical(surv(max_bins = Inf), surv())  # event times: exact by default
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin")])
  pbc$status <- factor(pbc$status)
  comp <- function(...) svforest(survival::Surv(time, status) ~ ., data = pbc, ntree = 10, seed = 1, num_threads = 1,
                                 ...)$forest
  expect_false(identical(comp(max_bins = 8), comp()))
  # below 2, fractional, NA, -Inf: an error naming it
  for (bad in list(1, 0, 2.5, NA, NA_real_, -Inf, "16", c(4, 8)))
    expect_error(svforest(y ~ ., data = train, ntree = 2, max_bins = bad), "`max_bins`", info = format(bad))
})

test_that("max_bins: large nodes fit hyperplanes on a sample and cut them in buckets, reproducibly", {
  # more than 1,536 rows: the root and its children take the sampled fit and
  # the bucketed cut; the diagonal is still found by hyperplanes
  train <- diagonal_df(4000, seed = 4)
  test <- diagonal_df(2000, seed = 5)
  binned <- svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 1, max_bins = 64)
  expect_identical(svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 2, max_bins = 64)$forest,
                   binned$forest)
  exact <- svforest(y ~ ., data = train, ntree = 10, seed = 1, num_threads = 1, max_bins = Inf)
  expect_false(identical(binned$forest, exact$forest))
  # hyperplanes win about as often (0.20 against 0.21 of the splits)
  expect_gt(split_shares(binned)[["oblique"]], 0.5 * split_shares(exact)[["oblique"]])
  expect_gt(mean(predict(binned, test) == test$y), mean(predict(exact, test) == test$y) - 0.02)
})
