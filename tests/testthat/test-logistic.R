# Logistic regression leaves (leaf = "logistic").

test_that("a one-leaf logistic model is L2-regularised logistic regression on the scaled predictors", {
  set.seed(3)
  n <- 400
  x <- matrix(rnorm(n * 3), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  y <- factor(ifelse(x[, 1] - 0.5 * x[, 2] + rnorm(n) > 0, "yes", "no"))
  # one leaf (min_leaf_size above n), C large and no class weights: close to
  # the unregularised maximum-likelihood fit
  fit <- svforest(x, y, method = "rsvt", leaf = "logistic", ntree = 1, min_leaf_size = n + 1, cost = 1e4,
                  cv_folds = 1, balanced = FALSE, seed = 1, num_threads = 1)
  expect_identical(tree_leaf_kinds(fit$forest$trees[[1]]), "logistic")
  p <- predict(fit, x, type = "prob")[, "yes"]
  ref <- stats::fitted(stats::glm(y ~ x, family = stats::binomial()))
  expect_equal(unname(p), unname(ref), tolerance = 0.01)
  expect_true(all(p > 0 & p < 1))
  expect_identical(as.character(predict(fit, x)), ifelse(p > 0.5, "yes", "no"))
  # a small C shrinks the probabilities towards the middle
  small <- svforest(x, y, method = "rsvt", leaf = "logistic", ntree = 1, min_leaf_size = n + 1, cost = 1e-3,
                    cv_folds = 1, balanced = FALSE, seed = 1, num_threads = 1)
  expect_lt(max(abs(predict(small, x, type = "prob")[, "yes"] - 0.5)), max(abs(p - 0.5)))
})

test_that("logistic leaves predict probabilities, as accurate as SVM leaves", {
  d <- xor_linear(1200, p = 4, noise = 0.2, seed = 5)
  test <- xor_linear(3000, p = 4, noise = 0.2, seed = 6)
  lr <- svforest(method = "rsvt", d$x, d$y, leaf = "logistic", ntree = 5, seed = 1, num_threads = 1)
  svm <- svforest(method = "rsvt", d$x, d$y, leaf = "linear_svm", ntree = 5, seed = 1, num_threads = 1)
  expect_true(all(unlist(lapply(lr$forest$trees, tree_leaf_kinds)) %in% c("logistic", "constant")))
  acc <- function(f) mean(predict(f, test$x) == test$y)
  expect_gt(acc(lr), acc(svm) - 0.03)
  # a tree's leaf gives a probability, not a vote: fractional values
  one <- svforest(method = "rsvt", d$x, d$y, leaf = "logistic", ntree = 1, seed = 1, num_threads = 1)
  p <- predict(one, test$x, type = "prob")
  expect_equal(unname(rowSums(p)), rep(1, nrow(p)))
  expect_gt(mean(p[, 1] > 0.01 & p[, 1] < 0.99), 0.5)
  # three classes: one-vs-rest probabilities normalised to sum to 1
  ir <- svforest(method = "rsvt", Species ~ ., data = iris, leaf = "logistic", ntree = 3, seed = 1, num_threads = 1)
  pi <- predict(ir, iris, type = "prob")
  expect_equal(unname(rowSums(pi)), rep(1, 150))
  expect_gt(mean(predict(ir, iris) == iris$Species), 0.9)
})
