# The default forest chooses structure on out-of-bag rows (a hyperplane
# against an axis cut per node, oblique_choice = "oob"; the hybrid tree
# against the axis-only one, tree_choice = "oob"). Each tree's out-of-bag
# rows are split: the choosing rows decide, the scoring rows alone give the
# out-of-bag figures and feed the growth rule (Forest.cpp).

noise_data <- function(n, seed) {
  set.seed(seed)
  list(x = matrix(stats::rnorm(n * 20), n), y = factor(sample(c("a", "b"), n, TRUE)))
}

# The engine's result of a svforest() call (its transient `oob_rows`).
engine_result <- function(...) {
  captured <- new.env()
  trace("engine_fit", exit = bquote(assign("res", returnValue(), envir = .(captured))),
        where = asNamespace("svforest"), print = FALSE)
  on.exit(untrace("engine_fit", where = asNamespace("svforest")), add = TRUE)
  fit <- suppressMessages(svforest(...))
  list(fit = fit, res = captured$res)
}

test_that("on pure noise the out-of-bag error and log-loss read what new rows give", {
  seeds <- 1:3
  figures <- sapply(seeds, function(s) {
    train <- noise_data(400, s)
    test <- noise_data(2000, 100 + s)
    fit <- svforest(train$x, train$y, seed = s, num_threads = 2)
    c(oob = fit$oob_error, test = mean(predict(fit, test$x, num_threads = 2) != test$y),
      logloss = fit$oob_logloss, ntree = fit$ntree)
  })
  means <- rowMeans(figures)
  # choosing and scoring on the same rows read about 42% here
  expect_gt(means[["oob"]], 0.46)
  expect_lt(abs(means[["oob"]] - means[["test"]]), 0.03)
  expect_gt(means[["logloss"]], log(2) - 0.01)
  # a noisy error curve does not grow the forest
  expect_true(all(figures["ntree", ] == 100))
})

test_that("the rows that choose a tree's structure never score it", {
  d <- noise_data(300, 4)
  args <- list(d$x, d$y, ntree = 12, seed = 9, num_threads = 1)
  honest <- do.call(engine_result, args)
  # without out-of-bag choices every out-of-bag row scores: the same
  # bootstrap samples (drawn first from each tree's generator)
  plain <- do.call(engine_result, c(args, list(oblique_choice = "inbag", tree_choice = "none")))
  expect_false(honest$res$splitter_uses_oob)
  scoring <- honest$res$oob_rows
  all_oob <- plain$res$oob_rows
  expect_length(scoring, 12)
  for (t in seq_along(scoring)) {
    expect_true(all(scoring[[t]] %in% all_oob[[t]]))
    expect_equal(length(scoring[[t]]) / length(all_oob[[t]]), 0.5, tolerance = 0.02)
  }
  # each row's out-of-bag tally counts exactly the trees it scored
  counted <- tabulate(unlist(scoring), nbins = 300)
  expect_identical(as.integer(honest$fit$oob_count), counted)
  expect_identical(as.integer(plain$fit$oob_count), tabulate(unlist(all_oob), nbins = 300))
})

test_that("RSVF keeps its paper rule: every out-of-bag row chooses and scores", {
  d <- noise_data(120, 5)
  rsvf <- engine_result(d$x, d$y, method = "rsvf", ntree = 3, seed = 2, num_threads = 1)
  expect_true(rsvf$res$splitter_uses_oob)
  expect_identical(as.integer(rsvf$fit$oob_count), tabulate(unlist(rsvf$res$oob_rows), nbins = 120))
  expect_gt(min(lengths(rsvf$res$oob_rows)), 120 * 0.25)  # all of the ~37% left out
})

test_that("honest out-of-bag forests are the same for any number of threads and survive saveRDS()", {
  d <- noise_data(300, 6)
  one <- svforest(d$x, d$y, ntree = 20, seed = 3, num_threads = 1)
  two <- svforest(d$x, d$y, ntree = 20, seed = 3, num_threads = 2)
  expect_identical(two$forest, one$forest)
  expect_identical(two$oob_error_curve, one$oob_error_curve)
  expect_identical(two$oob_prob, one$oob_prob)
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path), add = TRUE)
  saveRDS(one, path)
  back <- readRDS(path)
  expect_identical(back$oob_prob, one$oob_prob)
  expect_identical(predict(back, d$x, type = "prob", num_threads = 1), predict(one, d$x, type = "prob", num_threads = 1))
})

test_that("a regression forest's out-of-bag R-squared on noise is honest", {
  set.seed(8)
  x <- matrix(stats::rnorm(300 * 10), 300)
  fit <- svforest(x, stats::rnorm(300), seed = 1, num_threads = 2)
  # no signal: an honest R-squared is at or below 0
  expect_lt(fit$oob_rsquared, 0.02)
})

test_that("the growth rule asks that the rows the added trees fixed outnumber those they broke beyond chance", {
  # the engine's rule (.svf_more_trees_help) on two-class tallies of one
  # vote a row: class 1 is wrong (every row is of class 0), NA a row without votes
  tally <- function(cls) {
    has <- !is.na(cls)
    votes <- cbind(as.integer(has & cls == 0), as.integer(has & cls == 1))
    list(votes = votes, shares = votes * 1, count = as.integer(has))
  }
  help <- function(before, after, gain = 0.02, gain_rows = 1, z = 2) {
    svforest:::.svf_more_trees_help(tally(before), tally(after), integer(length(before)), 2L, "vote",
                                    list(gain = gain, gain_rows = gain_rows, z = z))
  }
  # fixed 30, broke 10: 20 >= 2 sqrt(40) = 12.6; fixed 20, broke 10: 10 < 2 sqrt(30) = 11.0
  before <- c(rep(1, 30), rep(0, 10), rep(0, 60), NA)
  after <- c(rep(0, 30), rep(1, 10), rep(0, 60), 1)
  expect_true(help(before, after))
  before2 <- c(rep(1, 20), rep(0, 10), rep(0, 70))
  after2 <- c(rep(0, 20), rep(1, 10), rep(0, 70))
  expect_false(help(before2, after2))
  expect_true(help(before2, after2, z = 0))  # without the paired test, the error's drop alone
  # the error's own conditions hold first: the gain, and the gain in rows
  expect_false(help(before, after, gain = 0.25))
  expect_false(help(before, after, gain_rows = 25))
})

test_that("permutation importance on out-of-bag rows leaves out the rows that chose", {
  d <- noise_data(200, 7)
  fit <- svforest(d$x, d$y, ntree = 10, seed = 4, num_threads = 1)
  expect_identical(fit$oob_choosing_share, 0.5)
  plain <- svforest(d$x, d$y, ntree = 10, seed = 4, num_threads = 1, oblique_choice = "inbag", tree_choice = "none")
  expect_identical(plain$oob_choosing_share, 0)
  rsvf <- svforest(d$x, d$y, method = "rsvf", ntree = 2, seed = 4, num_threads = 1)
  expect_identical(rsvf$oob_choosing_share, 0)
  expect_true(rsvf$oob_optimistic)
  expect_false(fit$oob_optimistic)
  # the same trees scored on all their out-of-bag rows give another importance
  honest <- svforest_importance(fit, d$x, d$y, oob = TRUE, num_threads = 1)
  fit_all <- fit
  fit_all$oob_choosing_share <- 0
  every_oob <- svforest_importance(fit_all, d$x, d$y, oob = TRUE, num_threads = 1)
  expect_false(isTRUE(all.equal(unclass(honest), unclass(every_oob))))
})

test_that("print() marks the out-of-bag error optimistic only where the scoring rows chose splits", {
  d <- noise_data(120, 8)
  rsvf <- svforest(d$x, d$y, method = "rsvf", ntree = 2, seed = 1, num_threads = 1)
  expect_output(print(rsvf), "OOB error: +[0-9.]+% \\(optimistic")
  hybrid <- svforest(d$x, d$y, ntree = 10, seed = 1, num_threads = 1)
  out <- capture.output(print(hybrid))
  expect_true(any(grepl("OOB error", out)))
  expect_false(any(grepl("optimistic", out)))
})

signal_data <- function(n, seed) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 6), n)
  y <- factor(ifelse(x[, 1] + x[, 2] - x[, 3] * x[, 4] + stats::rnorm(n, sd = 0.8) > 0, "a", "b"))
  list(x = x, y = y)
}

test_that("the out-of-bag error is the forest's size's, not the out-of-bag ensembles'", {
  # 30 trees: each row is scored by about 5, whose votes err far more often
  # than the forest's 30 do on new rows
  figures <- sapply(1:3, function(s) {
    train <- signal_data(600, s)
    test <- signal_data(3000, 100 + s)
    fit <- svforest(train$x, train$y, ntree = 30, seed = s, num_threads = 2)
    c(forest = fit$oob_error, ensemble = fit$oob_error_ensemble,
      test = mean(predict(fit, test$x, num_threads = 2) != test$y))
  })
  expect_true(all(figures["forest", ] < figures["ensemble", ]))
  gap <- rowMeans(figures) - mean(figures["test", ])
  expect_gt(gap[["ensemble"]], 0.025)
  expect_lt(abs(gap[["forest"]]), abs(gap[["ensemble"]]) - 0.01)
})

test_that("the forest's out-of-bag error extrapolates each row's loss from its two half ensembles", {
  d <- signal_data(200, 7)
  fit <- svforest(d$x, d$y, ntree = 16, seed = 2, num_threads = 1)
  y <- as.integer(d$y)
  # "prob": the class of the largest share sum (no ties here: shares are
  # fractions of leaf sizes)
  class_of <- function(shares) max.col(shares, ties.method = "first")
  m <- fit$oob_count
  e <- fit$oob_even_count
  o <- m - e
  expect_identical(as.integer(e + o), as.integer(tabulate(unlist(engine_result(d$x, d$y, ntree = 16, seed = 2,
                                                                                num_threads = 1)$res$oob_rows), 200)))
  has <- m > 0
  loss <- as.numeric(class_of(fit$oob_prob_sum) != y)
  half <- (as.numeric(class_of(fit$oob_even_prob_sum) != y) +
           as.numeric(class_of(fit$oob_prob_sum - fit$oob_even_prob_sum) != y)) / 2
  both <- e > 0 & o > 0
  slope <- ifelse(both, (half - loss) / ((1 / pmax(e, 1) + 1 / pmax(o, 1)) / 2 - 1 / m), 0)
  shift <- (-slope * pmax(0, 1 / m - 1 / 16))[has]
  reliability <- mean(shift)^2 / (mean(shift)^2 + stats::var(shift) / sum(has))
  expect_gt(reliability, 0.1)
  expect_lt(reliability, 0.9)
  expect_equal(fit$oob_error, mean(loss[has]) + reliability * mean(shift))
  expect_equal(fit$oob_error_ensemble, mean(loss[has]))
  expect_false(isTRUE(all.equal(fit$oob_error, fit$oob_error_ensemble)))
  # the even-numbered trees are the forest's, whatever part grew them
  parts <- combine(svforest(d$x, d$y, ntree = 5, seed = 2, num_threads = 1),
                   svforest(d$x, d$y, ntree = 11, seed = 2, first_tree = 5, num_threads = 1))
  expect_identical(parts$oob_even_count, fit$oob_even_count)
  expect_identical(parts$oob_error, fit$oob_error)
})
