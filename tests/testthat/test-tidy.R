# generics::tidy() and glance() of a fitted forest.

test_that("tidy(fit, tree = k) is the tree table and tidy(fit) the forest summary", {
  d <- inside_class_data(200)
  fit <- svforest(y ~ ., data = d, ntree = 4, seed = 2, num_threads = 1)
  tab <- tidy(fit, tree = 3)
  ref <- svforest_tree(fit, 3)
  expect_identical(names(tab), names(ref))
  expect_identical(as.data.frame(tab)$n_oob, ref$n_oob)
  expect_identical(tab$terms, ref$terms)
  expect_identical(attr(tab, "levels"), levels(d$y))
  # another tree is another table
  expect_false(identical(tidy(fit, tree = 1)$threshold, tab$threshold))
  expect_identical(as.data.frame(tidy(fit)), svforest_tree_summary(fit))
  if (requireNamespace("tibble", quietly = TRUE)) expect_s3_class(tab, "tbl_df")
  # the method is registered for the generics' generic (as broom calls it)
  expect_identical(generics::tidy(fit, tree = 3), tab)
})

test_that("glance() gives the model's size and out-of-bag figures in one row", {
  d <- inside_class_data(200)
  fit <- svforest(y ~ ., data = d, ntree = 4, seed = 2, num_threads = 1)
  g <- glance(fit)
  expect_identical(nrow(g), 1L)
  expect_identical(g$ntree, 4L)
  expect_identical(g$nobs, 200L)
  expect_identical(g$oob_error, fit$oob_error)
  expect_identical(g$oob_logloss, fit$oob_logloss)
  expect_equal(g$mean_leaves, mean(vapply(1:4, function(t) sum(svforest_tree(fit, t)$kind == "leaf"), 0)))
  expect_false(g$oob_optimistic)
  reg <- svforest(y ~ ., data = inside_regression_data(150), ntree = 3, seed = 1, num_threads = 1)
  gr <- glance(reg)
  expect_identical(gr$oob_rsquared, reg$oob_rsquared)
  expect_true(is.na(gr$oob_brier))
  expect_true(glance(fit_method("rsvf", Species ~ ., data = iris))$oob_optimistic)
  expect_true(is.na(glance(fit_method("rsvt", Species ~ ., data = iris))$oob_error))
})

test_that("tidy() and glance() reject bad arguments", {
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(tidy(fit, tree = 3), "tree")
  expect_error(tidy(fit, tree = 0), "tree")
  expect_error(tidy(fit, tree = 1, depth = 2), "Unused argument \\(`depth`\\)")
  expect_error(glance(fit, 1), "Unused argument")
  broken <- fit
  broken$forest <- NULL
  expect_error(glance(broken), "not a usable svforest model")
  expect_error(tidy(broken), "not a usable svforest model")
})
