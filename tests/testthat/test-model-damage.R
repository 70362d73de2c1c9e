# check_model() refuses damaged designs and quantile forests with a clear
# error before predict() uses them.

test_that("NA or infinite contrast codes in the design are an error", {
  d <- iris
  d$f <- factor(rep(c("a", "b", "c"), 50))
  fit <- svforest(Species ~ ., d, ntree = 3, seed = 1, num_threads = 1)
  expect_silent(predict(fit, d[1:5, ]))
  for (bad_value in c(NA, Inf)) {
    bad <- fit
    bad$design$contrasts$f[2, 1] <- bad_value
    expect_error(predict(bad, d[1:5, ]), "'design\\$contrasts' of factor .* holds NA or infinite codes")
  }
})

test_that("reordered design terms are an error", {
  fit <- svforest(Species ~ Sepal.Length + Petal.Width, iris, ntree = 3, seed = 1, num_threads = 1)
  expect_silent(predict(fit, iris[1:5, ]))
  bad <- fit
  bad$design$terms <- svforest:::light_terms(stats::delete.response(stats::terms(Species ~ Petal.Width + Sepal.Length)))
  # the same columns, swapped: without the check each would be read as the other
  expect_error(predict(bad, iris[1:5, ]), "'design\\$terms'")
})

test_that("an out-of-range quantile-forest leaf is an error, not a huge allocation", {
  fit <- svforest(Sepal.Length ~ ., iris, ntree = 5, seed = 1, num_threads = 1)
  qf <- fit$conformal$quantile_forest
  leaves <- svforest:::qf_leaves(qf)
  # the integer-matrix layout (trees with more than 65535 nodes) holds the same leaves
  ok <- fit
  ok$conformal$quantile_forest <- list(y = qf$y, ntree = qf$ntree, leaves = leaves)
  expect_identical(predict(ok, iris[1:5, ], type = "quantiles"), predict(fit, iris[1:5, ], type = "quantiles"))
  bad <- ok
  bad$conformal$quantile_forest$leaves[3, 2] <- 1000000000L
  expect_error(predict(bad, iris[1:5, ], type = "quantiles"), "'conformal' is damaged")
  # one past the tree's last leaf is out of range too
  bad$conformal$quantile_forest$leaves[3, 2] <- svforest:::tree_n_leaves(fit$forest$trees[[2]])
  expect_error(predict(bad, iris[1:5, ]), "'conformal' is damaged")
})
