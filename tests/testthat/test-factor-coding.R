# factor_coding (R/factor-coding.R, src/core/forest/LevelValues.h): factor
# levels coded per tree by the outcome of the tree's in-bag rows.

# Two classes; level k of `a` holds class "yes" in share k / 8 of its rows,
# the levels in scrambled order.
factor_coding_data <- function(n = 400, seed = 1) {
  set.seed(seed)
  lev <- c("h", "c", "f", "a", "g", "b", "e", "d")
  a <- factor(sample(lev, n, TRUE), levels = sort(lev))
  share <- match(as.character(a), lev) / 8
  data.frame(a = a, b = stats::rnorm(n), y = factor(ifelse(stats::runif(n) < share, "yes", "no")))
}

# The level values a tree of all rows (sampler "all") derives: shrunk means
# of `value` per level, levels of fewer than 5 rows at the overall mean;
# the overall value first.
expected_levels <- function(level, value) {
  overall <- mean(value)
  rows <- tabulate(level, nlevels(level))
  sums <- vapply(split(value, level), sum, 0)
  c(overall, ifelse(rows < 5, overall, (sums + 5 * overall) / (rows + 5)))
}

test_that("the default classification fit holds a factor as level codes that each tree codes", {
  d <- factor_coding_data()
  fit <- svforest(y ~ ., d, seed = 1, ntree = 5, num_threads = 1)
  expect_identical(fit$params$factor_coding, "order")
  expect_identical(fit$design$feature_names, c("a", "b"))
  x <- svforest:::new_engine_data(fit, d)$x
  expect_equal(unname(x[, "a"]), as.double(as.integer(d$a)))
  tree <- fit$forest$trees[[1]]
  expect_identical(tree$factor_int, c(0L, 8L))
  # each tree its own values, from its own in-bag rows
  expect_false(identical(tree$factor_real, fit$forest$trees[[2]]$factor_real))
  # with every row in bag: the shrunk share of the second class
  all_rows <- svforest(y ~ ., d, seed = 1, ntree = 1, num_threads = 1, sampler = "all")
  expect_equal(all_rows$forest$trees[[1]]$factor_real, unname(expected_levels(d$a, d$y == "yes")))
  # the presets keep one indicator column per level and no level values
  rsvt <- svforest(y ~ ., d, method = "rsvt", seed = 1, num_threads = 1)
  expect_identical(rsvt$params$factor_coding, "indicator")
  expect_identical(rsvt$design$feature_names, c(paste0("a", levels(d$a)), "b"))
  expect_null(rsvt$forest$trees[[1]]$factor_int)
})

test_that("an ID-like factor does not leak labels into out-of-bag error", {
  # no signal at all: 150 levels on 400 rows, most with 1 to 4 rows
  set.seed(3)
  n <- 400
  d <- data.frame(id = factor(sprintf("i%03d", sample.int(150, n, TRUE))), b = stats::rnorm(n),
                  y = factor(sample(c("p", "q"), n, TRUE)))
  fit <- svforest(y ~ ., d, seed = 1, ntree = 50, num_threads = 1)
  # one order for all rows would rank each rare level by its own labels
  # (out-of-bag error near 0.2); per-tree values keep it near chance
  expect_gt(fit$oob_error, 0.4)
  # levels with fewer than 5 rows take the overall value: rare levels alone
  # give no cut
  all_rows <- svforest(y ~ ., d, seed = 1, ntree = 1, num_threads = 1, sampler = "all")
  values <- all_rows$forest$trees[[1]]$factor_real
  rare <- tabulate(d$id, nlevels(d$id)) < 5
  expect_true(all(values[-1][rare] == values[1]))
})

test_that("more than two classes are valued along the first principal component of the class shares", {
  set.seed(2)
  n <- 600
  a <- factor(sample(c("p", "q", "r", "s"), n, TRUE))
  t <- c(p = 0.9, q = 0.1, r = 0.6, s = 0.3)[as.character(a)]
  y <- factor(ifelse(stats::runif(n) < t, "A", ifelse(stats::runif(n) < 0.5, "B", "C")))
  d <- data.frame(a = a, b = stats::rnorm(n), y = y)
  fit <- svforest(y ~ ., d, seed = 1, ntree = 1, num_threads = 1, sampler = "all")
  values <- fit$forest$trees[[1]]$factor_real
  shares <- sapply(levels(y), function(k) expected_levels(a, y == k))  # (1 + levels) x classes
  wts <- tabulate(a, 4) / n
  centred <- sweep(shares[-1, ], 2, colSums(shares[-1, ] * wts))
  v <- eigen(crossprod(centred * sqrt(wts)))$vectors[, 1]
  if (v[which.max(abs(v))] < 0) v <- -v
  expect_equal(values, unname(drop(shares %*% v)))
  # the values follow the share of class A
  expect_identical(order(values[-1]), order(tapply(y == "A", a, mean)))
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

test_that("regression codes factors of more than 10 levels per tree by the mean, and keeps indicators for fewer", {
  d <- factor_coding_data()
  set.seed(4)
  d$many <- factor(sprintf("m%02d", sample.int(30, nrow(d), TRUE)))
  d$y <- as.numeric(d$a) * 2 + d$b + as.integer(d$many) / 10
  fit <- svforest(y ~ ., d, seed = 1, ntree = 5, num_threads = 1)
  expect_identical(fit$params$factor_coding, "auto")
  expect_identical(fit$design$feature_names, c(paste0("a", levels(d$a)), "b", "many"))
  expect_identical(fit$forest$trees[[1]]$factor_int, c(9L, 30L))
  all_rows <- svforest(y ~ ., d, seed = 1, ntree = 1, num_threads = 1, sampler = "all")
  scaled <- (d$y - all_rows$outcome_center) / all_rows$outcome_scale
  expect_equal(all_rows$forest$trees[[1]]$factor_real, unname(expected_levels(d$many, scaled)))
  ordered <- svforest(y ~ ., d, seed = 1, ntree = 5, num_threads = 1, factor_coding = "order")
  expect_identical(ordered$design$feature_names, c("a", "b", "many"))
  expect_identical(ordered$forest$trees[[1]]$factor_int, c(0L, 8L, 2L, 30L))
})

test_that("a factor in an interaction keeps its indicators; the coding survives saving, threads and x/y input", {
  d <- factor_coding_data()
  inter <- svforest(y ~ a * b, d, seed = 1, num_threads = 1)
  expect_true(all(paste0("a", levels(d$a)) %in% inter$design$feature_names))
  expect_null(inter$forest$trees[[1]]$factor_int)
  fit <- svforest(y ~ ., d, seed = 1, ntree = 20, num_threads = 1)
  p <- predict(fit, d, type = "prob")
  expect_identical(svforest(y ~ ., d, seed = 1, ntree = 20, num_threads = 2)$forest, fit$forest)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), d, type = "prob"), p)
  xy <- svforest(d[c("a", "b")], d$y, seed = 1, ntree = 20, num_threads = 1)
  expect_identical(predict(xy, d, type = "prob"), p)
  expect_identical(sort(names(svforest_importance(fit, d))), c("a", "b"))
  # a level without training rows reads as the tree's overall value; an
  # unseen level is still an error
  d2 <- d
  d2$a <- factor(d2$a, levels = c(levels(d$a), "z"))
  with_empty <- svforest(y ~ ., d2, seed = 1, ntree = 20, num_threads = 1)
  new <- d2[1:2, ]
  new$a[1] <- "z"
  expect_identical(with_empty$forest$trees[[1]]$factor_int, c(0L, 9L))
  expect_true(all(vapply(with_empty$forest$trees, function(t) t$factor_real[10] == t$factor_real[1], TRUE)))
  expect_length(predict(with_empty, new), 2)
  bad <- d[1:3, ]
  bad$a <- factor(c("h", "zz", "a"))
  expect_error(predict(fit, bad), "not seen in training")
  expect_error(svforest(y ~ ., d, factor_coding = "levels"), "`factor_coding` must be one of")
  # damaged level values are caught before prediction
  broken <- fit
  broken$forest$trees[[1]]$factor_real <- broken$forest$trees[[1]]$factor_real[-1]
  expect_error(predict(broken, d), "level values")
})

test_that("a model of the global order (before per-tree values) predicts as it did", {
  old <- readRDS(test_path("fixtures", "model-order-global.rds"))
  expect_null(old$model$forest$trees[[1]]$factor_int)
  expect_identical(predict(old$model, old$data, type = "prob"), old$prob)
})
