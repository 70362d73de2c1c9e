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
  # (a seed whose forest grows past its first 20 trees on these data)
  one <- svforest(d$x, d$y, ntree = 20, ntree_max = 80, seed = 4, num_threads = 1)
  two <- svforest(d$x, d$y, ntree = 20, ntree_max = 80, seed = 4, num_threads = 2)
  expect_gt(one$ntree, 20L)
  expect_identical(two$forest, one$forest)
  future::plan(future::sequential)
  on.exit(future::plan(future::sequential), add = TRUE)
  parts <- svforest_future(d$x, d$y, ntree = 20, ntree_max = 80, seed = 4, chunks = 3)
  expect_identical(parts$ntree, one$ntree)
  expect_identical(predict(parts, d$x, type = "prob"), predict(one, d$x, type = "prob"))
  expect_identical(parts$oob_error, one$oob_error)
})

test_that("a bad ntree_max is an error", {
  expect_error(svforest(Species ~ ., data = iris, ntree = 50, ntree_max = 10), "ntree_max")
  expect_error(svforest(Species ~ ., data = iris, ntree_max = "many"), "ntree_max")
  expect_error(svforest(Species ~ ., data = iris, ntree_max = NA), "ntree_max")
})
