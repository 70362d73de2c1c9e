# Regression: a numeric outcome.

friedman <- function(n, seed, sd = 1) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * 10), n, 10, dimnames = list(NULL, paste0("x", 1:10)))
    y <- 10 * sin(pi * x[, 1] * x[, 2]) + 20 * (x[, 3] - 0.5)^2 + 10 * x[, 4] + 5 * x[, 5] + stats::rnorm(n, sd = sd)
    list(x = x, y = y)
  })
}
rmse <- function(p, y) sqrt(mean((p - y)^2))

test_that("every regression method fits a smooth response far better than its mean, and rsvf beats constant leaves", {
  tr <- friedman(600, 1)
  te <- friedman(2000, 2)
  base <- rmse(mean(tr$y), te$y)
  fits <- list(
    rsvt = svforest(tr$x, tr$y, method = "rsvt", seed = 1, num_threads = 1),
    rsvf = svforest(tr$x, tr$y, method = "rsvf", seed = 1, num_threads = 1),
    tdsvm = svforest(tr$x, tr$y, method = "tdsvm", cost = c(10, 100), gamma = c(0.1, 1), sigma0 = 150,
                     seed = 1, num_threads = 1),
    svr = svforest(tr$x, tr$y, method = "rsvt", leaf = "linear_svr", seed = 1, num_threads = 1),
    mean = svforest(tr$x, tr$y, method = "rsvf", leaf = "constant", seed = 1, num_threads = 1)
  )
  expect_identical(fits$rsvf$method, "rsvf")
  err <- vapply(fits, function(f) rmse(predict(f, te$x), te$y), 0)
  expect_true(all(err[c("rsvt", "rsvf", "tdsvm", "svr")] < 0.6 * base), info = paste(names(err), round(err, 2)))
  # linear leaves are the point of the method: ridge leaves beat mean leaves on the same splitter
  expect_lt(err[["rsvf"]], 0.85 * err[["mean"]])
  kinds <- function(f) unique(unlist(lapply(f$forest$trees, tree_leaf_kinds)))
  # (a leaf that keeps its mean is a "constant" leaf)
  expect_true(all(kinds(fits$rsvt) %in% c("ridge", "constant")))
  expect_true(all(kinds(fits$tdsvm) %in% c("kernel_svr", "constant")))
  expect_true(all(kinds(fits$svr) %in% c("linear_svr", "constant")))
  expect_identical(kinds(fits$mean), "constant")
})

test_that("a one-leaf ridge model is least squares and a one-leaf RBF SVR is LIBSVM's", {
  tr <- friedman(300, 3)
  te <- friedman(200, 4)
  n <- nrow(tr$x)
  ridge <- svforest(tr$x, tr$y, method = "rsvt", ntree = 1, min_leaf_size = n + 1, lambda = 1e-8, cv_folds = 1,
                    seed = 1, num_threads = 1)
  ols <- stats::lm(y ~ ., data.frame(tr$x, y = tr$y))
  expect_equal(predict(ridge, te$x), unname(predict(ols, data.frame(te$x))), tolerance = 1e-6)
  skip_if_not_installed("e1071")
  svr <- svforest(tr$x, tr$y, method = "tdsvm", sigma = n + 1, cost = 10, gamma = 0.5, epsilon = 0.1,
                  seed = 1, num_threads = 1)
  lo <- apply(tr$x, 2, min)
  hi <- apply(tr$x, 2, max)
  scale01 <- function(x) sweep(sweep(x, 2, lo), 2, hi - lo, "/")
  s <- svforest:::outcome_scaling(tr$y)
  ref <- e1071::svm(scale01(tr$x), (tr$y - s$center) / s$scale, type = "eps-regression", kernel = "radial",
                    cost = 10, gamma = 0.5, epsilon = 0.1, scale = FALSE)
  expect_equal(predict(svr, te$x), unname(predict(ref, scale01(te$x))) * s$scale + s$center, tolerance = 1e-4)
})

test_that("regression models predict numbers, report OOB MSE and R-squared, and are reproducible", {
  tr <- friedman(400, 5)
  fit <- svforest(tr$x, tr$y, method = "rsvt", sampler = "bootstrap", ntree = 6, seed = 3, num_threads = 1)
  p <- predict(fit, tr$x)
  expect_type(p, "double")
  expect_length(p, 400)
  expect_identical(predict(fit, tr$x, type = "response"), p)
  expect_identical(dim(predict(fit, tr$x, type = "leaf")), c(400L, 6L))
  expect_error(predict(fit, tr$x, type = "prob"), "`type`")
  expect_error(predict(fit, tr$x, type = "class"), "`type`")
  expect_gt(fit$oob_error, 0)
  expect_equal(fit$oob_error, mean((fit$oob_predictions - tr$y)^2, na.rm = TRUE))
  expect_gt(fit$oob_rsquared, 0.5)
  expect_lt(fit$oob_rsquared, 1)
  expect_length(fit$oob_error_curve, 6)
  expect_output(print(fit), "R-squared")
  expect_output(print(summary(fit)), "Leaves with a model")
  two <- svforest(tr$x, tr$y, method = "rsvt", sampler = "bootstrap", ntree = 6, seed = 3, num_threads = 2)
  fit$call <- two$call <- NULL
  expect_identical(two, fit)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), tr$x), p)
  # combine: two halves are the whole forest, out-of-bag results included
  a <- svforest(tr$x, tr$y, method = "rsvt", sampler = "bootstrap", ntree = 4, seed = 3, num_threads = 1)
  b <- svforest(tr$x, tr$y, method = "rsvt", sampler = "bootstrap", ntree = 2, first_tree = 4, seed = 3,
                num_threads = 1)
  ab <- combine(a, b)
  expect_identical(predict(ab, tr$x), p)
  expect_equal(ab$oob_error, fit$oob_error)
  expect_equal(ab$oob_predictions, fit$oob_predictions)
  # the formula interface and sparse input
  df <- data.frame(tr$x, y = tr$y)
  ff <- svforest(y ~ ., data = df, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(ff$type, "regression")
  xs <- Matrix::Matrix(tr$x * (tr$x > 0.3), sparse = TRUE)
  fs <- svforest(xs, tr$y, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_length(predict(fs, xs), 400)
})

test_that("bad regression outcomes and parts give clear errors; constant and huge outcomes are fitted", {
  tr <- friedman(200, 6)
  y <- tr$y
  y[3] <- NA
  expect_error(svforest(tr$x, y, num_threads = 1), "`y` has 1 missing value")
  y[3] <- Inf
  expect_error(svforest(tr$x, y, num_threads = 1), "`y` has 1 infinite value")
  expect_error(svforest(tr$x, tr$y, method = "psvm", num_threads = 1), "\"psvm\" is for classification only")
  expect_error(svforest(tr$x, tr$y, method = "transform", num_threads = 1), "classification only")
  expect_error(svforest(tr$x, tr$y, method = "rsvt", leaf = "linear_svm", num_threads = 1),
               "\"linear_svm\" leaf is for classification only.*\"ridge\"")
  cls <- factor(tr$y > median(tr$y))
  expect_error(svforest(tr$x, cls, method = "rsvt", leaf = "ridge", num_threads = 1),
               "\"ridge\" leaf is for regression only")
  expect_identical(svforest(tr$x, as.character(cls), ntree = 1, seed = 1, num_threads = 1)$type, "classification")
  # a constant outcome: every prediction is that constant
  flat <- svforest(tr$x, rep(3.5, 200), method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_equal(predict(flat, tr$x), rep(3.5, 200))
  # outcomes near the largest double are fitted without overflow
  big <- svforest(tr$x, tr$y * 1e300, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  pb <- predict(big, tr$x)
  expect_true(all(is.finite(pb)))
  expect_gt(stats::cor(pb, tr$y), 0.9)
  small <- svforest(tr$x, tr$y, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_equal(pb / 1e300, predict(small, tr$x), tolerance = 1e-6)
  expect_error(svforest_importance(small, tr$x, as.character(tr$y)), "must be a numeric vector")
  expect_error(svforest_importance(small, tr$x, tr$y, per_class = TRUE), "for classification forests")
})

test_that("regression works through parsnip and caret", {
  tr <- friedman(300, 7)
  df <- data.frame(tr$x, y = tr$y)
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 4, mode = "regression"), "svforest", seed = 1)
  fit <- parsnip::fit(spec, y ~ ., data = df)
  pred <- predict(fit, df)
  expect_named(pred, ".pred")
  expect_equal(pred$.pred, predict(parsnip::extract_fit_engine(fit), df))
  expect_identical(parsnip::extract_fit_engine(fit)$method, "hybrid")  # the default method
  skip_if_not_installed("caret")
  ctrl <- caret::trainControl(method = "cv", number = 2)
  tuned <- caret::train(tr$x, tr$y, method = svforest_caret("rsvt", ntree = 2), trControl = ctrl,
                        tuneGrid = data.frame(leaf_size_factor = c(0.5, 2)))
  expect_identical(tuned$modelType, "Regression")
  expect_true(all(c("RMSE", "Rsquared") %in% names(tuned$results)))
  expect_length(predict(tuned, tr$x), 300)
})

test_that("the engine refuses a part that cannot read the outcome (R checks first; this must not crash)", {
  tr <- friedman(100, 8)
  cls <- factor(tr$y > median(tr$y))
  for (m in c("psvm", "transform")) {
    f <- svforest(tr$x, cls, method = m, ntree = 1, seed = 1, num_threads = 1)
    params <- svforest:::engine_parameters(f$params, cls, 1L, 1, 0L, 0)
    expect_error(svforest:::.svf_fit(list(type = "dense", x = tr$x), tr$y - mean(tr$y), NULL, 0L, params, NULL, double(),
                                     1L, FALSE), "does not fit this outcome type")
  }
  r <- svforest(tr$x, tr$y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1)
  params <- svforest:::engine_parameters(r$params, tr$y, 1L, 1, 0L, 0)
  expect_error(svforest:::.svf_fit(list(type = "dense", x = tr$x), as.integer(cls) - 1L, NULL, 2L, params, NULL, integer(),
                                   1L, FALSE), "does not fit this outcome type")
})

test_that("tdsvm takes its regression defaults for a numeric outcome and keeps the classification ones for classes", {
  preset <- svforest:::svf_method("tdsvm")
  reg <- svforest:::outcome_preset(preset, "regression")
  tr <- friedman(300, 7)
  fit <- svforest(tr$x, tr$y, method = "tdsvm", seed = 1, num_threads = 1)
  for (name in setdiff(names(preset$regression$defaults), "sigma0")) {
    expect_equal(fit$params[[name]], sort(unique(reg$defaults[[name]])), info = name)
  }
  # sigma0: the preset's (or the paper's 1500) caps max(50, n / 8)
  expect_identical(fit$params$sigma0,
                   as.integer(min(svforest:::preset_default(reg, "sigma0", 1500), max(50, ceiling(300 / 8)))))
  # classification: the documented defaults, whatever the regression preset says
  cls <- svforest:::resolve_parameters("tdsvm", list(), 2000, "classification")
  expect_equal(cls$cost, 10^(0:4))
  expect_equal(cls$gamma, 10^(-1:2))
  expect_identical(cls$sigma0, 250L)
  expect_identical(svforest:::resolve_parameters("tdsvm", list(), 20000, "classification")$sigma0, 1500L)
  expect_identical(cls$top_k, 5L)
  expect_equal(cls$min_gain, 0.5)
  expect_equal(cls$validation_fraction, 0.2)
  expect_equal(cls$svm_tolerance, 0.001)
  expect_identical(cls$leaf, "kernel_svm")
})

test_that("the tdsvm regression search scores each (cost, gamma) by validation R-squared and keeps the smallest RMSE", {
  tr <- friedman(300, 8)
  va <- friedman(200, 9)
  # sigma above n: one leaf, so each candidate is one RBF SVR on all training rows
  fit <- svforest(tr$x, tr$y, method = "tdsvm", sigma = 301, cost = c(0.1, 10), gamma = c(0.05, 1),
                  validation = list(x = va$x, y = va$y), seed = 1, num_threads = 1)
  cu <- fit$tdsvm$curve
  expect_identical(nrow(cu), 4L)
  one <- function(cost, gamma) {
    svforest(tr$x, tr$y, method = "tdsvm", sigma = 301, cost = cost, gamma = gamma, seed = 1, num_threads = 1)
  }
  rmse_valid <- mapply(function(cost, gamma) rmse(predict(one(cost, gamma), va$x), va$y), cu$cost, cu$gamma)
  # the search's score is 1 - SSE / SST on the validation rows: R-squared of the same SVR
  sst <- sum((va$y - mean(va$y))^2)
  expect_equal(cu$accuracy, 1 - length(va$y) * rmse_valid^2 / sst, tolerance = 1e-8)
  best <- which.min(rmse_valid)
  expect_true(length(unique(round(rmse_valid, 6))) == 4)  # a clear winner
  expect_equal(c(fit$tdsvm$cost, fit$tdsvm$gamma), c(cu$cost[best], cu$gamma[best]))
  expect_equal(predict(fit, va$x), predict(one(cu$cost[best], cu$gamma[best]), va$x))
})

test_that("tdsvm has regression defaults of its own and classification keeps its grid", {
  reg <- svforest:::resolve_parameters("tdsvm", list(), 100000, outcome = "regression")
  expect_equal(reg$cost, 10^(0:2))
  expect_equal(reg$gamma, c(0.1, 0.3, 1, 3, 10))
  expect_identical(reg$sigma0, 500L)
  expect_identical(svforest:::resolve_parameters("tdsvm", list(), 2000, outcome = "regression")$sigma0, 250L)
  cls <- svforest:::resolve_parameters("tdsvm", list(), 100000, outcome = "classification")
  expect_equal(cls$cost, 10^(0:4))
  expect_equal(cls$gamma, 10^(-1:2))
  expect_identical(cls$sigma0, 1500L)
  # a user's values win over the regression defaults
  expect_equal(svforest:::resolve_parameters("tdsvm", list(gamma = 2, sigma0 = 900), 100000,
                                             outcome = "regression")[c("gamma", "sigma0")],
               list(gamma = 2, sigma0 = 900L))
})

test_that("the TD-SVM regression search measures a stage's gain as the share of MSE it removes", {
  set.seed(1)
  n <- 1200
  x <- matrix(runif(n * 5), n, 5)
  y <- 10 * sin(pi * x[, 1] * x[, 2]) + 20 * (x[, 3] - 0.5)^2 + 10 * x[, 4] + rnorm(n, sd = 0.3)
  fit_with <- function(...) {
    svforest(x, y, method = "tdsvm", sigma0 = 50, cost = c(10, 100), gamma = c(0.3, 1), seed = 1, num_threads = 1, ...)
  }
  fit <- fit_with()
  curve <- fit$tdsvm$curve
  best <- tapply(curve$accuracy, curve$stage, max)  # validation R^2 of each stage's best pair
  gain_points <- 100 * diff(best)
  gain_share <- 100 * diff(best) / (1 - best[-length(best)])
  # stages 2 and 3 gain less than 0.5 R^2 points but remove over a quarter of
  # the remaining error: the search goes on to the whole training part
  expect_true(all(gain_points[2:3] < 0.5))
  expect_true(all(gain_share > 20))
  expect_identical(fit$tdsvm$sigma, 3200L)
  # min_gain is that share in percent: 30% stops after stage 1
  expect_identical(fit_with(min_gain = 30)$tdsvm$sigma, 200L)
  # sigma_max caps the searched sigma: no stage beyond it
  capped <- fit_with(sigma_max = 1000)
  expect_identical(capped$tdsvm$sigma, 800L)
  expect_lte(max(capped$tdsvm$curve$sigma), 1000)
  expect_identical(capped$params$sigma_max, 1000L)
  # regression's default cap, none for classification
  expect_identical(svforest:::resolve_parameters("tdsvm", list(), 1e5, outcome = "regression")$sigma_max, 10000L)
  expect_identical(svforest:::resolve_parameters("tdsvm", list(), 1e5)$sigma_max, NA_integer_)
})
