# Per-tree predictions, quantile forest quantiles, conformal calibration and
# prediction intervals.

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
    expect_identical(fit$conformal$calibration$rows, 125L)
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
    # 125 calibration rows: the coverage of one calibration is 0.9 +- about
    # 0.03, more for TD-SVM's single tree (one fixed training set here)
    expect_gt(covered, 0.8)
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

# The quantile forest's quantile at each level, computed plainly: each
# training row weighted by 1 / (ntree * leaf size) for every tree where it
# shares the new row's leaf, each distinct outcome's weight spread over
# `spread` of the gaps to its neighbours.
reference_quantiles <- function(train_leaves, y, new_leaves, taus, spread) {
  vals <- sort(unique(y))
  gap <- diff(vals)
  lo <- c(vals[1], vals[-1] - spread * gap)
  hi <- c(vals[-length(vals)] + spread * gap, vals[length(vals)])
  t(vapply(seq_len(nrow(new_leaves)), function(i) {
    w <- double(length(y))
    for (t in seq_len(ncol(new_leaves))) {
      same <- train_leaves[, t] == new_leaves[i, t]
      w[same] <- w[same] + 1 / sum(same)
    }
    m <- vapply(vals, function(v) sum(w[y == v]), 0)
    cum <- cumsum(m)
    vapply(taus, function(tau) {
      target <- tau * ncol(new_leaves) * (1 - 1e-12)
      g <- which(cum >= target)[1]
      lo[g] + (hi[g] - lo[g]) * min(1, max(0, (target - (cum[g] - m[g])) / m[g]))
    }, 0)
  }, double(length(taus))))
}

test_that("quantiles are the quantile forest's: leaf-weighted training outcomes, shifted by the calibration's order statistics", {
  tr <- friedman_frame(300, 5)
  tr$y <- round(tr$y)  # ties: discrete outcomes
  te <- friedman_frame(20, 6)
  fit <- svforest(y ~ ., tr, ntree = 5, seed = 2, num_threads = 1, calibrate = "none")
  qf <- fit$conformal$quantile_forest
  expect_identical(qf$y, tr$y)
  expect_identical(length(qf$leaves16), 2L * 300L * 5L)  # two bytes per row and tree
  expect_identical(svforest:::qf_leaves(qf), predict(fit, tr, type = "leaf") - 1L)
  qf <- list(leaves = svforest:::qf_leaves(qf), y = qf$y)
  leaves <- predict(fit, te, type = "leaf") - 1L
  taus <- c(0.05, 0.3, 0.5, 0.77, 0.95)
  expect_equal(unname(predict(fit, te, type = "quantiles", quantiles = taus)),
               reference_quantiles(qf$leaves, qf$y, leaves, taus, 0.05), tolerance = 1e-12)
  # more trees: the row's entries are ordered by a pass over all ranks, with the same quantiles
  wide <- svforest(y ~ ., tr, ntree = 60, seed = 2, num_threads = 2, calibrate = "none")
  expect_equal(unname(predict(wide, te, type = "quantiles", quantiles = taus)),
               reference_quantiles(svforest:::qf_leaves(wide$conformal$quantile_forest), tr$y,
                                   predict(wide, te, type = "leaf") - 1L, taus, 0.05), tolerance = 1e-12)
  # discrete outcomes: the quantiles fall beside the grades, never between two far from both
  q <- predict(fit, te, type = "quantiles", quantiles = taus)
  expect_true(all(abs(q - round(q)) <= 0.15))
  expect_gt(mean(q != round(q)), 0.5)
  # a calibration: the shift of level tau is the order statistic of y - q_tau on the held-out rows
  held <- friedman_frame(60, 7)
  held$y <- round(held$y)
  cal <- svforest_calibrate(fit, held[, -1], held$y)
  expect_identical(cal$conformal$calibration$rows, 60L)
  hq <- reference_quantiles(qf$leaves, qf$y, predict(fit, held, type = "leaf") - 1L, c(0.1, 0.9), 0.05)
  s_lo <- sort(held$y - hq[, 1])[floor(0.1 * 61)]
  s_hi <- sort(held$y - hq[, 2])[ceiling(0.9 * 61)]
  ref <- reference_quantiles(qf$leaves, qf$y, leaves, c(0.1, 0.9), 0.05)
  got <- predict(cal, te, type = "quantiles", quantiles = c(0.1, 0.9))
  expect_equal(unname(got[, 1]), ref[, 1] + s_lo, tolerance = 1e-10)
  expect_equal(unname(got[, 2]), pmax(ref[, 2] + s_hi, got[, 1]), tolerance = 1e-10)
  # a level between the calibrated ones is taken outward: 0.123 as 0.12, 0.871 as 0.875
  expect_equal(predict(cal, te, type = "quantiles", quantiles = c(0.123, 0.871)),
               `colnames<-`(predict(cal, te, type = "quantiles", quantiles = c(0.12, 0.875)), c("quantile_0.123", "quantile_0.871")))
  # too few calibration rows for a level: an infinite bound, not a made-up one
  expect_warning(extreme <- predict(cal, te, type = "quantiles", quantiles = c(0.001, 0.999)),
                 "levels 0.001, 0.999 are infinite: 60 calibration rows are too few.*about 999")
  expect_true(all(extreme[, 1] == -Inf) && all(extreme[, 2] == Inf))
  # the levels may come in any order
  expect_identical(predict(cal, te, type = "quantiles", quantiles = c(0.9, 0.1))[, 2:1],
                   predict(cal, te, type = "quantiles", quantiles = c(0.1, 0.9)))
})

# The warnings a call gives, each once.
warnings_of <- function(expr) {
  said <- character()
  withCallingHandlers(expr, warning = function(w) {
    said <<- c(said, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  said
}

test_that("new rows' quantiles index the leaves they reach alone: a tree whose leaf holds no training row is not used", {
  tr <- friedman_frame(300, 5)
  te <- friedman_frame(6, 6)
  fit <- svforest(y ~ ., tr, ntree = 8, seed = 3, num_threads = 1, calibrate = "none")
  train <- svforest:::qf_leaves(fit$conformal$quantile_forest)
  leaves <- predict(fit, te, type = "leaf") - 1L
  taus <- c(0.1, 0.5, 0.9)
  # row 1 leaves trees 2 and 5 through ids no training row reaches (an
  # internal node, a negative id, one past the tree's nodes); row 2 every tree
  internal <- setdiff(seq_len(max(train[, 2])) - 1L, train[, 2])[1]
  leaves[1, c(2, 5)] <- c(internal, -1L)
  leaves[2, ] <- max(train) + 1L
  q <- svforest:::.svf_leaf_quantiles(train, tr$y, leaves, taus, FALSE, 0.05, 2L)
  keep <- setdiff(seq_len(8), c(2, 5))
  expect_equal(q[1, ], reference_quantiles(train[, keep], tr$y, leaves[1, keep, drop = FALSE], taus, 0.05)[1, ],
               tolerance = 1e-12)
  expect_true(all(is.na(q[2, ])))
  expect_equal(q[3:6, ], reference_quantiles(train, tr$y, leaves[3:6, ], taus, 0.05), tolerance = 1e-12)
})

test_that("too few calibration rows for a level: infinite bounds with one warning saying how many the level needs", {
  # mtcars: 32 rows, all calibrating out of bag; an interval of level 0.95
  # needs 39 (its upper bound is the ceiling(0.975 * 33) = 33rd of 32 scores)
  fit <- svforest(mpg ~ ., data = mtcars, ntree = 20, seed = 1, num_threads = 1)
  said <- warnings_of(wide <- predict(fit, mtcars[1:3, ], type = "interval", level = 0.95))
  expect_length(said, 1L)
  expect_match(said, "3 of 3 prediction intervals are unbounded.*32 calibration rows are too few for a conformal interval of level 0.95 \\(it needs about 39; with 32 rows levels up to about 0.94 are finite\\)")
  expect_true(all(wide[, "upper"] == Inf))
  # a level its rows hold: finite and silent
  expect_silent(narrow <- predict(fit, mtcars[1:3, ], type = "interval", level = 0.9))
  expect_true(all(is.finite(narrow)))
  # quantiles: the levels named, with the rows they need
  said <- warnings_of(q <- predict(fit, mtcars[1:3, ], type = "quantiles", quantiles = c(0.01, 0.5, 0.99)))
  expect_length(said, 1L)
  expect_match(said, "levels 0.01, 0.99 are infinite: 32 calibration rows are too few.*about 99.*from about 0.03 to 0.97")
  expect_true(all(is.finite(q[, 2])))
  expect_silent(predict(fit, mtcars[1:3, ], type = "quantiles", quantiles = c(0.1, 0.5, 0.9)))
  # 0 rows: nothing to warn about
  expect_silent(predict(fit, mtcars[0, ], type = "interval", level = 0.99))
  # parsnip's pred_int says it once too (the bounds are NA there)
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::set_mode(parsnip::rand_forest(trees = 20), "regression"), "svforest",
                              num_threads = 1, seed = 1)
  pfit <- parsnip::fit(spec, mpg ~ ., data = mtcars)
  said <- warnings_of(p <- predict(pfit, mtcars[1:3, ], type = "pred_int", level = 0.95))
  expect_length(said, 1L)
  expect_match(said, "32 calibration rows are too few.*needs about 39")
  expect_true(all(is.na(p$.pred_upper)))
})

test_that("calibrated intervals of a discrete outcome cover their level, not every row of the grades at their ends", {
  tr <- friedman_frame(600, 31)
  te <- friedman_frame(3000, 32)
  tr$y <- round(tr$y / 3)
  te$y <- round(te$y / 3)
  fit <- svforest(y ~ ., tr, ntree = 30, calibrate = "cv", seed = 1, num_threads = 1)
  iv <- predict(fit, te, type = "interval", level = 0.8)
  covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  expect_gt(covered, 0.75)
  expect_lt(covered, 0.86)
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

test_that("every regression fit gives quantile forest intervals without a calibration, whatever its sampler or splitter", {
  tr <- friedman_frame(400, 9)
  te <- friedman_frame(2000, 10)
  # calibrate = "none" turns the default out-of-bag calibration off; a
  # sampler that leaves no row out (rsvt's "all") has none to begin with
  fits <- list(
    default = svforest(y ~ ., tr, ntree = 30, seed = 1, num_threads = 1, calibrate = "none"),
    rsvf = svforest(y ~ ., tr, method = "rsvf", ntree = 2, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1,
                    calibrate = "none"),
    all_rows = svforest(y ~ ., tr, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  )
  for (fit in fits) {
    expect_null(fit$conformal$calibration)
    expect_false(any(grepl("Intervals", capture.output(print(fit)))))
    iv <- predict(fit, te, type = "interval")
    expect_true(all(is.finite(iv)) && all(iv[, "lower"] <= iv[, "upper"]))
    covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
    expect_gt(covered, 0.75)
  }
  # the default forest's own 90% intervals: near or above 90% here (no guarantee)
  iv <- predict(fits$default, te, type = "interval")
  expect_gt(mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"]), 0.85)
  # a damaged quantile forest is an R error, not a wrong quantile
  broken <- fits$default
  broken$conformal$quantile_forest$leaves16 <- broken$conformal$quantile_forest$leaves16[-1]
  expect_error(predict(broken, te, type = "interval"), "'conformal' is damaged")
  # a leaf id beyond its tree's leaves (1e9 allocated 7.9 GB before): the
  # model check refuses it, and so does the engine when asked directly
  far <- fits$default
  qf <- far$conformal$quantile_forest
  leaves <- svforest:::qf_leaves(qf)
  leaves[1, 1] <- 1e9L
  far$conformal$quantile_forest <- list(y = qf$y, ntree = qf$ntree, leaves = leaves)
  expect_error(predict(far, te, type = "interval"), "'conformal' is damaged")
  expect_error(svforest:::.svf_leaf_quantiles(leaves, qf$y, leaves[1:3, ], 0.5, FALSE, 0, 1L),
               "leaf id 1000000000 of training row 1 in tree 1 is out of range")
  expect_error(svforest:::.svf_oob_leaf_quantiles(leaves, qf$y, rep(list(1:3), ncol(leaves)), 0.5, 0, 1L),
               "out of range")
  # within the engine's bound but past the tree's leaves: the model check
  leaves[1, 1] <- max(leaves[, 1]) + 1L
  far$conformal$quantile_forest$leaves <- leaves
  expect_error(predict(far, te, type = "interval"), "'conformal' is damaged")
  # trees removed after the fit: the model still predicts, its quantiles are refused
  sub <- fits$default
  sub$forest$trees <- sub$forest$trees[1:10]
  sub$ntree <- 10L
  expect_length(predict(sub, te[1:3, ]), 3)
  expect_error(predict(sub, te, type = "interval"), "describes 30 trees and the model has 10")
  old <- fits$default
  old$conformal$quantile_forest <- NULL
  expect_error(predict(old, te, type = "quantiles"), "holds no quantile forest")
  # a model of the earlier version (residual scores, no quantile forest) still predicts points
  old$conformal$calibration <- list(method = "split", scores = c(-1, 0, 1), normalised = FALSE, offset = 1,
                                    ntree = old$ntree, first_tree = 0L, seed = old$seed)
  expect_equal(predict(old, te[1:5, ]), predict(fits$default, te[1:5, ]))
  expect_error(predict(old, te, type = "interval"), "calibration is of an earlier version")
})

test_that("a combined forest keeps the quantile forest of parts grown on the same rows and refuses a part's calibration", {
  tr <- friedman_frame(300, 11)
  te <- friedman_frame(50, 12)
  whole <- svforest(y ~ ., tr, ntree = 6, seed = 4, num_threads = 1, calibrate = "none")
  a <- svforest(y ~ ., tr, ntree = 4, seed = 4, num_threads = 1, calibrate = "none")
  b <- svforest(y ~ ., tr, ntree = 2, seed = 4, first_tree = 4, num_threads = 1, calibrate = "none")
  expect_identical(combine(b, a)$conformal$quantile_forest, whole$conformal$quantile_forest)
  # node indices beyond two bytes are stored as integers, with the same quantiles
  big <- svforest:::pack_quantile_forest(svforest:::qf_leaves(whole$conformal$quantile_forest) + 70000L, tr$y)
  expect_true(is.integer(big[["leaves"]]) && is.null(big$leaves16))
  expect_identical(svforest:::qf_leaves(big) - 70000L, svforest:::qf_leaves(whole$conformal$quantile_forest))
  expect_equal(predict(combine(a, b), te, type = "interval"), predict(whole, te, type = "interval"))
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
               "For a numeric outcome `calibrate` must be \"oob\" \\(the default\\), \"conformal\"")
  expect_error(svforest(y ~ ., tr, calibrate = "conformal", calibration_fraction = 1, ntree = 2, seed = 1, num_threads = 1),
               "`calibration_fraction` must be a number between 0 and 1")
  # a damaged calibration is an R error, not a wrong interval
  broken <- fit
  broken$conformal$calibration$taus <- rev(broken$conformal$calibration$taus)
  expect_error(predict(broken, tr, type = "interval"), "'conformal' is damaged")
})

test_that("svforest_calibrate() calibrates a regression forest grown on every training row", {
  tr <- friedman_frame(400, 14)
  # 600 calibration rows: the coverage of one calibration draw varies by
  # about sqrt(0.9 * 0.1 / rows) around its level (0.012 here)
  held <- friedman_frame(600, 15)
  te <- friedman_frame(3000, 16)
  fit <- svforest(y ~ ., tr, ntree = 6, seed = 1, num_threads = 1, calibrate = "none")
  expect_identical(fit$num_rows, 400L)
  expect_identical(fit$method, "hybrid")
  expect_null(fit$conformal$calibration)
  cal <- svforest_calibrate(fit, held[, -1], held$y)
  expect_identical(cal$forest, fit$forest)
  expect_identical(cal$conformal$calibration$rows, 600L)
  expect_false(identical(predict(cal, te, type = "interval"), predict(fit, te, type = "interval")))
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
  expect_error(svforest_calibrate(old, held[, -1], held$y), "did not store its quantile forest")
})

test_that("calibrate = 'cv' grows the forest on every row and scores every row with fold forests", {
  tr <- friedman_frame(400, 17)
  te <- friedman_frame(3000, 18)
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, calibrate = "cv", seed = 2, num_threads = 1)
  plain <- svforest(y ~ ., tr, method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
  expect_identical(fit$forest, plain$forest)  # the model is the one without calibration
  expect_identical(fit$conformal$calibration$method, "cv")
  expect_identical(fit$conformal$calibration$rows, 400L)
  expect_output(print(fit), "Intervals: +conformal \\(five fold forests, 400 rows\\)")
  expect_false(any(grepl("Intervals", capture.output(print(plain)))))
  iv <- predict(fit, te, type = "interval")
  covered <- mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  expect_gt(covered, 0.86)
  expect_lt(covered, 0.96)
  # the shifts are those of forests grown without the rows they score, each
  # with its own rows as its quantile forest
  folds <- svforest:::with_seed(2, sample(rep_len(1:5, 400)))
  grid <- fit$conformal$calibration$taus
  scores <- matrix(0, 400, length(grid))
  for (k in 1:5) {
    fk <- svforest(y ~ ., tr[folds != k, ], method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
    leaves <- predict(fk, tr[folds == k, ], type = "leaf") - 1L
    scores[folds == k, ] <- tr$y[folds == k] - svforest:::leaf_quantiles(fk$conformal$quantile_forest, leaves, grid, 1L)
  }
  shifts <- vapply(seq_along(grid), function(j) svforest:::conformal_levels(sort(scores[, j]), grid[j]), 0)
  expect_equal(fit$conformal$calibration$adjust, shifts, tolerance = 1e-12)
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
    expect_equal(sparse$conformal$calibration, dense$conformal$calibration)
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
