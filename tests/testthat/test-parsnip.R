# The parsnip engine: rand_forest() %>% set_engine("svforest") fits, predicts
# classes and probabilities, and tunes over resamples.

test_that("the svforest engine fits and predicts through parsnip", {
  skip_if_not_installed("parsnip")
  d <- xor_linear_df(300, p = 2, noise = 0.1, seed = 91)
  test <- xor_linear_df(200, p = 2, seed = 92)
  engines <- parsnip::show_engines("rand_forest")
  expect_true("svforest" %in% engines$engine[engines$mode == "classification"])

  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 4, min_n = 9, mode = "classification"),
                              "svforest", method = "rsvt", cost = c(1, 4))
  set.seed(1)
  fit <- parsnip::fit(spec, y ~ ., data = d)
  model <- parsnip::extract_fit_engine(fit)
  expect_s3_class(model, "svforest")
  # main arguments mapped, engine arguments passed, parallel-safe defaults
  expect_identical(model$ntree, 4L)
  expect_identical(model$params$min_leaf_size, 9L)
  expect_identical(model$params$cost, c(1, 4))
  # the seed came from R's generator: set.seed() repeats the fit
  set.seed(1)
  again <- parsnip::extract_fit_engine(parsnip::fit(spec, y ~ ., data = d))
  expect_identical(again$forest, model$forest)

  cls <- predict(fit, test)
  expect_identical(names(cls), ".pred_class")
  expect_identical(cls$.pred_class, predict(model, test))
  prob <- predict(fit, test, type = "prob")
  expect_identical(names(prob), paste0(".pred_", levels(d$y)))
  expect_equal(as.matrix(prob), predict(model, test, type = "prob"), ignore_attr = TRUE)
  expect_gt(mean(cls$.pred_class == test$y), 0.85)

  # engine arguments choose the method
  psvm <- parsnip::fit(parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"),
                                           "svforest", method = "psvm"), y ~ ., data = d)
  expect_identical(parsnip::extract_fit_engine(psvm)$method, "psvm")
  expect_error(parsnip::fit(parsnip::set_engine(parsnip::rand_forest(mode = "classification"),
                                                "svforest", nonsense = 1), y ~ ., data = d),
               "nonsense")
})

test_that("the engine fits svforest()'s default method, with min_n and mtry as its own", {
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 6, min_n = 4, mtry = 3, mode = "classification"),
                              "svforest")
  set.seed(2)
  model <- parsnip::extract_fit_engine(parsnip::fit(spec, Species ~ ., data = iris))
  expect_identical(model$method, "hybrid")
  expect_identical(model$params$min_node_size, 4L)
  expect_identical(model$params$mtry, 3L)
  expect_true(is.finite(model$oob_error))
})

test_that("the engine is registered when parsnip is loaded after svforest", {
  skip_if_not_installed("parsnip")
  # a fresh process: svforest first, then parsnip; and parsnip first, then svforest
  code <- c(
    "library(svforest); library(parsnip)",
    "a <- 'svforest' %in% show_engines('rand_forest')$engine",
    "cat(a)")
  code2 <- c(
    "library(parsnip); library(svforest)",
    "cat('svforest' %in% show_engines('rand_forest')$engine)")
  run <- function(lines) {
    f <- tempfile(fileext = ".R")
    writeLines(lines, f)
    suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), shQuote(f), stdout = TRUE, stderr = FALSE))
  }
  expect_identical(utils::tail(run(code), 1), "TRUE")
  expect_identical(utils::tail(run(code2), 1), "TRUE")
})

test_that("tune_grid() tunes the engine over resamples", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("yardstick")
  skip_if_not_installed("rsample")
  skip_if_not_installed("dials")
  d <- xor_linear_df(300, p = 2, noise = 0.1, seed = 93)
  set.seed(4)
  folds <- rsample::vfold_cv(d, v = 2, strata = y)
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, min_n = tune::tune(),
                                                   mode = "classification"), "svforest")
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), y ~ .)
  res <- tune::tune_grid(wf, resamples = folds, grid = data.frame(min_n = c(5L, 150L)),
                         metrics = yardstick::metric_set(yardstick::accuracy, yardstick::roc_auc))
  m <- tune::collect_metrics(res)
  expect_identical(sort(unique(m$min_n)), c(5L, 150L))
  expect_setequal(m$.metric, c("accuracy", "roc_auc"))
  expect_true(all(m$n == 2))
  acc <- m$mean[m$.metric == "accuracy"]
  # small leaves with their own SVMs beat one leaf of 150 rows (one linear SVM) on XOR-like data
  expect_gt(acc[m$min_n[m$.metric == "accuracy"] == 5], acc[m$min_n[m$.metric == "accuracy"] == 150])
  best <- tune::select_best(res, metric = "accuracy")
  expect_identical(best$min_n, 5L)
  final <- parsnip::fit(tune::finalize_workflow(wf, best), d)
  expect_s3_class(predict(final, d), "data.frame")
})

test_that("parsnip: predict() keeps rows with missing predictor values", {
  skip_if_not_installed("parsnip")
  d <- withr_seed(32, {
    d <- iris
    for (v in names(d)[1:4]) d[[v]][stats::runif(150) < 0.2] <- NA
    d
  })
  nd <- d[c(1:5, 60:65, 120:125), ]
  nd[2, 1:4] <- NA
  expect_gt(sum(!stats::complete.cases(nd)), 5)
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"), "svforest")
  set.seed(1)
  # fit_xy() passes NA to svforest, which imputes (indicator columns)
  xy <- parsnip::fit_xy(spec, x = d[1:4], y = d$Species)
  expect_true(all(paste0(names(d)[1:4], "_missing") %in% parsnip::extract_fit_engine(xy)$design$feature_names))
  # fit() with a formula: parsnip leaves out incomplete rows itself; the model
  # still imputes NA at predict time (training medians)
  set.seed(1)
  fo <- parsnip::fit(spec, Species ~ ., data = d)
  for (fit in list(xy, fo)) {
    cls <- predict(fit, nd)
    expect_identical(nrow(cls), nrow(nd))
    expect_false(anyNA(cls$.pred_class))
    prob <- predict(fit, nd, type = "prob")
    expect_identical(nrow(prob), nrow(nd))
    expect_false(anyNA(as.matrix(prob)))
    expect_gt(accuracy(cls$.pred_class, nd$Species), 0.6)
  }
  # regression
  reg <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "regression"), "svforest")
  set.seed(1)
  fr <- parsnip::fit_xy(reg, x = d[!is.na(d$Sepal.Length), 2:4], y = d$Sepal.Length[!is.na(d$Sepal.Length)])
  pr <- predict(fr, nd)
  expect_identical(nrow(pr), nrow(nd))
  expect_false(anyNA(pr$.pred))
})
