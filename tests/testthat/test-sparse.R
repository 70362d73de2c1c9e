# Sparse (Matrix::dgCMatrix) input: explicit zeros, all-zero columns,
# agreement with the dense path.

sparse_data <- function(n = 300, p = 6, seed = 81) {
  withr_seed(seed, {
    m <- matrix(stats::rbinom(n * p, 1, 0.4) * stats::rnorm(n * p), n, p)
    colnames(m) <- paste0("v", seq_len(p))
    m[, 4] <- 0  # an all-zero column
    y <- factor(ifelse(m[, 1] + m[, 2] - m[, 3] > 0, "A", "B"))
    s <- Matrix::Matrix(m, sparse = TRUE)
    list(m = m, s = s, y = y)
  })
}

test_that("a dgCMatrix with explicit zeros and an all-zero column fits and predicts", {
  d <- sparse_data()
  s <- d$s
  expect_s4_class(s, "dgCMatrix")
  s@x[c(1, 10, 20, 30, 40)] <- 0  # explicit zeros stored in the matrix
  expect_identical(sum(s@x == 0), 5L)
  expect_true(all(Matrix::colSums(abs(s))[4] == 0))
  fit <- svforest(s, d$y, ntree = 5, seed = 9, num_threads = 1)
  expect_valid_model(fit, 300, 6, c("A", "B"), 5)
  expect_identical(fit$design$type, "sparse")
  # sparse scaling divides by the largest absolute value: zeros stay zero
  expect_true(all(fit$forest$scale_center == 0))
  expect_identical(fit$forest$scale_factor[4], 0)
  # the all-zero column is never split on
  vars <- unlist(lapply(fit$forest$trees, tree_split_vars, forest = fit$forest))
  expect_false(any(vars == 3L))
  m <- as.matrix(s)
  pred <- predict(fit, s, num_threads = 1)
  expect_valid_prediction(pred, "class", 300, c("A", "B"), 5)
  expect_gt(accuracy(pred, d$y), 0.85)
  # sparse and dense newdata give the same predictions
  for (type in c("class", "prob", "votes", "leaf")) {
    expect_identical(predict(fit, m, type = type, num_threads = 1),
                     predict(fit, s, type = type, num_threads = 2))
  }
  # explicit zeros are the same as implicit ones
  fit0 <- svforest(Matrix::drop0(s), d$y, ntree = 5, seed = 9, num_threads = 1)
  expect_identical(fit0$forest, fit$forest)
})

test_that("a sparse fit splits like a dense fit of the same numbers", {
  d <- sparse_data(seed = 82)
  fs <- svforest(d$s, d$y, ntree = 4, seed = 3, num_threads = 2)
  fd <- svforest(d$m, d$y, ntree = 4, seed = 3, num_threads = 1)
  expect_identical(lapply(fs$forest$trees, tree_shape, forest = fs$forest),
                   lapply(fd$forest$trees, tree_shape, forest = fd$forest))
  # the scalings differ (max-abs vs min-max), the fits are about as good
  test <- sparse_data(1000, seed = 83)
  expect_lt(abs(accuracy(predict(fs, test$s, num_threads = 1), test$y) -
                  accuracy(predict(fd, test$s, num_threads = 1), test$y)), 0.05)
})

test_that("an all-zero sparse matrix fits constant-feature leaves", {
  z <- Matrix::Matrix(0, 40, 3, sparse = TRUE)
  yz <- factor(rep(c("a", "b"), 20))
  fit <- svforest(z, yz, ntree = 2, seed = 1, num_threads = 1)
  expect_valid_model(fit, 40, 3, c("a", "b"), 2)
  expect_identical(n_leaves(fit), c(1L, 1L))  # nothing to split on
  expect_true(all(fit$forest$scale_factor == 0))
  pred <- predict(fit, z, type = "prob", num_threads = 1)
  expect_valid_prediction(pred, "prob", 40, c("a", "b"), 2)
})

test_that("other Matrix classes are converted", {
  d <- sparse_data(seed = 84)
  ref <- svforest(d$s, d$y, ntree = 2, seed = 1, num_threads = 1)
  tri <- svforest(methods::as(d$s, "TsparseMatrix"), d$y, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(tri$forest, ref$forest)
  dense_matrix <- svforest(Matrix::Matrix(d$m, sparse = FALSE), d$y, ntree = 2, seed = 1, num_threads = 1)
  expect_valid_model(dense_matrix, 300, 6, c("A", "B"), 2)
  expect_identical(predict(ref, methods::as(d$s, "TsparseMatrix"), num_threads = 1),
                   predict(ref, d$s, num_threads = 1))
})

test_that("sparse newdata: columns matched by name, bad values rejected, 0 rows handled", {
  d <- sparse_data(seed = 85)
  fit <- svforest(d$s, d$y, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(fit, d$s[, 6:1], num_threads = 1), predict(fit, d$s, num_threads = 1))
  expect_error(predict(fit, d$s[, 1:5], num_threads = 1), "lacks column `v6`")
  bad <- d$s
  bad@x[3] <- NA
  expect_false(anyNA(predict(fit, bad, num_threads = 1)))  # imputed (na_action = "impute")
  fit_fail <- svforest(d$s, d$y, ntree = 3, seed = 1, num_threads = 1, na_action = "fail")
  expect_error(predict(fit_fail, bad, num_threads = 1), "missing or infinite")
  bad@x[3] <- -Inf
  expect_error(predict(fit, bad, num_threads = 1), "missing or infinite")
  empty <- predict(fit, d$s[0, ], type = "prob", num_threads = 1)
  expect_identical(dim(empty), c(0L, 2L))
  # a dense model accepts sparse newdata
  fd <- svforest(d$m, d$y, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(fd, d$s, type = "prob", num_threads = 1),
                   predict(fd, d$m, type = "prob", num_threads = 1))
})
