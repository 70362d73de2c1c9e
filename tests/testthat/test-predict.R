# predict(): the four output types, column matching, edge cases.

# method "rsvt" (SVM leaves, every row in every tree), the default before "hybrid"
iris_fit <- function(ntree = 5, method = "rsvt", ...) {
  svforest(Species ~ ., data = iris, ntree = ntree, method = method, seed = 21, num_threads = 1, ...)
}

test_that("type = 'class' is a factor with the outcome's levels", {
  fit <- iris_fit()
  pred <- predict(fit, iris, type = "class", num_threads = 1)
  expect_valid_prediction(pred, "class", 150, levels(iris$Species), 5)
  expect_identical(predict(fit, iris, num_threads = 1), pred)  # the default type
})

test_that("type = 'prob' is an n x K matrix named by level with rows summing to 1", {
  fit <- iris_fit()
  prob <- predict(fit, iris, type = "prob", num_threads = 1)
  expect_valid_prediction(prob, "prob", 150, levels(iris$Species), 5)
  # with aggregation = "prob" the class is the most probable one
  fp <- iris_fit(aggregation = "prob")
  pp <- predict(fp, iris, type = "prob", num_threads = 1)
  expect_identical(as.character(predict(fp, iris, num_threads = 1)),
                   levels(iris$Species)[max.col(pp, ties.method = "first")])
})

test_that("type = 'votes' is an integer matrix whose rows sum to ntree", {
  fit <- iris_fit(ntree = 7)
  votes <- predict(fit, iris, type = "votes", num_threads = 1)
  expect_valid_prediction(votes, "votes", 150, levels(iris$Species), 7)
  # with majority voting the class has the most votes
  cls <- predict(fit, iris, num_threads = 1)
  expect_true(all(votes[cbind(1:150, as.integer(cls))] == apply(votes, 1, max)))
})

test_that("type = 'leaf' gives each tree's leaf, numbered from 1, consistent with the tree", {
  fit <- iris_fit(ntree = 6)
  leaf <- predict(fit, iris, type = "leaf", num_threads = 1)
  expect_valid_prediction(leaf, "leaf", 150, levels(iris$Species), 6)
  for (t in seq_len(6)) {
    tree <- fit$forest$trees[[t]]
    L <- tree_n_leaves(tree)
    expect_true(all(leaf[, t] >= 1L & leaf[, t] <= L))
    # every training row is routed back to its leaf: the leaf sizes and the
    # class counts of the leaves are those stored in the tree
    expect_identical(tabulate(leaf[, t], L), tree_leaf_sizes(tree))
    counts <- table(factor(leaf[, t], levels = seq_len(L)), iris$Species)
    expect_identical(as.vector(t(unclass(counts))), as.vector(tree_leaf_counts(fit$forest, tree)))
  }
})

test_that("predictions match a plain-R reference implementation of the model", {
  # three classes (SVM leaves with one-vs-rest outputs) and two classes
  fit <- iris_fit(ntree = 4)
  new <- iris[seq(1, 150, by = 3), ]
  ref <- reference_predict(fit, as.matrix(new[, 1:4]))
  expect_gt(sum(leaf_kinds(fit) == "linear_svm"), 0)  # some SVM leaves
  expect_equal(unname(predict(fit, new, type = "prob", num_threads = 1)), ref$prob, tolerance = 1e-12)
  expect_identical(unname(predict(fit, new, type = "votes", num_threads = 1)), ref$votes)
  # the class is the majority vote, ties broken by the averaged probabilities
  expect_identical(as.integer(predict(fit, new, num_threads = 1)),
                   max.col(ref$votes + 0.5 * ref$prob, ties.method = "first"))

  d <- xor_linear(400, p = 3, noise = 0.1, seed = 5)
  f2 <- svforest(d$x, d$y, method = "rsvt", ntree = 3, seed = 2, num_threads = 1)  # axis splits: the reference reads them
  test <- xor_linear(200, p = 3, seed = 6)
  ref2 <- reference_predict(f2, test$x)
  expect_identical(unname(predict(f2, test$x, type = "votes", num_threads = 1)), ref2$votes)
  expect_equal(unname(predict(f2, test$x, type = "prob", num_threads = 1)), ref2$prob, tolerance = 1e-12)
})

test_that("predictions do not depend on the order of newdata's columns", {
  fit <- iris_fit()
  shuffled <- iris[, c(5, 3, 1, 4, 2)]
  for (type in c("class", "prob", "votes", "leaf")) {
    expect_identical(predict(fit, shuffled, type = type, num_threads = 1),
                     predict(fit, iris, type = type, num_threads = 1))
  }
  # matrix model: columns matched by name
  x <- as.matrix(iris[, 1:4])
  fm <- svforest(x, iris$Species, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(fm, x[, 4:1], type = "prob", num_threads = 1),
                   predict(fm, x, type = "prob", num_threads = 1))
  expect_identical(predict(fm, iris[, c(2, 1, 4, 3)], num_threads = 1),
                   predict(fm, x, num_threads = 1))
  # unnamed newdata is matched by position
  expect_identical(predict(fm, unname(x), num_threads = 1), predict(fm, x, num_threads = 1))
})

test_that("extra columns in newdata are ignored; the outcome column is not needed", {
  fit <- iris_fit()
  ref <- predict(fit, iris, type = "prob", num_threads = 1)
  expect_identical(predict(fit, iris[, 1:4], type = "prob", num_threads = 1), ref)
  unlabelled <- iris
  unlabelled$Species <- NA
  expect_identical(predict(fit, unlabelled, type = "prob", num_threads = 1), ref)
  extra <- cbind(iris, noise = rnorm(150), label = "z")
  expect_identical(predict(fit, extra, type = "prob", num_threads = 1),
                   predict(fit, iris, type = "prob", num_threads = 1))
})

test_that("a missing column is an error that names it", {
  fit <- iris_fit()
  expect_error(predict(fit, iris[, -2], num_threads = 1), "lacks column `Sepal.Width`")
  expect_error(predict(fit, iris[, c(1, 5)], num_threads = 1),
               "lacks columns `Sepal.Width`, `Petal.Length`, `Petal.Width`")
  x <- as.matrix(iris[, 1:4])
  fm <- svforest(x, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(fm, x[, -4], num_threads = 1), "lacks column `Petal.Width`")
  expect_error(predict(fm, unname(x)[, 1:3], num_threads = 1), "3 columns.*fitted on 4")
})

test_that("0-row newdata gives empty results of the right shape", {
  fit <- iris_fit(ntree = 3)
  lev <- levels(iris$Species)
  empty <- iris[0, ]
  cls <- predict(fit, empty, num_threads = 1)
  expect_s3_class(cls, "factor")
  expect_length(cls, 0)
  expect_identical(levels(cls), lev)
  prob <- predict(fit, empty, type = "prob", num_threads = 1)
  expect_identical(dim(prob), c(0L, 3L))
  expect_identical(colnames(prob), lev)
  expect_identical(dim(predict(fit, empty, type = "votes", num_threads = 1)), c(0L, 3L))
  expect_identical(dim(predict(fit, empty, type = "leaf", num_threads = 1)), c(0L, 3L))
  x <- as.matrix(iris[, 1:4])
  fm <- svforest(x, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  expect_length(predict(fm, x[0, , drop = FALSE], num_threads = 1), 0)
})

test_that("a single row predicts", {
  fit <- iris_fit(ntree = 3)
  expect_length(predict(fit, iris[77, ], num_threads = 1), 1)
  expect_identical(dim(predict(fit, iris[77, ], type = "prob", num_threads = 1)), c(1L, 3L))
})

test_that("bad predict() arguments are errors", {
  fit <- iris_fit(ntree = 2)
  # (a sampler that leaves no row out: no out-of-bag predictions, R/predict-oob.R)
  expect_error(predict(fit), "`newdata` is required")
  expect_error(predict(fit, NULL), "`newdata` is required")
  expect_error(predict(fit, type = "leaf"), "needs `newdata`")
  expect_error(predict(fit, iris, type = "response"), "`type` must be one of")
  expect_error(predict(fit, iris, type = 1), "`type` must be one of")
  expect_error(predict(fit, iris, num_threads = 0), "`num_threads`")
  expect_error(predict(fit, iris, num_threads = "two"), "`num_threads`")
  expect_error(predict(fit, 1:4), "`newdata` must be a data frame")
  nd <- iris[1:3, ]
  nd$Petal.Length[2] <- NA
  expect_false(anyNA(expect_warning(predict(fit, nd), "`Petal.Length`")))  # imputed: na_action = "impute" by default
  fit_fail <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, na_action = "fail")
  expect_error(predict(fit_fail, nd), "Missing values.*`Petal.Length`")
  nd$Petal.Length[2] <- Inf
  expect_error(predict(fit, nd), "Infinite values.*`Petal.Length`")
  x <- as.matrix(iris[, 1:4])
  fm <- svforest(x, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  x[2, 3] <- NaN
  expect_false(anyNA(expect_warning(predict(fm, x[1:5, ]), "`Petal.Length`")))
  fm_fail <- svforest(as.matrix(iris[, 1:4]), iris$Species, ntree = 2, seed = 1, num_threads = 1, na_action = "fail")
  expect_error(predict(fm_fail, x[1:5, ]), "missing or infinite")
  expect_error(predict(fm, "a"), "`newdata` must be a numeric matrix")
  # columns are matched by name: an extra non-numeric column is not used
  expect_identical(predict(fm, iris[1:5, ]), predict(fm, as.matrix(iris[1:5, 1:4])))
  bad <- iris[1:5, ]
  bad$Sepal.Width <- as.character(bad$Sepal.Width)
  expect_error(predict(fm, bad), "must all be numeric")
})

test_that("aggregation 'vote' follows the votes, 'prob' the averaged probabilities", {
  # constant leaves on noisy data: a tree votes for its leaf's majority, so
  # the vote and the averaged class frequencies disagree on some rows
  d <- xor_linear(1000, p = 2, noise = 0.5, seed = 7)
  fv <- svforest(d$x, d$y, method = "rsvt", ntree = 5, seed = 1, num_threads = 1, leaf = "constant")
  fp <- svforest(d$x, d$y, method = "rsvt", ntree = 5, seed = 1, num_threads = 1, leaf = "constant", aggregation = "prob")
  expect_identical(fv$forest, fp$forest)  # aggregation does not change the trees
  votes <- predict(fv, d$x, type = "votes", num_threads = 1)
  prob <- predict(fv, d$x, type = "prob", num_threads = 1)
  expect_identical(predict(fp, d$x, type = "prob", num_threads = 1), prob)
  by_votes <- max.col(votes, ties.method = "first")
  by_prob <- max.col(prob, ties.method = "first")
  disagree <- by_votes != by_prob & apply(votes, 1, function(v) sum(v == max(v))) == 1
  expect_gt(sum(disagree), 5)
  expect_identical(as.integer(predict(fv, d$x, num_threads = 1))[disagree], by_votes[disagree])
  expect_identical(as.integer(predict(fp, d$x, num_threads = 1))[disagree], by_prob[disagree])
  # with an even number of trees, tied votes are broken by the probabilities
  f4 <- svforest(d$x, d$y, method = "rsvt", ntree = 4, seed = 1, num_threads = 1, leaf = "constant")
  v4 <- predict(f4, d$x, type = "votes", num_threads = 1)
  p4 <- predict(f4, d$x, type = "prob", num_threads = 1)
  tied <- v4[, 1] == v4[, 2] & p4[, 1] != p4[, 2]
  expect_gt(sum(tied), 5)
  expect_identical(as.integer(predict(f4, d$x, num_threads = 1))[tied],
                   max.col(p4, ties.method = "first")[tied])
})

test_that("rows routed through a tree together reach the leaves a plain walk of the tree gives", {
  # Prediction routes blocks of rows down each tree together and sums the
  # hyperplanes of rows at oblique nodes four at a time; a row must still
  # reach the leaf its own comparisons give, for axis and oblique nodes.
  set.seed(3)
  n <- 203  # not a multiple of the block of rows or of four
  x <- matrix(rnorm(n * 12), n, 12, dimnames = list(NULL, paste0("x", 1:12)))
  y <- factor(ifelse(x[, 1] + x[, 2] - x[, 3] + 0.3 * rnorm(n) > 0, "a", "b"))
  fit <- svforest(x, y, ntree = 4, seed = 1, num_threads = 1)
  walk <- function(tr, xr) {
    i <- 1L
    while (tr$leaf_id[i] < 0) {
      is <- tr$split_int_start[i]
      rs <- tr$split_real_start[i]
      left <- switch(as.character(tr$split_kind[i]),
        "0" = xr[tr$split_int[is + 1] + 1] <= tr$split_real[rs + 1],
        "1" = {
          m <- tr$split_int[is + 1]
          s <- 0
          for (j in seq_len(m)) s <- s + tr$split_real[rs + 1 + j] * xr[tr$split_int[is + 1 + j] + 1]
          s <- s <= tr$split_real[rs + 1]
        })
      i <- (if (left) tr$left_child[i] else tr$right_child[i]) + 1L
    }
    tr$leaf_id[i] + 1L
  }
  leaf <- predict(fit, x, type = "leaf", num_threads = 2)
  kinds <- integer()
  for (t in seq_len(4)) {
    tr <- tree_plain(fit$forest, fit$forest$trees[[t]])
    kinds <- c(kinds, tr$split_kind)
    expect_identical(leaf[, t], vapply(seq_len(n), function(r) walk(tr, x[r, ]), 1L))
  }
  expect_true(any(kinds == 1L))  # the forest has hyperplanes to route through
  # one row at a time, the same leaves
  expect_identical(predict(fit, x[17, , drop = FALSE], type = "leaf", num_threads = 1), leaf[17, , drop = FALSE])
})

test_that(".svf_predict answers one named request with the outputs it names", {
  fit <- svforest(Species ~ ., iris, ntree = 6, seed = 1, num_threads = 1, aggregation = "prob")
  data <- svforest:::new_engine_data(fit, iris)
  ask <- function(...) svforest:::.svf_predict(fit$forest, data, 1L, list(...))
  plain <- ask()
  expect_named(plain, c("prob", "votes"))
  both <- ask(outputs = c("leaves", "class"), aggregation = "prob")
  expect_named(both, c("prob", "votes", "leaves", "class"))
  expect_identical(both$leaves + 1L, unname(predict(fit, iris, type = "leaf")))
  expect_identical(levels(iris$Species)[both$class + 1L], as.character(predict(fit, iris)))
  # the aggregation is the request's: "vote" may decide other classes than "prob"
  votes <- ask(outputs = "class", aggregation = "vote")$class
  expect_identical(votes, svforest:::.svf_decide_classes("vote", plain$votes, plain$prob * 0, rep(6L, 150), NULL))
  curve <- ask(outputs = c("class", "class_curve"), aggregation = "prob")$class_curve
  expect_identical(dim(curve), c(150L, 6L))
  expect_identical(curve[, 6], both$class)
  expect_error(ask(outputs = "leafs"), "unknown prediction output \"leafs\"")
  expect_error(ask(outputs = "class"), "needs an aggregation")
  expect_error(ask(outputs = "class_curve", aggregation = "vote"), "needs \"class\"")
})

test_that("a matrix-fitted model reads a data frame's columns by name; unused columns may be of any type", {
  x <- as.matrix(iris[, 1:4])
  fit <- svforest(x, iris$Species, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(predict(fit, iris[1:10, c(5, 4, 3, 2, 1)]), predict(fit, x[1:10, ]))
  expect_error(predict(fit, iris[1:10, c(1, 2, 5)]), "numeric|lacks")
})
