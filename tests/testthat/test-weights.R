# Case and class weights: checks, their meaning for every method (zero
# weight = removal, integer weight ~ replication, the draws follow the
# weights), reproducibility, and the parsnip and caret routes.

weights_data <- function(n = 160, seed = 1) {
  set.seed(seed)
  x1 <- rnorm(n)
  x2 <- rnorm(n)
  y <- factor(ifelse(x1 + 0.5 * x2 + rnorm(n, sd = 0.8) > 0.6, "b", "a"))
  data.frame(x1 = x1, x2 = x2, y = y)
}

test_that("bad case and class weights give clear errors", {
  d <- weights_data(40)
  fit <- function(...) svforest(y ~ ., d, method = "rsvt", ntree = 2, seed = 1, num_threads = 1, ...)
  expect_error(fit(case_weights = rep(1, 39)), "`case_weights` has 39 values but the training data have 40 rows")
  expect_error(fit(case_weights = c(-1, rep(1, 39))), "non-negative; 1 are negative")
  expect_error(fit(case_weights = c(NA, rep(1, 39))), "`case_weights` has 1 missing values")
  expect_error(fit(case_weights = c(Inf, rep(1, 39))), "must be finite")
  expect_error(fit(case_weights = rep(0, 40)), "all zero")
  expect_error(fit(case_weights = rep("1", 40)), "must be a numeric vector")
  expect_error(fit(case_weights = factor(rep(1, 40))), "must be a numeric vector")
  expect_error(fit(case_weights = ifelse(d$y == "a", 0, 1)), "hold only one class")
  expect_error(fit(class_weights = c(1, 2)), "named by the classes")
  expect_error(fit(class_weights = c(a = 1, c = 2)), '"c", which is not a class')
  expect_error(fit(class_weights = c(a = 1)), 'no weight for class "b"')
  expect_error(fit(class_weights = c(a = 0, b = 1)), "positive and finite")
  expect_error(fit(class_weights = c(a = 1, b = 2), balanced = TRUE), "either `class_weights` or `balanced`")
  expect_error(svforest(mpg ~ ., mtcars, ntree = 2, seed = 1, num_threads = 1, class_weights = c(a = 1)),
               "`class_weights` are for classification")
})

test_that("equal weights give exactly the unweighted fit", {
  d <- weights_data(60)
  for (m in all_methods()) {
    a <- fit_method(m, y ~ ., data = d)
    b <- fit_method(m, y ~ ., data = d, case_weights = rep(2.5, 60))
    expect_identical(b$forest, a$forest, info = m)
    expect_null(b$sampling_weights)
  }
})

test_that("a case weight of zero is the same as removing the row, for every method", {
  d <- weights_data(80)
  w <- rep(1, 80)
  w[c(3, 10:14, 50)] <- 0
  for (m in all_methods()) {
    a <- fit_method(m, y ~ ., data = d, case_weights = w)
    b <- fit_method(m, y ~ ., data = d[w > 0, ])
    expect_identical(a$forest, b$forest, info = m)
    expect_identical(predict(a, d, type = "prob"), predict(b, d, type = "prob"), info = m)
    expect_identical(a$num_rows, 73L)
    expect_identical(a$rows_used, w > 0)
  }
  r <- svforest(mpg ~ ., mtcars, method = "rsvt", ntree = 2, seed = 1, num_threads = 1,
                case_weights = rep(c(1, 0), 16))
  s <- svforest(mpg ~ ., mtcars[c(TRUE, FALSE), ], method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(predict(r, mtcars), predict(s, mtcars))
})

test_that("integer weights repeat rows: the sampler 'all' gives exactly the replicated fit", {
  d <- weights_data(60)
  w <- rep(1:3, 20)
  rep_rows <- rep(seq_len(60), w)
  # "all" repeats each row `weight` times, in row order, as rep() does
  a <- fit_method("psvm", y ~ ., data = d, case_weights = w)
  b <- fit_method("psvm", y ~ ., data = d[rep_rows, ])
  expect_identical(a$forest, b$forest)
})

test_that("integer weights match replication up to sampling for the bootstrap and subsample methods", {
  d <- weights_data(300, seed = 2)
  test <- weights_data(2000, seed = 3)
  w <- rep(c(1, 3), 150)
  rep_rows <- rep(seq_len(300), w)
  for (m in c("rsvf", "transform", "rsvt")) {
    a <- fit_method(m, y ~ ., data = d, case_weights = w, ntree = 10)
    b <- fit_method(m, y ~ ., data = d[rep_rows, ], ntree = 10)
    acc_a <- mean(predict(a, test) == test$y)
    acc_b <- mean(predict(b, test) == test$y)
    if (m != "transform") expect_gt(acc_a, 0.75, label = m)  # (transform is weak on this problem)
    expect_lt(abs(acc_a - acc_b), 0.04, label = m)
  }
})

test_that("the bootstrap draws rows in proportion to their weights; the subsample repeats them", {
  d <- weights_data(200)
  heavy <- 1:20
  w <- rep(1, 200)
  w[heavy] <- 50
  fit <- fit_method("rsvf", y ~ ., data = d, case_weights = w, ntree = 20)
  out <- rowSums(fit$oob_votes)
  # a heavy row is in (nearly) every tree's draw, so (nearly) never out of bag
  expect_lt(mean(out[heavy]), 0.25 * mean(out[-heavy]))
  plain <- fit_method("rsvf", y ~ ., data = d, ntree = 20)
  expect_gt(mean(rowSums(plain$oob_votes)[heavy]), 0.5 * mean(rowSums(plain$oob_votes)[-heavy]))
  # the subsample draws rows as without weights (same out-of-bag rows) ...
  sub <- fit_method("transform", y ~ ., data = d, case_weights = w, ntree = 5)
  sub_plain <- fit_method("transform", y ~ ., data = d, ntree = 5)
  expect_identical(rowSums(sub$oob_votes) > 0, rowSums(sub_plain$oob_votes) > 0)
  # ... and a heavy row counts 50 times: a tree's root holds more rows
  expect_gt(tree_leaf_sizes(sub$forest$trees[[1]])[1] + 0, 0)
  expect_gt(sum(tree_leaf_sizes(sub$forest$trees[[1]])), sum(tree_leaf_sizes(sub_plain$forest$trees[[1]])))
})

test_that("class weights move predictions toward the heavier class, for every method", {
  set.seed(4)
  n <- 300
  x1 <- rnorm(n)
  y <- factor(ifelse(x1 + rnorm(n) > 1.2, "rare", "common"))
  d <- data.frame(x1 = x1, x2 = rnorm(n), y = y)
  test <- data.frame(x1 = seq(-1, 3, length.out = 200), x2 = 0)
  for (m in all_methods()) {
    plain <- fit_method(m, y ~ ., data = d, balanced = if (m %in% c("rsvt", "rsvf")) FALSE)
    heavy <- fit_method(m, y ~ ., data = d, class_weights = c(common = 1, rare = 8))
    if (m == "transform") {
      # (with replicated rows transform's deep trees sharpen their leaves
      # around the rare rows rather than move the boundary on this grid;
      # its out-of-bag votes show the weights)
      # (one seed's forest of 20 trees is noisy: three seeds, each moving)
      share <- function(f) sum(f$oob_votes[, 2]) / sum(f$oob_votes)  # column 2: "rare"
      moved <- vapply(1:3, function(seed) {
        share(fit_method(m, y ~ ., data = d, class_weights = c(common = 1, rare = 8), ntree = 20, seed = seed)) -
          share(fit_method(m, y ~ ., data = d, ntree = 20, seed = seed))
      }, 0)
      expect_true(all(moved > 0.01))
      expect_gt(mean(moved), 0.02)
    } else {
      expect_gt(mean(predict(heavy, test) == "rare"), mean(predict(plain, test) == "rare"), label = m)
    }
    expect_identical(heavy$class_weights, c(common = 1, rare = 8))
  }
})

# threads, saveRDS and combine() of weighted fits: test-contract-matrix.R
test_that("forests with other case weights are not combined", {
  d <- weights_data(120)
  w <- runif(120, 0.2, 3)
  p1 <- svforest(y ~ ., d, method = "rsvf", ntree = 2, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1,
                 case_weights = w)
  other <- svforest(y ~ ., d, method = "rsvf", ntree = 2, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1,
                    first_tree = 2)
  expect_error(combine(p1, other), "different case or class weights")
})

test_that("out-of-bag importance of a weighted fit redraws the weighted samples", {
  d <- weights_data(150)
  w <- rep(c(0, 1, 2), 50)
  fit <- svforest(y ~ ., d, method = "rsvf", ntree = 4, n_theta = 2, n_tau = 2, seed = 1, num_threads = 1,
                  case_weights = w, importance = "permutation")
  again <- svforest_importance(fit, d[, c("x1", "x2")], d$y, oob = TRUE, num_threads = 1)
  expect_equal(as.vector(again), as.vector(fit$variable_importance))
  expect_gt(fit$variable_importance[["x1"]], fit$variable_importance[["x2"]])
})

test_that("regression forests take case weights", {
  set.seed(5)
  n <- 200
  x <- runif(n)
  y <- ifelse(seq_len(n) <= 100, 2 * x, -2 * x) + rnorm(n, sd = 0.05)
  d <- data.frame(x = x, y = y)
  # all weight on the first half: the fit follows y = 2x
  w <- rep(c(1, 1e-3), each = 100)
  for (m in c("rsvt", "rsvf", "tdsvm")) {
    args <- if (m == "tdsvm") list(cost = 1, gamma = 1, sigma = 50) else list()
    fit <- do.call(svforest, c(list(y ~ x, d, method = m, seed = 1, num_threads = 1, ntree = 3,
                                    case_weights = w), args))
    pred <- predict(fit, data.frame(x = c(0.25, 0.75)))
    expect_equal(pred, c(0.5, 1.5), tolerance = 0.3, info = m)
  }
})

test_that("a damaged sampling weight vector is caught", {
  d <- weights_data(40)
  fit <- svforest(y ~ ., d, ntree = 2, seed = 1, num_threads = 1, case_weights = rep(1:2, 20))
  fit$sampling_weights[3] <- -1
  expect_error(predict(fit, d), "'sampling_weights' is damaged")
})

test_that("parsnip's case weights and caret's weights reach svforest", {
  d <- weights_data(80)
  w <- rep(c(1, 3), 40)
  direct <- svforest(y ~ ., d, method = "rsvt", ntree = 3, seed = 7, num_threads = 1, case_weights = w)
  if (requireNamespace("parsnip", quietly = TRUE) && requireNamespace("hardhat", quietly = TRUE)) {
    spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"), "svforest",
                                method = "rsvt", seed = 7)
    pf <- parsnip::fit(spec, y ~ ., data = d, case_weights = hardhat::importance_weights(w))
    expect_identical(parsnip::extract_fit_engine(pf)$forest, direct$forest)
  }
  if (requireNamespace("caret", quietly = TRUE)) {
    tr <- caret::train(d[, c("x1", "x2")], d$y, method = svforest_caret("rsvt", ntree = 3),
                       weights = w, trControl = caret::trainControl(method = "none"),
                       tuneGrid = data.frame(leaf_size_factor = 1))
    expect_identical(tr$finalModel$sampling_weights, as.double(w))
  }
})
