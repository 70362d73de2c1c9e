# Competing-risks forests (issue 49): the one engine's fourth outcome kind.
# Its leaves' Aalen-Johansen curves against survival's and cmprsk's, the
# forest's curves as probabilities, the bad-input catalogue through
# svforest() and predict(), honest out-of-bag figures on noise, and a
# predictor that drives only the competing cause.
skip_if_not_installed("survival")
Surv <- survival::Surv

cr_levels <- c("censored", "relapse", "death")

# n rows whose cause-specific hazards are exp(beta1 . x) and exp(beta2 . x)
# (x: p standard normals), with exponential censoring of rate `censor`.
cr_simulate <- function(n, p = 3, beta1 = 0, beta2 = 0, censor = 0.3, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  h1 <- 0.5 * exp(drop(x[, seq_along(beta1), drop = FALSE] %*% beta1))
  h2 <- 0.5 * exp(drop(x[, seq_along(beta2), drop = FALSE] %*% beta2))
  t1 <- stats::rexp(n, h1)
  t2 <- stats::rexp(n, h2)
  cens <- stats::rexp(n, censor)
  code <- ifelse(cens < pmin(t1, t2), 0L, ifelse(t1 < t2, 1L, 2L))
  data.frame(x, time = round(pmin(t1, t2, cens), 2) + 0.01, event = factor(cr_levels[code + 1L], cr_levels))
}

test_that("a forest of one-leaf trees gives survfit's Aalen-Johansen curves (and cmprsk's)", {
  d <- cr_simulate(150)
  d$x1 <- 1  # no usable predictor: every tree is one leaf of every row
  fit <- svforest(Surv(time, event) ~ x1, data = d, ntree = 2, seed = 1, num_threads = 1, sample_fraction = 1)
  expect_identical(fit$type, "competing")
  expect_identical(unique(vapply(fit$forest$trees, svforest:::tree_n_leaves, 1L)), 1L)
  aj <- survival::survfit(Surv(time, event) ~ 1, data = d)
  cif <- predict(fit, d[1, ], type = "cif", times = aj$time)
  expect_identical(dim(cif), c(1L, length(aj$time), 2L))
  expect_identical(dimnames(cif)[[3]], c("relapse", "death"))
  for (k in 1:2) expect_equal(as.vector(cif[1, , k]), aj$pstate[, match(cr_levels[k + 1], aj$states)], tolerance = 1e-8)
  expect_equal(as.vector(predict(fit, d[1, ], type = "survival", times = aj$time)), aj$pstate[, 1], tolerance = 1e-8)
  skip_if_not_installed("cmprsk")
  ci <- cmprsk::cuminc(d$time, as.integer(d$event) - 1L, cencode = 0)
  at <- sort(unique(d$time))
  est <- cmprsk::timepoints(ci, at)$est
  for (k in 1:2) expect_equal(as.vector(predict(fit, d[1, ], type = "cif", cause = k, times = at)), unname(est[k, ]),
                              tolerance = 1e-8)
})

test_that("each row's causes' CIFs and event-free survival sum to 1 and CIFs never decrease", {
  d <- cr_simulate(300, beta1 = 1, beta2 = c(0, 1))
  fit <- svforest(Surv(time, event) ~ ., data = d, ntree = 20, seed = 2, num_threads = 1)
  new <- cr_simulate(40, beta1 = 1, beta2 = c(0, 1), seed = 3)
  cif <- predict(fit, new)
  surv <- predict(fit, new, type = "survival")
  expect_lt(max(abs(cif[, , 1] + cif[, , 2] + surv - 1)), 1e-10)
  expect_true(all(apply(cif, c(1, 3), function(v) all(diff(v) >= 0))))
  expect_true(all(cif >= 0 & cif <= 1))
  chf <- predict(fit, new, type = "chf", cause = "death")
  expect_true(all(apply(chf, 1, function(v) all(diff(v) >= 0))))
  # risk: each cause's time lost, the integral of its CIF up to the last event time
  risk <- predict(fit, new, type = "risk")
  expect_identical(colnames(risk), c("relapse", "death"))
  grid <- fit$forest$times
  expect_equal(risk[, "death"], as.vector(cif[, , 2][, -length(grid), drop = FALSE] %*% diff(grid)), tolerance = 1e-12)
  expect_identical(predict(fit, new, type = "risk", cause = "death"), risk[, "death"])
  # times: before the first event time CIF 0, past the last a warning
  expect_identical(unname(predict(fit, new[1:2, ], cause = 1, times = 0)[, 1]), c(0, 0))
  expect_warning(predict(fit, new[1:2, ], cause = 1, times = 1e6), "past the last training event time")
  # out of bag: NA rows without trees, else probabilities
  oob <- predict(fit, cause = "relapse")
  expect_identical(dim(oob), c(nrow(d), length(grid)))
  expect_identical(fit$oob_error, 1 - unname(fit$oob_concordance[1]))
  expect_named(fit$oob_concordance, c("relapse", "death"))
  expect_named(fit$oob_ibs, c("relapse", "death"))
  expect_error(predict(fit, type = "chf"), "no out-of-bag version")
  expect_output(print(fit), "Wolbers' C relapse 0\\.[0-9]{4}, death 0\\.[0-9]{4}")
  expect_identical(dim(predict(fit, new, type = "leaf")), c(nrow(new), 20L))
})

test_that("bad competing-risks input gets a clear error", {
  d <- cr_simulate(60)
  nocens <- d
  nocens$event <- factor(as.character(d$event), c("relapse", "censored", "death"))
  expect_error(svforest(Surv(time, event) ~ ., data = nocens, ntree = 2), "put censoring first")
  fit <- svforest(Surv(time, event) ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(fit, d, cause = "stroke"), "`cause` \"stroke\" is not among the causes: \"relapse\", \"death\"")
  expect_error(predict(fit, d, cause = 3), "is not among the causes")
  start <- data.frame(x1 = d$x1, t0 = 0, t1 = d$time, event = d$event)
  # Surv(t0, t1, event) is delayed entry (test-delayed-entry.R), no longer an error
  expect_true(isTRUE(svforest(Surv(t0, t1, event) ~ x1, data = start, ntree = 2, num_threads = 1)$competing$delayed_entry))
  neg <- d
  neg$time[3] <- -1
  expect_error(svforest(neg[, 1:3], Surv(neg$time, neg$event), ntree = 2), "must not be negative")
  expect_error(svforest(d[, 1:3], data.frame(time = replace(d$time, 2, NA), event = d$event), ntree = 2),
               "missing values")
  zero <- d
  zero$time[5] <- 0
  expect_error(svforest(zero[, 1:3], Surv(zero$time, zero$event), ntree = 2), "must be positive")
  one_cause <- d
  one_cause$event <- factor(ifelse(d$event == "censored", "censored", "relapse"), c("censored", "relapse", "death"))
  expect_error(svforest(Surv(time, event) ~ ., data = one_cause, ntree = 2), "has no events")
  expect_error(svforest(Surv(time, event) ~ ., data = d, ntree = 2, leaf = "nelson_aalen"),
               "a competing-risks forest has the hybrid splitter .* and Aalen-Johansen leaves .*; leave `leaf` out")
  expect_error(svforest(Surv(time, event) ~ ., data = d, ntree = 2, sampler = "all"),
               "\"subsample\" for a competing-risks forest")
  expect_error(svforest(Surv(time, event) ~ ., data = d, ntree = 2, method = "rsvf"), "does not fit a competing-risks")
  expect_error(svforest_sql(fit, "d"), "competing-risks forest")
  # the x/y form: a data frame of a time and an event factor fits the same forest
  xy <- svforest(d[, 1:3], d[, c("time", "event")], ntree = 2, seed = 1, num_threads = 1)
  expect_identical(xy$forest, fit$forest)
})

test_that("a predictor that drives only the competing cause lowers cause 1's incidence; cause-specific survival misses it", {
  # cause 2's hazard grows with x1, cause 1's does not depend on it: rows of
  # high x1 die of cause 2 first, so their cause-1 incidence is lower. A
  # survival forest of cause 1 that censors cause 2 sees a hazard free of
  # x1, and its 1 - S overstates the incidence of high-x1 rows.
  d <- cr_simulate(600, beta1 = 0, beta2 = 1.5, censor = 0.1, seed = 5)
  fit <- svforest(Surv(time, event) ~ ., data = d, ntree = 60, seed = 5, num_threads = 1)
  cs <- d
  cs$status <- as.integer(d$event == "relapse")
  cs$event <- NULL
  surv <- svforest(Surv(time, status) ~ ., data = cs, ntree = 60, seed = 5, num_threads = 1)
  new <- data.frame(x1 = c(-1.5, 1.5), x2 = 0, x3 = 0)
  h <- 2
  cif1 <- predict(fit, new, cause = "relapse", times = h)[, 1]
  one_minus_s <- 1 - predict(surv, new, type = "survival", times = h)[, 1]
  # the truth: constant hazards 0.5 and 0.5 exp(1.5 x1)
  truth <- vapply(new$x1, function(x) {
    total <- 0.5 + 0.5 * exp(1.5 * x)
    0.5 / total * (1 - exp(-total * h))
  }, 0)
  expect_gt(cif1[1] - cif1[2], 0.4)  # the forest follows the competing cause's pull
  expect_lt(max(abs(cif1 - truth)), 0.1)
  expect_gt(one_minus_s[2] - truth[2], 0.25)  # cause-specific survival overstates the high-x1 row's incidence
})

test_that("a competing-risks forest grows by out-of-bag error (1 - Wolbers' C) up to ntree_max, also in futures", {
  d <- cr_simulate(800, p = 20, beta1 = rep(0.6, 6), beta2 = c(rep(0, 6), rep(0.6, 3)), seed = 1)
  # one hyperplane per node: weaker trees, whose error still falls clearly from 4 to 8 trees
  grown <- svforest(Surv(time, event) ~ ., data = d, ntree = 8, ntree_max = 500, seed = 1, num_threads = 2,
                    n_oblique = 1)
  expect_gt(grown$ntree, 8L)
  expect_identical(grown$forest$trees[1:8], svforest(Surv(time, event) ~ ., data = d, ntree = 8, seed = 1,
                                                     num_threads = 1, n_oblique = 1)$forest$trees)
  skip_if_not_installed("future.apply")
  old_plan <- future::plan(future::sequential)
  on.exit(future::plan(old_plan), add = TRUE)
  far <- svforest_future(Surv(time, event) ~ ., data = d, ntree = 8, ntree_max = 500, seed = 1, chunks = 3,
                         n_oblique = 1)
  expect_identical(far$forest$trees, grown$forest$trees)
})

test_that("out-of-bag concordance holds on new rows of pure noise", {
  train <- cr_simulate(800, p = 10, seed = 11)
  test <- cr_simulate(800, p = 10, seed = 12)
  fit <- svforest(Surv(time, event) ~ ., data = train, ntree = 50, seed = 11, num_threads = 2)
  risk <- predict(fit, test, type = "risk")
  status <- as.integer(test$event) - 1L
  held_out <- vapply(1:2, function(k) svforest:::oob_wolbers_c(test$time, status, risk[, k], k), 0)
  expect_lt(max(abs(fit$oob_concordance - 0.5)), 0.04)
  expect_lt(max(abs(held_out - 0.5)), 0.04)
  expect_lt(max(abs(fit$oob_concordance - held_out)), 0.05)
})

test_that("summary, glance, svforest_tree, plot and importance speak per cause", {
  d <- cr_simulate(200, beta1 = 1.5, beta2 = c(0, 1.5), seed = 7)
  fit <- svforest(Surv(time, event) ~ ., data = d, ntree = 10, seed = 7, num_threads = 1)
  g <- glance(fit)
  expect_true(all(c("oob_concordance_relapse", "oob_concordance_death", "oob_ibs_relapse", "oob_ibs_death") %in% names(g)))
  expect_output(print(summary(fit)), "Aalen-Johansen")
  tr <- svforest_tree(fit, 1)
  leaf_cif <- tr$prediction[!is.na(tr$leaf)]
  expect_true(all(vapply(leaf_cif, function(v) length(v) == 6L && all(v >= 0 & v <= 1), TRUE)))
  expect_match(names(leaf_cif[[1]]), "^CIF (relapse|death)\\(")
  expect_match(tr$label[!is.na(tr$leaf)][1], "^CIF relapse")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(fit, tree = 1))
  # the held-out error curve: 1 - Wolbers' C of the first cause after 1, 2, ... trees
  new <- cr_simulate(100, beta1 = 1.5, beta2 = c(0, 1.5), seed = 8)
  curve <- svforest:::held_out_curve(Surv(new$time, new$event), fit, new)
  expect_length(curve, 10L)
  risk <- predict(fit, new, type = "risk", cause = 1)
  status <- as.integer(new$event) - 1L
  # (the engine counts pairs tied in time as Harrell's C does: a hair apart)
  expect_equal(curve[10], 1 - svforest:::oob_wolbers_c(new$time, status, risk, 1L), tolerance = 0.01)
  expect_silent(plot(fit, newdata = new, y = Surv(new$time, new$event)))
  imp <- svforest_importance(fit, d[, 1:3], Surv(d$time, d$event))
  expect_identical(svforest_importance(fit, d), imp)  # the outcome taken from the data of a formula model
  expect_identical(dim(imp), c(3L, 2L))
  expect_identical(rownames(imp)[which.max(imp[, "relapse"])], "x1")
  expect_identical(rownames(imp)[which.max(imp[, "death"])], "x2")
  # explainers read one number per row: the first cause's time lost
  expect_identical(svforest_explainer_predict(fit, new), risk)
  skip_if_not_installed("butcher")
  small <- butcher::butcher(fit)
  expect_null(small$oob_cif_sum)
  expect_identical(predict(small, d[1:5, ]), predict(fit, d[1:5, ]))
})

test_that("predictions in chunks of rows equal those in one chunk, every type (#61)", {
  d <- cr_simulate(120, beta1 = 1, seed = 4)
  fit <- svforest(Surv(time, event) ~ ., data = d, ntree = 4, seed = 2, num_threads = 1)
  new <- cr_simulate(23, beta1 = 1, seed = 5)
  for (type in c("cif", "chf", "risk", "survival")) {
    whole <- predict(fit, new, type = type, num_threads = 1)
    chunked <- withr::with_options(list(svforest.predict_chunk_rows = 5), predict(fit, new, type = type, num_threads = 1))
    expect_identical(chunked, whole)
    expect_identical(dim(as.array(whole))[1L], 23L)
  }
  expect_identical(dim(predict(fit, new[0, ], type = "cif", num_threads = 1))[c(1L, 3L)], c(0L, 2L))
})
