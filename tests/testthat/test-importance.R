# Variable importance (permutation and coefficients) and local linear
# explanations (predict(type = "local")).

# 5 informative predictors (x1..x5) and 15 noise predictors; two classes.
# Predictors in [0, 1] (not centred): transformation forests route by
# subspaces through the origin, which cannot tell a half-space of centred
# data from its mirror image.
informative_data <- function(n = 400, seed = 11) {
  set.seed(seed)
  x <- matrix(stats::runif(n * 20, 0, 1), n, 20, dimnames = list(NULL, paste0("x", 1:20)))
  y <- factor(ifelse(x[, 1] + x[, 2] + x[, 3] + x[, 4] + x[, 5] > 2.5, "b", "a"))
  list(x = x, y = y)
}

# More trees than the fast settings where a few trees rank too noisily (the
# default's trees score on half their out-of-bag rows: the others chose).
importance_settings <- list(hybrid = list(ntree = 10), rsvt = list(ntree = 5), psvm = list(ntree = 30),
                            transform = list(ntree = 20), rsvf = list(ntree = 5))

test_that("every method ranks the 5 informative predictors on top by permutation importance", {
  d <- informative_data()
  for (m in all_methods()) {
    extra <- importance_settings[[m]]
    fit <- do.call(fit_method, c(list(m, d$x, y = d$y, importance = "permutation"), extra))
    imp <- fit$variable_importance
    expect_identical(names(imp), colnames(d$x), info = m)
    expect_identical(attr(imp, "type"), "permutation", info = m)
    top <- names(sort(imp, decreasing = TRUE))[1:5]
    expect_setequal(top, paste0("x", 1:5))
    if (!setequal(top, paste0("x", 1:5))) print(list(method = m, importance = round(imp, 3)))
  }
})

test_that("permutation importance is the same for 1 and 2 threads, at fit time and afterwards", {
  d <- informative_data(n = 200)
  a <- fit_method("rsvf", d$x, y = d$y, importance = "permutation", num_threads = 1)
  b <- fit_method("rsvf", d$x, y = d$y, importance = "permutation", num_threads = 2)
  expect_identical(a$variable_importance, b$variable_importance)
  # the fit-time importance is the out-of-bag one, drawn again afterwards
  expect_identical(svforest_importance(a, d$x, d$y, oob = TRUE, num_threads = 2), a$variable_importance)
  p1 <- svforest_importance(a, d$x, d$y, per_class = TRUE, num_threads = 1)
  p2 <- svforest_importance(a, d$x, d$y, per_class = TRUE, num_threads = 2)
  expect_identical(p1, p2)
  expect_identical(dim(p1), c(20L, 3L))
  expect_identical(colnames(p1), c("a", "b", "overall"))
  # other seeds permute differently
  c2 <- fit_method("rsvf", d$x, y = d$y, importance = "permutation", seed = 2)
  expect_false(identical(a$variable_importance, c2$variable_importance))
})

test_that("out-of-bag importance needs the training data and a sampler that leaves rows out", {
  d <- informative_data(n = 150)
  fit <- fit_method("rsvt", d$x, y = d$y)
  expect_null(fit$variable_importance)
  expect_error(svforest_importance(fit, d$x, d$y, oob = TRUE), "leaves rows out")
  b <- fit_method("rsvf", d$x, y = d$y)
  expect_error(svforest_importance(b, d$x[1:100, ], d$y[1:100], oob = TRUE), "training data")
  expect_error(svforest_importance(b, d$x, rev(d$y), oob = TRUE), "training data")
  expect_error(svforest_importance(b), "labelled data")
  expect_error(svforest_importance(b, d$x, d$y[-1]), "one value per row")
  expect_error(svforest_importance(b, d$x, factor(rep("zz", 150))), "not among")
  expect_error(fit_method("rsvt", d$x, y = d$y, importance = "gini"), "importance")
})

test_that("sparse input gives the same importance as dense input", {
  set.seed(5)
  n <- 200
  x <- matrix(stats::rbinom(n * 8, 1, 0.3) * stats::runif(n * 8, 0, 2), n, 8,
              dimnames = list(NULL, paste0("s", 1:8)))
  y <- factor(ifelse(x[, 1] - x[, 2] + 0.5 * x[, 3] > 0.2, "p", "q"))
  sx <- Matrix::Matrix(x, sparse = TRUE)
  fit <- fit_method("rsvf", sx, y = y, importance = "permutation")
  # at fit time the sparse training rows were read as CSR; here dense and sparse
  dense <- svforest_importance(fit, x, y, oob = TRUE)
  sparse <- svforest_importance(fit, sx, y, oob = TRUE)
  expect_identical(sparse, dense)
  expect_identical(fit$variable_importance, dense)
  expect_identical(svforest_importance(fit, sx, y), svforest_importance(fit, x, y))
  expect_gt(dense[["s1"]], max(dense[4:8]))
})

test_that("a factor predictor is reported under its name", {
  set.seed(3)
  n <- 240
  df <- data.frame(g = factor(sample(c("u", "v", "w"), n, TRUE)), a = stats::runif(n), b = stats::runif(n),
                   flag = sample(c(TRUE, FALSE), n, TRUE))
  df$y <- factor(ifelse((df$g == "u") + df$a > 0.9, "yes", "no"))
  fit <- svforest(y ~ ., data = df, ntree = 3, seed = 1, num_threads = 1, importance = "permutation")
  imp <- fit$variable_importance
  expect_identical(names(imp), c("g", "a", "b", "flag"))
  expect_gt(imp[["g"]], imp[["b"]])
  co <- svforest_importance(fit, type = "coefficients")
  expect_identical(names(co), c("g", "a", "b", "flag"))
  expect_gt(co[["g"]], co[["b"]])
})

test_that("coefficient importance ranks the informative predictors of linear leaves and oblique splits", {
  d <- informative_data()
  for (m in c("rsvt", "psvm")) {
    fit <- do.call(fit_method, c(list(m, d$x, y = d$y, importance = "coefficients"), importance_settings[[m]]))
    imp <- fit$variable_importance
    expect_identical(attr(imp, "type"), "coefficients")
    expect_setequal(names(sort(imp, decreasing = TRUE))[1:5], paste0("x", 1:5))
  }
  expect_error(fit_method("transform", d$x, y = d$y, importance = "coefficients"), "linear leaves")
  fit <- fit_method("transform", d$x, y = d$y)
  expect_error(svforest_importance(fit, type = "coefficients"), "no coefficients")
})

test_that("local coefficients of rsvt recover known local slopes on each half of the space", {
  set.seed(7)
  n <- 3000
  x <- matrix(stats::runif(n * 3, -1, 1), n, 3, dimnames = list(NULL, c("x1", "x2", "x3")))
  # x3 < 0: class "hi" when x1 > 2 x2 (boundary x1 - 2 x2 = 0, coefficients
  # proportional to (1, -2), so coef_x1 / coef_x2 = -1/2);
  # x3 >= 0: class "hi" when x1 > -x2 (boundary x1 + x2 = 0, ratio +1)
  hi <- ifelse(x[, 3] < 0, x[, 1] - 2 * x[, 2] > 0, x[, 1] + x[, 2] > 0)
  y <- factor(ifelse(hi, "hi", "lo"), levels = c("lo", "hi"))
  fit <- svforest(x, y, method = "rsvt", ntree = 20, seed = 1, num_threads = 2, leaf_size_factor = 3)
  loc <- predict(fit, x, type = "local")
  expect_s3_class(loc, "svforest_local")
  expect_identical(dim(loc$coefficients), c(3000L, 3L))
  expect_identical(loc$class, "hi")
  ratio <- function(rows) {
    co <- colMeans(loc$coefficients[rows, , drop = FALSE])
    c(sign1 = sign(co[["x1"]]), ratio = co[["x1"]] / co[["x2"]])
  }
  a <- ratio(x[, 3] < -0.3 & loc$trees > 0)
  b <- ratio(x[, 3] > 0.3 & loc$trees > 0)
  expect_equal(a[["sign1"]], 1)
  expect_equal(b[["sign1"]], 1)
  expect_gt(a[["ratio"]], -0.8)
  expect_lt(a[["ratio"]], -0.3)
  expect_gt(b[["ratio"]], 0.6)
  expect_lt(b[["ratio"]], 1.6)
  # contributions are coefficients times the centred predictors
  centred <- sweep(x, 2, fit$feature_means)
  expect_equal(loc$contributions, loc$coefficients * centred)
  expect_equal(unname(fit$feature_means), unname(colMeans(x)))
})

test_that("local explanations: original scale, classes, sparse input, and errors", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 4, seed = 1, num_threads = 1)
  loc <- predict(fit, iris, type = "local")
  expect_identical(dim(loc$coefficients), c(150L, 4L, 3L))
  expect_identical(dimnames(loc$coefficients)[[3]], levels(iris$Species))
  # the same model on predictors in other units (x 10) has coefficients / 10
  iris10 <- iris
  iris10[1:4] <- iris10[1:4] * 10
  fit10 <- svforest(method = "rsvt", Species ~ ., data = iris10, ntree = 4, seed = 1, num_threads = 1)
  loc10 <- predict(fit10, iris10, type = "local")
  expect_equal(loc10$coefficients, loc$coefficients / 10, tolerance = 1e-6)
  expect_equal(loc10$contributions, loc$contributions, tolerance = 1e-6)
  # a two-class leaf gives +w to its second class and -w to its first: with
  # two classes the one set of coefficients pushes towards the second level
  two <- droplevels(iris[iris$Species != "setosa", ])
  f2 <- svforest(method = "rsvt", Species ~ ., data = two, ntree = 3, seed = 1, num_threads = 1)
  l2 <- predict(f2, two, type = "local")
  expect_identical(l2$class, "virginica")
  expect_gt(mean(l2$coefficients[, "Petal.Width"]), 0)
  # sparse models
  set.seed(2)
  sx <- Matrix::rsparsematrix(150, 6, 0.4)
  colnames(sx) <- paste0("c", 1:6)
  sy <- factor(ifelse(as.matrix(sx) %*% c(1, -1, 0, 0, 0, 0) > 0, "p", "q"))
  fs <- svforest(method = "rsvt", sx, sy, ntree = 2, seed = 1, num_threads = 1)
  expect_equal(predict(fs, sx, type = "local")$coefficients, predict(fs, as.matrix(sx), type = "local")$coefficients)
  expect_equal(unname(fs$feature_means), unname(Matrix::colMeans(sx)))
  # no linear leaves
  for (m in c("psvm", "transform")) {
    f <- fit_method(m, as.matrix(iris[1:4]), y = iris$Species)
    expect_error(predict(f, iris[1:4], type = "local"), "need linear leaves")
  }
  fk <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, leaf = "kernel_svm")
  expect_error(predict(fk, iris, type = "local"), "\"kernel_svm\"")
})

test_that("plot of importance, combine, saveRDS", {
  fit <- svforest(Species ~ ., data = iris, ntree = 4, seed = 1, num_threads = 1, importance = "permutation")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fit, what = "importance"), fit)
  expect_error(plot(fit, what = "nothing"), "what")
  plain <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(plot(plain, what = "importance"), "no variable importance")
  f <- tempfile(fileext = ".rds")
  saveRDS(fit, f)
  expect_identical(readRDS(f)$variable_importance, fit$variable_importance)
  # parts of one forest: the combined forest's out-of-bag importance is the whole forest's
  d <- informative_data(n = 150)
  whole <- fit_method("rsvf", d$x, y = d$y, ntree = 4, importance = "permutation")
  a <- fit_method("rsvf", d$x, y = d$y, ntree = 2)
  b <- fit_method("rsvf", d$x, y = d$y, ntree = 2, first_tree = 2)
  ab <- combine(b, a)
  expect_null(ab$variable_importance)
  expect_identical(svforest_importance(ab, d$x, d$y, oob = TRUE), whole$variable_importance)
})

test_that("vip::vi() reads svforest models, also through parsnip", {
  skip_if_not_installed("vip")
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1, importance = "permutation")
  vi <- vip::vi(fit, method = "model")
  expect_setequal(vi$Variable, names(fit$variable_importance))
  expect_equal(vi$Importance[match(names(fit$variable_importance), vi$Variable)],
               unname(as.double(fit$variable_importance)))
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"), "svforest",
                              importance = "permutation")
  pf <- parsnip::fit(spec, Species ~ ., data = iris)
  eng <- parsnip::extract_fit_engine(pf)
  expect_identical(attr(eng$variable_importance, "type"), "permutation")
  expect_setequal(vip::vi(eng)$Variable, names(iris)[1:4])
})

test_that("parsnip passes the importance engine argument through", {
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"), "svforest",
                              method = "rsvt", importance = "coefficients")
  pf <- parsnip::fit(spec, Species ~ ., data = iris)
  imp <- parsnip::extract_fit_engine(pf)$variable_importance
  expect_identical(attr(imp, "type"), "coefficients")
  expect_setequal(names(imp), names(iris)[1:4])
})

test_that("the engine's shortcuts give exactly the importance of routing every permuted row anew", {
  # TreeRows (src/core/forest/Importance.cpp) walks stored paths, re-routes
  # from the first node whose side changes, and serves one-column groups
  # together; fast = FALSE routes each permuted row from the root
  dat <- informative_data(300)
  frame <- data.frame(dat$x[, 1:6], f = factor(ifelse(dat$x[, 7] > 0.5, "u", "v")))
  for (m in all_methods()) {
    for (x in list(frame, dat$x[, 1:6])) {
      fit <- fit_method(m, x, y = dat$y, ntree = 3)
      data <- svforest:::new_engine_data(fit, x)
      yi <- as.integer(dat$y) - 1L
      fast <- svforest:::permutation_importance(fit, data, yi, FALSE, TRUE, 1L, fast = TRUE)
      slow <- svforest:::permutation_importance(fit, data, yi, FALSE, TRUE, 1L, fast = FALSE)
      expect_identical(fast, slow, info = m)
      expect_true(any(fast[, "overall"] != 0), info = m)
    }
  }
})

test_that("regression forests: permutation importance (increase of MSE) ranks the informative predictors", {
  set.seed(21)
  skip_if_not_installed("mlbench")
  d <- mlbench::mlbench.friedman1(400, sd = 0.5)
  x <- d$x
  colnames(x) <- paste0("x", 1:10)
  for (m in c("rsvf", "rsvt", "tdsvm")) {
    args <- list(x, d$y, method = m, seed = 1, num_threads = 1, importance = "permutation")
    if (m == "tdsvm") args <- c(args, list(cost = 1, gamma = 1, sigma = 100))
    if (m == "rsvf") args <- c(args, list(ntree = 5))
    fit <- do.call(svforest, args)
    imp <- fit$variable_importance
    # x1, x2, x4, x5 carry most of Friedman 1's signal; x3 enters as a
    # quadratic around its midpoint and can rank lower
    expect_true(all(c("x1", "x2", "x4", "x5") %in% names(sort(imp, decreasing = TRUE))[1:5]), info = m)
    expect_gt(min(imp[c("x1", "x2", "x4")]), 5 * max(abs(imp[6:10])), label = m)
    two <- do.call(svforest, utils::modifyList(args, list(num_threads = 2)))
    expect_identical(two$variable_importance, imp)
    data <- svforest:::new_engine_data(fit, x)
    yi <- (d$y - fit$outcome_center) / fit$outcome_scale
    oob <- !identical(fit$params$sampler, "all")
    slow <- svforest:::permutation_importance(fit, data, yi, oob, FALSE, 1L, fast = FALSE)
    expect_identical(as.vector(slow), as.vector(imp), info = m)
  }
  ridge <- svforest(x, d$y, method = "rsvt", ntree = 3, seed = 1, num_threads = 1, importance = "coefficients")
  expect_true(all(names(sort(ridge$variable_importance, decreasing = TRUE))[1:2] %in% paste0("x", c(1, 2, 4))))
})

test_that("regression: local coefficients of ridge leaves recover local slopes on the outcome's scale", {
  set.seed(22)
  n <- 800
  x <- matrix(runif(n * 2), n, 2, dimnames = list(NULL, c("x1", "x2")))
  # slope 3 in x1 on the left half, -2 on the right half; x2 does nothing
  y <- ifelse(x[, 1] < 0.5, 3 * x[, 1], 1.5 - 2 * (x[, 1] - 0.5)) * 100 + rnorm(n, sd = 2)
  fit <- svforest(x, y, method = "rsvt", ntree = 10, seed = 1, num_threads = 1)
  loc <- predict(fit, rbind(c(0.2, 0.5), c(0.8, 0.5)), type = "local")
  expect_s3_class(loc, "svforest_local")
  expect_equal(unname(loc$coefficients[, "x1"]), c(300, -200), tolerance = 0.25)
  expect_lt(max(abs(loc$coefficients[, "x2"])), 40)
  expect_output(print(loc), "regression")
  flat <- svforest(x, y, method = "tdsvm", cost = 1, gamma = 1, sigma = 100, seed = 1, num_threads = 1)
  expect_error(predict(flat, x, type = "local"), "need linear leaves")
})

test_that("coefficient importance is answered by the fitted forest: the default's hyperplanes count", {
  fit <- svforest(Species ~ ., iris, ntree = 10, seed = 1, num_threads = 1)
  expect_true("oblique" %in% unlist(lapply(fit$forest$trees, svforest:::tree_split_kinds)))
  expect_true(svforest:::has_coefficient_parts(fit))
  co <- svforest(Species ~ ., iris, ntree = 10, seed = 1, num_threads = 1, importance = "coefficients")
  expect_identical(co$variable_importance, svforest_importance(fit, type = "coefficients"))
  expect_identical(attr(co$variable_importance, "type"), "coefficients")
  # petal sizes separate the species: the hyperplanes weigh them most
  expect_setequal(names(sort(co$variable_importance, decreasing = TRUE))[1:2], c("Petal.Length", "Petal.Width"))
  # vip's model method (vip::vi() calls it; registered when vip loads)
  vi <- svforest:::vi_model_svforest(fit)
  expect_equal(vi$Importance, unname(as.double(co$variable_importance)))
  expect_identical(attr(vi, "type"), "coefficients")
  if (requireNamespace("vip", quietly = TRUE)) expect_equal(vip::vi(fit)$Variable, vi$Variable[order(-vi$Importance)])
  # the same default splitter on one predictor, where axis cuts always win:
  # no hyperplane in any tree, so no coefficients
  x <- data.frame(a = c(1:20, 16:35))
  y <- factor(rep(c("u", "v"), each = 20))
  axis_only <- svforest(x, y, ntree = 5, seed = 1, num_threads = 1)
  expect_false(svforest:::has_coefficient_parts(axis_only))
  expect_error(svforest(x, y, ntree = 5, seed = 1, num_threads = 1, importance = "coefficients"),
               "no linear leaves and no hyperplane splits")
  expect_error(svforest:::vi_model_svforest(axis_only), "holds no variable importance")
})

test_that("caret's varImp() reads the default forest's hyperplanes", {
  skip_if_not_installed("caret")
  set.seed(3)
  tuned <- caret::train(iris[, 1:4], iris$Species, method = svforest_caret(ntree = 10), seed = 1,
                        tuneGrid = data.frame(mtry = 2, min_node_size = 2),
                        trControl = caret::trainControl(method = "none"))
  expect_equal(caret::varImp(tuned, scale = FALSE)$importance$Overall,
               unname(as.numeric(svforest_importance(tuned$finalModel, type = "coefficients"))))
})
