# Range checks of the method parameters and the empty-level rule in detail.
# The per-method bad-input catalogue is test-bad-input.R.

x <- as.matrix(iris[, 1:4])
y <- iris$Species
fit1 <- function(...) svforest(x, y, method = "rsvt", ntree = 1, seed = 1, num_threads = 1, ...)

test_that("bad method parameters are errors naming them", {
  expect_error(fit1(cost = -1), "`cost` must be a vector of finite numbers greater than 0")
  expect_error(fit1(cost = c(1, 0)), "`cost`")
  expect_error(fit1(cost = numeric()), "`cost`")
  expect_error(fit1(cost = c(1, NA)), "`cost`")
  expect_error(fit1(cost = Inf), "`cost`")
  expect_error(fit1(cost = "1"), "`cost`")
  for (bad in list(0, 21, 1.5, NA, "3", -3)) {
    expect_error(fit1(cv_folds = bad), "`cv_folds` must be a single whole number between 1 and 20")
  }
  expect_error(fit1(split_rule = "foo"), "`split_rule` must be one of \"admissible\", \"published\"")
  expect_error(fit1(split_rule = 1), "`split_rule`")
  expect_error(fit1(sampler = "foo"), "`sampler` must be one of")
  expect_error(fit1(sample_fraction = 0), "`sample_fraction`")
  expect_error(fit1(sample_fraction = 1.5), "`sample_fraction`")
  expect_error(fit1(splitter = "oblique"), "`splitter` must be one of")
  expect_error(fit1(leaf = "rbf"), "`leaf` must be one of")
  expect_error(fit1(aggregation = "mean"), "`aggregation` must be one of")
  expect_error(fit1(min_leaf_size = 0), "`min_leaf_size`")
  expect_error(fit1(min_leaf_size = 2.5), "`min_leaf_size`")
  expect_error(fit1(leaf_size_factor = 0), "`leaf_size_factor`")
  expect_error(fit1(leaf_size_factor = -1), "`leaf_size_factor`")
  expect_error(fit1(max_depth = -1), "`max_depth`")
  expect_error(fit1(min_class_rows = 1), "`min_class_rows`")
  expect_error(fit1(balanced = "yes"), "`balanced` must be TRUE, FALSE or \"task\"", fixed = TRUE)
  expect_error(fit1(scale = NA), "`scale` must be one of \"minmax\", \"rank\", \"auto\", \"none\"", fixed = TRUE)
  expect_error(fit1(tolerance = 0), "`tolerance`")
  expect_error(fit1(cv_tolerance = -0.1), "`cv_tolerance`")
})

test_that("an empty outcome level gives a warning; the model keeps but never predicts it", {
  d <- xor_linear(400, seed = 41)
  ye <- factor(as.character(d$y), levels = c("neg", "mid", "pos"))
  expect_warning(fit <- svforest(d$x, ye, ntree = 4, seed = 1, num_threads = 1),
                 "Level \"mid\" of `y` has no rows")
  expect_identical(fit$levels, c("neg", "mid", "pos"))
  expect_identical(fit$class_counts, as.vector(table(ye)))
  test <- xor_linear(500, seed = 42)
  cls <- predict(fit, test$x, num_threads = 1)
  expect_identical(levels(cls), c("neg", "mid", "pos"))
  expect_false(any(cls == "mid"))
  expect_gt(accuracy(cls, test$y), 0.8)
  prob <- predict(fit, test$x, type = "prob", num_threads = 1)
  expect_identical(colnames(prob), c("neg", "mid", "pos"))
  expect_true(all(prob[, "mid"] == 0))
  expect_equal(rowSums(prob), rep(1, 500))
  votes <- predict(fit, test$x, type = "votes", num_threads = 1)
  expect_true(all(votes[, "mid"] == 0L))
  # two empty levels: one warning naming both
  y2 <- factor(as.character(d$y), levels = c("a", "neg", "b", "pos"))
  expect_warning(svforest(d$x, y2, ntree = 1, seed = 1, num_threads = 1),
                 "Levels \"a\", \"b\" of `y` have no rows")
})

test_that("a parameter of a part the fit does not use is an error naming the part", {
  expect_error(fit1(nu = 10), "`nu` is a parameter of the psvm splitter, which this fit does not use")
  expect_error(svforest(x, y, method = "psvm", ntree = 1, cost = 2),
               "`cost` is a parameter of the oob_svm splitter and the linear_svm, logistic, kernel_svm, linear_svr and kernel_svr leaves, none of which this fit uses")
  # NULL is the default, not a use
  expect_silent(fit <- svforest(x, y, method = "psvm", ntree = 1, seed = 1, num_threads = 1, cost = NULL))
  # the model stores the parameters of its parts only
  expect_false(any(c("cost", "min_leaf_size", "sigma", "leaf_size_factor") %in% names(fit$params)))
  expect_true(all(c("nu", "m_max", "n_min", "max_depth", "sample_fraction") %in% names(fit$params)))
  # a part chosen by the user brings its parameters
  lin <- svforest(x, y, method = "psvm", leaf = "linear_svm", cost = 2, ntree = 1, seed = 1, num_threads = 1)
  expect_identical(lin$params$cost, 2)
  expect_error(svforest_caret(tune = "nu"), "`nu` is a parameter of the psvm splitter")
  # "logistic" is a leaf model with the linear SVM leaves' parameters
  expect_identical(svforest:::resolve_parameters("rsvt", list(leaf = "logistic", cost = 3), 100)$cost, 3)
})
