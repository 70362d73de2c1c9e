# The default calibration of regression intervals: conformal scores of the
# training rows' out-of-bag quantiles (R/uncertainty.R, src/leaf_quantiles.cpp).

linear_noise <- function(n, seed) {
  withr_seed(seed, {
    x <- stats::runif(n, -3, 3)
    data.frame(x = x, y = x + stats::rnorm(n))
  })
}

test_that("default intervals hold their level where the quantile forest's own do not", {
  tr <- linear_noise(2000, 1)
  te <- linear_noise(2000, 2)
  fit <- svforest(y ~ ., tr, ntree = 100, seed = 1, num_threads = 2)
  raw <- svforest(y ~ ., tr, ntree = 100, seed = 1, num_threads = 2, calibrate = "none")
  expect_identical(fit$forest, raw$forest)  # the calibration takes no part in the trees
  expect_identical(fit$conformal$calibration$method, "oob")
  expect_identical(fit$conformal$calibration$rows, 2000L)
  expect_null(raw$conformal$calibration)
  coverage <- function(m) {
    iv <- predict(m, te, type = "interval", level = 0.9)
    mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
  }
  expect_lt(abs(coverage(fit) - 0.9), 0.02)
  expect_lt(coverage(raw), 0.8)  # small leaves of noisy outcomes: far too narrow uncalibrated
  # the same for quantiles: about 5% of rows below the 0.05 quantile and above the 0.95
  q <- predict(fit, te, type = "quantiles", quantiles = c(0.05, 0.95))
  expect_lt(abs(mean(te$y < q[, 1]) - 0.05), 0.015)
  expect_lt(abs(mean(te$y > q[, 2]) - 0.05), 0.015)
  expect_true(any(grepl("conformal \\(out-of-bag rows, 2000 rows\\)", capture.output(print(fit)))))
  # an explicit "oob" is the default
  expect_identical(svforest(y ~ ., tr[1:300, ], ntree = 10, seed = 1, num_threads = 1, calibrate = "oob")$conformal,
                   svforest(y ~ ., tr[1:300, ], ntree = 10, seed = 1, num_threads = 1)$conformal)
  expect_error(svforest(y ~ ., tr, ntree = 2, seed = 1, num_threads = 1, calibration_fraction = 0.2),
               "`calibration_fraction` is for `calibrate = \"conformal\"`")
})

test_that("out-of-bag quantiles use each row's out-of-bag trees alone and leave its own outcome out", {
  tr <- linear_noise(60, 3)
  fit <- svforest(y ~ ., tr, ntree = 8, seed = 2, num_threads = 1, calibrate = "none", min_node_size = 10)
  leaves <- svforest:::qf_leaves(fit$conformal$quantile_forest)
  oob <- lapply(1:8, function(t) sort(withr_seed(t, sample.int(60, 20))))  # any out-of-bag pattern
  taus <- c(0.1, 0.33, 0.5, 0.9)
  got <- svforest:::.svf_oob_leaf_quantiles(leaves, tr$y, oob, taus, 0, 1L)
  # reference: row i's weights over the other rows, from its out-of-bag trees
  for (i in 1:60) {
    trees <- which(vapply(oob, function(r) i %in% r, TRUE))
    if (!length(trees)) {
      expect_true(all(is.na(got[i, ])))
      next
    }
    w <- double(60)
    for (t in trees) {
      mates <- setdiff(which(leaves[, t] == leaves[i, t]), i)
      w[mates] <- w[mates] + 1 / length(mates)
    }
    o <- order(tr$y)
    cum <- cumsum(w[o]) / sum(w)
    want <- vapply(taus, function(tau) tr$y[o][which(cum >= tau * (1 - 1e-12))[1]], 0)
    expect_equal(got[i, ], want)
  }
  # thread-invariant
  expect_identical(svforest:::.svf_oob_leaf_quantiles(leaves, tr$y, oob, taus, 0.05, 2L),
                   svforest:::.svf_oob_leaf_quantiles(leaves, tr$y, oob, taus, 0.05, 1L))
  expect_error(svforest:::.svf_oob_leaf_quantiles(leaves, tr$y, oob[-1], taus, 0, 1L), "do not match")
  expect_error(svforest:::.svf_oob_leaf_quantiles(leaves, tr$y, c(oob[-1], list(61L)), taus, 0, 1L),
               "between 1 and the number of rows")
})

test_that("the out-of-bag calibration is checked, reproducible for any threads, and survives saveRDS", {
  tr <- linear_noise(400, 4)
  te <- linear_noise(50, 5)
  a <- svforest(y ~ ., tr, ntree = 20, seed = 3, num_threads = 1)
  b <- svforest(y ~ ., tr, ntree = 20, seed = 3, num_threads = 2)
  expect_identical(a$conformal, b$conformal)
  iv <- predict(a, te, type = "interval")
  path <- tempfile(fileext = ".rds")
  saveRDS(a, path)
  expect_identical(predict(readRDS(path), te, type = "interval"), iv)
  # a damaged calibration is an R error, not a wrong interval
  for (damage in list(function(cal) { cal$adjust[7] <- NA; cal },
                      function(cal) { cal$method <- "guess"; cal },
                      function(cal) { cal$adjust <- cal$adjust[-1]; cal },
                      function(cal) { cal$rows <- 0; cal })) {
    broken <- a
    broken$conformal$calibration <- damage(broken$conformal$calibration)
    expect_error(predict(broken, te, type = "interval"), "'conformal' is damaged")
  }
})

test_that("a sampler with no out-of-bag rows keeps the quantile forest's own intervals", {
  tr <- linear_noise(200, 6)
  fit <- svforest(y ~ ., tr, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)  # sampler "all"
  expect_null(fit$conformal$calibration)
  expect_false(any(grepl("Intervals", capture.output(print(fit)))))
  expect_true(all(is.finite(predict(fit, tr[1:5, ], type = "interval"))))
})

test_that("a forest combined from parts refuses the parts' out-of-bag calibrations, naming the remedies", {
  tr <- linear_noise(300, 7)
  te <- linear_noise(40, 8)
  held <- linear_noise(200, 9)
  a <- svforest(y ~ ., tr, ntree = 6, seed = 4, num_threads = 1)
  b <- svforest(y ~ ., tr, ntree = 4, seed = 4, first_tree = 6, num_threads = 1)
  ab <- combine(a, b)
  expect_error(predict(ab, te, type = "interval"), "out-of-bag interval calibration belongs to a forest of 6 trees.*svforest_calibrate")
  # the remedies: held-out rows, or the quantile forest's own quantiles
  expect_identical(svforest_calibrate(ab, held[, "x", drop = FALSE], held$y)$conformal$calibration$method, "split")
  raw <- svforest_calibrate(ab, method = "none")
  whole <- svforest(y ~ ., tr, ntree = 10, seed = 4, num_threads = 1, calibrate = "none")
  expect_equal(predict(raw, te, type = "interval"), predict(whole, te, type = "interval"))
  skip_if_not_installed("future.apply")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  # svforest_future() calibrates the assembled forest, as svforest() does
  far <- svforest_future(y ~ ., data = tr, ntree = 10, seed = 4, chunks = 2)
  one <- svforest(y ~ ., tr, ntree = 10, seed = 4, num_threads = 1)
  expect_identical(predict(far, te, type = "interval"), predict(one, te, type = "interval"))
})

test_that("an out-of-bag calibration from rows that chose splits is printed as optimistic", {
  tr <- linear_noise(150, 10)
  tr$z <- withr_seed(11, stats::runif(150))
  rsvf <- svforest(y ~ ., tr, method = "rsvf", ntree = 4, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1)
  expect_true(rsvf$conformal$splitter_uses_oob)
  expect_identical(rsvf$conformal$calibration$method, "oob")
  # 4 trees: a few rows in bag in all of them have no score
  expect_lt(rsvf$conformal$calibration$rows, 150)
  expect_true(any(grepl(sprintf("out-of-bag rows, %d rows); optimistic", rsvf$conformal$calibration$rows),
                        capture.output(print(rsvf)), fixed = TRUE)))
  honest <- rsvf
  honest$conformal$splitter_uses_oob <- FALSE
  # the Intervals line (the OOB error line keeps RSVF's own mark, oob_optimistic)
  expect_false(any(grepl("optimistic", grep("Intervals:", capture.output(print(honest)), value = TRUE))))
})

friedman_rows <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * 6), n)
    data.frame(x, y = 10 * sin(pi * x[, 1] * x[, 2]) + 20 * (x[, 3] - 0.5)^2 + 10 * x[, 4] + 5 * x[, 5] +
                 stats::rnorm(n))
  })
}

test_that("out-of-bag shifts are read at the forest's size, not at each row's few out-of-bag trees", {
  # 30 trees: a row's out-of-bag quantiles come from about 5 of them; shifts
  # fitted to those scores make the forest's intervals far too wide
  coverage <- sapply(1:3, function(s) {
    tr <- friedman_rows(500, s)
    te <- friedman_rows(3000, 100 + s)
    captured <- new.env()
    trace("engine_fit", exit = bquote(assign("res", returnValue(), envir = .(captured))),
          where = asNamespace("svforest"), print = FALSE)
    fit <- svforest(y ~ ., tr, ntree = 30, seed = s, num_threads = 2)
    untrace("engine_fit", where = asNamespace("svforest"))
    qf <- fit$conformal$quantile_forest
    q <- svforest:::.svf_oob_leaf_quantiles(svforest:::qf_leaves(qf), qf$y, lapply(captured$res$oob_rows, as.integer),
                                            svforest:::conformal_grid(), svforest:::leaf_spread, 2L)
    scored <- !is.na(q[, 1])
    ensemble <- fit
    ensemble$conformal$calibration$adjust <-
      svforest:::conformal_adjustments(fit, qf$y[scored] - q[scored, , drop = FALSE], "oob")$adjust
    held <- function(m) {
      iv <- predict(m, te, type = "interval", level = 0.9)
      mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"])
    }
    c(forest = held(fit), ensemble = held(ensemble))
  })
  means <- rowMeans(coverage)
  expect_gt(means[["ensemble"]], 0.95)
  expect_lt(abs(means[["forest"]] - 0.9), 0.015)
})

test_that("shifts carried to the forest's size in shares stay on a pile of tied scores", {
  # 100 rows: 3 scores of -2 then a pile of 97 zeros; each half's fewer
  # trees spread 8 rows down to -3. The 5% order statistic (k = 5) is 0 in
  # the all-tree scores and -3 in the halves: carried in shifts it moves
  # past the pile to 0.8 * 3 = 2.4 (above every score but none); in shares
  # it stays at 0
  grid_tau <- 0.05
  sorted <- list(all = c(rep(-2, 3), rep(0, 97)), even = c(rep(-3, 8), rep(0, 92)), odd = c(rep(-3, 8), rep(0, 92)))
  expect_identical(svforest:::extrapolated_order_statistic(sorted, 0.8, grid_tau), 0)
  k <- 5
  expect_equal(sorted$all[k] - 0.8 * (sorted$even[k] - sorted$all[k]), 2.4)
  # without the halves' weight it is the conformal order statistic, ties and all
  scores <- withr_seed(1, round(stats::rnorm(57), 1))
  for (tau in c(0.001, 0.05, 0.3, 0.5, 0.9, 0.999)) {
    s <- list(all = sort(scores), even = sort(scores + 1), odd = sort(scores - 1))
    expect_identical(svforest:::extrapolated_order_statistic(s, 0, tau), svforest:::conformal_levels(sort(scores), tau))
  }
  # the halves' wider spread narrows both tails of a continuous score
  s <- withr_seed(2, stats::rnorm(400))
  wide <- list(all = sort(s), even = sort(1.3 * s), odd = sort(1.3 * s))
  expect_gt(svforest:::extrapolated_order_statistic(wide, 0.8, 0.05), svforest:::conformal_levels(sort(s), 0.05))
  expect_lt(svforest:::extrapolated_order_statistic(wide, 0.8, 0.95), svforest:::conformal_levels(sort(s), 0.95))
})

test_that("the per-level order statistics equal a sort and a count of each level's scores", {
  # the C++ column sorts and counts against sort() and findInterval(), with
  # ties, negative zero, one-row matrices and two threads
  reference <- function(all, even, odd, weight, tau) {
    n <- length(all)
    k <- if (tau >= 0.5) ceiling(tau * (n + 1) - 1e-9) else floor(tau * (n + 1) + 1e-9)
    if (k > n) return(Inf)
    if (k < 1) return(-Inf)
    share <- (1 + weight) * findInterval(all, all) - weight * (findInterval(all, even) + findInterval(all, odd)) / 2
    all[which(share >= k - 1e-9)[1]]
  }
  taus <- c(0.001, 0.05, 0.2, 0.45, 0.5, 0.7, 0.9, 0.95, 0.999)
  for (n in c(1, 2, 7, 120)) {
    scores <- withr_seed(n, lapply(c(1, 1.4, 0.8), function(sd) matrix(round(stats::rnorm(n * 9, sd = sd), 1), n)))
    scores[[1]][1] <- -0
    sorted <- lapply(scores, svforest:::.svf_sort_columns, 2L)
    for (j in 1:9) expect_identical(sorted[[1]][, j], sort(scores[[1]][, j]))
    for (weight in c(0, 0.6, 3)) {
      expected <- vapply(1:9, function(j) reference(sorted[[1]][, j], sorted[[2]][, j], sorted[[3]][, j], weight, taus[j]), 0)
      expect_identical(svforest:::extrapolated_order_statistic(list(all = sorted[[1]], even = sorted[[2]], odd = sorted[[3]]),
                                                               weight, taus, 2L), expected)
    }
  }
  expect_error(svforest:::.svf_sort_columns(matrix(c(1, NA), 2), 1L), "missing values")
})

count_rows <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::runif(n * 4), n)
    data.frame(x, y = 1 + stats::rpois(n, exp(0.5 + 2 * x[, 1] * x[, 2])))
  })
}

test_that("a skewed count with a floor keeps its lower tail: shifts carried in shares, not in order statistics", {
  # Many rows sit at the floor, so their scores pile up near zero: with the
  # halves' few trees the 5% order statistic lies well below the pile, and
  # carrying the shift itself to the forest's size moves the lower bound up
  # through the pile (about twice the nominal 5% of new rows below it)
  tails <- sapply(1:5, function(s) {
    tr <- count_rows(300, s)
    te <- count_rows(4000, 100 + s)
    captured <- new.env()
    trace("engine_fit", exit = bquote(assign("res", returnValue(), envir = .(captured))),
          where = asNamespace("svforest"), print = FALSE)
    fit <- svforest(y ~ ., tr, seed = s, num_threads = 2)
    untrace("engine_fit", where = asNamespace("svforest"))
    qf <- fit$conformal$quantile_forest
    oob <- lapply(captured$res$oob_rows, as.integer)
    even <- (seq_along(oob) - 1) %% 2 == 0
    halves <- list(all = oob, even = ifelse(even, oob, list(integer(0))), odd = ifelse(even, list(integer(0)), oob))
    scores <- lapply(halves, function(rows) {
      qf$y - svforest:::.svf_oob_leaf_quantiles(svforest:::qf_leaves(qf), qf$y, rows, svforest:::conformal_grid(),
                                                svforest:::leaf_spread, 2L)
    })
    both <- !is.na(scores$even[, 1]) & !is.na(scores$odd[, 1])
    inv <- vapply(halves, function(rows) mean(1 / tabulate(unlist(rows), nbins = nrow(tr))[both]), 0)
    weight <- (inv[["all"]] - 1 / fit$ntree) / ((inv[["even"]] + inv[["odd"]]) / 2 - inv[["all"]])
    # the same extrapolation carried in the order statistics themselves
    shift <- lapply(scores, function(s) svforest:::conformal_adjustments(fit, s[both, , drop = FALSE], "oob")$adjust)
    in_shifts <- fit
    carried <- shift$all - weight * ((shift$even + shift$odd) / 2 - shift$all)
    in_shifts$conformal$calibration$adjust <- ifelse(is.finite(carried), carried, fit$conformal$calibration$adjust)
    below <- function(m) mean(te$y < predict(m, te, type = "quantiles", quantiles = 0.05)[, 1])
    iv <- predict(fit, te, type = "interval", level = 0.9)
    c(shares = below(fit), shifts = below(in_shifts), coverage = mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"]))
  })
  means <- rowMeans(tails)
  expect_gt(means[["shifts"]], 0.075)
  expect_gt(means[["shifts"]] - means[["shares"]], 0.03)
  expect_lt(abs(means[["shares"]] - 0.05), 0.015)
  expect_lt(abs(means[["coverage"]] - 0.9), 0.025)
})

test_that("the streamed conformal shifts are those of the sorted score matrices, for any sample of rows (issue #61)", {
  # the engine streams the scores (ConformalLevels.h): bins placed from a
  # sample of rows, counted over every row, the order statistic read from
  # the bins that must hold it. A sample of 5 or 40 rows and no margin
  # around its estimate (bracket 0, 0) miss the order statistic often, so
  # the extra pass runs too; the shifts stay those of the full sort, bit for
  # bit
  grid <- svforest:::conformal_grid()
  for (data in list(friedman_rows(400, 3), count_rows(400, 4))) {
    captured <- new.env()
    trace("engine_fit", exit = bquote(assign("res", returnValue(), envir = .(captured))),
          where = asNamespace("svforest"), print = FALSE)
    fit <- svforest(y ~ ., data, seed = 5, ntree = 40, num_threads = 2)
    untrace("engine_fit", where = asNamespace("svforest"))
    qf <- fit$conformal$quantile_forest
    leaves <- svforest:::qf_leaves(qf)
    oob <- lapply(captured$res$oob_rows, as.integer)
    even <- (seq_along(oob) - 1) %% 2 == 0
    halves <- list(all = oob, even = ifelse(even, oob, list(integer(0))), odd = ifelse(even, list(integer(0)), oob))
    scores <- lapply(halves, function(rows) {
      qf$y - svforest:::.svf_oob_leaf_quantiles(leaves, qf$y, rows, grid, svforest:::leaf_spread, 1L)
    })
    scored <- svforest:::.svf_oob_scored(leaves, qf$y, oob, even)
    expect_identical(scored, lapply(scores, function(s) !is.na(s[, 1])))
    both <- which(scored$even & scored$odd)
    k <- svforest:::order_statistic_ranks(length(both), grid)
    sorted <- lapply(scores, function(s) apply(s[both, , drop = FALSE], 2, sort))
    inside <- k >= 1 & k <= length(both)  # R maps the others to -Inf and Inf
    for (weight in c(0, 0.7)) {
      want <- svforest:::.svf_extrapolated_order_statistics(sorted$all, sorted$even, sorted$odd, weight, k, 1L)
      for (sample_rows in c(5L, 40L, 16384L)) for (bracket in list(c(3, 8), c(0, 0))) {
        got <- svforest:::.svf_oob_conformal(leaves, qf$y, oob, even, both, grid, k, weight, svforest:::leaf_spread,
                                             2L, sample_rows, bracket)
        expect_identical(got[inside], want[inside])
        expect_true(all(is.na(got[!inside])))
      }
    }
    # without halves: the k-th smallest score of every scored row
    rows <- which(scored$all)
    k <- svforest:::order_statistic_ranks(length(rows), grid)
    want <- svforest:::conformal_levels(apply(scores$all[rows, ], 2, sort), grid)
    got <- svforest:::.svf_oob_conformal(leaves, qf$y, oob, logical(), rows, grid, k, 0, svforest:::leaf_spread, 1L, 7L,
                                         c(0, 0))
    expect_identical(ifelse(k > length(rows), Inf, ifelse(k < 1, -Inf, got)), want)
    # some levels alone (fit_conformal_oob() asks for those the halves leave
    # infinite): each level's shift is its own
    at <- c(1:3, 101, length(grid) - 1, length(grid))
    sub <- svforest:::.svf_oob_conformal(leaves, qf$y, oob, logical(), rows, grid[at], k[at], 0, svforest:::leaf_spread,
                                         1L, 7L, c(0, 0))
    expect_identical(sub, got[at])
    # new rows' scores (a calibration on held-out rows)
    new <- friedman_rows(300, 9)
    new_leaves <- svforest:::forest_leaves(fit$forest, svforest:::new_engine_data(fit, new[, -ncol(new)]), 1L)
    q <- svforest:::leaf_quantiles(qf, new_leaves, grid, 1L)
    k <- svforest:::order_statistic_ranks(nrow(new), grid)
    want <- svforest:::conformal_levels(apply(new$y - q, 2, sort), grid)
    got <- svforest:::.svf_new_rows_conformal(leaves, qf$y, new_leaves, new$y, grid, k, svforest:::leaf_spread, 2L, 11L)
    expect_identical(ifelse(k > nrow(new), Inf, ifelse(k < 1, -Inf, got)), want)
  }
  expect_error(svforest:::.svf_oob_conformal(leaves, qf$y, oob, even, c(3L, 2L), grid, k, 0, 0, 1L), "increasing")
  expect_error(svforest:::.svf_oob_conformal(leaves, qf$y, oob, even, 1:3, grid, k, -1, 0, 1L), "at least 0")
  expect_error(svforest:::.svf_oob_conformal(leaves, qf$y, oob[-1], even, 1:3, grid, k, 0, 0, 1L), "do not match")
  expect_error(svforest:::.svf_oob_scored(leaves, qf$y, oob, even[-1]), "do not match")
})
