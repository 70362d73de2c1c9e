# Out-of-bag probabilities and what combine() does without a tally
# (R/aggregation.R). That a row's out-of-bag class is predict()'s from its
# out-of-bag trees, and that parts combine into the whole forest's
# out-of-bag results, for every method, aggregation and condition, is in
# the contract matrix (test-contract-matrix.R).

oob_data <- function() {
  set.seed(30)
  n <- 240
  x <- matrix(stats::rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  y <- factor(c("a", "b", "c", "d")[1L + (x[, 1] > 0) + 2L * (x[, 2] + 0.5 * x[, 3] > 0)])
  list(x = x, y = y)
}

d <- oob_data()

test_that("out-of-bag probabilities: shape, NA rows, Brier score and log-loss as documented", {
  fit <- svforest(d$x, d$y, method = "rsvt", leaf = "constant", sampler = "bootstrap", ntree = 3, seed = 2,
                  num_threads = 1)
  p <- fit$oob_prob
  expect_identical(dim(p), c(nrow(d$x), 4L))
  expect_identical(colnames(p), levels(d$y))
  has <- fit$oob_count > 0
  expect_true(any(!has))  # three bootstrap trees leave some rows in every tree
  expect_true(all(is.na(p[!has, ])))
  expect_equal(rowSums(p[has, ]), rep(1, sum(has)), tolerance = 1e-8)
  yi <- as.integer(d$y)[has]
  onehot <- diag(4)[yi, ]
  expect_equal(fit$oob_brier, mean(rowSums((p[has, ] - onehot)^2)))
  expect_equal(fit$oob_logloss, mean(-log(pmax(p[has, ][cbind(seq_along(yi), yi)], 1e-15))))
  # the probabilities are the OOB trees' averaged distributions
  member <- oob_membership(list(x = d$x, y = d$y, method = "rsvt", leaf = "constant", sampler = "bootstrap",
                                ntree = 3L, seed = 2))
  i <- which(has)[1:5]
  for (r in i) {
    sub <- fit
    sub$forest$trees <- fit$forest$trees[member[r, ]]
    expect_equal(as.vector(predict(sub, d$x[r, , drop = FALSE], type = "prob")), as.vector(p[r, ]),
                 tolerance = 1e-9)
  }
  expect_output(print(fit), "OOB probabilities: +Brier score")
  expect_output(print(summary(fit)), "OOB probabilities: Brier score")
  # no out-of-bag rows: no probabilities, nothing printed
  all_rows <- svforest(d$x, d$y, method = "rsvt", ntree = 2, seed = 2, num_threads = 1)
  expect_null(all_rows$oob_prob)
  expect_false(any(grepl("Brier", capture.output(print(all_rows)))))
})

test_that("a part without an out-of-bag tally makes the combined OOB results unavailable, saying why", {
  a <- svforest(d$x, d$y, method = "rsvt", sampler = "bootstrap", ntree = 2, seed = 1, num_threads = 1)
  b <- svforest(d$x, d$y, method = "rsvt", sampler = "bootstrap", ntree = 2, seed = 1, first_tree = 2,
                num_threads = 1)
  b$oob_prob_sum <- NULL  # as a model saved by an older version
  ab <- combine(a, b)
  expect_true(is.na(ab$oob_error))
  expect_null(ab$oob_predictions)
  expect_null(ab$oob_prob)
  expect_match(ab$oob_unavailable, "no out-of-bag tally")
  expect_output(print(ab), "OOB error: +not available for the combined forest: a part holds no out-of-bag tally")
  b <- svforest(d$x, d$y, method = "rsvt", sampler = "bootstrap", ntree = 2, seed = 1, first_tree = 2,
                num_threads = 1)
  b$oob_prob_sum <- b$oob_prob_sum[, 1:2]  # damaged
  expect_match(combine(a, b)$oob_unavailable, "do not match")
})

test_that("the error curve on new data follows the model's aggregation at every step", {
  for (aggregation in c("vote", "prob", "max_confidence")) {
    fit <- svforest(d$x[1:160, ], d$y[1:160], method = "rsvt", leaf = "constant", ntree = 5, seed = 3,
                    num_threads = 1, aggregation = aggregation)
    test <- 161:240
    curve <- svforest:::error_curve(fit, d$x[test, ], d$y[test])
    expect_length(curve, 5)
    for (t in c(1, 3, 5)) {
      sub <- fit
      sub$forest$trees <- fit$forest$trees[seq_len(t)]
      expect_identical(curve[t], mean(predict(sub, d$x[test, ]) != d$y[test]), info = paste(aggregation, t))
    }
  }
})
