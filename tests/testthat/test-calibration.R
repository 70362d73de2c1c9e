# Calibrated probabilities: svforest_calibrate() and svforest(calibrate = ).

calibration_data <- function(n, seed) {
  set.seed(seed)
  x <- matrix(runif(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  # noisy labels: no forest can be sure, so hard 0/1 probabilities are poorly calibrated
  p <- stats::plogis(4 * (x[, 1] - x[, 2]))
  y <- factor(ifelse(runif(n) < p, "b", "a"))
  list(x = x, y = y)
}

log_loss <- function(prob, y) -mean(log(pmax(prob[cbind(seq_along(y), as.integer(y))], 1e-15)))

test_that("calibration improves the log-loss of hard TD-SVM probabilities, and keeps the classes", {
  tr <- calibration_data(400, 1)
  ho <- calibration_data(400, 2)
  te <- calibration_data(2000, 3)
  fit <- svforest(tr$x, tr$y, method = "tdsvm", seed = 1, num_threads = 1, cost = 1, gamma = 1)
  for (method in c("platt", "temperature", "isotonic")) {
    cal <- svforest_calibrate(fit, ho$x, ho$y, method = method, num_threads = 1)
    p0 <- predict(fit, te$x, type = "prob")
    p1 <- predict(cal, te$x, type = "prob")
    expect_lt(log_loss(p1, te$y), log_loss(p0, te$y) - 0.5)
    expect_equal(unname(rowSums(p1)), rep(1, nrow(te$x)))
    expect_identical(predict(cal, te$x), predict(fit, te$x))
    expect_identical(colnames(p1), levels(tr$y))
    f <- tempfile(fileext = ".rds")
    saveRDS(cal, f)
    expect_identical(predict(readRDS(f), te$x, type = "prob"), p1)
  }
  expect_null(svforest_calibrate(cal, method = "none")$calibration)
})

test_that("calibrate = at fit time holds out a stratified share, for every method", {
  tr <- calibration_data(300, 4)
  te <- calibration_data(1000, 5)
  for (m in all_methods()) {
    fit <- fit_method(m, tr$x, y = tr$y, calibrate = "platt", calibration_fraction = 0.3)
    expect_identical(fit$calibration$method, "platt", info = m)
    expect_identical(fit$num_rows, 300L - fit$calibration$rows)
    expect_equal(fit$calibration$rows, sum(floor(0.3 * table(tr$y) + 0.5)))
    p <- predict(fit, te$x, type = "prob")
    expect_true(all(p > 0 & p < 1), info = m)
    again <- fit_method(m, tr$x, y = tr$y, calibrate = "platt", calibration_fraction = 0.3, num_threads = 2)
    expect_identical(again$forest, fit$forest)
    expect_identical(again$calibration, fit$calibration)
    expect_output(print(fit), "calibrated \\(platt")
  }
})

test_that("calibration arguments and damaged calibrations give clear errors", {
  tr <- calibration_data(60, 6)
  fit <- svforest(tr$x, tr$y, ntree = 2, seed = 1, num_threads = 1)
  expect_error(svforest_calibrate(fit, tr$x), "needs held-out rows")
  expect_error(svforest_calibrate(fit, tr$x, tr$y[-1]), "one value per row")
  expect_error(svforest_calibrate(fit, tr$x, tr$y, method = "beta"), "must be one of")
  expect_error(svforest(tr$x, tr$y, ntree = 2, seed = 1, num_threads = 1, calibrate = "yes"), "must be one of")
  expect_error(svforest(tr$x, tr$y, ntree = 2, seed = 1, num_threads = 1, calibrate = "platt",
                        calibration_fraction = 1.5), "between 0 and 1")
  expect_error(svforest(mpg ~ ., mtcars, ntree = 2, seed = 1, num_threads = 1, calibrate = "platt"),
               "For a numeric outcome `calibrate` must be \"oob\" \\(the default\\), \"conformal\"")
  # a regression forest is calibrated for intervals (test-uncertainty.R), not probabilities
  reg <- svforest(mpg ~ ., mtcars, ntree = 2, seed = 1, num_threads = 1)
  expect_error(svforest_calibrate(reg, mtcars, mtcars$mpg, method = "platt"), "regression forest is calibrated with method \"conformal\"")
  cal <- svforest_calibrate(fit, tr$x, tr$y)
  bad <- cal
  bad$calibration$maps[[1]]$a <- NA
  expect_error(predict(bad, tr$x), "'calibration' is damaged")
  bad <- cal
  bad$calibration$maps <- bad$calibration$maps[1]
  expect_error(predict(bad, tr$x), "'calibration' is damaged")
  other <- svforest(tr$x, tr$y, ntree = 2, seed = 1, num_threads = 1, first_tree = 2)
  expect_warning(both <- combine(cal, other), "not calibrated")
  expect_null(both$calibration)
})

test_that("temperature scaling keeps the most probable class with many classes", {
  set.seed(8)
  i <- sample(150, 90)
  fit <- svforest(Species ~ ., iris[i, ], method = "tdsvm", seed = 1, num_threads = 1, cost = 1, gamma = 1)
  cal <- svforest_calibrate(fit, iris[-i, ], iris$Species[-i], method = "temperature")
  p0 <- predict(fit, iris, type = "prob")
  p1 <- predict(cal, iris, type = "prob")
  expect_identical(max.col(p1), max.col(p0))
  expect_true(all(p1 > 0 & p1 < 1))
  expect_gt(cal$calibration$a, 0)
  bad <- cal
  bad$calibration$a <- -1
  expect_error(predict(bad, iris), "'calibration' is damaged")
})
