# print(), summary(), plot() and svforest_methods().

test_that("print() mentions the method, the trees and the classes", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  expect_output(print(fit), "Support vector forest")
  expect_output(print(fit), "Method: +rsvt")
  expect_output(print(fit), "Trees: +3")
  expect_output(print(fit), "Training rows: +150")
  expect_output(print(fit), "setosa, versicolor, virginica")
  expect_output(print(fit), "OOB error: +not available")
  expect_output(print(fit), sprintf("Minimum leaf size: +%d \\(admissible rule\\)", fit$params$min_leaf_size))
  expect_invisible(out <- withVisible(capture.output(res <- print(fit))))
  expect_identical(res, fit)
  d <- xor_linear(300, seed = 91)
  fb <- svforest(method = "rsvt", d$x, d$y, ntree = 5, seed = 1, num_threads = 1, sampler = "bootstrap")
  expect_output(print(fb), sprintf("OOB error: +%.2f%%", 100 * fb$oob_error))
  expect_output(print(fb), "bootstrap sampler")
})

test_that("summary() returns a summary.svforest with the forest's structure", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 4, seed = 2, num_threads = 1)
  s <- summary(fit)
  expect_s3_class(s, "summary.svforest")
  expect_identical(s$method, "rsvt")
  expect_identical(s$ntree, 4L)
  expect_identical(s$num_rows, 150L)
  expect_identical(s$num_features, 4L)
  expect_identical(s$class_counts, c(setosa = 50L, versicolor = 50L, virginica = 50L))
  expect_length(s$leaves_per_tree, 4)
  expect_length(s$depth, 4)
  expect_true(all(s$depth >= 1))
  expect_identical(sum(s$leaf_size), 4L * 150L)
  expect_output(print(s), "method \"rsvt\", 4 trees, 150 rows, 4 predictor columns")
  expect_output(print(s), "Chosen C in SVM leaves")
  expect_output(print(s), "OOB error: not available")
})

test_that("the depth reported by summary() is the depth of the deepest leaf", {
  d <- xor_linear(1000, seed = 92)
  for (depth in 1:3) {
    fit <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1, max_depth = depth)
    expect_identical(summary(fit)$depth, c(depth, depth))
  }
})

test_that("plot() draws into a null device, with and without newdata and y", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  d <- xor_linear(300, seed = 93)
  fb <- svforest(d$x, d$y, ntree = 4, seed = 1, num_threads = 1, sampler = "bootstrap")
  fc <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1, leaf = "constant")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(fit))
  expect_identical(plot(fit, newdata = iris, y = iris$Species), fit)
  expect_identical(plot(fit, newdata = iris, y = as.character(iris$Species), lty = 2), fit)
  expect_silent(plot(fb))               # OOB error curve
  expect_silent(plot(fc, newdata = d$x, y = d$y))  # no SVM leaves
  expect_error(plot(fit, newdata = iris[, -1], y = iris$Species), "lacks column `Sepal.Length`")
})

test_that("the error curve of plot() ends at the test error", {
  d <- xor_linear(600, seed = 94)
  test <- xor_linear(400, seed = 95)
  fit <- svforest(d$x, d$y, ntree = 5, seed = 1, num_threads = 1)
  curve <- svforest:::error_curve(fit, test$x, test$y)
  expect_length(curve, 5)
  expect_true(all(curve >= 0 & curve <= 1))
  # one tree: the error of the first tree's classes; all trees: majority vote
  # with ties broken by level order (which can differ from predict()'s
  # probability tie-break only on ties)
  votes <- predict(fit, test$x, type = "votes", num_threads = 1)
  expect_equal(curve[5], mean(max.col(votes, ties.method = "first") != as.integer(test$y)))
})

test_that("svforest_methods() lists rsvt with its engine parts", {
  m <- svforest_methods()
  expect_s3_class(m, "data.frame")
  expect_true("rsvt" %in% m$method)
  r <- m[m$method == "rsvt", ]
  expect_identical(r$sampler, "all")
  expect_identical(r$splitter, "random_axis")
  expect_identical(r$leaf, "linear_svm")
  expect_identical(r$aggregation, "vote")
})

test_that("verbose = TRUE reports progress and gives the same model", {
  d <- xor_linear(300, seed = 96)
  quiet <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1)
  expect_output(loud <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1, verbose = TRUE),
                "Growing trees: 2/2 \\(100%\\)")
  expect_identical(loud$forest, quiet$forest)
})
