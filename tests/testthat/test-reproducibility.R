# A seed fixes the model, whatever the number of threads; models survive
# saveRDS()/readRDS().

repro_data <- function() xor_linear(600, p = 3, noise = 0.1, seed = 31)

test_that("the same seed gives identical forests and predictions with 1 and 2 threads", {
  d <- repro_data()
  test <- xor_linear(300, p = 3, seed = 32)
  # 12 trees: more than one batch of trees in the engine
  a <- svforest(d$x, d$y, ntree = 12, seed = 42, num_threads = 1)
  b <- svforest(d$x, d$y, ntree = 12, seed = 42, num_threads = 2)
  c <- svforest(d$x, d$y, ntree = 12, seed = 42, num_threads = 1)
  expect_identical(a$forest, b$forest)
  expect_identical(a$forest, c$forest)
  for (type in c("class", "prob", "votes", "leaf")) {
    p1 <- predict(a, test$x, type = type, num_threads = 1)
    expect_identical(predict(b, test$x, type = type, num_threads = 2), p1)
    expect_identical(predict(a, test$x, type = type, num_threads = 2), p1)
  }
})

# the out-of-bag results for 1 and 2 threads, per sampler: test-contract.R

test_that("different seeds give different forests", {
  d <- repro_data()
  a <- svforest(d$x, d$y, ntree = 3, seed = 1, num_threads = 2)
  b <- svforest(d$x, d$y, ntree = 3, seed = 2, num_threads = 2)
  expect_false(identical(a$forest, b$forest))
  for (t in 1:3) {
    expect_false(identical(tree_axis_splits(a$forest, a$forest$trees[[t]])$value, tree_axis_splits(b$forest, b$forest$trees[[t]])$value))
  }
  # and within one forest, the trees differ from each other
  expect_false(identical(tree_axis_splits(a$forest, a$forest$trees[[1]])$value, tree_axis_splits(a$forest, a$forest$trees[[2]])$value))
})

test_that("tree t depends on (seed, t) only: a smaller forest is a prefix of a larger one", {
  d <- repro_data()
  big <- svforest(d$x, d$y, ntree = 9, seed = 5, num_threads = 2)
  small <- svforest(d$x, d$y, ntree = 4, seed = 5, num_threads = 1)
  expect_identical(small$forest$trees, big$forest$trees[1:4])
})

test_that("seed = NULL draws the seed from R's generator, so set.seed() repeats a fit", {
  d <- repro_data()
  set.seed(123)
  a <- svforest(d$x, d$y, ntree = 3, num_threads = 1)
  set.seed(123)
  b <- svforest(d$x, d$y, ntree = 3, num_threads = 2)
  set.seed(124)
  c <- svforest(d$x, d$y, ntree = 3, num_threads = 1)
  expect_identical(a$seed, b$seed)
  expect_identical(a$forest, b$forest)
  expect_false(identical(a$seed, c$seed))
  expect_false(identical(a$forest, c$forest))
  # the stored seed refits the same model
  refit <- svforest(d$x, d$y, ntree = 3, seed = a$seed, num_threads = 2)
  expect_identical(refit$forest, a$forest)
})

test_that("seeds at the ends of the allowed range work", {
  d <- repro_data()
  for (s in c(0, .Machine$integer.max)) {
    fit <- svforest(d$x, d$y, ntree = 2, seed = s, num_threads = 1)
    expect_identical(fit$seed, as.integer(s))
    expect_valid_model(fit, 600, 3, c("neg", "pos"), 2)
  }
})

test_that("saveRDS()/readRDS() round trip gives identical predictions", {
  d <- mixed_df(200, seed = 33)
  fits <- list(
    formula = svforest(y ~ ., data = d, ntree = 4, seed = 3, num_threads = 1),
    matrix = svforest(repro_data()$x, repro_data()$y, ntree = 4, seed = 3, num_threads = 1,
                      sampler = "bootstrap"),
    sparse = svforest(Matrix::Matrix(repro_data()$x, sparse = TRUE), repro_data()$y, ntree = 4,
                      seed = 3, num_threads = 1)
  )
  newdata <- list(formula = d, matrix = repro_data()$x,
                  sparse = Matrix::Matrix(repro_data()$x, sparse = TRUE))
  for (k in names(fits)) {
    path <- tempfile(fileext = ".rds")
    saveRDS(fits[[k]], path)
    back <- readRDS(path)
    unlink(path)
    expect_identical(back$forest, fits[[k]]$forest)
    for (type in c("class", "prob", "votes", "leaf")) {
      expect_identical(predict(back, newdata[[k]], type = type, num_threads = 1),
                       predict(fits[[k]], newdata[[k]], type = type, num_threads = 1))
    }
  }
})

test_that("num_threads = NULL uses the option, then the environment variable, capped under R CMD check", {
  resolve <- svforest:::resolve_threads
  old_opt <- options(svforest.num_threads = NULL)
  old_env <- Sys.getenv(c("SVFOREST_NUM_THREADS", "_R_CHECK_LIMIT_CORES_", "OMP_THREAD_LIMIT"), unset = NA)
  on.exit({
    options(old_opt)
    for (v in names(old_env)) {
      if (is.na(old_env[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old_env[v]))
    }
  }, add = TRUE)
  Sys.unsetenv(c("_R_CHECK_LIMIT_CORES_", "OMP_THREAD_LIMIT"))
  Sys.setenv(SVFOREST_NUM_THREADS = "3")
  expect_identical(resolve(NULL), 3L)
  options(svforest.num_threads = 1)
  expect_identical(resolve(NULL), 1L)   # the option wins over the variable
  expect_identical(resolve(2), 2L)      # an explicit value wins over both
  options(svforest.num_threads = NULL)
  Sys.setenv(SVFOREST_NUM_THREADS = "8", "_R_CHECK_LIMIT_CORES_" = "TRUE")
  expect_identical(resolve(NULL), 2L)
  expect_identical(resolve(4), 4L)      # the cap applies to the defaults only
  Sys.unsetenv("_R_CHECK_LIMIT_CORES_")
  Sys.setenv(OMP_THREAD_LIMIT = "1")    # CRAN's machines set it
  expect_identical(resolve(NULL), 1L)
  Sys.setenv(OMP_THREAD_LIMIT = "")
  Sys.setenv(SVFOREST_NUM_THREADS = "zero")
  expect_error(suppressWarnings(resolve(NULL)), "`num_threads`")
  options(svforest.num_threads = 0)
  expect_error(resolve(NULL), "`num_threads`")
  # the model does not depend on where the thread count came from
  options(svforest.num_threads = 2)
  d <- repro_data()
  a <- svforest(d$x, d$y, ntree = 3, seed = 8)
  b <- svforest(d$x, d$y, ntree = 3, seed = 8, num_threads = 1)
  expect_identical(a$forest, b$forest)
})

test_that("a model fitted through the formula interface does not carry its caller's objects", {
  fit_in_function <- function() {
    big <- numeric(2e6)  # 16 MB that the model has no use for
    svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  }
  fit <- fit_in_function()
  size <- length(serialize(fit, NULL))
  expect_lt(size, 1e6)
  expect_identical(predict(fit, iris, num_threads = 1),
                   predict(svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1),
                           iris, num_threads = 1))
})
