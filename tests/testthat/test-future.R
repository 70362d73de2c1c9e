# svforest_future(): the trees of one forest grown by the workers of a future
# plan equal the forest grown in one process with the same seed.

test_that("a forest grown on two multisession workers equals the one-process forest", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  d <- xor_linear(300, p = 3, noise = 0.1, seed = 61)
  test <- xor_linear(200, p = 3, seed = 62)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  set.seed(5)
  far <- svforest_future(d$x, d$y, ntree = 9, sampler = "bootstrap")
  expect_length(far$forest$trees, 9)
  # the seed was drawn here, from R's generator, as svforest() does
  set.seed(5)
  whole <- svforest(d$x, d$y, ntree = 9, sampler = "bootstrap", num_threads = 1)
  expect_identical(far$seed, whole$seed)
  expect_identical(far$forest, whole$forest)
  expect_identical(far$oob_error, whole$oob_error)
  expect_identical(predict(far, test$x, type = "prob"), predict(whole, test$x, type = "prob"))
  expect_identical(predict(far, test$x), predict(whole, test$x))
  # the two workers really grew different parts (different processes)
  pids <- future.apply::future_sapply(1:2, function(i) Sys.getpid())
  expect_length(unique(pids), 2)

  # formula interface, another method, more chunks than workers
  df <- mixed_df(120, seed = 6)
  far2 <- svforest_future(y ~ ., data = df, method = "psvm", ntree = 5, seed = 3, chunks = 3)
  whole2 <- svforest(y ~ ., data = df, method = "psvm", ntree = 5, seed = 3, num_threads = 1)
  expect_identical(predict(far2, df, type = "prob"), predict(whole2, df, type = "prob"))
})

test_that("svforest_future() checks its arguments", {
  skip_if_not_installed("future.apply")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  expect_error(svforest_future(iris[, 1:4], iris$Species, first_tree = 2), "first_tree")
  expect_error(svforest_future(iris[, 1:4], iris$Species, chunks = 0), "chunks")
  expect_error(svforest_future(iris[, 1:4], iris$Species, method = "nope"), "method")
  fit <- svforest_future(iris[, 1:4], iris$Species, ntree = 2, seed = 1, chunks = 5)
  expect_length(fit$forest$trees, 2)  # chunks capped at ntree
})
