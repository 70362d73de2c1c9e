# The default classification forest grows by its out-of-bag error
# (tree_count(), more_trees_help() in TreeGrowth.cpp): 100 trees, then 100 more
# (up to 300) while the error after T trees is below the error after T / 2
# by 2 points and by 10 rows, and the rows the added trees set right
# outnumber those they set wrong beyond chance (test-oob-honest.R).

test_that("a forest of weak trees grows, and the added trees help on new rows", {
  train <- weak_trees_data(1000, 3)
  test <- weak_trees_data(2000, 4)
  fit <- svforest(train$x, train$y, seed = 1, num_threads = 2)
  expect_gt(fit$ntree, 100L)
  expect_lte(fit$ntree, 300L)
  expect_identical(length(fit$forest$trees), fit$ntree)
  # the rule, read off the model's error curve: it grew at each T below
  # the final count, and stopped either at the cap or because it settled
  curve <- fit$oob_error_curve
  expect_length(curve, fit$ntree)
  needed <- max(0.02, 10 / 1000)
  for (t in seq(100L, fit$ntree - 100L, by = 100L)) expect_gte(curve[t / 2] - curve[t], needed)
  # held-out accuracy of the grown forest against its first 100 trees
  first100 <- svforest(train$x, train$y, seed = 1, ntree = 100, num_threads = 2)
  acc <- function(m) mean(predict(m, test$x, num_threads = 2) == test$y)
  expect_gt(acc(fit) - acc(first100), 0.01)
  # the first 100 trees are those of the fixed forest (growth only adds)
  expect_identical(fit$forest$trees[1:100], first100$forest$trees)
  # a grown forest is a plain model: saved and read back, it predicts the same
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path), add = TRUE)
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), test$x, type = "prob", num_threads = 2),
                   predict(fit, test$x, type = "prob", num_threads = 2))
})

test_that("a forest that has settled keeps its 100 trees", {
  fit <- svforest(Species ~ ., data = iris, seed = 1, num_threads = 2)
  expect_identical(fit$ntree, 100L)
  expect_lt(fit$oob_error_curve[50] - fit$oob_error_curve[100], max(0.02, 10 / 150))
})

test_that("a given ntree is grown exactly; ntree_max sets the cap", {
  d <- weak_trees_data(1000, 7)
  expect_identical(svforest(d$x, d$y, ntree = 40, seed = 1, num_threads = 2)$ntree, 40L)
  grown <- svforest(d$x, d$y, ntree = 20, ntree_max = 60, seed = 1, num_threads = 2)
  expect_true(grown$ntree %in% c(20L, 40L, 60L))
  expect_gt(grown$ntree, 20L)
  # regression and the paper presets grow exactly their count
  expect_identical(svforest(mpg ~ ., data = mtcars, seed = 1, num_threads = 2)$ntree, 100L)
  expect_identical(svforest(d$x, d$y, method = "rsvt", seed = 1, num_threads = 2)$ntree, 10L)
})

test_that("growth gives the same forest for any number of threads and future workers", {
  skip_if_not_installed("future.apply")
  d <- weak_trees_data(1000, 7)
  # (a seed whose forest grows past its first 20 trees on these data, with
  # the default binned search)
  one <- svforest(d$x, d$y, ntree = 20, ntree_max = 80, seed = 2, num_threads = 1)
  two <- svforest(d$x, d$y, ntree = 20, ntree_max = 80, seed = 2, num_threads = 2)
  expect_gt(one$ntree, 20L)
  expect_identical(two$forest, one$forest)
  future::plan(future::sequential)
  on.exit(future::plan(future::sequential), add = TRUE)
  parts <- svforest_future(d$x, d$y, ntree = 20, ntree_max = 80, seed = 2, chunks = 3)
  expect_identical(parts$ntree, one$ntree)
  expect_identical(predict(parts, d$x, type = "prob"), predict(one, d$x, type = "prob"))
  expect_identical(parts$oob_error, one$oob_error)
})

test_that("a bad ntree_max is an error", {
  expect_error(svforest(Species ~ ., data = iris, ntree = 50, ntree_max = 10), "ntree_max")
  expect_error(svforest(Species ~ ., data = iris, ntree_max = "many"), "ntree_max")
  expect_error(svforest(Species ~ ., data = iris, ntree_max = NA), "ntree_max")
})

# Event times: the rule reads 1 - Somers' D (2 (1 - C)) from each row's
# pseudo-value (outcome/OobTally.h): a point of C per doubling, tested as
# a sum over rows. Six weak signals among 50 predictors: 20 trees order
# risks clearly worse than 320 do on new rows.
growth_survival_frame <- function(n, seed, signal = 0.4, p = 50) {
  withr_seed(seed, {
    x <- matrix(stats::rnorm(n * p), n, dimnames = list(NULL, paste0("x", seq_len(p))))
    event <- stats::rexp(n, exp(signal * rowSums(x[, 1:6])))
    censor <- stats::rexp(n, 0.3)
    data.frame(x, time = pmin(event, censor), status = as.integer(event <= censor))
  })
}

test_that("a survival forest grows where more trees raise held-out C by 2 points, and stays put on pure noise", {
  skip_if_not_installed("survival")
  tr <- growth_survival_frame(800, 3)
  te <- growth_survival_frame(3000, 1003)
  held_out_c <- function(fit) {
    risk <- predict(fit, te, type = "risk", num_threads = 2)
    survival::concordance(survival::Surv(te$time, te$status) ~ risk, reverse = TRUE)$concordance
  }
  f <- survival::Surv(time, status) ~ .
  first20 <- svforest(f, data = tr, ntree = 20, seed = 3, num_threads = 2)
  all320 <- svforest(f, data = tr, ntree = 320, seed = 3, num_threads = 2)
  expect_gt(held_out_c(all320) - held_out_c(first20), 0.02)  # more trees help here
  grown <- svforest(f, data = tr, ntree = 20, ntree_max = 320, seed = 3, num_threads = 2)
  expect_gt(grown$ntree, 60L)
  expect_lt(grown$ntree, 320L)  # and it stopped once they helped little
  expect_identical(grown$forest$trees[1:20], first20$forest$trees)
  expect_gt(held_out_c(grown) - held_out_c(first20), 0.015)
  # pure noise: the out-of-bag C of 10 and 20 trees differ by chance alone
  for (seed in 1:3) {
    noise <- growth_survival_frame(500, seed, signal = 0, p = 10)
    expect_identical(svforest(f, data = noise, ntree = 20, ntree_max = 320, seed = seed, num_threads = 2)$ntree, 20L)
  }
})
