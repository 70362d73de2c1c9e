# Tree decomposition SVM (method "tdsvm"): CART entropy splits, kernel SVM
# leaves, the sigma / parameter search on validation data.

# Two circles in [0, 1]^2 plus a pure region: x1 < 0.3 is always class "a";
# elsewhere "b" inside a disc and "c" outside. No hyperplane separates b and c.
td_data <- function(n, seed = 1) {
  withr_seed(seed, {
    x <- matrix(stats::runif(2 * n), n, 2, dimnames = list(NULL, c("x1", "x2")))
    inside <- (x[, 1] - 0.65)^2 + (x[, 2] - 0.5)^2 < 0.06
    y <- ifelse(x[, 1] < 0.3, "a", ifelse(inside, "b", "c"))
    list(x = x, y = factor(y, levels = c("a", "b", "c")))
  })
}

entropy <- function(y) {
  p <- table(y) / length(y)
  p <- p[p > 0]
  -sum(p * log(p))
}

test_that("the root split is the best entropy split found by brute force", {
  withr_seed(3, {
    n <- 60
    x <- matrix(round(stats::runif(n * 3), 2), n, 3, dimnames = list(NULL, c("u", "v", "w")))
    y <- factor(ifelse(x[, 2] + 0.3 * stats::rnorm(n) > 0.5, "p", ifelse(x[, 3] > 0.4, "q", "r")))
  })
  best <- c(gain = -Inf, var = NA, cut = NA)
  gains <- c()
  for (j in 1:3) {
    v <- sort(unique(x[, j]))
    for (k in seq_len(length(v) - 1)) {
      cut <- (v[k] + v[k + 1]) / 2
      left <- x[, j] <= cut
      g <- entropy(y) - mean(left) * entropy(y[left]) - mean(!left) * entropy(y[!left])
      gains <- c(gains, g)
      if (g > best["gain"]) best <- c(gain = g, var = j, cut = cut)
    }
  }
  expect_equal(sum(gains > best["gain"] - 1e-9), 1)  # a unique best cut
  fit <- svforest(x, y, method = "tdsvm", sigma = n, leaf = "constant", seed = 1, num_threads = 1)
  tree <- fit$forest$trees[[1]]
  root <- tree_axis_splits(fit$forest, tree)[1, ]
  expect_identical(root$node, 1L)
  expect_identical(root$var + 1L, as.integer(best["var"]))
  expect_equal(root$value, unname(best["cut"]), tolerance = 1e-12)
  # children of the root have fewer than sigma rows: both are leaves
  expect_identical(tree_n_leaves(tree), 2L)
})

test_that("homogeneous leaves predict their class without an SVM; others get a kernel SVM", {
  d <- td_data(600)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma = 100, cost = 10, gamma = 10, seed = 1, num_threads = 1)
  expect_null(fit$tdsvm)  # nothing to search
  tree <- fit$forest$trees[[1]]
  counts <- tree_leaf_counts(fit$forest, tree)
  pure <- colSums(counts > 0) == 1
  expect_true(any(pure) && any(!pure))
  expect_identical(tree_leaf_kinds(tree), ifelse(pure, "constant", "kernel_svm"))
  expect_true(all(tree_leaf_sv_counts(fit$forest, tree)[pure] == 0L))
  expect_true(all(tree_leaf_sv_counts(fit$forest, tree)[!pure] > 0L))
  kernel <- lapply(which(!pure), function(l) tree_kernel_leaf(fit$forest, tree, l))
  expect_true(all(vapply(kernel, function(k) k$gamma == 10 && k$multiclass == "ovo", TRUE)))
  # every node of sigma rows or more was split (or has no gain: a pure node)
  expect_true(all(tree_leaf_sizes(tree) < 100 | pure))
  test <- td_data(2000, seed = 2)
  expect_gt(mean(predict(fit, test$x) == test$y), 0.95)
  nsv <- support_vectors_used(fit, test$x)
  leaf <- predict(fit, test$x, type = "leaf")[, 1]
  expect_identical(nsv, tree_leaf_sv_counts(fit$forest, tree)[leaf])
})

test_that("merging the leaves of a tree to a larger sigma gives the tree grown with it", {
  d <- td_data(900, seed = 4)
  y <- as.integer(d$y) - 1L
  for (sigma in c(40L, 160L, 2000L)) {
    res <- svforest:::.svf_cart_merge(list(type = "dense", x = d$x), y, 3L, 10L, sigma)
    expect_gt(tree_n_leaves(res$small$tree), tree_n_leaves(res$merged$tree))
    # (the grown trees hold no leaf payloads yet: their node arrays are compared)
    nodes <- c("left_child", "right_child", "leaf_id", "split_kind", "split_int", "split_real", "leaf_size")
    expect_identical(res$merged$tree[nodes], res$direct$tree[nodes])
    expect_identical(res$merged$leaf_counts, res$direct$leaf_counts)
    expect_identical(res$merged$rows, res$direct$rows)
    expect_identical(res$merged$leaf_begin, res$direct$leaf_begin)
  }
})

test_that("the sigma search follows the 0.5-point rule and keeps its curve", {
  d <- td_data(1500, seed = 5)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma0 = 50, cost = c(1, 100), gamma = c(1, 30),
                  top_k = 2, seed = 3, num_threads = 2)
  sel <- fit$tdsvm
  expect_identical(sel$n_train + sel$n_validation, 1500L)
  expect_equal(sel$n_validation, 300, tolerance = 2)
  curve <- sel$curve
  expect_identical(sum(curve$stage == 0), 4L)  # the whole grid at sigma0
  expect_true(all(table(curve$stage)[-1] == 2L))  # then the top 2 only
  stages <- sort(unique(curve$stage))
  expect_identical(unique(curve$sigma), as.integer(50 * 4^stages))
  best <- tapply(curve$accuracy, curve$stage, max)
  gain <- diff(best)
  last <- length(best)
  # every stage but the last gained at least 0.5 points; the last stops the search
  expect_true(all(gain[-length(gain)] >= 0.005 - 1e-12))
  if (gain[length(gain)] < 0.005) {
    expect_identical(sel$sigma, unique(curve$sigma[curve$stage == stages[last - 1]]))
  } else {
    expect_gte(max(curve$sigma), sel$n_train)
    expect_identical(sel$sigma, max(curve$sigma))
  }
  # the top 2 of stage 0 are the pairs tried later
  s0 <- curve[curve$stage == 0, ]
  top <- s0[order(-s0$accuracy), ][1:2, c("cost", "gamma")]
  expect_identical(unique(curve[curve$stage == 1, c("cost", "gamma")])$cost, top$cost)
  # an unreachable gain stops after stage 1 and keeps sigma0
  strict <- svforest(d$x, d$y, method = "tdsvm", sigma0 = 50, cost = c(1, 100), gamma = c(1, 30),
                     min_gain = 100, seed = 3, num_threads = 2)
  expect_identical(strict$tdsvm$sigma, 50L)
  expect_identical(sort(unique(strict$tdsvm$curve$stage)), 0:1)
  expect_identical(strict$params$sigma, 50L)
  # the final tree is grown with the chosen sigma on all rows
  expect_identical(sum(tree_leaf_sizes(strict$forest$trees[[1]])), 1500L)
  expect_output(print(summary(fit)), "Tree decomposition search")
  expect_output(print(fit), "Chosen by validation")
  pdf(NULL)
  expect_silent(plot(fit))
  dev.off()
})

test_that("sigma_max caps the sigma search for classification", {
  # classes by the largest of 8 linear scores: the larger the leaves, the
  # better, so the uncapped search grows them past 200 rows
  set.seed(11)
  x <- matrix(runif(2000 * 5, -1, 1), 2000, 5, dimnames = list(NULL, paste0("x", 1:5)))
  y <- factor(max.col(x %*% matrix(rnorm(5 * 8), 5, 8), ties.method = "first"))
  fit_with <- function(...) {
    svforest(x, y, method = "tdsvm", sigma0 = 50, cost = c(1, 10), gamma = 1, seed = 1, num_threads = 2, ...)
  }
  free <- fit_with()
  expect_gt(free$tdsvm$sigma, 200L)
  capped <- fit_with(sigma_max = 200)
  expect_lte(max(capped$tdsvm$curve$sigma), 200)
  expect_lte(capped$tdsvm$sigma, 200L)
  expect_true(all(tree_leaf_sizes(capped$forest$trees[[1]]) < 200L))
  expect_identical(capped$params$sigma_max, 200L)
})

# threads (with a search over cost x gamma), saveRDS, combine and prediction types: test-contract.R

test_that("a one-leaf model predicts as LIBSVM (e1071::svm) does", {
  skip_if_not_installed("e1071")
  d <- td_data(400, seed = 8)
  test <- td_data(1000, seed = 9)
  lo <- apply(d$x, 2, min)
  hi <- apply(d$x, 2, max)
  scale01 <- function(x) sweep(sweep(x, 2, lo), 2, hi - lo, "/")
  for (cost in c(1, 50)) {
    fit <- svforest(d$x, d$y, method = "tdsvm", sigma = 401, cost = cost, gamma = 5, seed = 1,
                    num_threads = 1)
    tree <- fit$forest$trees[[1]]
    expect_identical(tree_n_leaves(tree), 1L)
    ref <- e1071::svm(scale01(d$x), d$y, kernel = "radial", cost = cost, gamma = 5, scale = FALSE)
    expect_identical(tree_leaf_sv_counts(fit$forest, tree), ref$tot.nSV)
    expect_equal(sort(tree_kernel_leaf(fit$forest, tree, 1)$rho), sort(ref$rho), tolerance = 1e-6)
    expect_identical(predict(fit, test$x), unname(predict(ref, scale01(test$x))))
  }
})

test_that("RBF leaves solve what linear leaves cannot; one-against-others works", {
  d <- td_data(600, seed = 10)
  keep <- d$y != "a"
  x <- d$x[keep, ]
  y <- droplevels(d$y[keep])
  test <- td_data(2000, seed = 11)
  tk <- test$y != "a"
  one_leaf <- nrow(x) + 1
  rbf <- svforest(x, y, method = "tdsvm", sigma = one_leaf, cost = 10, gamma = 10, seed = 1, num_threads = 1)
  lin <- svforest(x, y, method = "tdsvm", sigma = one_leaf, leaf = "linear_svm", cost = 10, seed = 1,
                  num_threads = 1)
  acc <- function(f) mean(predict(f, test$x[tk, ]) == droplevels(test$y[tk]))
  expect_gt(acc(rbf), 0.95)
  expect_lt(acc(lin), 0.8)
  ovr <- svforest(d$x, d$y, method = "tdsvm", sigma = 100000, cost = 10, gamma = 10, multiclass = "ovr",
                  seed = 1, num_threads = 1)
  tree <- ovr$forest$trees[[1]]
  expect_identical(tree_leaf_kinds(tree), "kernel_svm")
  expect_identical(tree_kernel_leaf(ovr$forest, tree, 1)$multiclass, "ovr")
  expect_identical(tree_kernel_leaf(ovr$forest, tree, 1)$classes, 1:3)
  expect_gt(mean(predict(ovr, test$x) == test$y), 0.95)
})

test_that("user validation data is used and checked", {
  d <- td_data(500, seed = 12)
  v <- td_data(300, seed = 13)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma0 = 50, cost = c(1, 10), gamma = 10,
                  validation = list(x = v$x, y = v$y), seed = 1, num_threads = 1)
  expect_identical(fit$tdsvm$n_validation, 300L)
  expect_identical(fit$tdsvm$n_train, 500L)
  expect_false("validation" %in% names(fit$params))
  df <- data.frame(d$x, cls = d$y)
  vf <- data.frame(v$x, cls = v$y)
  fit2 <- svforest(cls ~ ., data = df, method = "tdsvm", sigma0 = 50, cost = c(1, 10), gamma = 10,
                   validation = vf, seed = 1, num_threads = 1)
  expect_identical(fit2$tdsvm$curve, fit$tdsvm$curve)
  expect_error(svforest(d$x, d$y, method = "tdsvm", validation = v$x), "`validation` must be list")
  expect_error(svforest(d$x, d$y, method = "tdsvm", validation = list(x = v$x, y = v$y[-1])),
               "has 300 rows")
  expect_error(svforest(d$x, d$y, method = "tdsvm", validation = list(x = v$x[, 1, drop = FALSE], y = v$y)),
               "validation")
  expect_error(svforest(d$x, d$y, validation = list(x = v$x, y = v$y)), "only by the \"cart\" splitter")
  expect_error(svforest(d$x, d$y, method = "tdsvm", sigma = 1), "`sigma`")
  expect_error(svforest(d$x, d$y, method = "tdsvm", gamma = -1), "`gamma`")
  expect_error(svforest(d$x, d$y, method = "tdsvm", multiclass = "all"), "`multiclass`")
  expect_error(svforest(d$x, d$y, method = "tdsvm", top_k = 0), "`top_k`")
})

test_that("damaged kernel leaves give R errors, not crashes", {
  d <- td_data(300, seed = 14)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma = 80, cost = 10, gamma = 10, seed = 1, num_threads = 1)
  expect_true("kernel_svm" %in% tree_leaf_kinds(fit$forest$trees[[1]]))
  damage <- tree_damages(fit$forest, fit$forest$trees[[1]])
  expect_gte(sum(startsWith(names(damage), "kernel_")), 9)  # the kernel leaves' payload is damaged too
  for (name in names(damage)) {
    bad <- fit
    bad$forest$trees[[1]] <- damage[[name]]
    expect_error(predict(bad, d$x), "tree 1", info = name)
  }
})

test_that("with user validation data the search hands over the final tree unchanged", {
  d <- td_data(600, seed = 21)
  v <- td_data(300, seed = 22)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma0 = 40, cost = c(1, 10), gamma = c(3, 30),
                  min_gain = 0, validation = list(x = v$x, y = v$y), seed = 1, num_threads = 2)
  sel <- fit$tdsvm
  # chosen at a stage after the first, where the search's leaf models are reused
  expect_gt(sel$sigma, 40L)
  refit <- svforest(d$x, d$y, method = "tdsvm", sigma = sel$sigma, cost = sel$cost,
                    gamma = sel$gamma, seed = 1, num_threads = 1)
  expect_null(refit$tdsvm)
  expect_identical(fit$forest$trees, refit$forest$trees)
  expect_identical(predict(fit, v$x, type = "prob"), predict(refit, v$x, type = "prob"))
})

test_that("validation_fraction is not taken for validation data", {
  d <- td_data(300, seed = 17)
  fit <- svforest(d$x, d$y, method = "tdsvm", sigma0 = 50, cost = 10, gamma = c(1, 10),
                  validation_fraction = 0.3, seed = 1, num_threads = 1)
  expect_identical(fit$tdsvm$n_validation, 90L)
})

test_that("sparse input gives the dense model when both scalings agree", {
  d <- td_data(500, seed = 15)
  x <- d$x
  x[x < 0.2] <- 0  # many zeros; every column's minimum is 0, so min-max = max-abs scaling
  x[1, ] <- 0
  xs <- Matrix::Matrix(x, sparse = TRUE)
  args <- list(method = "tdsvm", sigma0 = 50, cost = c(1, 10), gamma = c(1, 10), seed = 2, num_threads = 1)
  dense <- do.call(svforest, c(list(x, d$y), args))
  sparse <- do.call(svforest, c(list(xs, d$y), args))
  expect_identical(sparse$tdsvm, dense$tdsvm)
  test <- td_data(300, seed = 16)$x
  expect_identical(predict(sparse, Matrix::Matrix(test, sparse = TRUE), type = "prob"),
                   predict(dense, test, type = "prob"))
})
