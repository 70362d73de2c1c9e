# Bad input is an R error naming the problem, before anything reaches C++.

x <- as.matrix(iris[, 1:4])
y <- iris$Species
fit1 <- function(...) svforest(x, y, ntree = 1, seed = 1, num_threads = 1, ...)

test_that("missing and infinite predictor values are errors naming the column", {
  xna <- x
  xna[3, "Sepal.Width"] <- NA
  expect_error(svforest(xna, y, ntree = 1, num_threads = 1), "missing or infinite.*`Sepal.Width`")
  xinf <- x
  xinf[7, "Petal.Length"] <- Inf
  expect_error(svforest(xinf, y, ntree = 1, num_threads = 1), "missing or infinite.*`Petal.Length`")
  xnan <- unname(x)
  xnan[1, 2] <- NaN
  expect_error(svforest(xnan, y, ntree = 1, num_threads = 1), "missing or infinite.*column 2")
  d <- iris
  d$Sepal.Width[4] <- NA
  expect_error(svforest(Species ~ ., data = d, ntree = 1, num_threads = 1),
               "Missing values.*`Sepal.Width`")
  expect_error(svforest(d[, 1:4], y, ntree = 1, num_threads = 1), "Missing values.*`Sepal.Width`")
  d <- iris
  d$Petal.Width[9] <- -Inf
  expect_error(svforest(Species ~ ., data = d, ntree = 1, num_threads = 1),
               "Infinite values.*`Petal.Width`")
  dm <- mixed_df(50)
  dm$f[3] <- NA
  expect_error(svforest(y ~ ., data = dm, ntree = 1, num_threads = 1), "Missing values.*`f`")
  s <- Matrix::Matrix(x, sparse = TRUE)
  s@x[5] <- NA
  expect_error(svforest(s, y, ntree = 1, num_threads = 1), "missing or infinite")
  s@x[5] <- Inf
  expect_error(svforest(s, y, ntree = 1, num_threads = 1), "missing or infinite")
})

test_that("bad outcomes are errors", {
  yna <- y
  yna[5] <- NA
  expect_error(svforest(x, yna, ntree = 1, num_threads = 1), "`y` has 1 missing value")
  d <- iris
  d$Species[c(1, 70)] <- NA
  expect_error(svforest(Species ~ ., data = d, ntree = 1, num_threads = 1), "`y` has 2 missing value")
  # one class (with or without further empty levels)
  expect_error(svforest(x, factor(rep("a", 150)), ntree = 1, num_threads = 1),
               "at least two classes.*only \"a\"")
  expect_error(svforest(x, factor(rep("a", 150), levels = c("a", "b")), ntree = 1, num_threads = 1),
               "at least two classes.*only \"a\"")
  # numeric outcome: regression is not supported
  expect_error(svforest(x, as.numeric(y), ntree = 1, num_threads = 1),
               "`y` must be a factor for classification")
  expect_error(svforest(Sepal.Length ~ ., data = iris, ntree = 1, num_threads = 1),
               "`y` must be a factor for classification")
  expect_error(svforest(x, as.integer(y), ntree = 1, num_threads = 1), "factor\\(y\\)")
  # length mismatch
  expect_error(svforest(x, y[-1], ntree = 1, num_threads = 1), "`y` has 149 values.*150 rows")
  expect_error(svforest(x, c(y, y), ntree = 1, num_threads = 1), "`y` has 300 values.*150 rows")
  expect_error(svforest(x), "`y` is missing")
  expect_error(svforest(~ Sepal.Length, data = iris), "needs an outcome")
  expect_error(svforest(Species ~ ., data = iris["Species"]), "`formula` has no predictors")
})

test_that("empty data are errors", {
  expect_error(svforest(x[0, ], y[0], ntree = 1, num_threads = 1), "no rows")
  expect_error(svforest(Species ~ ., data = iris[0, ], ntree = 1, num_threads = 1), "no rows")
  expect_error(svforest(x[, 0], y, ntree = 1, num_threads = 1), "no predictor columns")
  expect_error(svforest(iris[, 0], y, ntree = 1, num_threads = 1), "`x` has no columns")
  expect_error(svforest(Matrix::Matrix(x, sparse = TRUE)[, 0], y, ntree = 1, num_threads = 1),
               "no predictor columns")
})

test_that("bad predictor containers and types are errors", {
  expect_error(svforest(list(1, 2), y), "`x` must be a data frame, a numeric matrix")
  expect_error(svforest(matrix("a", 150, 2), y, ntree = 1, num_threads = 1),
               "numeric matrix, not a character matrix")
  d <- iris
  d$when <- as.Date("2020-01-01") + 1:150
  expect_error(svforest(Species ~ ., data = d, ntree = 1, num_threads = 1),
               "Predictor column `when` must be numeric")
  expect_error(svforest(Species ~ ., data = as.list(iris)), "`data` must be a data frame")
  dup <- data.frame(a = 1:4, a = 4:1, check.names = FALSE)
  expect_error(svforest(dup, factor(c(1, 2, 1, 2)), ntree = 1, num_threads = 1),
               "unique, non-empty column names")
})

test_that("unknown method and unknown arguments are errors", {
  expect_error(fit1(method = "rf"), "`method` must be one of \"rsvt\"")
  expect_error(fit1(method = NA_character_), "`method`")
  expect_error(fit1(method = c("rsvt", "rsvt")), "`method`")
  # a typo must not be silently ignored
  expect_error(svforest(x, y, ntrees = 5, num_threads = 1), "Unknown argument `ntrees`")
  expect_error(svforest(Species ~ ., data = iris, ntrees = 5, num_threads = 1),
               "Unknown argument `ntrees`")
  expect_error(fit1(min_leaf = 5, costs = 1), "Unknown arguments `min_leaf`, `costs`")
})

test_that("bad ntree, num_threads and seed are errors", {
  for (bad in list(0, -1, 1.5, NA, NA_integer_, "a", c(1, 2), Inf, 1e7, TRUE)) {
    expect_error(svforest(x, y, ntree = bad, seed = 1, num_threads = 1), "`ntree` must be a single whole number")
  }
  for (bad in list(0, -1, 1.5, NA, "a", 2000, c(1, 2))) {
    expect_error(svforest(x, y, ntree = 1, seed = 1, num_threads = bad),
                 "`num_threads` must be a single whole number")
  }
  for (bad in list(-1, 1.5, NA, "a", 1e10, c(1, 2), Inf)) {
    expect_error(svforest(x, y, ntree = 1, seed = bad, num_threads = 1), "`seed` must be a single whole number")
  }
  expect_error(fit1(verbose = NA), "`verbose` must be TRUE or FALSE")
  expect_error(fit1(verbose = "yes"), "`verbose` must be TRUE or FALSE")
})

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
  expect_error(fit1(balanced = "yes"), "`balanced` must be TRUE or FALSE")
  expect_error(fit1(scale = NA), "`scale` must be TRUE or FALSE")
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
