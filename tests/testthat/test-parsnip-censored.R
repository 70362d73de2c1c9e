# parsnip's censored regression mode of engine "svforest" (R/parsnip-censored.R):
# fit with a Surv outcome, predict survival / time / linear_pred in
# parsnip's formats, workflows and tune_grid() with yardstick's survival
# metrics. The censored package is not used.

skip_if_no_censored_mode <- function() {
  testthat::skip_if_not_installed("parsnip")
  testthat::skip_if_not_installed("survival")
  testthat::skip_if_not_installed("prodlim")  # parsnip fits its censoring model with it
  testthat::skip_if_not("censored regression" %in% parsnip::get_model_env()$rand_forest_modes,
                        "this parsnip has no censored regression mode")
}

censored_lung <- function() {
  d <- survival::lung[, c("time", "status", "age", "sex", "ph.ecog", "ph.karno", "wt.loss")]
  d$status <- d$status - 1L
  d$sex <- factor(d$sex, labels = c("male", "female"))
  d
}

censored_spec <- function(trees = 15, ...) {
  parsnip::set_engine(parsnip::rand_forest(mode = "censored regression", trees = trees, ...),
                      "svforest", seed = 7, num_threads = 1)
}

test_that("fit() with a Surv formula predicts survival, time and linear_pred in parsnip's formats", {
  skip_if_no_censored_mode()
  d <- censored_lung()
  # training rows with missing predictor values: the forest fills them in
  fit <- parsnip::fit(censored_spec(), survival::Surv(time, status) ~ ., data = d[1:170, ])
  engine <- parsnip::extract_fit_engine(fit)
  expect_s3_class(engine, "svforest")
  expect_identical(engine$ntree, 15L)
  new <- stats::na.omit(d[171:228, ])
  times <- c(400, 100, 250)  # unsorted: columns follow eval_time as given
  surv <- predict(fit, new, type = "survival", eval_time = times)
  expect_named(surv, ".pred")
  expect_identical(nrow(surv), nrow(new))
  expect_named(surv$.pred[[1]], c(".eval_time", ".pred_survival"))
  expect_identical(surv$.pred[[3]]$.eval_time, times)
  expect_identical(length(surv$.pred[[3]]$.eval_time), 3L)
  direct <- predict(engine, new, type = "survival", times = times)
  expect_equal(t(vapply(surv$.pred, function(p) p$.pred_survival, numeric(3))), matrix(direct, nrow(direct)))
  expect_true(all(direct[, 2] >= direct[, 3] & direct[, 3] >= direct[, 1]))  # non-increasing in time

  tm <- predict(fit, new, type = "time")
  expect_named(tm, ".pred_time")
  expect_equal(tm$.pred_time, unname(predict(engine, new, type = "time")))
  # parsnip's default type for the mode is "time"
  expect_identical(predict(fit, new), tm)

  lp <- predict(fit, new, type = "linear_pred")
  expect_named(lp, ".pred_linear_pred")
  risk <- unname(predict(engine, new, type = "risk"))
  expect_equal(lp$.pred_linear_pred, -risk)
  expect_equal(predict(fit, new, type = "linear_pred", increasing = FALSE)$.pred_linear_pred, risk)
  expect_error(predict(fit, new, type = "linear_pred", increasing = NA), "`increasing` must be TRUE or FALSE")
  expect_error(predict(fit, new, type = "survival"), "eval_time")
})

test_that("the linear predictor's sign is the one yardstick's concordance reads as longer survival", {
  skip_if_no_censored_mode()
  testthat::skip_if_not_installed("yardstick")
  d <- stats::na.omit(censored_lung())
  fit <- parsnip::fit(censored_spec(trees = 30), survival::Surv(time, status) ~ ., data = d)
  y <- survival::Surv(d$time, d$status)
  c_lp <- yardstick::concordance_survival_vec(y, predict(fit, d, type = "linear_pred")$.pred_linear_pred)
  c_time <- yardstick::concordance_survival_vec(y, predict(fit, d, type = "time")$.pred_time)
  expect_gt(c_lp, 0.6)
  expect_gt(c_time, 0.6)
  # the risk itself orders the rows the other way round
  c_risk <- yardstick::concordance_survival_vec(y, predict(fit, d, type = "linear_pred",
                                                             increasing = FALSE)$.pred_linear_pred)
  expect_equal(c_risk, 1 - c_lp, tolerance = 1e-8)
})

test_that("fit_xy() with a Surv y is the formula fit; trees, min_n and mtry reach the forest", {
  skip_if_no_censored_mode()
  d <- stats::na.omit(censored_lung())
  x <- d[, c("age", "sex", "ph.ecog", "ph.karno", "wt.loss")]
  y <- survival::Surv(d$time, d$status)
  spec <- censored_spec(trees = 12, min_n = 20, mtry = 2)
  by_xy <- parsnip::fit_xy(spec, x = x, y = y)
  by_formula <- parsnip::fit(spec, survival::Surv(time, status) ~ ., data = d)
  new <- d[1:10, ]
  expect_equal(predict(by_xy, new, type = "survival", eval_time = c(200, 500)),
               predict(by_formula, new, type = "survival", eval_time = c(200, 500)))
  engine <- parsnip::extract_fit_engine(by_xy)
  expect_identical(engine$ntree, 12L)
  expect_identical(engine$params$min_node_size, 20L)
  expect_identical(engine$params$mtry, 2L)
  # the node size changes the forest
  small <- parsnip::fit_xy(censored_spec(trees = 12, min_n = 3, mtry = 2), x = x, y = y)
  expect_false(isTRUE(all.equal(predict(small, new, type = "time"), predict(by_xy, new, type = "time"))))
})

test_that("a workflow fits, augments and is scored by yardstick's survival metrics", {
  skip_if_no_censored_mode()
  for (p in c("workflows", "yardstick", "tibble")) testthat::skip_if_not_installed(p)
  d <- censored_lung()
  d$surv <- survival::Surv(d$time, d$status)
  d$time <- d$status <- NULL
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), censored_spec(trees = 20)),
                               surv ~ .)
  fit <- parsnip::fit(wf, data = d[1:170, ])
  test <- stats::na.omit(d[171:228, ])
  times <- c(100, 200, 300)
  aug <- parsnip::augment(fit, test, eval_time = times)
  expect_true(all(c(".pred", ".pred_time") %in% names(aug)))
  expect_true(".weight_censored" %in% names(aug$.pred[[1]]))
  metrics <- yardstick::metric_set(yardstick::concordance_survival, yardstick::brier_survival_integrated)
  scores <- metrics(aug, truth = surv, .pred, estimate = .pred_time)
  expect_setequal(scores$.metric, c("concordance_survival", "brier_survival_integrated"))
  expect_true(all(is.finite(scores$.estimate)))
  ibs <- scores$.estimate[scores$.metric == "brier_survival_integrated"]
  expect_gt(ibs, 0)
  expect_lt(ibs, 0.25)
})

test_that("the censoring weights are Graf's, from the training rows' censoring curve", {
  skip_if_no_censored_mode()
  testthat::skip_if_not_installed("tibble")
  d <- stats::na.omit(censored_lung())
  train <- d[1:120, ]
  test <- d[121:167, ]
  fit <- parsnip::fit(censored_spec(trees = 10), survival::Surv(time, status) ~ ., data = train)
  times <- c(100, 300)
  preds <- predict(fit, test, type = "survival", eval_time = times)
  preds$surv <- survival::Surv(test$time, test$status)
  # parsnip's own method reads a censoring model that needs the censored
  # package; the engine's gives the weights without it
  weighted <- parsnip::.censoring_weights_graf(fit, preds)
  w <- t(vapply(weighted$.pred, function(p) p$.weight_censored, numeric(2)))
  km <- survival::survfit(survival::Surv(time, 1 - status) ~ 1, data = train)
  G <- function(t) summary(km, times = t, extend = TRUE)$surv
  for (j in seq_along(times)) {
    t <- times[j]
    died <- test$time <= t & test$status == 1
    followed <- test$time > t
    expect_true(all(is.na(w[!died & !followed, j])))              # censored before t: no weight
    expect_equal(w[followed, j], rep(1 / G(t - 1e-6), sum(followed)))
    expect_equal(w[died, j], 1 / vapply(test$time[died] - 1e-6, G, numeric(1)))
  }
  expect_true(all(w >= 1, na.rm = TRUE))
  # the model of another mode has no censoring curve
  cls <- parsnip::fit(parsnip::set_engine(parsnip::rand_forest(mode = "regression", trees = 3), "svforest"),
                      time ~ age + ph.ecog, data = train)
  expect_error(parsnip::.censoring_weights_graf(cls, preds), "no censoring distribution")
})

test_that("case weights reach the forest and its censoring curve; saveRDS() round-trips", {
  skip_if_no_censored_mode()
  testthat::skip_if_not_installed("hardhat")
  d <- stats::na.omit(censored_lung())
  w <- rep(c(1, 3), length.out = nrow(d))
  spec <- censored_spec(trees = 10)
  weighted <- parsnip::fit(spec, survival::Surv(time, status) ~ ., data = d,
                           case_weights = hardhat::importance_weights(w))
  plain <- parsnip::fit(spec, survival::Surv(time, status) ~ ., data = d)
  new <- d[1:8, ]
  expect_false(isTRUE(all.equal(predict(weighted, new, type = "time"), predict(plain, new, type = "time"))))
  km <- survival::survfit(survival::Surv(time, 1 - status) ~ 1, data = d, weights = w)
  expect_equal(weighted$fit$censoring$surv, km$surv)
  expect_false(isTRUE(all.equal(plain$fit$censoring$surv, km$surv)))
  path <- withr::local_tempfile(fileext = ".rds")
  saveRDS(weighted, path)
  again <- readRDS(path)
  expect_identical(predict(again, new, type = "survival", eval_time = c(100, 300)),
                   predict(weighted, new, type = "survival", eval_time = c(100, 300)))
})

test_that("multi_predict() gives the forests of the first k trees: time, linear_pred and survival", {
  skip_if_no_censored_mode()
  d <- stats::na.omit(censored_lung())
  fit <- parsnip::fit(censored_spec(trees = 6), survival::Surv(time, status) ~ ., data = d)
  new <- d[1:3, ]
  small <- parsnip::fit(censored_spec(trees = 2), survival::Surv(time, status) ~ ., data = d)
  mp <- parsnip::multi_predict(fit, new, trees = c(2, 6))  # default: "time"
  expect_identical(nrow(mp), 3L)
  expect_named(mp$.pred[[2]], c("trees", ".pred_time"))
  expect_identical(mp$.pred[[2]]$trees, c(2L, 6L))
  # the first two trees are the forest that trees = 2 grows with the seed
  expect_equal(vapply(mp$.pred, function(p) p$.pred_time[1], 0), predict(small, new, type = "time")$.pred_time)
  expect_equal(vapply(mp$.pred, function(p) p$.pred_time[2], 0), predict(fit, new, type = "time")$.pred_time)
  lp <- parsnip::multi_predict(fit, new, type = "linear_pred", trees = 2)
  expect_equal(vapply(lp$.pred, function(p) p$.pred_linear_pred, 0),
               predict(small, new, type = "linear_pred")$.pred_linear_pred)
  times <- c(300, 100)
  sv <- parsnip::multi_predict(fit, new, type = "survival", trees = c(2, 6), eval_time = times)
  expect_named(sv$.pred[[1]], c("trees", ".eval_time", ".pred_survival"))
  expect_identical(sv$.pred[[1]]$.eval_time, c(times, times))
  expect_equal(sv$.pred[[3]]$.pred_survival[3:4],
               predict(fit, new, type = "survival", eval_time = times)$.pred[[3]]$.pred_survival)
  expect_error(parsnip::multi_predict(fit, new, type = "survival", trees = 2), "eval_time")
  expect_error(parsnip::multi_predict(fit, new, type = "prob", trees = 2), "must be one of")
})

test_that("tune_grid() tunes min_n with concordance and the integrated Brier score", {
  skip_if_no_censored_mode()
  for (p in c("workflows", "yardstick", "tune", "rsample", "dials")) testthat::skip_if_not_installed(p)
  d <- stats::na.omit(censored_lung())
  d$surv <- survival::Surv(d$time, d$status)
  d$time <- d$status <- NULL
  spec <- censored_spec(trees = 8, min_n = tune::tune())
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), surv ~ .)
  set.seed(2)
  folds <- rsample::vfold_cv(d, v = 2)
  grid <- data.frame(min_n = c(3L, 40L))
  res <- tune::tune_grid(wf, resamples = folds, grid = grid,
                         metrics = yardstick::metric_set(yardstick::concordance_survival,
                                                         yardstick::brier_survival_integrated),
                         eval_time = c(150, 300, 450))
  notes <- tune::collect_notes(res)
  expect_identical(nrow(notes[notes$type == "error", ]), 0L)
  m <- tune::collect_metrics(res)
  expect_setequal(unique(m$.metric), c("concordance_survival", "brier_survival_integrated"))
  expect_setequal(m$min_n, c(3L, 40L))
  expect_true(all(is.finite(m$mean)))
  # the two node sizes give different forests, so different scores
  c_index <- m$mean[m$.metric == "concordance_survival"]
  expect_false(isTRUE(all.equal(c_index[1], c_index[2])))
  # the engine's main and engine arguments are tunable with their dials objects
  params <- tune::extract_parameter_set_dials(spec)
  expect_true("min_n" %in% params$name)
})
