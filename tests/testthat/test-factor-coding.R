# factor_coding (R/factor_coding.R): factor levels ranked by the outcome.

# Two classes; level k of `a` holds class "yes" in share k / 8 of its rows,
# the levels in scrambled order.
factor_coding_data <- function(n = 400, seed = 1) {
  set.seed(seed)
  lev <- c("h", "c", "f", "a", "g", "b", "e", "d")
  a <- factor(sample(lev, n, TRUE), levels = sort(lev))
  share <- match(as.character(a), lev) / 8
  data.frame(a = a, b = stats::rnorm(n), y = factor(ifelse(stats::runif(n) < share, "yes", "no")))
}

test_that("the default classification fit codes a factor by its class shares", {
  d <- factor_coding_data()
  fit <- svforest(y ~ ., d, seed = 1, num_threads = 1)
  expect_identical(fit$params$factor_coding, "order")
  expect_identical(fit$design$feature_names, c("a", "b"))
  share <- tapply(d$y == "yes", d$a, mean)
  codes <- fit$design$contrasts$a[, 1]
  expect_identical(unname(codes), as.double(rank(share, ties.method = "first")))
  # the design of new data carries the codes, in the fit's column order
  x <- svforest:::new_engine_data(fit, d)$x
  expect_identical(colnames(x), c("a", "b"))
  expect_equal(unname(x[, "a"]), unname(codes[as.character(d$a)]))
  expect_equal(unname(x[, "b"]), d$b)
  # the presets keep one indicator column per level
  rsvt <- svforest(y ~ ., d, method = "rsvt", seed = 1, num_threads = 1)
  expect_identical(rsvt$params$factor_coding, "indicator")
  expect_identical(rsvt$design$feature_names, c(paste0("a", levels(d$a)), "b"))
})

test_that("the order comes from the rows the trees see, and levels without rows rank as all rows", {
  d <- factor_coding_data()
  d$a <- factor(d$a, levels = c(levels(d$a), "z"))  # a level without rows
  w <- rep(1, nrow(d))
  w[d$a %in% c("h", "c")] <- 0  # the two levels of fewest "yes" leave the fit
  fit <- svforest(y ~ ., d, seed = 1, num_threads = 1, case_weights = w)
  kept <- d[w > 0, ]
  share <- tapply(kept$y == "yes", kept$a, mean)
  share[is.na(share)] <- mean(kept$y == "yes")
  expect_identical(unname(fit$design$contrasts$a[, 1]), as.double(rank(share, ties.method = "first")))
  expect_identical(rownames(fit$design$contrasts$a), levels(d$a))
})

test_that("more than two classes are ordered along the first principal component of the class shares", {
  set.seed(2)
  n <- 600
  a <- factor(sample(c("p", "q", "r", "s"), n, TRUE))
  # class shares of the levels lie on a line from class A to class C
  t <- c(p = 0.9, q = 0.1, r = 0.6, s = 0.3)[as.character(a)]
  y <- factor(ifelse(stats::runif(n) < t, "A", ifelse(stats::runif(n) < 0.5, "B", "C")))
  d <- data.frame(a = a, b = stats::rnorm(n), y = y)
  fit <- svforest(y ~ ., d, seed = 1, num_threads = 1)
  codes <- fit$design$contrasts$a[, 1]
  # ranks follow the share of class A (up or down the component)
  share_a <- tapply(d$y == "A", d$a, mean)
  expect_true(identical(order(codes), order(share_a)) || identical(order(codes), rev(order(share_a))))
  # the same direction as the weighted principal component computed here
  shares <- prop.table(table(d$a, d$y), 1)
  wts <- as.numeric(table(d$a)) / n
  centred <- sweep(unclass(shares), 2, colSums(unclass(shares) * wts))
  v <- eigen(crossprod(centred * sqrt(wts)))$vectors[, 1]
  if (v[which.max(abs(v))] < 0) v <- -v
  expect_identical(unname(codes), as.double(rank(drop(unclass(shares) %*% v), ties.method = "first")))
})

test_that("ordered levels help where a grouping of many levels carries the signal", {
  # 30 levels, half of them "hot", and a numeric predictor with a step
  # effect. A cut on the coded column sends hot and cold levels apart at
  # once; with indicators a cut isolates one level, or a hyperplane must
  # find the grouping. Mean over three data sets.
  make <- function(n, seed) {
    set.seed(seed)
    a <- factor(sprintf("L%02d", sample.int(30, n, TRUE)), levels = sprintf("L%02d", 1:30))
    hot <- as.integer(a) %% 2 == 0
    b <- stats::rnorm(n)
    noise <- as.data.frame(matrix(stats::rnorm(n * 3), n, 3))
    p_yes <- stats::plogis(3 * (b > 0.5) - 3 * (b < -0.5) + 3 * hot - 1.5)
    cbind(noise, b = b, a = a, y = factor(ifelse(stats::runif(n) < p_yes, "yes", "no")))
  }
  gain <- vapply(1:3, function(s) {
    train <- make(1000, 10 + s)
    test <- make(3000, 20 + s)
    acc <- function(coding) {
      fit <- svforest(y ~ ., train, seed = 1, num_threads = 2, factor_coding = coding)
      mean(predict(fit, test) == test$y)
    }
    acc("order") - acc("indicator")
  }, 0)
  expect_gt(mean(gain), 0.003)
})

test_that("regression keeps indicators by default and orders by the mean on request", {
  d <- factor_coding_data()
  d$y <- as.numeric(d$a) * 2 + d$b
  fit <- svforest(y ~ ., d, seed = 1, num_threads = 1)
  expect_identical(fit$params$factor_coding, "indicator")
  expect_identical(fit$design$feature_names, c(paste0("a", levels(d$a)), "b"))
  ordered <- svforest(y ~ ., d, seed = 1, num_threads = 1, factor_coding = "order")
  means <- tapply(d$y, d$a, mean)
  expect_identical(unname(ordered$design$contrasts$a[, 1]), as.double(rank(means, ties.method = "first")))
  expect_identical(ordered$design$feature_names, c("a", "b"))
})

test_that("a factor in an interaction keeps its indicators; the coding survives saving and x/y input", {
  d <- factor_coding_data()
  inter <- svforest(y ~ a * b, d, seed = 1, num_threads = 1)
  expect_true(all(paste0("a", levels(d$a)) %in% inter$design$feature_names))
  fit <- svforest(y ~ ., d, seed = 1, num_threads = 1)
  p <- predict(fit, d, type = "prob")
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), d, type = "prob"), p)
  xy <- svforest(d[c("a", "b")], d$y, seed = 1, num_threads = 1)
  expect_identical(predict(xy, d, type = "prob"), p)
  # importance names the factor's column after the factor
  expect_identical(sort(names(svforest_importance(fit, d))), c("a", "b"))
  # unseen levels are still an error
  bad <- d[1:3, ]
  bad$a <- factor(c("h", "zz", "a"))
  expect_error(predict(fit, bad), "not seen in training")
  expect_error(svforest(y ~ ., d, factor_coding = "levels"), "`factor_coding` must be one of")
})
