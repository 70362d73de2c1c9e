# svforest_select(): methods compared by cross-validation on the training data.

test_that("each score is the held-out accuracy of a fit on the other folds", {
  d <- xor_linear(240, seed = 2)
  sel <- svforest_select(d$x, d$y, methods = c("rsvt", "psvm"), folds = 3, ntree = 4, seed = 7, num_threads = 1)
  expect_s3_class(sel, "svforest_selection")
  expect_identical(dim(sel$scores), c(2L, 3L))
  fold <- svforest:::selection_folds(d$y, 3, 7)
  # stratified: each class is spread evenly over the folds
  expect_true(all(apply(table(fold, d$y), 2, function(k) diff(range(k)) <= 1)))
  for (m in c("rsvt", "psvm")) {
    for (k in 1:3) {
      fit <- svforest(d$x[fold != k, ], d$y[fold != k], method = m, ntree = 4, seed = 7, num_threads = 1)
      expect_equal(sel$scores[m, k], mean(predict(fit, d$x[fold == k, ]) == d$y[fold == k]), info = paste(m, k))
    }
  }
  # the chosen method has the best mean, and the refit is that method on all rows
  best <- names(which.max(rowMeans(sel$scores)))
  expect_identical(sel$method, best)
  expect_identical(sel$table$method[1], best)
  expect_identical(sel$fit$method, best)
  expect_identical(predict(sel, d$x), predict(svforest(d$x, d$y, method = best, ntree = 4, seed = 7,
                                                       num_threads = 1), d$x))
  expect_output(print(sel), "Method chosen by 3-fold cross-validation")
})

test_that("the kernel method is chosen where only a curved boundary separates the classes", {
  set.seed(5)
  n <- 300
  x <- matrix(runif(n * 2, -1, 1), n, 2, dimnames = list(NULL, c("a", "b")))
  y <- factor(ifelse(rowSums(x^2) < 0.45, "in", "out"))
  sel <- svforest_select(x, y, methods = c("rsvt", "tdsvm"), folds = 3, ntree = 1, max_depth = 1,
                         seed = 1, num_threads = 1, refit = FALSE)
  # one linear-leaf tree of depth 1 cannot draw a disc; RBF leaves can
  expect_identical(sel$method, "tdsvm")
  expect_gt(sel$table$accuracy[1] - sel$table$accuracy[2], 0.1)
  expect_null(sel$fit)
  expect_error(predict(sel, x), "refit = FALSE")
})

test_that("the result does not depend on threads or on a future plan", {
  skip_if_not_installed("future.apply")
  skip_on_os("windows")
  d <- xor_linear(150, seed = 3)
  run <- function(threads) {
    s <- svforest_select(d$x, d$y, methods = c("rsvt", "transform"), folds = 3, ntree = 3, seed = 2,
                         num_threads = threads)
    s$table$fit_seconds <- NULL
    s
  }
  one <- run(1)
  expect_identical(run(2)[c("table", "scores", "method")], one[c("table", "scores", "method")])
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  par <- run(1)
  expect_identical(par[c("table", "scores", "method")], one[c("table", "scores", "method")])
  expect_identical(predict(par, d$x, type = "prob"), predict(one, d$x, type = "prob"))
})

test_that("regression is scored by RMSE, formulas and shared arguments work", {
  set.seed(8)
  df <- data.frame(a = runif(200), b = runif(200), c = runif(200))
  df$y <- 3 * df$a - 2 * df$b + rnorm(200, sd = 0.1)
  sel <- svforest_select(y ~ ., data = df, methods = c("rsvt", "tdsvm"), folds = 2, seed = 1, num_threads = 1,
                         ntree = 3, sigma0 = 30, cost = 10, gamma = 1)
  expect_identical(sel$metric, "rmse")
  expect_identical(names(sel$table)[2:3], c("rmse", "rmse_se"))
  expect_identical(sel$method, names(which.min(rowMeans(sel$scores))))
  expect_true(all(sel$table$rmse < sd(df$y)))
  expect_type(predict(sel, df), "double")
})

test_that("bad arguments get clear errors", {
  d <- xor_linear(60, seed = 1)
  expect_error(svforest_select(d$x, d$y, method = "rsvt"), "`methods`")
  expect_error(svforest_select(d$x, d$y, methods = "forest"), "cannot fit")
  expect_error(svforest_select(d$x, d$y, methods = character()), "distinct method names")
  expect_error(svforest_select(d$x, d$y, folds = 1), "folds")
  expect_error(svforest_select(d$x, d$y[-1]), "rows")
  expect_error(svforest_select(d$x, d$y, validation = list(x = d$x, y = d$y)), "validation")
  expect_error(svforest_select(d$x, as.numeric(d$y), methods = "transform"), "numeric")
  expect_error(svforest_select(d$x[1:5, ], d$y[1:5], folds = 3), "too few")
})

test_that("repeats average over new folds", {
  d <- xor_linear(120, seed = 4)
  one <- svforest_select(d$x, d$y, methods = c("rsvt", "psvm"), folds = 3, ntree = 3, seed = 5, num_threads = 1,
                         refit = FALSE)
  two <- svforest_select(d$x, d$y, methods = c("rsvt", "psvm"), folds = 3, repeats = 2, ntree = 3, seed = 5,
                         num_threads = 1, refit = FALSE)
  expect_identical(dim(two$scores), c(2L, 6L))
  # the first repeat is the single cross-validation; the second has new folds
  expect_identical(unname(two$scores[, 1:3]), unname(one$scores))
  fold2 <- svforest:::selection_folds(d$y, 3, 6)
  fit <- svforest(d$x[fold2 != 1, ], d$y[fold2 != 1], method = "rsvt", ntree = 3, seed = 5, num_threads = 1)
  expect_equal(two$scores["rsvt", 4], mean(predict(fit, d$x[fold2 == 1, ]) == d$y[fold2 == 1]))
  expect_equal(two$table$accuracy[match(c("rsvt", "psvm"), two$table$method)], unname(rowMeans(two$scores)))
  expect_output(print(two), "2 repeats")
  expect_error(svforest_select(d$x, d$y, repeats = 0), "repeats")
})
