# combine(): parts of one forest (same seed, disjoint tree ranges) merge into
# exactly the forest grown in one go; incompatible forests are refused.

combine_data <- function() xor_linear(400, p = 3, noise = 0.1, seed = 51)

test_that("parts grown with first_tree combine into the one-machine forest, OOB included", {
  d <- combine_data()
  test <- xor_linear(200, p = 3, seed = 52)
  whole <- svforest(d$x, d$y, ntree = 7, seed = 9, num_threads = 1, sampler = "bootstrap")
  parts <- list(
    svforest(d$x, d$y, ntree = 3, seed = 9, first_tree = 4, num_threads = 1, sampler = "bootstrap"),
    svforest(d$x, d$y, ntree = 4, seed = 9, first_tree = 0, num_threads = 2, sampler = "bootstrap"))
  # given out of order: combine() puts the trees in tree order
  both <- combine(parts[[1]], parts[[2]])
  expect_identical(both$forest, whole$forest)
  expect_identical(both$ntree, 7L)
  expect_identical(both$seed, whole$seed)
  expect_identical(both$oob_votes, whole$oob_votes)
  expect_identical(both$oob_error, whole$oob_error)
  expect_identical(both$oob_predictions, whole$oob_predictions)
  expect_null(both$oob_error_curve)  # needs every tree's OOB predictions
  for (type in c("class", "prob", "votes", "leaf")) {
    expect_identical(predict(both, test$x, type = type), predict(whole, test$x, type = type))
  }
  expect_identical(combine(parts)$forest, whole$forest)  # a list works too
  # the parts really differ from each other and from a shifted forest
  expect_false(identical(parts[[1]]$forest$trees[[1]], parts[[2]]$forest$trees[[1]]))
  path <- tempfile(fileext = ".rds")
  saveRDS(both, path)
  expect_identical(predict(readRDS(path), test$x, type = "prob"), predict(whole, test$x, type = "prob"))
  plot_file <- tempfile(fileext = ".pdf")
  grDevices::pdf(plot_file)
  expect_silent(plot(both))
  grDevices::dev.off()
})

test_that("combining formula fits works and keeps the design", {
  df <- mixed_df(150, seed = 3)
  a <- svforest(y ~ ., data = df, ntree = 2, seed = 4, num_threads = 1)
  b <- svforest(y ~ ., data = df, ntree = 3, seed = 4, first_tree = 2, num_threads = 1)
  whole <- svforest(y ~ ., data = df, ntree = 5, seed = 4, num_threads = 1)
  expect_identical(predict(combine(a, b), df, type = "prob"), predict(whole, df, type = "prob"))
})

test_that("forests with different seeds are concatenated in the given order", {
  d <- combine_data()
  a <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1)
  b <- svforest(d$x, d$y, ntree = 3, seed = 2, num_threads = 1)
  ab <- combine(a, b)
  expect_identical(ab$forest$trees, c(a$forest$trees, b$forest$trees))
  expect_true(is.na(ab$seed))
  expect_identical(predict(ab, d$x, type = "votes"),
                   predict(a, d$x, type = "votes") + predict(b, d$x, type = "votes"))
  expect_identical(combine(a), a)
})

test_that("incompatible forests are refused with the reason", {
  d <- combine_data()
  a <- svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, num_threads = 1)
  expect_error(combine(a, a), "overlap")
  expect_error(combine(a, svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, first_tree = 1, num_threads = 1)),
               "overlap")
  expect_error(combine(a, svforest(method = "rsvt", d$x[-1, ], d$y[-1], ntree = 2, seed = 1, first_tree = 2,
                                   num_threads = 1)), "training rows")
  x2 <- d$x
  x2[1, 1] <- 5  # same rows and classes, other values: other scaling
  expect_error(combine(a, svforest(method = "rsvt", x2, d$y, ntree = 2, seed = 1, first_tree = 2, num_threads = 1)),
               "scaling")
  expect_error(combine(a, svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, first_tree = 2, num_threads = 1,
                                   cost = 1)), "parameters \\(`cost`\\)")
  expect_error(combine(a, svforest(d$x, d$y, method = "psvm", ntree = 2, seed = 1, first_tree = 2,
                                   num_threads = 1)), "different method")
  y2 <- factor(d$y, levels = rev(levels(d$y)))
  expect_error(combine(a, svforest(method = "rsvt", d$x, y2, ntree = 2, seed = 1, first_tree = 2, num_threads = 1)),
               "outcome levels")
  x3 <- d$x
  colnames(x3)[1] <- "other"
  expect_error(combine(a, svforest(method = "rsvt", x3, d$y, ntree = 2, seed = 1, first_tree = 2, num_threads = 1)),
               "predictors")
  expect_error(combine(a, iris), "not an svforest model")
  expect_error(combine(), "at least one")
  expect_error(svforest(method = "rsvt", d$x, d$y, ntree = 2, first_tree = -1), "first_tree")
})

test_that("combining with a part without out-of-bag rows drops the OOB error", {
  d <- combine_data()
  a <- svforest(d$x, d$y, ntree = 2, seed = 1, num_threads = 1, sampler = "bootstrap")
  b <- a
  b$oob_votes <- NULL  # e.g. a model saved by an older version
  b$first_tree <- 2L
  ab <- combine(a, b)
  expect_true(is.na(ab$oob_error))
  expect_null(ab$oob_predictions)
})
