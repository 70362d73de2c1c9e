# svforest_caret(): a caret model list that train() can tune by
# cross-validation, with class probabilities.

# caret's dependencies ask the system for the time zone when TZ is unset,
# which warns in containers without systemd
if (!nzchar(Sys.getenv("TZ"))) withr::local_envvar(TZ = "UTC", .local_envir = testthat::teardown_env())

test_that("caret::train() tunes an svforest by cross-validation", {
  skip_if_not_installed("caret")
  d <- xor_linear_df(300, p = 2, noise = 0.1, seed = 71)
  test <- xor_linear_df(300, p = 2, seed = 72)
  ctrl <- caret::trainControl(method = "cv", number = 3, classProbs = TRUE,
                              summaryFunction = caret::twoClassSummary)
  set.seed(1)
  model <- svforest_caret("rsvt", ntree = 3)
  expect_identical(model$parameters$parameter, "leaf_size_factor")
  tuned <- suppressWarnings(caret::train(d[, c("x1", "x2")], d$y, method = model, tuneLength = 3,
                                         trControl = ctrl, metric = "ROC"))
  expect_s3_class(tuned, "train")
  expect_identical(nrow(tuned$results), 3L)
  expect_identical(tuned$results$leaf_size_factor, c(0.25, 1, 4))
  expect_true(all(tuned$results$ROC > 0.5))
  # leaves of ~sqrt(n) rows with SVMs beat a leaf_size_factor of 4 (few big
  # leaves: close to one linear SVM) on XOR-like data
  expect_gt(max(tuned$results$ROC[1:2]), tuned$results$ROC[3])
  expect_s3_class(tuned$finalModel, "svforest")
  expect_identical(tuned$finalModel$params$leaf_size_factor, tuned$bestTune$leaf_size_factor)
  prob <- predict(tuned, test[, c("x1", "x2")], type = "prob")
  expect_identical(names(prob), levels(d$y))
  expect_equal(rowSums(prob), rep(1, nrow(test)), ignore_attr = TRUE)
  expect_gt(mean(predict(tuned, test[, c("x1", "x2")]) == test$y), 0.85)
})

test_that("svforest_caret() works with the formula interface, other methods and fixed grids", {
  skip_if_not_installed("caret")
  set.seed(2)
  tuned <- caret::train(Species ~ ., data = iris, method = svforest_caret("psvm", ntree = 5),
                        tuneGrid = data.frame(nu = c(10, 1000)),
                        trControl = caret::trainControl(method = "cv", number = 2))
  expect_identical(tuned$results$nu, c(10, 1000))
  expect_identical(tuned$finalModel$method, "psvm")
  # nothing tuned, a fixed parameter
  m <- svforest_caret("rsvt", tune = character(), ntree = 2, leaf_size_factor = 0.5)
  set.seed(3)
  fixed <- caret::train(iris[, 1:4], iris$Species, method = m,
                        trControl = caret::trainControl(method = "cv", number = 2))
  expect_identical(fixed$finalModel$params$leaf_size_factor, 0.5)
  g <- svforest_caret("rsvt", tune = c("leaf_size_factor", "min_leaf_size"))$grid(NULL, NULL, len = 2)
  expect_identical(dim(g), c(4L, 2L))
  expect_true(is.numeric(g$min_leaf_size))
})

test_that("every method has a default caret tuning that fits", {
  # the parameter tuned by default for each method, and its grid
  expected <- list(hybrid = c("mtry", "min_node_size"), rsvt = "leaf_size_factor", psvm = "nu", rsvf = "max_depth",
                   transform = "subspace_dim", tdsvm = "parameter")  # caret's "nothing tuned"
  for (m in svforest_methods()$method) {
    model <- svforest_caret(m)
    expect_identical(model$parameters$parameter, expected[[m]], info = m)
    g <- model$grid(iris[, 1:4], iris$Species, len = 2)
    expect_identical(nrow(g), if (m == "tdsvm") 1L else as.integer(2^length(expected[[m]])), info = m)
  }
  # a tuned transform model can be fitted by caret's fit function
  model <- svforest_caret("transform", ntree = 2, transform_iter = 2)
  fit <- model$fit(as.matrix(iris[, 1:4]), iris$Species, param = data.frame(subspace_dim = 2))
  expect_identical(fit$params$subspace_dim, 2L)
})

test_that("svforest_caret() fits svforest()'s default method unless told otherwise", {
  model <- svforest_caret(ntree = 3)
  expect_match(model$label, "\"hybrid\"")
  expect_identical(model$parameters$parameter, c("mtry", "min_node_size"))
  fit <- model$fit(as.matrix(iris[, 1:4]), iris$Species, param = data.frame(mtry = 3, min_node_size = 4))
  expect_identical(fit$method, "hybrid")
  expect_identical(fit$params$min_node_size, 4L)
  expect_identical(fit$params$mtry, 3L)
})

test_that("svforest_caret() rejects bad arguments", {
  expect_error(svforest_caret("nope"), "method")
  expect_error(svforest_caret(tune = "oblique_choice"), "Cannot tune `oblique_choice`")  # not numeric
  expect_error(svforest_caret(tune = "cost"), "`cost` is a parameter of the oob_svm splitter")  # not the default's
  expect_error(svforest_caret(lef = 1), "Unknown argument")
  expect_error(svforest_caret("rsvt", tune = "nu", nu = 3), "both tuned and fixed")
})

test_that("caret: missing predictor values reach svforest's imputation; predict() keeps every row", {
  skip_if_not_installed("caret")
  d <- withr_seed(31, {
    d <- iris
    for (v in names(d)[1:4]) d[[v]][stats::runif(150) < 0.2] <- NA
    d
  })
  nd <- d[c(1:5, 60:65, 120:125), ]
  nd[2, 1:4] <- NA
  expect_gt(sum(!stats::complete.cases(nd)), 5)
  ctrl <- caret::trainControl(method = "cv", number = 2)
  m <- svforest_caret("rsvt", ntree = 3, tune = character())
  # x/y interface: caret passes NA on; the model imputes and has indicators
  set.seed(1)
  xy <- caret::train(d[1:4], d$Species, method = m, trControl = ctrl)
  expect_true(all(paste0(names(d)[1:4], "_missing") %in% xy$finalModel$design$feature_names))
  cls <- predict(xy, nd[1:4])
  expect_length(cls, nrow(nd))
  expect_false(anyNA(cls))
  prob <- predict(xy, nd[1:4], type = "prob")
  expect_identical(nrow(prob), nrow(nd))
  expect_false(anyNA(prob))
  expect_gt(accuracy(cls, nd$Species), 0.6)
  # formula interface: caret's own na.action (na.fail to fit, na.omit to
  # predict) decides; with na.pass the rows reach svforest
  set.seed(1)
  fo <- caret::train(Species ~ ., data = d, method = m, trControl = ctrl, na.action = stats::na.pass)
  expect_true("Sepal.Length_missing" %in% fo$finalModel$design$feature_names)
  cls <- predict(fo, nd, na.action = stats::na.pass)
  expect_length(cls, nrow(nd))
  expect_false(anyNA(cls))
})

test_that("train(...) arguments reach the fit, varImp() is the forest's, the call holds no data", {
  skip_if_not_installed("caret")
  set.seed(3)
  tuned <- caret::train(iris[, 1:4], iris$Species, method = svforest_caret("rsvt"), ntree = 4, cost = 1,
                        importance = "permutation",
                        tuneGrid = data.frame(leaf_size_factor = 1),
                        trControl = caret::trainControl(method = "none"))
  final <- tuned$finalModel
  expect_identical(final$ntree, 4L)
  expect_identical(final$params$cost, 1)
  vi <- caret::varImp(tuned, scale = FALSE)$importance
  expect_identical(rownames(vi), names(final$variable_importance))
  expect_equal(vi$Overall, unname(as.numeric(final$variable_importance)))
  # without stored importance: the coefficient importance of the linear leaves
  plain <- caret::train(iris[, 1:4], iris$Species, method = svforest_caret("rsvt", ntree = 3),
                        tuneGrid = data.frame(leaf_size_factor = 1),
                        trControl = caret::trainControl(method = "none"))
  expect_equal(caret::varImp(plain, scale = FALSE)$importance$Overall,
               unname(as.numeric(svforest_importance(plain$finalModel, type = "coefficients"))))
  # the stored call names the data instead of copying it
  expect_lt(as.numeric(utils::object.size(final$call)), 5000)  # was 150 kB with the data
  expect_false(any(vapply(as.list(final$call), is.data.frame, TRUE)))
  # a tuned parameter cannot also be given to train()
  expect_error(suppressWarnings(caret::train(iris[, 1:4], iris$Species, method = svforest_caret("rsvt", ntree = 2),
                                             leaf_size_factor = 2, tuneGrid = data.frame(leaf_size_factor = 1),
                                             trControl = caret::trainControl(method = "none"))),
               "tuned by svforest_caret")
})

test_that("a survival outcome gets caret's lack of survival models as the error, before any fit", {
  skip_if_not_installed("caret")
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
  y <- survival::Surv(lung$time, lung$status)
  x <- lung[, c("age", "sex", "ph.ecog")]
  # without the check caret fitted every resample and then failed comparing
  # predictions with the Surv outcome ("Invalid operation on a survival time")
  expect_error(caret::train(x, y, method = svforest_caret(ntree = 3), tuneLength = 2,
                            trControl = caret::trainControl(method = "cv", number = 2)),
               "caret has no survival models")
  # with a tuneGrid of its own caret scores a dummy outcome before any fit
  # (and fails there); the fit function says the same as the grid
  model <- svforest_caret(ntree = 3)
  expect_error(model$fit(x, y, wts = NULL, param = data.frame(mtry = 2, min_node_size = 5)),
               "caret has no survival models")
})
