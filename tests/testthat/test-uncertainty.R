# Per-tree predictions, conformal quantiles and prediction intervals.

# Friedman 1: y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + noise.
friedman_frame <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * 10), n, 10, dimnames = list(NULL, paste0("x", 1:10)))
    y <- 10 * sin(pi * x[, 1] * x[, 2]) + 20 * (x[, 3] - 0.5)^2 + 10 * x[, 4] + 5 * x[, 5] + stats::rnorm(n)
    data.frame(y = y, x)
  })
}

test_that("type = 'trees' gives each tree's prediction: their mean is the forest's, for any threads and chunk size", {
  tr <- friedman_frame(200, 1)
  te <- friedman_frame(300, 2)
  for (method in svforest:::regression_methods()) {
    fit <- fit_method(method, y ~ ., data = tr, ntree = 3)
    trees <- predict(fit, te, type = "trees", num_threads = 1)
    expect_true(is.double(trees))
    expect_identical(dim(trees), c(300L, as.integer(fit$ntree)))
    expect_equal(rowMeans(trees), predict(fit, te), tolerance = 1e-10)
    expect_identical(predict(fit, te, type = "trees", num_threads = 2), trees)
    chunked <- withr::with_options(list(svforest.predict_chunk_rows = 70),
                                   predict(fit, te, type = "trees", num_threads = 2))
    expect_identical(chunked, trees)
  }
  # the trees differ (the spread is not zero) for a forest of several trees
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 4, seed = 1, num_threads = 1)
  expect_gt(mean(apply(predict(fit, te, type = "trees"), 1, stats::sd)), 0)
})

test_that("type = 'trees' of a classifier gives each tree's class; they add up to the votes", {
  fit <- svforest(Species ~ ., iris, ntree = 4, seed = 1, num_threads = 1)
  trees <- predict(fit, iris, type = "trees")
  expect_true(is.integer(trees))
  expect_identical(dim(trees), c(150L, 4L))
  expect_identical(attr(trees, "levels"), levels(iris$Species))
  votes <- predict(fit, iris, type = "votes")
  counted <- t(apply(trees, 1, tabulate, nbins = 3))
  expect_identical(unname(counted), unname(votes))
  chunked <- withr::with_options(list(svforest.predict_chunk_rows = 40), predict(fit, iris, type = "trees"))
  expect_identical(chunked, trees)
})

test_that("conformal intervals and quantiles of every regression method: ordered, consistent, near nominal coverage", {
  tr <- friedman_frame(500, 3)
  te <- friedman_frame(3000, 4)
  for (method in svforest:::regression_methods()) {
    fit <- fit_method(method, y ~ ., data = tr, calibrate = "conformal")
    expect_identical(fit$num_rows, 375L)  # 25% held out
    expect_length(fit$conformal$calibration$scores, 125)
    q <- predict(fit, te, type = "quantiles", quantiles = c(0.05, 0.25, 0.5, 0.75, 0.95))
    expect_identical(colnames(q), c("quantile_0.05", "quantile_0.25", "quantile_0.5", "quantile_0.75", "quantile_0.95"))
    expect_true(all(is.finite(q)))
    expect_true(all(apply(q, 1, diff) >= 0))  # quantiles never cross
    iv <- predict(fit, te, type = "interval", level = 0.9)
    expect_identical(colnames(iv), c("fit", "lower", "upper"))
    expect_identical(attr(iv, "level"), 0.9)
    expect_equal(iv[, "fit"], predict(fit, te))
    expect_equal(unname(iv[, "lower"]), unname(q[, 1]))
    expect_equal(unname(iv[, "upper"]), unname(q[, 5]))
    covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
    # 125 calibration rows: the coverage of one calibration is 0.9 +- about 0.03
    expect_gt(covered, 0.84)
    expect_lt(covered, 0.97)
    below <- colMeans(te$y <= q)
    expect_true(all(abs(below - c(0.05, 0.25, 0.5, 0.75, 0.95)) < 0.07))
    # the default quantiles and level
    expect_identical(colnames(predict(fit, te[1:2, ], type = "quantiles")),
                     c("quantile_0.05", "quantile_0.5", "quantile_0.95"))
    expect_identical(attr(predict(fit, te[1:2, ], type = "interval"), "level"), 0.9)
    # a wider level gives a wider interval
    iv99 <- predict(fit, te, type = "interval", level = 0.98)
    expect_true(all(iv99[, "upper"] - iv99[, "lower"] >= iv[, "upper"] - iv[, "lower"]))
  }
})

test_that("conformal quantiles use the order statistics of the calibration scores", {
  tr <- friedman_frame(300, 5)
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, calibrate = "conformal", seed = 2, num_threads = 1)
  cal <- fit$conformal$calibration
  n <- length(cal$scores)
  expect_true(cal$normalised)
  te <- friedman_frame(20, 6)
  q <- predict(fit, te, type = "quantiles", quantiles = c(0.1, 0.9))
  trees <- (predict(fit, te, type = "trees") - fit$outcome_center) / fit$outcome_scale
  s <- sqrt(rowMeans((trees - rowMeans(trees))^2))  # the spread, as the engine computes it
  m <- rowMeans(trees)
  expect_equal(unname(q[, 2]), (m + (s + cal$offset) * cal$scores[ceiling(0.9 * (n + 1))]) * fit$outcome_scale + fit$outcome_center)
  expect_equal(unname(q[, 1]), (m + (s + cal$offset) * cal$scores[floor(0.1 * (n + 1))]) * fit$outcome_scale + fit$outcome_center)
  # too few calibration rows for a level: an infinite bound, not a made-up one
  extreme <- predict(fit, te, type = "quantiles", quantiles = c(0.001, 0.999))
  expect_true(all(extreme[, 1] == -Inf) && all(extreme[, 2] == Inf))
})

test_that("calibration is reproducible, thread-invariant and survives saveRDS", {
  tr <- friedman_frame(300, 7)
  te <- friedman_frame(100, 8)
  a <- svforest(y ~ ., tr, calibrate = "conformal", ntree = 4, seed = 3, num_threads = 1)  # the default method
  b <- svforest(y ~ ., tr, calibrate = "conformal", ntree = 4, seed = 3, num_threads = 2)
  expect_identical(a$conformal, b$conformal)
  expect_identical(predict(a, te, type = "interval", num_threads = 1), predict(b, te, type = "interval", num_threads = 2))
  path <- withr::local_tempfile(fileext = ".rds")
  saveRDS(a, path)
  expect_identical(predict(readRDS(path), te, type = "quantiles"), predict(a, te, type = "quantiles"))
  # large newdata goes through in chunks with the same result
  chunked <- withr::with_options(list(svforest.predict_chunk_rows = 30), predict(a, te, type = "interval"))
  expect_identical(chunked, predict(a, te, type = "interval"))
})

test_that("honest out-of-bag residuals calibrate without a hold-out; OOB-scored splits and no OOB rows are refused", {
  tr <- friedman_frame(400, 9)
  te <- friedman_frame(2000, 10)
  boot <- svforest(y ~ ., tr, method = "rsvt", sampler = "bootstrap", ntree = 30, seed = 1, num_threads = 1)
  expect_false(boot$conformal$splitter_uses_oob)
  expect_null(boot$conformal$calibration)
  iv <- predict(boot, te, type = "interval")
  covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  expect_gt(covered, 0.85)
  expect_lt(covered, 0.97)
  # the out-of-bag rows of "oob_svm" chose the splits: no intervals from them
  rsvf <- svforest(y ~ ., tr, method = "rsvf", ntree = 2, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1)
  expect_true(rsvf$conformal$splitter_uses_oob)
  expect_error(predict(rsvf, te, type = "interval"), "\"oob_svm\" splitter chooses splits on the out-of-bag rows")
  expect_error(predict(rsvf, te, type = "quantiles"), "calibrate = \"conformal\"")
  all_rows <- svforest(y ~ ., tr, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(all_rows, te, type = "interval"), "\"all\" sampler leaves no row out of bag")
})

test_that("a combined forest keeps exact out-of-bag intervals and refuses a part's hold-out calibration", {
  tr <- friedman_frame(300, 11)
  te <- friedman_frame(50, 12)
  whole <- svforest(y ~ ., tr, method = "rsvt", sampler = "bootstrap", ntree = 6, seed = 4, num_threads = 1)
  a <- svforest(y ~ ., tr, method = "rsvt", sampler = "bootstrap", ntree = 4, seed = 4, num_threads = 1)
  b <- svforest(y ~ ., tr, method = "rsvt", sampler = "bootstrap", ntree = 2, seed = 4, first_tree = 4, num_threads = 1)
  ab <- combine(a, b)
  expect_equal(predict(ab, te, type = "interval"), predict(whole, te, type = "interval"))
  ca <- svforest(y ~ ., tr, method = "rsvt", calibrate = "conformal", ntree = 2, seed = 4, num_threads = 1)
  cb <- svforest(y ~ ., tr, method = "rsvt", calibrate = "conformal", ntree = 2, seed = 4, first_tree = 2, num_threads = 1)
  expect_error(predict(suppressWarnings(combine(ca, cb)), te, type = "interval"), "belongs to a forest of 2 trees")
})

test_that("bad quantiles, levels and types give clear errors", {
  tr <- friedman_frame(200, 13)
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 2, calibrate = "conformal", seed = 1, num_threads = 1)
  for (bad in list(0, 1, -0.1, 1.5, c(0.5, NA), "0.5", numeric(), TRUE)) {
    expect_error(predict(fit, tr, type = "quantiles", quantiles = bad), "`quantiles` must be numbers strictly between 0 and 1")
  }
  for (bad in list(1, 0, 1.2, -0.5, c(0.8, 0.9), NA, "0.9")) {
    expect_error(predict(fit, tr, type = "interval", level = bad), "`level` must be one number strictly between 0 and 1")
  }
  expect_error(predict(fit, tr, quantiles = 0.5), "`quantiles` is used only with type = \"quantiles\"")
  expect_error(predict(fit, tr, type = "quantiles", level = 0.9), "`level` is used only with type = \"interval\"")
  cls <- svforest(Species ~ ., iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(cls, iris, type = "interval"), "for regression forests .* this forest is a classifier")
  expect_error(predict(cls, iris, type = "quantiles"), "for regression forests")
  expect_error(svforest(Species ~ ., iris, calibrate = "conformal", ntree = 2, seed = 1, num_threads = 1),
               "calibrates prediction intervals of a regression forest")
  expect_error(svforest(y ~ ., tr, calibrate = "platt", ntree = 2, seed = 1, num_threads = 1),
               "For a numeric outcome `calibrate` must be \"conformal\"")
  expect_error(svforest(y ~ ., tr, calibrate = "conformal", calibration_fraction = 1, ntree = 2, seed = 1, num_threads = 1),
               "`calibration_fraction` must be a number between 0 and 1")
  # a damaged calibration is an R error, not a wrong interval
  broken <- fit
  broken$conformal$calibration$scores <- rev(broken$conformal$calibration$scores)
  expect_error(predict(broken, tr, type = "interval"), "'conformal' is damaged")
})

test_that("svforest_calibrate() calibrates a regression forest grown on every training row", {
  tr <- friedman_frame(400, 14)
  held <- friedman_frame(200, 15)
  te <- friedman_frame(3000, 16)
  fit <- svforest(y ~ ., tr, ntree = 6, seed = 1, num_threads = 1)
  expect_identical(fit$num_rows, 400L)
  # the default method ("hybrid") chooses splits and trees on out-of-bag rows:
  # no intervals from them, and the error names every remedy
  expect_identical(fit$method, "hybrid")
  expect_true(fit$conformal$splitter_uses_oob)
  expect_null(fit$conformal$calibration)
  expect_error(predict(fit, te, type = "interval"),
               "\"hybrid\" splitter chooses splits.*calibrate = \"conformal\".*calibrate = \"cv\".*svforest_calibrate\\(\\)")
  cal <- svforest_calibrate(fit, held[, -1], held$y)
  expect_identical(cal$forest, fit$forest)
  expect_length(cal$conformal$calibration$scores, 200)
  iv <- predict(cal, te, type = "interval")
  covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  expect_gt(covered, 0.85)
  expect_lt(covered, 0.96)
  # the same scores as a fit-time hold-out of those rows would give
  expect_identical(svforest_calibrate(fit, held, held$y)$conformal, cal$conformal)
  expect_null(svforest_calibrate(cal, method = "none")$conformal$calibration)
  expect_error(svforest_calibrate(fit, held[, -1], as.character(held$y)), "`y` must be finite numbers")
  expect_error(svforest_calibrate(fit, held[, -1], held$y[-1]), "one per row of `x`")
  expect_error(svforest_calibrate(fit, held[, -1], held$y, method = "isotonic"), "calibrated with method \"conformal\"")
  old <- fit
  old$conformal <- NULL
  expect_error(svforest_calibrate(old, held[, -1], held$y), "did not store the trees' spread")
})

test_that("calibrate = 'cv' grows the forest on every row and scores every row with fold forests", {
  tr <- friedman_frame(400, 17)
  te <- friedman_frame(3000, 18)
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, calibrate = "cv", seed = 2, num_threads = 1)
  plain <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
  expect_identical(fit$forest, plain$forest)  # the model is the one without calibration
  expect_identical(fit$conformal$calibration$method, "cv")
  expect_length(fit$conformal$calibration$scores, 400)
  expect_output(print(fit), "Intervals: +conformal \\(five fold forests, 400 scores\\)")
  expect_false(any(grepl("Intervals", capture.output(print(plain)))))
  iv <- predict(fit, te, type = "interval")
  covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  expect_gt(covered, 0.86)
  expect_lt(covered, 0.96)
  # the scores are those of forests grown without the rows they score
  folds <- svforest:::with_seed(2, sample(rep_len(1:5, 400)))
  k1 <- svforest(y ~ ., tr[folds != 1, ], method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
  trees <- (predict(k1, tr[folds == 1, ], type = "trees") - fit$outcome_center) / fit$outcome_scale
  m <- rowMeans(trees)
  s <- sqrt(rowMeans((trees - m)^2))
  r <- ((tr$y[folds == 1] - fit$outcome_center) / fit$outcome_scale - m) / (s + fit$conformal$calibration$offset)
  expect_true(all(vapply(r, function(v) any(abs(fit$conformal$calibration$scores - v) < 1e-9), TRUE)))
  b <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, calibrate = "cv", seed = 2, num_threads = 2)
  expect_identical(b$conformal, fit$conformal)
  expect_error(svforest(y ~ ., tr, method = "rsvt", ntree = 2, calibrate = "cv", calibration_fraction = 0.2,
                        seed = 1, num_threads = 1), "`calibration_fraction` is for `calibrate = \"conformal\"`")
  expect_error(svforest(y ~ ., tr[1:8, ], method = "rsvt", ntree = 2, calibrate = "cv", seed = 1, num_threads = 1),
               "at least 10 rows")
})

test_that("sparse training data calibrate as dense data do", {
  tr <- friedman_frame(300, 19)
  x <- as.matrix(tr[, -1])
  x[x < 0.3] <- 0
  xs <- Matrix::Matrix(x, sparse = TRUE)
  for (calibrate in c("conformal", "cv")) {
    sparse <- svforest(xs, tr$y, method = "rsvt", ntree = 3, calibrate = calibrate, seed = 1, num_threads = 1)
    dense <- svforest(x, tr$y, method = "rsvt", ntree = 3, calibrate = calibrate, seed = 1, num_threads = 1)
    expect_equal(sparse$conformal$calibration$scores, dense$conformal$calibration$scores)
    expect_equal(predict(sparse, xs[1:5, ], type = "interval"), predict(dense, x[1:5, ], type = "interval"))
  }
})

test_that("class probability calibration at fit time takes sparse input (its held-out rows went to the engine as dense-only data)", {
  x <- as.matrix(iris[, 1:4])
  x[x < 1.5] <- 0
  xs <- Matrix::Matrix(x, sparse = TRUE)
  sparse <- svforest(xs, iris$Species, calibrate = "platt", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(sparse$calibration$method, "platt")
  expect_identical(sparse$calibration$rows, 39L)  # 13 of each class's 50
  prob <- predict(sparse, xs, type = "prob")
  expect_equal(unname(rowSums(prob)), rep(1, 150))
})
