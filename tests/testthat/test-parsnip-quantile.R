# parsnip: quantile regression mode and regression prediction intervals of
# engine "svforest".

quantile_data <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
    data.frame(y = 10 * sin(pi * x[, 1] * x[, 2]) + 5 * x[, 3] + stats::rnorm(n), x)
  })
}

skip_without_quantile_mode <- function() {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("hardhat")
  if (!"quantile regression" %in% parsnip::get_model_env()$rand_forest_modes) {
    skip("this parsnip has no quantile regression mode")
  }
}

# parsnip takes the quantile levels in set_mode() (rand_forest() has no
# quantile_levels argument in parsnip 1.2 to 1.6)
quantile_forest_spec <- function(trees, levels) {
  parsnip::set_mode(parsnip::rand_forest(trees = trees), mode = "quantile regression", quantile_levels = levels)
}

test_that("rand_forest(mode = 'quantile regression') with engine svforest returns conformal quantile_pred", {
  skip_without_quantile_mode()
  d <- quantile_data(300, 1)
  test <- quantile_data(50, 2)
  levels <- c(0.1, 0.5, 0.9)
  spec <- parsnip::set_engine(quantile_forest_spec(5, levels), "svforest", method = "rsvt")
  set.seed(1)
  fit <- parsnip::fit(spec, y ~ ., data = d)
  model <- parsnip::extract_fit_engine(fit)
  expect_s3_class(model, "svforest")
  expect_false(is.null(model$conformal$calibration))  # calibrate = "conformal" by default in this mode
  expect_identical(model$ntree, 5L)
  pred <- predict(fit, test)
  expect_identical(names(pred), ".pred_quantile")
  expect_s3_class(pred$.pred_quantile, "quantile_pred")
  expect_identical(hardhat::extract_quantile_levels(pred$.pred_quantile), levels)
  direct <- predict(model, test, type = "quantiles", quantiles = levels)
  expect_equal(unname(as.matrix(pred$.pred_quantile)), unname(direct))
  # fit_xy as well
  fit_xy <- parsnip::fit_xy(spec, x = d[, -1], y = d$y)
  expect_s3_class(predict(fit_xy, test[, -1])$.pred_quantile, "quantile_pred")
})

test_that("the quantile regression mode fits and predicts through workflows and tune::fit_resamples", {
  skip_without_quantile_mode()
  skip_if_not_installed("workflows")
  skip_if_not_installed("tune")
  skip_if_not_installed("rsample")
  d <- quantile_data(240, 3)
  spec <- parsnip::set_engine(quantile_forest_spec(3, c(0.1, 0.5, 0.9)), "svforest", method = "rsvt")
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), y ~ .)
  set.seed(2)
  wfit <- parsnip::fit(wf, d)
  pred <- predict(wfit, d[1:10, ])
  expect_s3_class(pred$.pred_quantile, "quantile_pred")
  expect_identical(nrow(pred), 10L)
  set.seed(3)
  folds <- rsample::vfold_cv(d, v = 2)
  res <- tune::fit_resamples(wf, folds, control = tune::control_resamples(save_pred = TRUE))
  notes <- tune::collect_notes(res)
  expect_identical(nrow(notes[notes$type == "error", ]), 0L)
  preds <- tune::collect_predictions(res)
  expect_identical(nrow(preds), 240L)
  expect_s3_class(preds$.pred_quantile, "quantile_pred")
})

test_that("regression mode gives conformal prediction intervals with type = 'pred_int'", {
  skip_if_not_installed("parsnip")
  d <- quantile_data(300, 4)
  test <- quantile_data(40, 5)
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 4, mode = "regression"), "svforest",
                              method = "rsvt", calibrate = "conformal")
  set.seed(4)
  fit <- parsnip::fit(spec, y ~ ., data = d)
  iv <- predict(fit, test, type = "pred_int", level = 0.8)
  expect_identical(names(iv), c(".pred_lower", ".pred_upper"))
  direct <- predict(parsnip::extract_fit_engine(fit), test, type = "interval", level = 0.8)
  expect_equal(iv$.pred_lower, unname(direct[, "lower"]))
  expect_equal(iv$.pred_upper, unname(direct[, "upper"]))
  # without a calibration: the quantile forest's own interval
  plain <- parsnip::fit(parsnip::set_engine(parsnip::rand_forest(trees = 2, mode = "regression"), "svforest",
                                            method = "rsvt"), y ~ ., data = d)
  iv <- predict(plain, test, type = "pred_int", level = 0.8)
  direct <- predict(parsnip::extract_fit_engine(plain), test, type = "interval", level = 0.8)
  expect_null(parsnip::extract_fit_engine(plain)$conformal$calibration)
  expect_equal(iv$.pred_upper, unname(direct[, "upper"]))
})
