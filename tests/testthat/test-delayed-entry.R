# Delayed entry (Surv(entry, exit, event)) and `id` (issue #59): the risk
# sets entry < t <= exit in the log-rank scan, the martingale targets, the
# Nelson-Aalen leaves and Harrell's C; subjects drawn whole.
skip_if_not_installed("survival")
library(survival)

entry_data <- function(n = 200, seed = 1, ties = FALSE) {
  set.seed(seed)
  x1 <- stats::rnorm(n)
  x2 <- stats::rnorm(n)
  entry <- stats::runif(n, 0, 2)
  t <- entry + stats::rexp(n, exp(0.6 * x1))
  cens <- entry + stats::rexp(n, 0.3)
  exit <- pmin(t, cens)
  if (ties) exit <- round(exit, 1) + 0.05
  data.frame(x1, x2, entry = pmin(entry, exit - 0.01), exit, event = as.integer(t <= cens))
}

test_that("one-leaf trees on every row give survfit's Nelson-Aalen curve with delayed entry", {
  d <- entry_data(250, ties = TRUE)
  d$x0 <- 1  # no usable predictor: each tree is one leaf of every row
  fit <- svforest(Surv(entry, exit, event) ~ x0, data = d, ntree = 2, seed = 1, num_threads = 1,
                  sampler = "subsample", sample_fraction = 1, ntime = Inf)
  expect_identical(unique(vapply(fit$forest$trees, svforest:::tree_n_leaves, 1L)), 1L)
  sf <- survfit(Surv(entry, exit, event) ~ 1, data = d, stype = 2, ctype = 1)
  surv <- as.vector(predict(fit, d[1, ], type = "survival", times = sf$time))
  expect_lt(max(abs(surv - sf$surv)), 1e-10)
  chf <- as.vector(predict(fit, d[1, ], type = "chf", times = sf$time))
  expect_lt(max(abs(chf - sf$cumhaz)), 2^-32)  # the leaves' hazards lie on a grid of 2^-32
  # the curve ignoring entry is another one (the test can fail)
  naive <- survfit(Surv(exit, event) ~ 1, data = d, stype = 2, ctype = 1)
  expect_gt(max(abs(summary(naive, times = sf$time)$surv - sf$surv)), 0.05)
  expect_match(paste(capture.output(print(fit)), collapse = "\n"), "delayed entry; [0-9]+ events")
})

test_that("Harrell's C under truncation counts the pairs whose later row had entered", {
  d <- entry_data(150, seed = 3)
  risk <- round(stats::rnorm(150) + 0.5 * d$x1, 1)  # tied risks
  r <- svforest:::.svf_harrell_c_entry(d$exit, d$event, d$entry, risk)
  expect_equal(r$c, unname(concordance(Surv(entry, exit, event) ~ risk, data = d, reverse = TRUE)$concordance),
               tolerance = 1e-12)
  # by pairs: concordance and each row's first-order pseudo-value of 1 - C
  bad <- pairs_of <- numeric(150)
  conc <- 0
  for (a in which(d$event == 1L)) {
    b <- which(d$exit > d$exit[a] & d$entry < d$exit[a])
    s <- ifelse(risk[a] > risk[b], 1, ifelse(risk[a] == risk[b], 0.5, 0))
    conc <- conc + sum(s)
    bad[a] <- bad[a] + sum(1 - s)
    bad[b] <- bad[b] + 1 - s
    pairs_of[a] <- pairs_of[a] + length(b)
    pairs_of[b] <- pairs_of[b] + 1
  }
  pairs <- sum(pairs_of) / 2
  expect_equal(r$c, conc / pairs, tolerance = 1e-14)
  err <- 1 - conc / pairs
  expect_equal(r$row_loss, err + 149 / pairs * (bad - err * pairs_of), tolerance = 1e-12)
  # entries before every time: the right-censored C
  expect_identical(svforest:::.svf_harrell_c_entry(d$exit, d$event, rep(-1, 150), risk)$c,
                   svforest:::.svf_harrell_c(d$exit, d$event, risk))
})

test_that("the log-rank scan and martingale scores with delayed entry are coxph's score test and residuals", {
  d <- entry_data(300, seed = 5)  # no tied times: the score test is the log-rank statistic
  g <- d$x1 + stats::rnorm(300) > 0
  lr <- svforest:::.svf_entry_logrank(d$exit, d$event, d$entry, g)
  cox <- coxph(Surv(entry, exit, event) ~ g, data = d, ties = "breslow")
  expect_equal(lr$statistic, unname(cox$score), tolerance = 1e-10)
  expect_equal(lr$scan, lr$statistic, tolerance = 1e-10)
  null <- coxph(Surv(entry, exit, event) ~ 1, data = d, ties = "breslow")
  expect_equal(lr$martingale, unname(residuals(null, type = "martingale")), tolerance = 1e-10)
  # rows at risk at each event time: entry < t <= exit
  times <- sort(unique(d$exit[d$event == 1L]))
  expect_identical(lr$at_risk, vapply(times, function(t) as.double(sum(d$entry < t & d$exit >= t)), 1))
})

test_that("a delayed-entry forest predicts, prints, summarises, plots and round-trips", {
  d <- entry_data(200, seed = 7)
  fit <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, ntree = 10, seed = 2, num_threads = 1)
  expect_true(isTRUE(fit$survival$delayed_entry))
  expect_true(is.na(fit$oob_ibs))
  expect_equal(fit$oob_concordance,
               unname(concordance(Surv(entry, exit, event) ~ fit$oob_predictions, data = d, reverse = TRUE,
                                  subset = !is.na(fit$oob_predictions))$concordance))
  expect_gt(fit$oob_concordance, 0.55)
  out <- capture.output(print(fit))
  expect_true(any(grepl("Harrell's C", out)) && !any(grepl("Brier", out)))
  expect_silent(capture.output(summary(fit)))
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  for (type in c("survival", "chf", "risk", "time")) expect_identical(predict(back, d, type = type), predict(fit, d, type = type))
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(plot(fit))
  imp <- svforest_importance(fit, d)
  expect_identical(names(imp), c("x1", "x2"))
  expect_gt(imp[["x1"]], imp[["x2"]])
  # at fit time: each tree's drop of Harrell's C over the pairs comparable under truncation
  with_imp <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, ntree = 10, seed = 2, num_threads = 1,
                       importance = "permutation")
  expect_identical(predict(with_imp, d, type = "risk"), predict(fit, d, type = "risk"))
  expect_gt(with_imp$variable_importance[["x1"]], with_imp$variable_importance[["x2"]])
  ignoring <- svforest:::permutation_importance(with_imp, svforest:::importance_dense_data(
    svforest:::new_engine_data(with_imp, as.matrix(d[c("x1", "x2")]))), Surv(d$exit, d$event), TRUE, FALSE, 1L)
  expect_false(isTRUE(all.equal(as.vector(ignoring), as.vector(with_imp$variable_importance))))
  expect_s3_class(svforest_tree(fit, 1), "data.frame")
  # combine(): two forests of the same fit add up to the whole
  parts <- lapply(0:1, function(t) svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, ntree = 5, first_tree = 5 * t,
                                            seed = 2, num_threads = 1))
  both <- combine(parts)
  expect_identical(predict(both, d, type = "risk"), predict(fit, d, type = "risk"))
  expect_equal(both$oob_concordance, fit$oob_concordance)
  # same seed, any thread count
  two <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, ntree = 10, seed = 2, num_threads = 2)
  expect_identical(predict(two, d, type = "risk"), predict(fit, d, type = "risk"))
})

split_subjects <- function(n = 150, seed = 11) {
  d <- entry_data(n, seed)
  d$entry <- 0
  d$id <- sprintf("s%03d", seq_len(n))
  u <- d$exit * stats::runif(n, 0.2, 0.8)
  rbind(transform(d, exit = u, event = 0L), transform(d, entry = u))
}

test_that("with `id`, a subject's rows are drawn together: out-of-bag rows are whole subjects", {
  d <- split_subjects()
  fit <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, id = "id", ntree = 8, seed = 3, num_threads = 1)
  whole <- function(f) all(tapply(f$oob_count, d$id, function(v) length(unique(v)) == 1L))
  expect_true(whole(fit))
  expect_gt(sum(fit$oob_count > 0), 0)
  # without id the rows of a subject fall apart (the test can fail)
  expect_false(whole(svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, ntree = 8, seed = 3, num_threads = 1)))
  # the ids as a vector, and the bootstrap; same seed, any thread count
  same <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, id = d$id, ntree = 8, seed = 3, num_threads = 2)
  expect_identical(predict(same, d, type = "risk"), predict(fit, d, type = "risk"))
  # an id named as a column is no predictor of `.`, unless the formula names it
  dot <- svforest(Surv(entry, exit, event) ~ ., data = d, id = "id", ntree = 8, seed = 3, num_threads = 1)
  expect_identical(dot$design$predictors, c("x1", "x2"))
  named <- svforest(Surv(entry, exit, event) ~ x1 + id, data = d, id = "id", ntree = 2, seed = 3, num_threads = 1)
  expect_identical(named$design$predictors, c("x1", "id"))
  boot <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, id = d$id, ntree = 8, seed = 3, num_threads = 1,
                   sampler = "bootstrap")
  expect_true(whole(boot))
  # matrix interface, right-censored outcome with repeated subjects
  one <- d[d$entry > 0, ]
  m <- svforest(as.matrix(one[c("x1", "x2")]), Surv(one$exit, one$event), id = rep(1:75, 2), ntree = 4, seed = 1,
                num_threads = 1)
  expect_true(all(tapply(m$oob_count, rep(1:75, 2), function(v) length(unique(v)) == 1L)))
})

test_that("bad delayed-entry input and bad ids get clear errors", {
  d <- entry_data(60, seed = 2)
  f <- Surv(entry, exit, event) ~ x1 + x2
  fit <- function(data, ...) svforest(f, data = data, ntree = 2, num_threads = 1, ...)
  expect_error(suppressWarnings(fit(transform(d, entry = replace(entry, 4, exit[4])))),
               "1 missing entry times.*at or after the exit missing")
  y <- Surv(d$entry, d$exit, d$event)
  y[4, 1] <- d$exit[4] + 1  # (Surv() itself would make it missing)
  expect_error(svforest(d[c("x1", "x2")], y, ntree = 2, num_threads = 1),
               "1 row whose entry time is at or after the exit time \\(e.g. row 4")
  expect_error(fit(transform(d, entry = replace(entry, 5, NA))), "1 missing entry times")
  expect_error(fit(d, id = 1:59), "`id` has 59 values but the data have 60 rows")
  expect_error(fit(d, id = replace(1:60, 2, NA)), "`id` has 1 missing values")
  expect_error(fit(d, id = rep(1:30, 2)), "overlap in time")
  expect_error(fit(d, id = 1:60, case_weights = rep(1, 60)), "`case_weights` cannot be combined with `id`")
  expect_error(fit(d, id = 1:60, case_weights = rep(0:1, 30)), "`case_weights` cannot be combined with `id`")
  expect_error(fit(d, id = 1:60, importance = "permutation"), "not available with `id`")
  expect_error(svforest(Species ~ ., data = iris, id = 1:150, ntree = 2, num_threads = 1), "`id` is for survival outcomes")
  # competing risks with delayed entry: the same checks of the entry times
  d$cause <- factor(ifelse(d$event == 1L, sample(c("a", "b"), 60, TRUE), "censored"), c("censored", "a", "b"))
  yc <- Surv(d$entry, d$exit, d$cause)
  yc[4, 1] <- d$exit[4] + 1
  expect_error(svforest(d[c("x1", "x2")], yc, ntree = 2, num_threads = 1),
               "1 row whose entry time is at or after the exit time \\(e.g. row 4")
  expect_error(svforest(Surv(entry, exit, cause) ~ x1 + x2, data = transform(d, entry = replace(entry, 5, NA)),
                        ntree = 2, num_threads = 1), "1 missing entry times")
  expect_error(svforest(Surv(entry, exit, cause) ~ x1 + x2, data = d, id = rep(1:30, 2), ntree = 2, num_threads = 1),
               "overlap in time")
})

test_that("parsnip's censored regression mode fits Surv(entry, exit, event), without censoring weights", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("prodlim")
  skip_if_not("censored regression" %in% parsnip::get_model_env()$rand_forest_modes)
  d <- entry_data(150, seed = 9)
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 10, mode = "censored regression"), "svforest", seed = 1)
  fit <- parsnip::fit(spec, Surv(entry, exit, event) ~ x1 + x2, data = d)
  expect_true(isTRUE(fit$fit$survival$delayed_entry))
  pred <- predict(fit, d[1:3, ], type = "survival", eval_time = c(1, 2))
  expect_equal(pred$.pred[[2]]$.pred_survival, as.vector(predict(fit$fit, d[2, ], times = c(1, 2))))
  expect_equal(predict(fit, d[1:3, ], type = "time")$.pred_time, predict(fit$fit, d[1:3, ], type = "time"))
  expect_error(parsnip::.censoring_weights_graf(fit, tibble::tibble(y = Surv(d$exit[1:3], d$event[1:3]),
                                                                    .pred = pred$.pred)),
               "not available for a fit with delayed entry")
})

# Competing risks with delayed entry: two causes whose hazards depend on x1.
entry_cr_data <- function(n = 200, seed = 1, ties = FALSE) {
  set.seed(seed)
  x1 <- stats::rnorm(n)
  x2 <- stats::rnorm(n)
  entry <- stats::runif(n, 0, 2)
  t1 <- entry + stats::rexp(n, 0.5 * exp(0.7 * x1))
  t2 <- entry + stats::rexp(n, 0.4 * exp(-0.5 * x1))
  cens <- entry + stats::rexp(n, 0.25)
  exit <- pmin(t1, t2, cens)
  if (ties) exit <- round(exit, 1) + 0.05
  code <- ifelse(cens <= pmin(t1, t2), 0L, ifelse(t1 < t2, 1L, 2L))
  data.frame(x1, x2, entry = pmin(entry, exit - 0.01), exit,
             cause = factor(code, 0:2, c("censored", "relapse", "death")))
}

test_that("one-leaf trees on every row give survfit's Aalen-Johansen curves with delayed entry", {
  d <- entry_cr_data(250, ties = TRUE)
  d$x0 <- 1  # no usable predictor: each tree is one leaf of every row
  fit <- svforest(Surv(entry, exit, cause) ~ x0, data = d, ntree = 2, seed = 1, num_threads = 1,
                  sampler = "subsample", sample_fraction = 1, ntime = Inf)
  expect_identical(unique(vapply(fit$forest$trees, svforest:::tree_n_leaves, 1L)), 1L)
  expect_true(isTRUE(fit$competing$delayed_entry))
  sf <- survfit(Surv(entry, exit, cause) ~ 1, data = d, id = seq_len(nrow(d)))
  times <- sf$time[sf$time <= max(fit$forest$times)]
  for (k in c("relapse", "death")) {
    cif <- as.vector(predict(fit, d[1, ], type = "cif", cause = k, times = times))
    truth <- sf$pstate[seq_along(times), match(k, sf$states)]
    expect_lt(max(abs(cif - truth)), 1e-8)
    # the curve ignoring entry is another one (the test can fail)
    naive <- survfit(Surv(exit, cause) ~ 1, data = d)
    expect_gt(max(abs(summary(naive, times = times)$pstate[, match(k, naive$states)] - truth)), 0.02)
  }
  expect_lt(max(abs(predict(fit, d[1, ], type = "survival", times = times) -
                      sf$pstate[seq_along(times), match("(s0)", sf$states)])), 1e-8)
})

test_that("competing log-rank statistics and targets with delayed entry are each cause's survival ones", {
  for (ties in c(TRUE, FALSE)) {
    d <- entry_cr_data(120, seed = 4, ties = ties)
    code <- as.integer(d$cause) - 1L
    left <- d$x1 + stats::rnorm(120, sd = 0.5) > 0
    r <- svforest:::.svf_competing_entry_logrank(d$exit, code, d$entry, left, 2L)
    for (k in 1:2) {
      one <- svforest:::.svf_entry_logrank(d$exit, as.integer(code == k), d$entry, left)
      expect_equal(r$per_cause[k], one$statistic, tolerance = 1e-10)
      expect_equal(r$target[, k], one$martingale, tolerance = 1e-12)
      # without tied times: coxph's score test of the cause-specific hazard with delayed entry
      if (!ties) {
        cox <- coxph(Surv(entry, exit, code == k) ~ left, data = d, ties = "breslow")
        expect_equal(r$per_cause[k], unname(cox$score), tolerance = 1e-10)
      }
    }
    expect_equal(r$composite, sum(r$per_cause), tolerance = 1e-12)
    expect_equal(r$scan, r$composite, tolerance = 1e-10)
  }
  # entry ignored gives other statistics (the test can fail)
  naive <- svforest:::.svf_competing_entry_logrank(d$exit, code, rep(0, 120), left, 2L)
  expect_gt(abs(naive$composite - r$composite), 0.01)
})

test_that("Wolbers' C under truncation counts the pairs whose other row had entered", {
  d <- entry_cr_data(150, seed = 5, ties = TRUE)
  code <- as.integer(d$cause) - 1L
  risk <- round(stats::rnorm(150) + 0.5 * d$x1, 1)  # tied risks
  by_pairs <- function(cause) {
    agree <- pairs <- 0
    for (i in which(code == cause)) for (j in seq_len(150)) {
      if (j == i || !(d$entry[j] < d$exit[i])) next
      if (d$exit[j] > d$exit[i] || (d$exit[j] == d$exit[i] && code[j] == 0L) || (code[j] > 0L && code[j] != cause)) {
        pairs <- pairs + 1
        agree <- agree + (risk[i] > risk[j]) + (risk[i] == risk[j]) / 2
      }
    }
    agree / pairs
  }
  for (k in 1:2) {
    expect_equal(svforest:::oob_wolbers_c(d$exit, code, risk, k, d$entry), by_pairs(k), tolerance = 1e-12)
    expect_equal(svforest:::wolbers_c_pairwise(d$exit, code, risk, k, d$entry), by_pairs(k), tolerance = 1e-12)
  }
  expect_false(isTRUE(all.equal(svforest:::oob_wolbers_c(d$exit, code, risk, 1L), by_pairs(1))))
})

test_that("a competing-risks forest with delayed entry predicts, prints, round-trips and takes id", {
  d <- entry_cr_data(240, seed = 6)
  f <- Surv(entry, exit, cause) ~ x1 + x2
  fit <- svforest(f, data = d, ntree = 10, seed = 2, num_threads = 1)
  expect_true(isTRUE(fit$competing$delayed_entry))
  expect_true(all(is.na(fit$oob_ibs)))
  code <- as.integer(d$cause) - 1L
  expect_equal(unname(fit$oob_concordance[1]),
               svforest:::oob_wolbers_c(d$exit, code, fit$oob_predictions[, 1], 1L, d$entry))
  expect_gt(fit$oob_concordance[["relapse"]], 0.55)
  out <- paste(capture.output(print(fit)), collapse = "\n")
  expect_match(out, "competing risks, delayed entry")
  expect_false(grepl("Brier", out))
  # combine(): two forests of the same fit add up to the whole
  parts <- lapply(0:1, function(t) svforest(f, data = d, ntree = 5, first_tree = 5 * t, seed = 2, num_threads = 1))
  both <- combine(parts)
  expect_identical(predict(both, d, type = "cif"), predict(fit, d, type = "cif"))
  expect_equal(both$oob_concordance, fit$oob_concordance)
  expect_silent(capture.output(summary(fit)))
  cif <- predict(fit, d[1:5, ], type = "cif")
  expect_identical(dim(cif)[c(1, 3)], c(5L, 2L))
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  for (type in c("cif", "chf", "survival", "risk")) expect_identical(predict(back, d, type = type), predict(fit, d, type = type))
  imp <- svforest_importance(fit, d)
  expect_gt(imp["x1", "relapse"], imp["x2", "relapse"])
  # same seed, any thread count; entry ignored is another forest
  two <- svforest(f, data = d, ntree = 10, seed = 2, num_threads = 2)
  expect_identical(predict(two, d, type = "cif"), predict(fit, d, type = "cif"))
  naive <- svforest(Surv(exit, cause) ~ x1 + x2, data = d, ntree = 10, seed = 2, num_threads = 1)
  expect_false(isTRUE(all.equal(predict(naive, d, type = "cif"), predict(fit, d, type = "cif"))))
  # id: each subject split into two rows, drawn together
  d$id <- seq_len(nrow(d))
  u <- d$entry + (d$exit - d$entry) * stats::runif(nrow(d), 0.2, 0.8)
  split <- rbind(transform(d, exit = u, cause = factor("censored", levels(d$cause))), transform(d, entry = u))
  by_id <- svforest(f, data = split, id = "id", ntree = 8, seed = 3, num_threads = 1)
  expect_true(all(tapply(by_id$oob_count, split$id, function(v) length(unique(v)) == 1L)))
  expect_true(is.finite(by_id$oob_concordance[["relapse"]]))
})

test_that("svforest_future() grows the one-process forest with delayed entry and `id`", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  d <- split_subjects(100)
  far <- svforest_future(Surv(entry, exit, event) ~ x1 + x2, data = d, id = "id", ntree = 6, seed = 4, chunks = 2)
  whole <- svforest(Surv(entry, exit, event) ~ x1 + x2, data = d, id = "id", ntree = 6, seed = 4, num_threads = 1)
  expect_identical(far$forest, whole$forest)
  expect_identical(far$oob_concordance, whole$oob_concordance)
  expect_identical(predict(far, d, type = "risk"), predict(whole, d, type = "risk"))
  cr <- entry_cr_data(150, seed = 5)
  far_cr <- svforest_future(Surv(entry, exit, cause) ~ x1 + x2, data = cr, ntree = 4, seed = 2, chunks = 2)
  whole_cr <- svforest(Surv(entry, exit, cause) ~ x1 + x2, data = cr, ntree = 4, seed = 2, num_threads = 1)
  expect_identical(far_cr$forest, whole_cr$forest)
  expect_identical(predict(far_cr, cr, type = "cif"), predict(whole_cr, cr, type = "cif"))
})
