# Outcome families, prediction types and post-fit stages added by test
# helper files alone (helper-family-binary.R, helper-prediction-type-margin.R,
# helper-stage-rows-seen.R, registered in its test): each works end to end.

round_trip <- function(fit) {
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  readRDS(path)
}

test_that("a test-only outcome family fits, predicts, prints and round-trips", {
  set.seed(11)
  x <- data.frame(a = rnorm(200), b = rnorm(200))
  y01 <- as.double(x$a + rnorm(200, sd = 0.5) > 0)
  fit <- svforest(x, test_binary(y01), ntree = 20, seed = 1, num_threads = 1)
  expect_identical(fit$type, "test_binary")
  p <- predict(fit, x)  # the family's default type: probabilities
  expect_true(all(p >= 0 & p <= 1))
  expect_gt(cor(p, y01), 0.6)
  expect_equal(predict(fit, x, type = "logit"), qlogis(pmin(pmax(p, 0.001), 0.999)))
  # the same numbers as a regression on 0/1, clipped: the family changes the outcome, not the engine
  reg <- svforest(x, y01, ntree = 20, seed = 1, num_threads = 1, calibrate = "none")
  expect_identical(p, pmin(pmax(predict(reg, x), 0), 1))
  expect_output(print(fit), "0/1 \\(probability of 1\\)")
  expect_output(print(fit), "Brier")
  expect_identical(predict(round_trip(fit), x, type = "logit"), predict(fit, x, type = "logit"))
  expect_error(predict(fit, x, type = "class"), "`type` must be one of \"prob\", \"logit\"")
  expect_error(svforest(x, test_binary(y01 + 1), ntree = 2, num_threads = 1), "must be 0 or 1")
})

test_that("a test-only prediction type is looked up by predict(), and only for its family", {
  fit <- svforest(Species ~ ., iris, ntree = 10, seed = 2, num_threads = 1)
  m <- predict(fit, iris, type = "margin")
  prob <- predict(fit, iris, type = "prob")
  expect_equal(m, apply(prob, 1, function(p) -diff(sort(p, decreasing = TRUE)[1:2])))
  expect_identical(predict(round_trip(fit), iris, type = "margin"), m)
  reg <- svforest(Sepal.Length ~ ., iris, ntree = 5, seed = 2, num_threads = 1)
  expect_error(predict(reg, iris, type = "margin"), "`type` must be one of \"response\"")
  expect_error(predict(fit, iris, type = "nonsense"), "must be one of \"class\", \"prob\", \"votes\".*\"margin\"")
})

test_that("a test-only post-fit stage runs, prints, is checked and round-trips", {
  do.call(svforest:::register_stage, rows_seen_stage)
  on.exit(svforest:::remove_stage("rows_seen"))
  fit <- svforest(Species ~ ., iris, ntree = 5, seed = 3, num_threads = 1, record_rows = TRUE)
  expect_identical(fit$rows_seen$rows, 150L)
  expect_null(svforest(Species ~ ., iris, ntree = 5, seed = 3, num_threads = 1)$rows_seen)
  expect_output(print(fit), "Rows seen by the trees: 150")
  expect_identical(round_trip(fit)$rows_seen, fit$rows_seen)
  # its rows: those the trees saw, after the calibration stage held some out
  cal <- svforest(Species ~ ., iris, ntree = 5, seed = 3, num_threads = 1, record_rows = TRUE, calibrate = "platt")
  expect_lt(cal$rows_seen$rows, 150L)
  bad <- fit
  bad$rows_seen$rows <- "many"
  expect_error(predict(bad, iris), "'rows_seen' is damaged")
})
