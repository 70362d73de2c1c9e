# Outcome families, prediction types, post-fit stages and pre-fit steps
# added by test helper files alone (helper-family-binary.R,
# helper-prediction-type-margin.R, helper-stage-rows-seen.R and
# helper-prefit-step-clip.R, the last two registered in their tests): each
# works end to end.

round_trip <- function(fit) {
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  readRDS(path)
}

test_that("a test-only outcome family fits, predicts, prints and round-trips", {
  use_test_binary_parts()
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

test_that("a test-only pre-fit step changes the fit, is replayed at predict(), checked and combined", {
  set.seed(12)
  x <- data.frame(a = rexp(200), b = rnorm(200), c = runif(200))
  y <- factor(ifelse(x$a + x$b + rnorm(200, sd = 0.3) > 1, "hi", "lo"))
  new <- data.frame(a = c(40, 0.5, -3), b = c(-25, 30, 0.1), c = c(9, -9, 0.5))
  plain <- svforest(x, y, ntree = 10, seed = 4, num_threads = 1)
  do.call(svforest:::register_prefit_step, clip_step)
  on.exit(svforest:::remove_prefit_step("clip"))
  expect_identical(vapply(svforest:::svf_prefit_steps(), `[[`, "", "name"),
                   c("weights", "subjects", "missing_values", "factor_coding", "rank_scaling", "clip"))
  fit <- svforest(x, y, ntree = 10, seed = 4, num_threads = 1)
  clip <- fit$design$clip
  expect_identical(clip$upper[["a"]], unname(quantile(x$a, 0.9)))
  # the fit differs: the trees saw clipped rows
  expect_false(identical(predict(fit, x, type = "prob"), predict(plain, x, type = "prob")))
  # new rows are clipped as the training rows were: extreme values read as the bounds
  by_hand <- as.data.frame(clip_columns(as.matrix(new), clip))
  expect_identical(predict(fit, new, type = "prob"), predict(fit, by_hand, type = "prob"))
  unclipped <- fit
  unclipped$design$clip <- NULL
  expect_false(identical(predict(unclipped, new, type = "prob"), predict(fit, new, type = "prob")))
  expect_identical(predict(round_trip(fit), new, type = "prob"), predict(fit, new, type = "prob"))
  # the stages' held-out rows are clipped too: a calibrated fit runs
  expect_s3_class(svforest(x, y, ntree = 10, seed = 4, num_threads = 1, calibrate = "platt"), "svforest")
  bad <- fit
  bad$design$clip$lower <- bad$design$clip$lower[-1]
  expect_error(predict(bad, new), "'design\\$clip' is damaged")
  part <- svforest(x, y, ntree = 5, seed = 4, first_tree = 10, num_threads = 1)
  expect_s3_class(combine(fit, part), "svforest")
  other <- part
  other$design$clip$upper[2] <- other$design$clip$upper[2] + 1
  expect_error(combine(fit, other), "different clipping of the predictors")
})
