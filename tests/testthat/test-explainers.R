# The model-agnostic explainers (DALEX, pdp, iml, kernelshap) explain a
# classification forest through its class probabilities without a wrapper,
# and svforest_shap() gives exact attributions of the linear leaves.

# Six predictors, the first three carrying decreasing signal.
ranked_df <- function(n = 300, seed = 5) {
  withr_seed(seed, {
    x <- as.data.frame(matrix(stats::rnorm(n * 6), n, 6, dimnames = list(NULL, paste0("x", 1:6))))
    score <- 3 * x$x1 + 2 * x$x2 + 1 * x$x3 + stats::rnorm(n, sd = 0.5)
    x$y <- factor(ifelse(score > 0, "b", "a"))
    x
  })
}

test_that("DALEX explains a classification forest as classification, with probabilities", {
  skip_if_not_installed("DALEX")
  d <- ranked_df()
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  x <- d[, 1:6]
  e <- DALEX::explain(fit, data = x, y = as.integer(d$y == "b"), verbose = FALSE)
  expect_identical(e$model_info$type, "classification")
  # DALEX's predictions are the probability of the second class
  expect_equal(e$y_hat, unname(predict(fit, x, type = "prob")[, "b"]))
  mp <- DALEX::model_performance(e)
  expect_identical(mp$type, "classification")
  expect_gt(mp$measures$auc, 0.9)
  set.seed(3)
  parts <- DALEX::model_parts(e, B = 3)
  overall <- parts[parts$permutation == 0 & !parts$variable %in% c("_full_model_", "_baseline_"), ]
  dalex_top <- utils::head(overall$variable[order(overall$dropout_loss, decreasing = TRUE)], 3)
  own_top <- names(utils::head(sort(svforest_importance(fit, d, num_threads = 1), decreasing = TRUE), 3))
  expect_setequal(dalex_top, own_top)
  expect_setequal(own_top, c("x1", "x2", "x3"))

  # more than two classes: multiclass, one probability column per class
  iris_fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  e3 <- DALEX::explain(iris_fit, data = iris[, 1:4], y = iris$Species, verbose = FALSE)
  expect_identical(e3$model_info$type, "multiclass")
  expect_equal(unname(as.matrix(e3$y_hat)), unname(predict(iris_fit, iris[, 1:4], type = "prob")))

  # regression: the predictions
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 3, seed = 1, num_threads = 1)
  er <- DALEX::explain(reg, data = mtcars[, -1], y = mtcars$mpg, verbose = FALSE)
  expect_identical(er$model_info$type, "regression")
  expect_equal(er$y_hat, predict(reg, mtcars))
})

test_that("pdp::partial(prob = TRUE) gives class probabilities", {
  skip_if_not_installed("pdp")
  d <- ranked_df()
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  pd <- pdp::partial(fit, pred.var = "x1", train = d[, 1:6], prob = TRUE, grid.resolution = 5,
                     which.class = "b")
  expect_false(anyNA(pd$yhat))
  expect_true(all(pd$yhat >= 0 & pd$yhat <= 1))
  # x1 pushes towards "b": the partial dependence rises
  expect_gt(pd$yhat[5], pd$yhat[1] + 0.3)
  # the same as averaging the probabilities by hand
  grid_x <- d[, 1:6]
  grid_x$x1 <- pd$x1[2]
  expect_equal(pd$yhat[2], mean(predict(fit, grid_x, type = "prob")[, "b"]))
})

test_that("iml's Predictor predicts class probabilities by default", {
  skip_if_not_installed("iml")
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  pr <- iml::Predictor$new(fit, data = iris[, 1:4], y = iris$Species)
  p <- pr$predict(iris[c(1, 51, 101), 1:4])
  expect_identical(names(p), levels(iris$Species))
  expect_equal(unname(as.matrix(p)), unname(predict(fit, iris[c(1, 51, 101), ], type = "prob")))
  # an explicit type is honoured
  pc <- iml::Predictor$new(fit, data = iris[, 1:4], y = iris$Species, type = "prob")
  expect_equal(unname(as.matrix(pc$predict(iris[1:2, 1:4]))), unname(predict(fit, iris[1:2, ], type = "prob")))
})

test_that("kernelshap() and permshap() without pred_fun explain the probabilities", {
  skip_if_not_installed("kernelshap")
  d <- ranked_df()
  fit <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  x <- d[1:4, 1:6]
  bg <- d[11:40, 1:6]
  ks <- kernelshap::kernelshap(fit, x, bg_X = bg, verbose = FALSE)
  expect_named(ks$S, c("a", "b"))
  # SHAP values add up to probability minus the background's mean probability
  prob <- predict(fit, x, type = "prob")[, "b"]
  base <- mean(predict(fit, bg, type = "prob")[, "b"])
  expect_equal(rowSums(ks$S$b) + base, unname(prob), tolerance = 1e-6)
  ps <- kernelshap::permshap(fit, x, bg_X = bg, verbose = FALSE)
  expect_equal(rowSums(ps$S$b) + base, unname(prob), tolerance = 1e-6)
  # the one-line recipe gives the same
  ks2 <- kernelshap::kernelshap(fit, x, bg_X = bg, verbose = FALSE,
                                pred_fun = function(m, X) predict(m, X, type = "prob"))
  expect_equal(ks2$S, ks$S)
})

test_that("svforest_shap() attributions of linear leaves are exact within the leaves", {
  # regression with ridge leaves: two rows that reach the same leaves in
  # every tree differ in prediction by the difference of their attribution sums
  d <- withr_seed(7, {
    x <- data.frame(a = stats::runif(400), b = stats::runif(400), f = factor(sample(c("p", "q"), 400, TRUE)))
    x$y <- 2 * x$a - x$b + (x$f == "q") + stats::rnorm(400, sd = 0.1)
    x
  })
  fit <- svforest(y ~ ., data = d, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  new <- d[1:50, c("a", "b", "f")]
  moved <- new
  moved$a <- moved$a + 0.01
  moved$b <- moved$b - 0.01
  both <- rbind(new, moved)
  s <- svforest_shap(fit, both, num_threads = 1)
  S <- s$S  # a shapviz object, or the same list without shapviz
  expect_identical(colnames(S), c("a", "b", "f"))  # a factor is one predictor
  leaves <- predict(fit, both, type = "leaf")
  same <- which(rowSums(leaves[1:50, ] != leaves[51:100, ]) == 0)
  expect_gt(length(same), 10)
  pred <- predict(fit, both)
  expect_equal(pred[50 + same] - pred[same], rowSums(S[50 + same, ]) - rowSums(S[same, ]), tolerance = 1e-8)
  # a row's attribution is the leaf slope times its distance to the training mean
  loc <- predict(fit, both, type = "local")
  expect_equal(unname(S[, "a"]), unname(loc$coefficients[, "a"] * (both$a - fit$feature_means[["a"]])))
  # more classes: one set per class, on the leaves' decision scale
  iris_fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  s3 <- svforest_shap(iris_fit, iris[1:5, 1:4], num_threads = 1)
  expect_identical(dim(s3$virginica$S), c(5L, 4L))
  expect_equal(unname(s3$virginica$S),
               unname(predict(iris_fit, iris[1:5, ], type = "local")$contributions[, , "virginica"]))
  expect_error(svforest_shap(svforest(Species ~ ., data = iris, method = "psvm", ntree = 2, seed = 1, num_threads = 1),
                             iris[1:3, ]), "linear leaves")
})

test_that("shapviz plots svforest attributions", {
  skip_if_not_installed("shapviz")
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  s <- shapviz::shapviz(fit, X_pred = iris[1:10, 1:4])
  expect_s3_class(s, "mshapviz")
  expect_identical(names(s), levels(iris$Species))
  two <- svforest(y ~ ., data = ranked_df(), ntree = 3, seed = 1, num_threads = 1)
  s2 <- shapviz::shapviz(two, X_pred = ranked_df()[1:10, 1:6])
  expect_s3_class(s2, "shapviz")
  expect_s3_class(shapviz::sv_importance(s2), "ggplot")
})
