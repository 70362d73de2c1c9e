# Predictor scaling: scale = "minmax" | "rank" | "none" (R/rank.R).

# Five informative predictors (the class is the sign of their sum), each
# heavy-tailed: 2% of its values are pushed out by 10^5 to 10^7. Min-max
# scaling squeezes the other 98% of a column to about one value, so the
# SVMs (whose penalty keeps weights small) barely see them; ranks keep the
# rows spread over [0, 1].
heavy_tailed <- function(n, seed, p = 5) {
  withr_seed(seed, {
    x <- matrix(stats::rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
    y <- factor(ifelse(rowSums(x) > 0, "pos", "neg"), levels = c("neg", "pos"))
    for (j in seq_len(p)) {
      out <- stats::runif(n) < 0.02
      x[out, j] <- x[out, j] + sign(x[out, j]) * 10^stats::runif(sum(out), 5, 7)
    }
    list(x = x, y = y)
  })
}

test_that("rank scaling beats min-max scaling on heavy-tailed predictors", {
  tr <- heavy_tailed(600, seed = 1)
  te <- heavy_tailed(2000, seed = 2)
  # (seen: rsvt 0.53 -> 0.90, psvm 0.89 -> 0.94, rsvf 0.79 -> 0.94, tdsvm 0.72 -> 0.94)
  for (method in c("rsvt", "psvm", "rsvf", "tdsvm")) {
    acc <- vapply(c("minmax", "rank"), function(s) {
      fit <- svforest(tr$x, tr$y, method = method, scale = s, ntree = 10, seed = 1, num_threads = 1)
      mean(predict(fit, te$x) == te$y)
    }, 0)
    expect_gt(acc[["rank"]], 0.88, label = paste(method, "rank accuracy"))
    expect_gt(acc[["rank"]] - acc[["minmax"]], 0.03, label = paste(method, "rank - minmax"))
  }
})

test_that("rank scaling gives the same model for a strictly increasing transform of a predictor", {
  d <- xor_linear(300, p = 3, seed = 3)
  x <- d$x + 1.5  # positive, for log()
  xt <- x
  xt[, 1] <- log(x[, 1])
  xt[, 3] <- exp(5 * x[, 3])
  new <- xor_linear(200, p = 3, seed = 4)$x * 1.3 + 1.5  # some rows beyond the training range
  new_t <- new
  new_t[, 1] <- log(new[, 1])
  new_t[, 3] <- exp(5 * new[, 3])
  for (method in c("rsvt", "psvm", "tdsvm", "rsvf", "transform")) {
    a <- svforest(x, d$y, method = method, scale = "rank", ntree = 3, seed = 5, num_threads = 1)
    b <- svforest(xt, d$y, method = method, scale = "rank", ntree = 3, seed = 5, num_threads = 1)
    expect_identical(b$forest, a$forest, label = method)
    expect_identical(predict(b, new_t, type = "prob"), predict(a, new, type = "prob"), label = method)
  }
  # min-max scaling is not invariant: the transform changes the model
  a <- svforest(x, d$y, method = "rsvt", scale = "minmax", ntree = 3, seed = 5, num_threads = 1)
  b <- svforest(xt, d$y, method = "rsvt", scale = "minmax", ntree = 3, seed = 5, num_threads = 1)
  expect_false(identical(predict(b, new_t, type = "prob"), predict(a, new, type = "prob")))
  # the formula interface: log(x1) in the formula is the same model as x1
  df <- data.frame(x, y = d$y)
  f1 <- svforest(y ~ x1 + x2 + x3, data = df, method = "psvm", scale = "rank", ntree = 3, seed = 5, num_threads = 1)
  f2 <- svforest(y ~ log(x1) + x2 + x3, data = df, method = "psvm", scale = "rank", ntree = 3, seed = 5,
                 num_threads = 1)
  expect_identical(f2$forest, f1$forest)
  expect_identical(predict(f2, data.frame(new), type = "prob"), predict(f1, data.frame(new), type = "prob"))
  # ... and the x/y interface with the same columns
  f3 <- svforest(x, d$y, method = "psvm", scale = "rank", ntree = 3, seed = 5, num_threads = 1)
  expect_identical(f3$forest, f1$forest)
})

test_that("rank-scaled rows outside the training range predict as the nearest training extreme", {
  d <- xor_linear(300, p = 2, seed = 6)
  fit <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 5, seed = 1, num_threads = 1)
  lo <- apply(d$x, 2, min)
  hi <- apply(d$x, 2, max)
  far <- rbind(c(100, 0.2), c(-100, 0.2), c(0.3, 1e9), c(0.3, -1e9))
  edge <- rbind(c(hi[1], 0.2), c(lo[1], 0.2), c(0.3, hi[2]), c(0.3, lo[2]))
  colnames(far) <- colnames(edge) <- colnames(d$x)
  expect_identical(predict(fit, far, type = "prob"), predict(fit, edge, type = "prob"))
  # a value between two training values is interpolated: monotone in between
  m <- svforest:::rank_apply(cbind(c(lo[1], sort(d$x[, 1])[c(10, 11)], hi[1]), 0), fit$design$rank)
  expect_true(all(diff(m[, 1]) > 0))
  expect_true(all(m[, 1] > 0 & m[, 1] < 1))
})

test_that("rank scaling: saveRDS round trip, threads, validation, calibration, importance, local", {
  d <- xor_linear(400, p = 3, seed = 7)
  new <- xor_linear(100, p = 3, seed = 8)
  fit1 <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 6, seed = 2, num_threads = 1,
                   importance = "permutation")
  fit2 <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 6, seed = 2, num_threads = 2,
                   importance = "permutation")
  expect_identical(fit2$forest, fit1$forest)
  expect_identical(fit2$variable_importance, fit1$variable_importance)
  expect_identical(predict(fit1, new$x, type = "prob", num_threads = 2),
                   predict(fit1, new$x, type = "prob", num_threads = 1))
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit1, path)
  back <- readRDS(path)
  expect_identical(predict(back, new$x, type = "prob"), predict(fit1, new$x, type = "prob"))
  expect_identical(back$params$scale, "rank")
  # importance on new data goes through the stored rank map too
  imp <- svforest_importance(fit1, new$x, new$y, num_threads = 1)
  expect_identical(names(imp), colnames(d$x))
  # local explanations are per rank unit; the centre is the mean rank
  loc <- predict(fit1, new$x[1:5, ], type = "local")
  expect_true(all(loc$centre > 0 & loc$centre < 1))
  r <- svforest:::rank_apply(new$x[1:5, ], fit1$design$rank)
  expect_equal(loc$contributions, loc$coefficients * sweep(r, 2, loc$centre))
  # calibration rows and validation rows get the rank map
  cal <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 6, seed = 2, num_threads = 1,
                  calibrate = "platt")
  p <- predict(cal, new$x, type = "prob")
  expect_true(all(is.finite(p)))
  xt <- d$x
  xt[, 2] <- exp(4 * xt[, 2])
  vt <- new$x
  vt[, 2] <- exp(4 * vt[, 2])
  v1 <- svforest(d$x, d$y, method = "tdsvm", scale = "rank", seed = 2, num_threads = 1,
                 validation = list(x = new$x, y = new$y))
  v2 <- svforest(xt, d$y, method = "tdsvm", scale = "rank", seed = 2, num_threads = 1,
                 validation = list(x = vt, y = new$y))
  expect_identical(v2$forest, v1$forest)
  expect_identical(v2$tdsvm, v1$tdsvm)
})

test_that("rank scaling with missing values, factors and indicator columns", {
  df <- mixed_df(300, seed = 9)
  df$a[c(3, 50, 77)] <- NA
  fit <- svforest(y ~ ., data = df, method = "rsvt", scale = "rank", ntree = 4, seed = 1, num_threads = 1)
  expect_true(!is.null(fit$design$rank))
  expect_length(fit$design$rank$columns, length(fit$design$feature_names))
  p1 <- predict(fit, df[1:20, ], type = "prob")
  expect_true(all(is.finite(p1)))
  # missing values are imputed first, then ranked (the 0/1 indicator column too)
  ind <- fit$design$rank$columns[[match("a_missing", fit$design$feature_names)]]
  expect_identical(ind$knots, c(0, 1))
  nd <- df[1:2, ]
  nd$a <- NA
  expect_true(all(is.finite(predict(fit, nd, type = "prob"))))
})

test_that("scale: TRUE and FALSE are \"minmax\" and \"none\"; bad values and sparse input are errors", {
  d <- xor_linear(200, seed = 10)
  new <- xor_linear(50, seed = 11)$x
  a <- svforest(d$x, d$y, method = "psvm", scale = TRUE, ntree = 3, seed = 1, num_threads = 1)
  b <- svforest(d$x, d$y, method = "psvm", scale = "minmax", ntree = 3, seed = 1, num_threads = 1)
  expect_identical(a$params$scale, "minmax")
  expect_identical(a$forest, b$forest)
  f <- svforest(d$x, d$y, method = "psvm", scale = FALSE, ntree = 3, seed = 1, num_threads = 1)
  n <- svforest(d$x, d$y, method = "psvm", scale = "none", ntree = 3, seed = 1, num_threads = 1)
  expect_identical(f$params$scale, "none")
  expect_identical(f$forest, n$forest)
  expect_true(all(n$forest$scale_center == 0) && all(n$forest$scale_factor == 1))
  msg <- "`scale` must be one of \"minmax\", \"rank\", \"auto\", \"none\" (or TRUE for \"minmax\", FALSE for \"none\")"
  for (bad in list("ranks", NA, c("minmax", "rank"), 1, NULL)) {
    if (is.null(bad)) next
    expect_error(svforest(d$x, d$y, scale = bad, ntree = 1, num_threads = 1), msg, fixed = TRUE)
  }
  sp <- Matrix::Matrix(d$x * (abs(d$x) > 0.5), sparse = TRUE)
  expect_error(svforest(sp, d$y, scale = "rank", ntree = 1, num_threads = 1),
               "`scale = \"rank\"` needs dense predictors.*scale = \"minmax\"")
  expect_silent(svforest(sp, d$y, scale = "minmax", ntree = 1, num_threads = 1))
  # a rank model fitted on dense rows predicts sparse rows through its rank map
  r <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 3, seed = 1, num_threads = 1)
  new_sp <- Matrix::Matrix(new * (abs(new) > 0.5), sparse = TRUE)
  expect_identical(predict(r, new_sp, type = "prob"), predict(r, as.matrix(new_sp), type = "prob"))
})

test_that("the rank map: mid-ranks, ties, constant columns and the knot cap", {
  x <- cbind(a = c(3, 1, 2, 2, 10), b = 7)
  r <- svforest:::rank_fit(x)
  expect_identical(r$columns[[1]]$knots, c(1, 2, 3, 10))
  expect_equal(r$columns[[1]]$values, c(0.5, 2, 3.5, 4.5) / 5)
  expect_identical(svforest:::rank_apply(x, r)[, 2], rep(0.5, 5))
  expect_equal(svforest:::rank_apply(cbind(1.5, 7), r)[1, 1], (0.5 + 2) / 2 / 5)
  big <- cbind(v = withr_seed(1, stats::rnorm(5000)))
  rb <- svforest:::rank_fit(big)
  expect_lte(length(rb$columns[[1]]$knots), 1000)
  expect_identical(range(rb$columns[[1]]$knots), range(big))
  exact <- (rank(big[, 1]) - 0.5) / 5000
  expect_lt(max(abs(svforest:::rank_apply(big, rb)[, 1] - exact)), 0.002)
})

test_that("a damaged rank map is an error at predict()", {
  d <- xor_linear(200, seed = 12)
  fit <- svforest(d$x, d$y, method = "rsvt", scale = "rank", ntree = 2, seed = 1, num_threads = 1)
  fit$design$rank$columns[[1]]$knots <- rev(fit$design$rank$columns[[1]]$knots)
  expect_error(predict(fit, d$x), "'design\\$rank' is damaged")
})

test_that("scale = \"auto\" ranks the heavy-tailed columns only", {
  tr <- heavy_tailed(600, seed = 1)
  te <- heavy_tailed(2000, seed = 2)
  x <- cbind(tr$x, u = withr_seed(3, stats::runif(600)))
  xt <- cbind(te$x, u = withr_seed(4, stats::runif(2000)))
  auto <- svforest(x, tr$y, method = "rsvt", scale = "auto", ntree = 10, seed = 1, num_threads = 1)
  ranked <- !vapply(auto$design$rank$columns, is.null, TRUE)
  expect_identical(ranked, c(rep(TRUE, 5), FALSE))  # the uniform column keeps min-max
  mm <- svforest(x, tr$y, method = "rsvt", scale = "minmax", ntree = 10, seed = 1, num_threads = 1)
  expect_gt(mean(predict(auto, xt) == te$y) - mean(predict(mm, xt) == te$y), 0.1)
  # data without heavy tails: "auto" is "minmax"
  d <- xor_linear(300, p = 3, seed = 5)
  a <- svforest(d$x, d$y, method = "psvm", scale = "auto", ntree = 3, seed = 1, num_threads = 1)
  m <- svforest(d$x, d$y, method = "psvm", scale = "minmax", ntree = 3, seed = 1, num_threads = 1)
  expect_null(a$design$rank)
  expect_identical(a$forest, m$forest)
  # sparse input: "auto" is "minmax" (zeros stay zero)
  sp <- Matrix::Matrix(x * (abs(x) > 0.5), sparse = TRUE)
  sa <- svforest(sp, tr$y, method = "rsvt", scale = "auto", ntree = 2, seed = 1, num_threads = 1)
  sm <- svforest(sp, tr$y, method = "rsvt", scale = "minmax", ntree = 2, seed = 1, num_threads = 1)
  expect_null(sa$design$rank)
  expect_identical(sa$forest, sm$forest)
})
