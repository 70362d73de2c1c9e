# Design columns are tracked by the predictor they come from (spec$origin,
# R/design.R), not by pasted names: names that paste into each other, or
# non-syntactic names, give the fit of the same data under plain names.

# `fit_fn(data)` on `d` and on `d` with its columns renamed to `plain`:
# the same trees, predictions and importances.
expect_same_as_renamed <- function(d, y, plain, ...) {
  renamed <- stats::setNames(d, plain)
  a <- svforest(d, y, ntree = 10, seed = 4, num_threads = 1, ...)
  b <- svforest(renamed, y, ntree = 10, seed = 4, num_threads = 1, ...)
  expect_identical(a$forest, b$forest)
  expect_identical(a$design$origin, b$design$origin)
  type <- if (is.numeric(y)) "response" else "prob"
  expect_identical(predict(a, d, type = type), predict(b, renamed, type = type))
  ia <- svforest_importance(a, d, y, num_threads = 1)
  ib <- svforest_importance(b, renamed, y, num_threads = 1)
  expect_identical(names(ia), names(d))
  expect_identical(unname(c(ia)), unname(c(ib[plain])))
  invisible(a)
}

test_that("numeric columns Q10..Q12 before a factor Q1 of levels 0/1/2 keep their place", {
  set.seed(5)
  n <- 300
  d <- data.frame(Q10 = stats::rnorm(n), Q11 = stats::rnorm(n), Q12 = stats::rnorm(n),
                  Q1 = factor(sample(0:2, n, TRUE)))
  y <- factor(ifelse(d$Q1 == "1" | d$Q10 > 1, "a", "b"))
  fit <- expect_same_as_renamed(d, y, c("u10", "u11", "u12", "f"))
  expect_identical(fit$design$feature_names, names(d))
  expect_gt(mean(predict(fit, d) == y), 0.95)
  # regression with indicators: Q1's three columns are Q1's importance
  yr <- as.numeric(d$Q1) + d$Q11
  reg <- expect_same_as_renamed(d, yr, c("u10", "u11", "u12", "f"))
  expect_identical(reg$design$origin, c(1L, 2L, 3L, 4L, 4L, 4L))
})

test_that("a factor `a` with level \"b1\" beside a factor `ab` with level \"1\" stay apart", {
  set.seed(6)
  n <- 300
  d <- data.frame(a = factor(sample(c("b1", "c", "d"), n, TRUE)), ab = factor(sample(c("1", "2", "3"), n, TRUE)),
                  z = stats::rnorm(n))
  y <- factor(ifelse(d$a == "b1" | d$z > 0.8, "p", "q"))
  fit <- expect_same_as_renamed(d, y, c("f", "g", "z"))
  expect_identical(fit$design$feature_names, c("a", "ab", "z"))
  expect_same_as_renamed(d, d$z + (d$a == "b1"), c("f", "g", "z"))
})

test_that("non-syntactic names are coded like any other", {
  set.seed(7)
  n <- 300
  d <- data.frame(`g g` = factor(sample(letters[1:5], n, TRUE)), `if` = sample(c("x", "y", "w"), n, TRUE),
                  z = stats::rnorm(n), check.names = FALSE)
  y <- factor(ifelse(d[["g g"]] %in% c("a", "c") | d$z > 1, "p", "q"))
  fit <- expect_same_as_renamed(d, y, c("g", "h", "z"))
  # each factor is one ordered column, not its indicators
  expect_length(fit$design$feature_names, 3)
  formula_fit <- svforest(y ~ ., data.frame(y = y, d, check.names = FALSE), ntree = 10, seed = 4, num_threads = 1)
  expect_identical(formula_fit$forest, fit$forest)
})

test_that("in regression a numeric `a1` beside a factor `a` of level \"1\" keeps its importance", {
  set.seed(8)
  n <- 300
  d <- data.frame(a1 = stats::rnorm(n), a = factor(sample(c("1", "2"), n, TRUE)), z = stats::rnorm(n))
  y <- 3 * d$a1 + stats::rnorm(n, sd = 0.3)
  fit <- expect_same_as_renamed(d, y, c("u", "f", "z"))
  imp <- svforest_importance(fit, d, y, num_threads = 1)
  expect_identical(names(imp), c("a1", "a", "z"))
  expect_gt(imp[["a1"]], 10 * max(abs(imp[c("a", "z")])))
})

test_that("an order-coded factor never becomes an n x levels matrix, and a damaged origin is caught", {
  set.seed(9)
  n <- 2000
  d <- data.frame(id = factor(sprintf("id%04d", sample.int(1500, n, TRUE))), z = stats::rnorm(n))
  y <- factor(ifelse(d$z > 0, "p", "q"))
  built <- svforest:::frame_design(stats::terms(~ id + z), stats::model.frame(~ id + z, d), level_codes = 1L)
  expect_identical(dim(built$x), c(2000L, 2L))
  expect_equal(unname(built$x[, 1]), as.double(as.integer(droplevels(d$id))))
  fit <- svforest(d, y, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(fit$design$feature_names, c("id", "z"))
  bad <- fit
  bad$design$origin <- c(1L, 5L)
  expect_error(predict(bad, d), "origin")
})

test_that("a model saved before column origins combines with a new one", {
  set.seed(10)
  d <- data.frame(a = factor(sample(c("u", "v", "w"), 200, TRUE)), z = stats::rnorm(200))
  y <- factor(ifelse(d$a == "u" | d$z > 1, "p", "q"))
  old <- svforest(d, y, method = "rsvt", seed = 1, num_threads = 1)
  old$design$origin <- old$design$predictors <- NULL  # as saved before them
  new <- svforest(d, y, method = "rsvt", seed = 2, num_threads = 1)
  both <- combine(old, new)
  expect_length(both$forest$trees, length(old$forest$trees) + length(new$forest$trees))
  expect_identical(names(svforest_importance(both, d, y, num_threads = 1)), c("a", "z"))
  # a model of the global factor order does not combine with per-tree coding
  global <- readRDS(test_path("fixtures", "model-order-global.rds"))
  fresh <- svforest(y ~ ., global$data, ntree = 10, seed = 3, num_threads = 1)
  expect_error(combine(global$model, fresh), "different")
})
