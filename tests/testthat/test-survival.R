# Survival outcomes through svforest() (R/family-survival.R): fitting,
# predictions, out-of-bag results.
skip_if_not_installed("survival")
Surv <- survival::Surv

surv_data <- function(n = 160, seed = 1) {
  set.seed(seed)
  d <- data.frame(a = rnorm(n), b = rnorm(n), g = factor(sample(c("u", "v", "w"), n, TRUE)), noise = runif(n))
  hazard <- exp(1.2 * d$a - 0.8 * (d$g == "w"))
  event <- rexp(n, hazard)
  censor <- rexp(n, 0.3)
  d$time <- pmin(event, censor) + 0.01
  d$status <- as.integer(event <= censor)
  d
}

test_that("a Surv formula fits the default survival forest; its predictions have the promised shapes", {
  d <- surv_data()
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 30, seed = 1, num_threads = 1)
  expect_identical(fit$type, "survival")
  expect_identical(fit$method, "hybrid")
  times <- fit$forest$times
  expect_identical(times, sort(unique(d$time[d$status == 1])))
  new <- d[1:7, ]
  s <- predict(fit, new, num_threads = 1)  # default type "survival", at the event times
  expect_identical(dim(s), c(7L, length(times)))
  expect_true(all(s >= 0 & s <= 1))
  expect_true(all(apply(s, 1, function(r) all(diff(r) <= 0))))
  chf <- predict(fit, new, type = "chf", num_threads = 1)
  expect_true(all(apply(chf, 1, function(r) all(diff(r) >= 0))))
  expect_equal(s, exp(-chf))
  # unsorted times: the columns follow the given order; before the first event time S = 1
  at <- c(2, 0.5, 0)
  s3 <- predict(fit, new, type = "survival", times = at, num_threads = 1)
  expect_identical(colnames(s3), as.character(at))
  expect_identical(s3[, 3], rep(1, 7))
  expect_equal(s3[, 1], s[, findInterval(2, times)])
  risk <- predict(fit, new, type = "risk", num_threads = 1)
  expect_equal(risk, rowSums(chf))
  rmst <- predict(fit, new, type = "time", num_threads = 1)
  expect_true(all(rmst > 0 & rmst <= max(d$time)))
  # the higher the risk, the shorter the restricted mean time (same curves)
  expect_true(cor(risk, rmst, method = "spearman") < -0.8)
  expect_identical(dim(predict(fit, d[0, ], type = "chf", num_threads = 1)), c(0L, length(times)))
})

test_that("the x/y interface and logical status fit the same forest as the formula", {
  d <- surv_data()
  x <- d[c("a", "b", "g", "noise")]
  f1 <- svforest(Surv(time, status) ~ a + b + g + noise, data = d, ntree = 10, seed = 3, num_threads = 1)
  f2 <- svforest(x, Surv(d$time, d$status == 1), ntree = 10, seed = 3, num_threads = 1)
  expect_identical(predict(f1, x, type = "chf", num_threads = 1), predict(f2, x, type = "chf", num_threads = 1))
  expect_identical(f1$oob_concordance, f2$oob_concordance)
})

test_that("out of bag: Harrell's C equals survival::concordance() of the out-of-bag risk, predict() without newdata", {
  d <- surv_data()
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 40, seed = 2, num_threads = 1)
  risk <- predict(fit, type = "risk")
  expect_identical(risk, fit$oob_predictions)
  keep <- !is.na(risk)
  ref <- survival::concordance(Surv(time, status) ~ risk, data = cbind(d, risk = risk)[keep, ], reverse = TRUE)
  expect_equal(fit$oob_concordance, unname(ref$concordance))
  expect_equal(fit$oob_error, 1 - fit$oob_concordance)
  # the signal (a, g) is found: better than chance
  expect_gt(fit$oob_concordance, 0.65)
  expect_true(fit$oob_ibs > 0 && fit$oob_ibs < 0.25)
  s <- predict(fit, type = "survival", times = c(1, 3))
  expect_identical(dim(s), c(nrow(d), 2L))
  expect_equal(s, exp(-predict(fit, type = "chf", times = c(1, 3))))
  out <- capture.output(print(fit))
  expect_true(any(grepl("OOB performance: +Harrell's C 0\\.[0-9]{4}, integrated Brier score 0\\.[0-9]{4}", out)))
  expect_false(any(grepl("OOB error", out)))  # a concordance is not an error
  out <- capture.output(print(summary(fit)))
  expect_true(any(grepl("OOB performance: Harrell's C", out)) && any(grepl("Nelson-Aalen", out)))
  g <- generics::glance(fit)
  expect_equal(g$oob_concordance, fit$oob_concordance)
  expect_equal(g$oob_ibs, fit$oob_ibs)
  expect_equal(g$oob_error, 1 - fit$oob_concordance)
})

test_that("case weights reweight the draw, zero weights leave rows out; ties and factors with NA fit", {
  d <- surv_data(n = 120, seed = 4)
  d$time <- round(d$time, 1) + 0.1  # tied times
  expect_gt(anyDuplicated(d$time[d$status == 1]), 0)
  w <- rep(1, nrow(d))
  w[1:10] <- 0
  fw <- svforest(Surv(time, status) ~ ., data = d, case_weights = w, ntree = 10, seed = 1, num_threads = 1)
  f_drop <- svforest(Surv(time, status) ~ ., data = d[-(1:10), ], ntree = 10, seed = 1, num_threads = 1)
  expect_identical(fw$num_rows, 110L)
  expect_identical(predict(fw, d, type = "chf", num_threads = 1), predict(f_drop, d, type = "chf", num_threads = 1))
  # unequal weights change the forest
  w2 <- rep(c(1, 3), length.out = nrow(d))
  f2 <- svforest(Surv(time, status) ~ ., data = d, case_weights = w2, ntree = 10, seed = 1, num_threads = 1)
  f1 <- svforest(Surv(time, status) ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  expect_false(identical(predict(f2, d, type = "risk"), predict(f1, d, type = "risk")))
  # factors and missing predictor values through the default's design (imputed, with a warning at predict)
  d$a[c(2, 7)] <- NA
  d$g[5] <- NA
  fna <- svforest(Surv(time, status) ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  expect_true(is.finite(fna$oob_concordance))
  expect_warning(r <- predict(fna, d[1:8, ], type = "risk", num_threads = 1), "missing values")
  expect_false(anyNA(r))
  expect_error(svforest(Surv(time, status) ~ ., data = d, na_action = "fail", ntree = 2), "Missing values")
})

test_that("engine parameters come from the one parameter source and change the forest", {
  d <- surv_data()
  base <- svforest(Surv(time, status) ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  big <- svforest(Surv(time, status) ~ ., data = d, ntree = 5, seed = 1, num_threads = 1, min_node_size = 30)
  expect_identical(big$params$min_node_size, 30L)
  expect_lt(mean(sapply(big$forest$trees, svforest:::tree_n_leaves)),
            mean(sapply(base$forest$trees, svforest:::tree_n_leaves)))
  expect_error(svforest(Surv(time, status) ~ ., data = d, mtry = 99, ntree = 2), "more than the")
  expect_error(svforest(Surv(time, status) ~ ., data = d, min.node.size = 3), "`min_node_size`")
  expect_error(svforest(Surv(time, status) ~ ., data = d, method = "rsvt"), "use the default, method = \"hybrid\"")
  expect_error(svforest(Surv(time, status) ~ ., data = d, leaf = "ridge"), "Nelson-Aalen leaves")
  expect_error(svforest(Surv(time, status) ~ ., data = d, sampler = "all"), "out-of-bag rows")
  expect_error(svforest(Surv(time, status) ~ ., data = d, class_weights = c(a = 1)), "for classification")
})

test_that("bad survival outcomes get clear errors", {
  d <- surv_data(n = 40)
  x <- d[c("a", "b")]
  fit_y <- function(y) svforest(x, y, ntree = 2, num_threads = 1)
  expect_error(fit_y(Surv(replace(d$time, 3, -1), d$status)), "1 negative times")
  expect_error(fit_y(Surv(replace(d$time, 3, 0), d$status)), "1 time of 0; survival times must be positive")
  expect_error(fit_y(Surv(replace(d$time, 3, NA), d$status)), "1 missing times")
  expect_error(fit_y(Surv(replace(d$time, 3, Inf), d$status)), "1 infinite times")
  expect_error(suppressWarnings(fit_y(Surv(d$time, replace(d$status, 3, 5L)))), "missing status")
  expect_error(fit_y(Surv(d$time, rep(0L, 40))), "Every row of `y` is censored")
  expect_error(fit_y(Surv(d$time, d$status, type = "left")), "type \"left\"")
  expect_error(fit_y(Surv(d$time, d$time + 1, type = "interval2")), "type \"interval\"")
  # counting-process outcomes fit with delayed entry (test-delayed-entry.R); an entry after the exit is missing
  expect_error(suppressWarnings(fit_y(Surv(d$time + 1, d$time, d$status))), "40 missing entry times")
  expect_error(fit_y(Surv(d$time, d$status)[1:30]), "30 rows but the predictors have 40")
  # rows of positive weight all censored
  expect_error(svforest(x, Surv(d$time, d$status), case_weights = as.double(d$status == 0), ntree = 2),
               "positive `case_weights` is censored")
})

test_that("prediction types and `times` are checked against the model's outcome", {
  d <- surv_data(n = 60)
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 3, seed = 1, num_threads = 1)
  for (type in c("prob", "class", "response")) expect_error(predict(fit, d, type = type), "`type` must be one of")
  expect_error(predict(fit, d, type = "quantiles"), "is for regression forests .* a survival outcome")
  expect_error(predict(fit, d, type = "interval"), "is for regression forests .* a survival outcome")
  expect_error(predict(fit, d, type = "survival", times = c(1, NA)), "`times` has 1 missing")
  expect_error(predict(fit, d, type = "chf", times = -1), "finite and >= 0")
  expect_error(predict(fit, d, type = "survival", times = "1"), "`times` must be numbers")
  expect_error(predict(fit, d, type = "risk", times = 1), "`times` is used only with type = \"survival\" or type = \"chf\"")
  expect_error(predict(fit, d, type = "survival", quantiles = 0.5), "`quantiles` is used only")
  expect_error(predict(fit, d, timez = 1), "Unknown argument `timez`")
  cls <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 2, seed = 1, num_threads = 1)
  for (type in c("survival", "chf", "risk", "time")) {
    expect_error(predict(cls, iris, type = type), "is for survival forests .* a factor")
    expect_error(predict(reg, mtcars, type = type), "is for survival forests .* numeric")
  }
  expect_error(predict(cls, iris, times = 1), "`times` is used only")
  expect_error(predict(cls, type = "trees"), "needs `newdata`")
})

test_that("update(), butcher and saveRDS keep a survival model usable; damage is caught", {
  d <- surv_data(n = 80)
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 4, seed = 1, num_threads = 1)
  up <- update(fit, ntree = 6)
  expect_identical(up$ntree, 6L)
  expect_identical(up$type, "survival")
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  expect_identical(predict(back, d, type = "survival"), predict(fit, d, type = "survival"))
  expect_identical(upgrade_model(fit), fit)
  skip_if_not_installed("butcher")
  small <- butcher::butcher(fit)
  expect_identical(predict(small, d, type = "chf"), predict(fit, d, type = "chf"))
  expect_error(predict(small, type = "risk"), "no out-of-bag results")
  damage <- function(f) {
    bad <- fit
    bad <- f(bad)
    expect_error(predict(bad, d), "not a usable svforest model")
  }
  damage(function(m) { m$forest$times <- rev(m$forest$times); m })
  damage(function(m) { m$forest$times[2] <- NA; m })
  damage(function(m) { m$survival$time_max <- 0; m })
  damage(function(m) { m$survival <- NULL; m })
  damage(function(m) { m$oob_chf_sum <- m$oob_chf_sum[-1, ]; m })
  damage(function(m) { m$oob_count <- NULL; m })
  damage(function(m) { m$forest$num_features <- 0L; m })
})

test_that("permutation importance by concordance: the signal predictors matter, the same in every call", {
  d <- surv_data(n = 200, seed = 7)
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 20, seed = 1, num_threads = 1)
  imp <- svforest_importance(fit, d)
  expect_identical(names(imp), c("a", "b", "g", "noise"))
  expect_identical(attr(imp, "type"), "permutation")
  expect_gt(imp[["a"]], imp[["b"]])
  expect_gt(imp[["a"]], imp[["noise"]])
  expect_identical(svforest_importance(fit, d[c("a", "b", "g", "noise")], Surv(d$time, d$status), num_threads = 2), imp)
  expect_error(svforest_importance(fit, d, oob = TRUE), "`oob` is not available")
  # at fit time: each tree's out-of-bag drop of Harrell's C (test-engine-survival.R)
  at_fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 20, seed = 1, num_threads = 1,
                     importance = "permutation")
  expect_identical(names(at_fit$variable_importance), c("a", "b", "g", "noise"))
  expect_identical(names(which.max(at_fit$variable_importance)), "a")
  coef <- svforest_importance(fit, type = "coefficients")
  expect_true(all(is.finite(coef)))
})

test_that("calibration does not apply to survival forests; a tree's table has no leaf prediction", {
  d <- surv_data(n = 60)
  for (cal in c("platt", "oob", "conformal")) {
    expect_error(svforest(Surv(time, status) ~ ., data = d, ntree = 2, calibrate = cal), "do not apply to a survival")
  }
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)
  tab <- svforest_tree(fit, 1)
  expect_identical(nrow(tab), svforest:::tree_n_nodes(fit$forest$trees[[1]]))
})

test_that("sparse predictors give the forest of the dense ones", {
  set.seed(1)
  n <- 80
  x <- matrix(rnorm(n * 4) * (runif(n * 4) > 0.5), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  y <- Surv(rexp(n, exp(x[, 1])), rbinom(n, 1, 0.7))
  xs <- Matrix::Matrix(x, sparse = TRUE)
  dense <- svforest(x, y, ntree = 5, seed = 1, num_threads = 1, scale = "none")
  sparse <- svforest(xs, y, ntree = 5, seed = 1, num_threads = 1, scale = "none")
  expect_identical(sparse$forest$trees, dense$forest$trees)
  expect_identical(predict(sparse, xs, type = "chf"), predict(dense, x, type = "chf"))
})

test_that("the IPCW Brier score is the survival package's, the out-of-bag IBS its integral", {
  skip_if_not(exists("brier", asNamespace("survival")), "survival has no brier()")
  d <- na.omit(survival::lung[c("time", "status", "age", "sex", "ph.ecog")])
  d$status <- d$status - 1
  # (the data in the call: survival's brier() evaluates the call's data again)
  cox <- eval(bquote(survival::coxph(Surv(time, status) ~ age + sex + ph.ecog, data = .(d))))
  at <- c(100, 200, 300, 400)
  curves <- t(summary(survival::survfit(cox, newdata = d), times = at, extend = TRUE)$surv)
  ref <- survival:::brier(cox, times = at)$brier[, "Model"]
  # the same weights up to the handling of censoring tied with the time (survival shifts it)
  expect_equal(svforest:::ipcw_brier(d$time, d$status, curves, at), unname(ref), tolerance = 2e-3)
  # the out-of-bag IBS integrates those scores over the event times up to their 75th percentile
  fit <- svforest(Surv(time, status) ~ ., data = d, ntree = 20, seed = 1, num_threads = 1)
  grid <- fit$forest$times
  cols <- grid <= quantile(d$time[d$status == 1], 0.75)
  s <- predict(fit, type = "survival")
  keep <- !is.na(s[, 1])  # rows no tree left out are not scored (G from every row)
  km <- svforest:::censoring_km(d$time, d$status)
  b <- svforest:::ipcw_brier(d$time[keep], d$status[keep], s[keep, cols], grid[cols], km)
  tt <- grid[cols]
  expect_equal(fit$oob_ibs, sum(diff(tt) * (head(b, -1) + tail(b, -1)) / 2) / diff(range(tt)))
  # curves that know each row's fate (1 while it lives, 0 after its event) score 0, a constant 0.5 about 0.25
  expect_identical(svforest:::ipcw_brier(d$time, d$status, cbind(as.double(d$time > 200)), 200), 0)
  expect_equal(svforest:::ipcw_brier(d$time, d$status, matrix(0.5, nrow(d), 1), 200), 0.25, tolerance = 0.05)
})

test_that("oblique_fit = \"cox\": the root hyperplane is one Newton step of the Cox partial likelihood from zero", {
  set.seed(7)
  n <- 300
  x <- matrix(rnorm(n * 3), n, 3) %*% diag(c(1, 3, 0.5))
  hazard <- exp(x %*% c(1, -0.3, 1.5))
  event <- rexp(n, hazard)
  censor <- rexp(n, 0.3)
  time <- pmin(event, censor)
  status <- as.integer(event <= censor)
  stump <- function(fit_kind) {
    fit <- survival_engine_fit(x, time, status, params = list(
      ntree = 1L, sampler = "subsample", sample_fraction = 1, oblique_fit = fit_kind, split_ridge = 0,
      oblique_choice = "none", tree_choice = "none", max_depth = 1L, mtry = 1L, oblique_mtry = 3L,
      min_leaf_size = 1L, min_node_size = 2L))
    tree <- fit$trees[[1]]
    expect_identical(tree_split_kinds(tree)[1], "oblique")
    split <- tree_oblique_split(c(fit, list(num_classes = 0L)), tree, 1L)
    split$weights[order(split$vars)]
  }
  step <- survival::coxph(survival::Surv(time, status) ~ x, ties = "breslow", iter.max = 1, init = c(0, 0, 0))
  expect_equal(stump("cox"), unname(step$coefficients), tolerance = 1e-8)
  # the ridge fit of martingale scores is another direction
  ridge <- stump("ridge")
  expect_gt(max(abs(ridge / sqrt(sum(ridge^2)) - step$coefficients / sqrt(sum(step$coefficients^2)))), 0.05)
  expect_error(survival_engine_fit(x, time, status, params = list(oblique_fit = "newton")), "must be \"ridge\" or \"cox\"")
})

test_that("svforest_tree() of a survival forest: each leaf's survival at the event times' quartiles", {
  d <- survival::veteran
  one <- svforest(survival::Surv(time, status) ~ ., d, ntree = 1, seed = 1, num_threads = 1, min_node_size = 1000)
  tab <- svforest_tree(one, 1)
  expect_identical(tab$kind, "leaf")
  expect_identical(tab$leaf_model, "nelson_aalen")
  s <- tab$prediction[[1]]
  times <- as.numeric(sub("^S\\((.*)\\)$", "\\1", names(s)))
  expect_identical(times, unname(one$forest$times[ceiling(length(one$forest$times) * c(0.25, 0.5, 0.75))]))
  # a one-leaf tree predicts its leaf for every row
  expect_equal(unname(predict(one, d[1, ], type = "survival", times = times)[1, ]), unname(s))
  expect_match(tab$label, sprintf("^S\\(%s\\) 0\\.[0-9]{2}$", times[2]))
  fit <- svforest(survival::Surv(time, status) ~ ., d, ntree = 2, seed = 1, num_threads = 1)
  tab <- svforest_tree(fit, 2)
  leaf <- tab$kind == "leaf"
  expect_true(all(vapply(tab$prediction[leaf], function(p) all(p >= 0 & p <= 1) && all(diff(p) <= 0), TRUE)))
  expect_true(all(vapply(tab$prediction[!leaf], is.null, TRUE)))  # a node's curve is not its leaves' mean
})
