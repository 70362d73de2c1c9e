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
  # the data went to each worker once (3 chunks, 2 workers)
  expect_identical(svforest:::future_data_copies(), c(sent = 2L, received = 2L))

  # a forest that grows by its out-of-bag error grows in rounds: the data
  # still travel once to each worker, and the forest is the one-process one
  grow <- weak_trees_data(400, 7)
  far3 <- svforest_future(grow$x, grow$y, ntree = 10, ntree_max = 40, seed = 7)
  whole3 <- svforest(grow$x, grow$y, ntree = 10, ntree_max = 40, seed = 7, num_threads = 1)
  expect_gt(length(whole3$forest$trees), 10)
  expect_identical(far3$forest, whole3$forest)
  expect_identical(svforest:::future_data_copies(), c(sent = 2L, received = 2L))
})

test_that("a forest grown on mirai daemons equals the one-process forest, the data sent once per daemon", {
  skip_if_not_installed("future.mirai")
  d <- weak_trees_data(400, 7)
  old <- future::plan(future.mirai::mirai_multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  far <- svforest_future(d$x, d$y, ntree = 10, ntree_max = 40, seed = 7, chunks = 3)
  whole <- svforest(d$x, d$y, ntree = 10, ntree_max = 40, seed = 7, num_threads = 1)
  expect_gt(length(whole$forest$trees), 10)
  expect_identical(far$forest, whole$forest)
  expect_identical(predict(far, d$x, type = "prob"), predict(whole, d$x, type = "prob"))
  expect_identical(svforest:::future_data_copies(), c(sent = 2L, received = 2L))
})

test_that("a worker keeps one call's data, and one without them asks for them", {
  d <- xor_linear(200, p = 3, seed = 65)
  # the engine's arguments, as svforest_future() ships them
  args <- NULL
  capture <- function(data, y, weights, num_classes, params, validation, threads, verbose) {
    args <<- list(data = data, y = y, weights = weights, num_classes = num_classes, params = params,
                  validation = validation, engine = NULL)
    svforest:::engine_fit(data, y, weights, num_classes, params, validation, threads, verbose)
  }
  whole <- svforest(d$x, d$y, ntree = 4, seed = 2, num_threads = 1, .grow_forest = capture)
  cache <- svforest:::svf_worker_data
  on.exit(rm(list = ls(cache, all.names = TRUE), envir = cache), add = TRUE)
  # a worker that kept nothing (a new process) answers so
  expect_s3_class(svforest:::future_chunk("svf-a", NULL, 2L, 0L, 1L), "svf_need_data")
  with_data <- svforest:::future_chunk("svf-a", args, 2L, 0L, 1L)
  expect_true(attr(with_data, "received_data"))
  kept <- svforest:::future_chunk("svf-a", NULL, 2L, 2L, 1L)
  expect_false(attr(kept, "received_data"))
  expect_identical(c(with_data$forest$trees, kept$forest$trees), whole$forest$trees)
  # a new call's data replace the last call's
  svforest:::future_chunk("svf-b", args, 1L, 0L, 1L)
  expect_identical(ls(cache), "svf-b")
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

# svforest() and svforest_future() give the same model: the forest, every
# stored element but the call and the out-of-bag error curve (not kept for a
# forest grown in parts), and predictions of each type.
expect_same_fit <- function(far, one, newdata, types) {
  keep <- function(m) {
    m$call <- NULL
    m$oob_error_curve <- NULL
    m
  }
  expect_identical(keep(far), keep(one))
  for (type in types) expect_identical(predict(far, newdata, type = type), predict(one, newdata, type = type))
}

test_that("a forest growing by its out-of-bag error grows the same trees with 1 and 2 chunks", {
  skip_if_not_installed("future.apply")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  # regression: the engine's rule reads the error in its own units (the R
  # copy it replaces read mpg^2 and grew 200 trees)
  one <- svforest(mpg ~ ., mtcars, ntree_max = 300, seed = 1, num_threads = 1)
  expect_identical(one$ntree, 100L)
  for (chunks in 1:2) {
    far <- svforest_future(mpg ~ ., data = mtcars, ntree_max = 300, seed = 1, chunks = chunks)
    expect_same_fit(far, one, mtcars, c("response", "interval"))
  }
  # classification that grows past ntree (weak trees), odd ntree: the rule
  # compares with counts (ntree * k) %/% 2 inside earlier rounds
  d <- weak_trees_data(800, 7)
  # (seed 8: a forest that grows to 110 trees with the default binned search)
  one <- svforest(d$x, d$y, ntree = 25, ntree_max = 110, seed = 8, num_threads = 1)
  expect_gt(one$ntree, 75L)  # read at 75 trees against 37, inside the round from 25 to 50
  for (chunks in 1:2) {
    far <- svforest_future(d$x, d$y, ntree = 25, ntree_max = 110, seed = 8, chunks = chunks)
    expect_same_fit(far, one, d$x, c("prob", "class"))
  }
})

test_that("every calibrate choice gives svforest()'s model", {
  skip_if_not_installed("future.apply")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  d <- xor_linear(200, p = 3, noise = 0.1, seed = 63)
  for (cal in c("platt", "isotonic", "temperature")) {
    one <- svforest(d$x, d$y, ntree = 9, seed = 2, num_threads = 1, calibrate = cal)
    expect_false(is.null(one$calibration))
    far <- expect_silent(svforest_future(d$x, d$y, ntree = 9, seed = 2, chunks = 2, calibrate = cal))
    expect_same_fit(far, one, d$x, c("prob", "class"))
  }
  tr <- withr_seed(5, data.frame(a = stats::rnorm(120), b = stats::runif(120)))
  tr$y <- tr$a - 2 * tr$b + withr_seed(6, stats::rnorm(120, sd = 0.3))
  for (cal in c("oob", "cv", "conformal", "none")) {
    one <- svforest(y ~ ., tr, ntree = 8, seed = 3, num_threads = 1, calibrate = cal)
    far <- svforest_future(y ~ ., data = tr, ntree = 8, seed = 3, chunks = 2, calibrate = cal)
    expect_same_fit(far, one, tr, c("response", "interval", "quantiles"))
  }
})
