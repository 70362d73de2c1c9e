# Random support vector trees: what the method is for, the tree sizes the
# split rules promise, the leaf SVMs, and the out-of-bag error.

leaf_sizes <- all_leaf_sizes

test_that("on an XOR of linear problems, RSVT beats one global linear SVM by a wide margin", {
  train <- xor_linear(2000, p = 2, seed = 61)
  test <- xor_linear(2000, p = 2, seed = 62)
  rsvt <- svforest(method = "rsvt", train$x, train$y, ntree = 10, seed = 1, num_threads = 2)
  # one tree whose root cannot be split (it needs 2 * 2000 rows) is one
  # global linear SVM
  global <- svforest(method = "rsvt", train$x, train$y, ntree = 1, min_leaf_size = 2000, seed = 1, num_threads = 2)
  expect_identical(n_leaves(global), 1L)
  expect_identical(tree_leaf_kinds(global$forest$trees[[1]]), "linear_svm")
  expect_identical(tree_leaf_sizes(global$forest$trees[[1]]), 2000L)
  acc_rsvt <- accuracy(predict(rsvt, test$x, num_threads = 2), test$y)
  acc_global <- accuracy(predict(global, test$x, num_threads = 2), test$y)
  expect_gt(acc_rsvt, 0.9)
  expect_gte(acc_rsvt - acc_global, 0.15)
  # the same with extra predictors entering the boundaries
  train <- xor_linear(2000, p = 4, seed = 63)
  test <- xor_linear(2000, p = 4, seed = 64)
  rsvt <- svforest(method = "rsvt", train$x, train$y, ntree = 10, seed = 1, num_threads = 2)
  global <- svforest(method = "rsvt", train$x, train$y, ntree = 1, min_leaf_size = 2000, seed = 1, num_threads = 2)
  expect_gte(accuracy(predict(rsvt, test$x, num_threads = 2), test$y) -
               accuracy(predict(global, test$x, num_threads = 2), test$y), 0.15)
})

test_that("the SVM leaves matter: RSVT beats the same trees with constant leaves", {
  train <- xor_linear(2000, p = 3, seed = 65)
  test <- xor_linear(2000, p = 3, seed = 66)
  svm <- svforest(method = "rsvt", train$x, train$y, ntree = 10, seed = 3, num_threads = 2, leaf_size_factor = 2)
  const <- svforest(method = "rsvt", train$x, train$y, ntree = 10, seed = 3, num_threads = 2, leaf_size_factor = 2,
                    leaf = "constant")
  # same tree structure (the leaf model does not change the splits) ...
  expect_identical(lapply(const$forest$trees, tree_shape, forest = const$forest),
                   lapply(svm$forest$trees, tree_shape, forest = svm$forest))
  expect_true(all(leaf_kinds(const) == "constant"))
  expect_length(unlist(lapply(const$forest$trees, tree_linear_coefficients, forest = const$forest)), 0)
  # ... but the SVM leaves predict better
  expect_gt(accuracy(predict(svm, test$x, num_threads = 2), test$y),
            accuracy(predict(const, test$x, num_threads = 2), test$y) + 0.04)
})

test_that("min_leaf_size defaults to ceiling(leaf_size_factor * sqrt(n))", {
  d <- xor_linear(500, seed = 67)
  expect_identical(svforest(method = "rsvt", d$x, d$y, ntree = 1, seed = 1, num_threads = 1)$params$min_leaf_size, 23L)
  expect_identical(svforest(method = "rsvt", d$x, d$y, ntree = 1, seed = 1, num_threads = 1,
                            leaf_size_factor = 2)$params$min_leaf_size, 45L)
  expect_identical(svforest(method = "rsvt", d$x, d$y, ntree = 1, seed = 1, num_threads = 1,
                            min_leaf_size = 10)$params$min_leaf_size, 10L)
})

test_that("admissible rule: leaves hold between min_leaf_size and 2 * min_leaf_size - 1 rows", {
  # labels independent of x: no leaf of ~45 rows is pure, so the bounds hold
  # for every leaf
  d <- xor_linear(2000, p = 3, seed = 68)
  y_noise <- withr_seed(1, factor(sample(c("a", "b"), 2000, replace = TRUE)))
  fit <- svforest(method = "rsvt", d$x, y_noise, ntree = 5, seed = 2, num_threads = 2, cv_folds = 1, cost = 1)
  l <- fit$params$min_leaf_size
  expect_identical(l, 45L)
  sizes <- leaf_sizes(fit)
  expect_true(all(sizes >= l))
  expect_true(all(sizes <= 2 * l - 1))
  # trees use all rows and have about n / (1.5 l) leaves
  expect_true(all(vapply(fit$forest$trees, function(t) sum(tree_leaf_sizes(t)), 0L) == 2000L))
  expect_true(all(n_leaves(fit) > 2000 / (2 * l) & n_leaves(fit) <= 2000 / l))

  # on the XOR data pure leaves may stop early (larger), never smaller
  fit <- svforest(method = "rsvt", d$x, d$y, ntree = 5, seed = 2, num_threads = 2)
  for (t in fit$forest$trees) {
    counts <- tree_leaf_counts(fit$forest, t)
    impure <- colSums(counts > 0) == 2
    expect_true(all(tree_leaf_sizes(t) >= l))
    expect_true(all(tree_leaf_sizes(t)[impure] <= 2 * l - 1))
  }
})

test_that("max_depth limits the depth of the trees", {
  d <- xor_linear(1000, seed = 69)
  fit <- svforest(method = "rsvt", d$x, d$y, ntree = 3, seed = 1, num_threads = 1, max_depth = 2)
  expect_true(all(n_leaves(fit) <= 4))
  expect_true(all(summary(fit)$depth <= 2))
  fit1 <- svforest(method = "rsvt", d$x, d$y, ntree = 3, seed = 1, num_threads = 1, max_depth = 1)
  expect_true(all(n_leaves(fit1) == 2))
})

test_that("published rule: trees have far fewer leaves on the same data", {
  d <- xor_linear(2000, p = 2, seed = 70)
  adm <- svforest(method = "rsvt", d$x, d$y, ntree = 10, seed = 4, num_threads = 2)
  pub <- svforest(method = "rsvt", d$x, d$y, ntree = 10, seed = 4, num_threads = 2, split_rule = "published")
  expect_identical(pub$params$split_rule, "published")
  expect_lt(mean(n_leaves(pub)), 0.5 * mean(n_leaves(adm)))
  # leaves still hold at least min_leaf_size rows (a split leaving fewer is
  # refused), and some are much larger than 2 * min_leaf_size
  l <- pub$params$min_leaf_size
  expect_true(all(leaf_sizes(pub) >= l))
  expect_gt(max(leaf_sizes(pub)), 2 * l)
})

test_that("a leaf with one class, or a class with fewer than 2 rows, is a constant leaf", {
  x <- matrix(1:6, 6, 1, dimnames = list(NULL, "a"))
  # one class of the leaf has a single row: class frequencies
  fit <- svforest(method = "rsvt", x, factor(c("a", "a", "a", "a", "a", "b")), ntree = 1, seed = 1,
                  num_threads = 1, min_leaf_size = 6)
  tree <- fit$forest$trees[[1]]
  expect_identical(tree_leaf_kinds(tree), "constant")
  expect_identical(tree_leaf_counts(fit$forest, tree), matrix(c(5L, 1L), 2, 1))
  expect_null(tree_linear_leaf(fit$forest, tree, 1))
  expect_length(tree_linear_coefficients(fit$forest, tree), 0)
  prob <- predict(fit, x, type = "prob", num_threads = 1)
  expect_equal(unname(prob), matrix(rep(c(5, 1) / 6, each = 6), 6, 2))
  expect_true(all(predict(fit, x, num_threads = 1) == "a"))
  # three classes, one with a single row: constant with rare_classes = "constant" (SPEC rule)
  y3 <- factor(c("a", "a", "b", "b", "b", "c"))
  fit3 <- svforest(method = "rsvt", x, y3, ntree = 1, seed = 1, num_threads = 1, min_leaf_size = 6,
                   rare_classes = "constant")
  expect_identical(tree_leaf_kinds(fit3$forest$trees[[1]]), "constant")
  # default rare_classes = "negative": an SVM between a and b, c only as negatives
  fit3n <- svforest(method = "rsvt", x, y3, ntree = 1, seed = 1, num_threads = 1, min_leaf_size = 6)
  expect_identical(tree_leaf_kinds(fit3n$forest$trees[[1]]), "linear_svm")
  lin <- tree_linear_leaf(fit3n$forest, fit3n$forest$trees[[1]], 1)
  expect_identical(lin$classes, 1:2)  # one binary output: a vs b
  expect_identical(dim(lin$coef), c(2L, 1L))
  expect_false(any(predict(fit3n, x, num_threads = 1) == "c"))
  # two classes with 3 rows each: an SVM, which separates them
  fit2 <- svforest(method = "rsvt", x, factor(c("a", "a", "a", "b", "b", "b")), ntree = 1, seed = 1,
                   num_threads = 1, min_leaf_size = 6)
  tree2 <- fit2$forest$trees[[1]]
  expect_identical(tree_leaf_kinds(tree2), "linear_svm")
  expect_identical(dim(tree_linear_leaf(fit2$forest, tree2, 1)$coef), c(2L, 1L))  # one weight and the bias
  expect_length(tree_linear_coefficients(fit2$forest, tree2), 2)
  expect_identical(as.character(predict(fit2, x, num_threads = 1)), c("a", "a", "a", "b", "b", "b"))
  # min_class_rows raises the bar
  fit4 <- svforest(method = "rsvt", x, factor(c("a", "a", "a", "b", "b", "b")), ntree = 1, seed = 1,
                   num_threads = 1, min_leaf_size = 6, min_class_rows = 4)
  expect_identical(tree_leaf_kinds(fit4$forest$trees[[1]]), "constant")
  # pure leaves in a real forest are constant leaves
  fi <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
  for (t in fi$forest$trees) {
    pure <- colSums(tree_leaf_counts(fi$forest, t) > 0) == 1
    expect_true(all(tree_leaf_kinds(t)[pure] == "constant"))
  }
})

test_that("summary() reports the shares of SVM and constant leaves", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
  s <- summary(fit)
  svm <- leaf_kinds(fit) == "linear_svm"
  expect_equal(s$svm_leaf_share, mean(svm))
  expect_gt(s$svm_leaf_share, 0)
  expect_lt(s$svm_leaf_share, 1)
  expect_identical(as.integer(sum(s$cost)), sum(svm))
  expect_identical(s$leaves_per_tree, n_leaves(fit))
  expect_identical(s$leaf_size, leaf_sizes(fit))
  expect_output(print(s), sprintf("Leaves with an SVM: %.1f%%", 100 * mean(svm)))
  const <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, leaf = "constant")
  expect_identical(summary(const)$svm_leaf_share, 0)
  expect_identical(as.integer(sum(summary(const)$cost)), 0L)
})

test_that("the chosen C of every SVM leaf is in the cost grid", {
  d <- xor_linear(1000, p = 3, noise = 0.2, seed = 71)
  grid <- c(3, 0.01, 100)
  fit <- svforest(method = "rsvt", d$x, d$y, ntree = 4, seed = 1, num_threads = 2, cost = grid)
  expect_identical(fit$params$cost, sort(grid))
  costs <- leaf_costs(fit)[leaf_kinds(fit) == "linear_svm"]
  expect_gt(length(costs), 0)
  expect_true(all(costs %in% grid))
  # constant leaves have no C
  const_costs <- leaf_costs(fit)[leaf_kinds(fit) == "constant"]
  expect_true(all(is.na(const_costs)))
  # the default grid
  fd <- svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, num_threads = 2)
  expect_true(all(leaf_costs(fd)[leaf_kinds(fd) == "linear_svm"] %in%
                    c(0.25, 0.5, 1, 2, 4)))
  expect_identical(names(summary(fd)$cost), c("0.25", "0.5", "1", "2", "4"))
})

test_that("a single cost with cv_folds = 1 works and is used by every SVM leaf", {
  d <- xor_linear(600, seed = 72)
  fit <- svforest(method = "rsvt", d$x, d$y, ntree = 3, seed = 1, num_threads = 1, cost = 0.7, cv_folds = 1)
  costs <- leaf_costs(fit)[leaf_kinds(fit) == "linear_svm"]
  expect_gt(length(costs), 0)
  expect_true(all(costs == 0.7))
  expect_gt(accuracy(predict(fit, d$x, num_threads = 1), d$y), 0.85)
  # several costs but no CV: the first (smallest) one is used
  fit2 <- svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, num_threads = 1, cost = c(5, 0.2), cv_folds = 1)
  expect_true(all(leaf_costs(fit2)[leaf_kinds(fit2) == "linear_svm"] == 0.2))
  # a single cost with CV folds: CV has nothing to choose
  fit3 <- svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, num_threads = 1, cost = 2, cv_folds = 5)
  expect_true(all(leaf_costs(fit3)[leaf_kinds(fit3) == "linear_svm"] == 2))
})

test_that("bootstrap gives an OOB error close to the error on a large test set", {
  train <- xor_linear(2000, p = 3, noise = 0.1, seed = 73)
  test <- xor_linear(5000, p = 3, noise = 0.1, seed = 74)
  fit <- svforest(method = "rsvt", train$x, train$y, ntree = 50, seed = 5, num_threads = 2, sampler = "bootstrap")
  expect_true(is.double(fit$oob_error) && length(fit$oob_error) == 1)
  expect_gte(fit$oob_error, 0)
  expect_lte(fit$oob_error, 1)
  test_error <- 1 - accuracy(predict(fit, test$x, num_threads = 2), test$y)
  expect_lt(abs(fit$oob_error - test_error), 0.05)
  expect_length(fit$oob_error_curve, 50)
  expect_identical(fit$oob_error_curve[50], fit$oob_error_ensemble)
  expect_true(all(fit$oob_error_curve >= 0 & fit$oob_error_curve <= 1))
  # the curve falls as trees are added
  expect_gt(fit$oob_error_curve[1], fit$oob_error_curve[50])
  # OOB predictions: a factor over the training rows; the error is theirs
  expect_s3_class(fit$oob_predictions, "factor")
  expect_length(fit$oob_predictions, 2000)
  seen <- !is.na(fit$oob_predictions)
  expect_gt(mean(seen), 0.99)
  expect_equal(mean(fit$oob_predictions[seen] != train$y[seen]), fit$oob_error_ensemble)
  # bootstrap trees are grown on n draws with replacement
  expect_true(all(vapply(fit$forest$trees, function(t) sum(tree_leaf_sizes(t)), 0L) == 2000L))
})

test_that("subsample gives an OOB error; sampler 'all' gives NA", {
  d <- xor_linear(800, seed = 75)
  sub <- svforest(method = "rsvt", d$x, d$y, ntree = 10, seed = 1, num_threads = 2, sampler = "subsample")
  expect_gte(sub$oob_error, 0)
  expect_lte(sub$oob_error, 0.3)
  expect_length(sub$oob_error_curve, 10)
  # subsample draws ceiling(0.632 n) distinct rows
  expect_true(all(vapply(sub$forest$trees, function(t) sum(tree_leaf_sizes(t)), 0L) == ceiling(0.632 * 800)))
  half <- svforest(method = "rsvt", d$x, d$y, ntree = 2, seed = 1, num_threads = 2, sampler = "subsample",
                   sample_fraction = 0.5)
  expect_true(all(vapply(half$forest$trees, function(t) sum(tree_leaf_sizes(t)), 0L) == 400L))

  all <- svforest(method = "rsvt", d$x, d$y, ntree = 3, seed = 1, num_threads = 2)
  expect_identical(all$params$sampler, "all")
  expect_identical(all$oob_error, NA_real_)
  expect_null(all$oob_error_curve)
  expect_null(all$oob_predictions)
})
