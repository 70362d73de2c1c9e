# The contract every method and combination of parts keeps: the model does
# not depend on the number of threads, a saved model predicts exactly as the
# original, parts of a forest grown with `first_tree` combine into the forest
# grown in one go, and every prediction type works. The bad-input catalogue
# (test-bad-input.R) and the mutation fuzz (test-model-checks.R) loop over
# the same cases.

x <- as.matrix(iris[, 1:4])
y <- iris$Species
newx <- x[seq(1, 150, by = 4), ]
types <- c("class", "prob", "votes", "leaf")

# Every method with its fast settings, plus combinations of parts (see
# helper-methods.R). Each case is a list of svforest() arguments.
for (case in contract_cases()) {
  label <- case_label(case)

  test_that(paste(label, "- 1 and 2 threads give the same model and predictions"), {
    one <- do.call(svforest, c(list(x, y, seed = 3, num_threads = 1), case))
    two <- do.call(svforest, c(list(x, y, seed = 3, num_threads = 2), case))
    expect_identical(without_call(two), without_call(one))
    for (type in types) {
      p1 <- predict(one, newx, type = type, num_threads = 1)
      expect_valid_prediction(p1, type, nrow(newx), levels(y), one$ntree)
      expect_identical(predict(one, newx, type = type, num_threads = 2), p1, info = type)
      expect_identical(predict(two, newx, type = type, num_threads = 1), p1, info = type)
    }
    # the model keeps the parameters of its parts, and only those
    params <- case[setdiff(names(case), c("method", "ntree"))]
    expect_identical(names(one$params), names(svforest:::resolve_parameters(one$method, params, 150)))
  })

  test_that(paste(label, "- saveRDS and readRDS keep the model and its predictions"), {
    fit <- do.call(svforest, c(list(x, y, seed = 4, num_threads = 1), case))
    path <- tempfile(fileext = ".rds")
    on.exit(unlink(path))
    saveRDS(fit, path)
    back <- readRDS(path)
    expect_identical(back$forest, fit$forest)
    for (type in types) {
      expect_identical(predict(back, newx, type = type, num_threads = 1),
                       predict(fit, newx, type = type, num_threads = 1), info = type)
    }
  })

  test_that(paste(label, "- two halves grown with first_tree combine into the whole forest"), {
    n <- max(2L, as.integer(if (is.null(case$ntree)) 2L else case$ntree))
    args <- case[setdiff(names(case), "ntree")]
    whole <- do.call(svforest, c(list(x, y, ntree = n, seed = 5, num_threads = 1), args))
    k <- n %/% 2
    first <- do.call(svforest, c(list(x, y, ntree = k, seed = 5, num_threads = 1), args))
    second <- do.call(svforest, c(list(x, y, ntree = n - k, seed = 5, first_tree = k, num_threads = 2), args))
    both <- combine(second, first)
    expect_identical(both$forest, whole$forest)
    expect_identical(both$ntree, whole$ntree)
    expect_identical(both$oob_error, whole$oob_error)
    expect_identical(both$oob_predictions, whole$oob_predictions)
    for (type in types) {
      expect_identical(predict(both, newx, type = type, num_threads = 1),
                       predict(whole, newx, type = type, num_threads = 1), info = type)
    }
  })
}

test_that("the contract covers every method and at least three combinations of parts", {
  cases <- contract_cases()
  methods <- vapply(cases, function(case) if (is.null(case$method)) svforest:::default_method() else case$method, "")
  expect_true(all(all_methods() %in% methods))
  other_parts <- vapply(cases, function(case) any(c("sampler", "splitter", "leaf") %in% names(case)), TRUE)
  expect_gte(sum(other_parts), 3)
})

# The same contract for regression (a numeric outcome): every method that
# fits one, and its leaf kinds. Out-of-bag sums are exact (R/aggregation.R),
# so the combined OOB results are those of the whole forest.
xr <- as.matrix(iris[, 2:4])
yr <- iris$Sepal.Length
regression_cases <- c(
  lapply(intersect(all_methods(), svforest:::regression_methods()), method_args),
  list(list(method = "rsvt", leaf = "linear_svr", sampler = "bootstrap", ntree = 2),
       list(method = "rsvf", leaf = "constant", ntree = 2),
       list(splitter = "cart", leaf = "kernel_svr", sigma = 40, cost = 1, gamma = 1, sampler = "bootstrap", ntree = 2)))
for (case in regression_cases) {
  label <- paste("regression:", case_label(case))
  test_that(paste(label, "- threads, saveRDS, combine and predict types"), {
    one <- do.call(svforest, c(list(xr, yr, seed = 3, num_threads = 1), case))
    two <- do.call(svforest, c(list(xr, yr, seed = 3, num_threads = 2), case))
    expect_identical(one$type, "regression")
    expect_identical(without_call(two), without_call(one))
    p <- predict(one, xr, num_threads = 1)
    expect_type(p, "double")
    expect_identical(predict(one, xr, num_threads = 2), p)
    expect_identical(dim(predict(one, xr, type = "leaf")), c(150L, as.integer(one$ntree)))
    path <- tempfile(fileext = ".rds")
    on.exit(unlink(path))
    saveRDS(one, path)
    expect_identical(predict(readRDS(path), xr), p)
    n <- max(2L, as.integer(one$ntree))
    args <- case[setdiff(names(case), "ntree")]
    whole <- do.call(svforest, c(list(xr, yr, ntree = n, seed = 5, num_threads = 1), args))
    k <- n %/% 2
    first <- do.call(svforest, c(list(xr, yr, ntree = k, seed = 5, num_threads = 1), args))
    second <- do.call(svforest, c(list(xr, yr, ntree = n - k, seed = 5, first_tree = k, num_threads = 1), args))
    both <- combine(first, second)
    expect_identical(both$forest, whole$forest)
    expect_identical(both$oob_error, whole$oob_error)
    expect_identical(both$oob_predictions, whole$oob_predictions)
    expect_identical(predict(both, xr), predict(whole, xr))
  })
}
