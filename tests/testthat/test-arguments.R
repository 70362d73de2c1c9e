# svforest()'s own arguments and method parameters passed through `...`.

test_that("method parameters are never partially matched to svforest()'s own arguments", {
  # `nu` is a prefix of `num_threads`
  fit <- svforest(iris[, 1:4], iris$Species, method = "psvm", nu = 10, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$params$nu, 10)
  fit <- svforest(Species ~ ., data = iris, method = "psvm", nu = 10, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$params$nu, 10)
})
