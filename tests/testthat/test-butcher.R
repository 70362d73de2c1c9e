# butcher's axes drop what prediction does not need.

test_that("butcher() slims a model and predictions stay the same", {
  skip_if_not_installed("butcher")
  fit <- svforest(Species ~ ., data = iris, sampler = "bootstrap", ntree = 4, seed = 1, num_threads = 1)
  small <- butcher::butcher(fit)
  expect_lt(as.numeric(utils::object.size(small)), as.numeric(utils::object.size(fit)))
  expect_identical(predict(small, iris), predict(fit, iris))
  expect_identical(predict(small, iris, type = "prob"), predict(fit, iris, type = "prob"))
  expect_identical(small$call, call("dummy_call"))
  expect_null(small$oob_votes)
  expect_null(small$oob_predictions)
  expect_null(small$oob_y)
  expect_identical(small$oob_error, fit$oob_error)
  expect_true("update()" %in% attr(small, "butcher_disabled"))
  # each axe alone
  expect_identical(butcher::axe_call(fit)$forest, fit$forest)
  expect_null(butcher::axe_fitted(fit)$oob_votes)
  expect_null(butcher::axe_data(fit)$oob_y)
  # saved and read back, still predicts
  f <- tempfile(fileext = ".rds")
  saveRDS(small, f)
  expect_identical(predict(readRDS(f), iris[1:5, ]), predict(fit, iris[1:5, ]))
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(butcher::butcher(reg), mtcars), predict(reg, mtcars))
})
