# The out-of-bag figures of a competing-risks forest (R/oob-competing.R):
# Wolbers' concordance per cause, the IPCW Brier score with competing
# events, the expected time lost to a cause, and the tally they come from.

competing_sample <- function(n, seed, ties = FALSE) {
  set.seed(seed)
  time <- rexp(n) + 0.01
  if (ties) time <- round(time, 1) + 0.1
  list(time = time, status = sample(0:2, n, TRUE, prob = c(0.3, 0.4, 0.3)))
}

# every ordered pair of rows, by the definition
wolbers_by_pairs <- function(time, status, risk, cause) {
  agree <- 0
  pairs <- 0
  for (i in which(status == cause)) for (j in seq_along(time)[-i]) {
    known <- time[j] > time[i] || (time[j] == time[i] && status[j] == 0) ||
      (status[j] != 0 && status[j] != cause && time[j] <= time[i])
    if (known) {
      pairs <- pairs + 1
      agree <- agree + (risk[i] > risk[j]) + 0.5 * (risk[i] == risk[j])
    }
  }
  agree / pairs
}

test_that("Wolbers' C counts the pairs its definition names, ties and other causes included", {
  d <- competing_sample(150, 1, ties = TRUE)
  risk <- round(runif(150), 1)  # tied risks
  for (cause in 1:2) {
    expect_equal(svforest:::oob_wolbers_c(d$time, d$status, risk, cause),
                 wolbers_by_pairs(d$time, d$status, risk, cause), tolerance = 1e-12)
  }
  # a risk that knows who has the cause, and when, ranks every pair right
  perfect <- ifelse(d$status == 1, 100 - d$time, -1)
  expect_identical(svforest:::oob_wolbers_c(d$time, d$status, perfect, 1), 1)
  expect_identical(svforest:::oob_wolbers_c(d$time, d$status, rep(NA_real_, 150), 1), NA_real_)
})

test_that("Wolbers' C by sorting (O(n log n)) is the pairwise count exactly, and fast on many rows", {
  for (seed in 1:20) {
    d <- competing_sample(120, seed, ties = seed %% 2 == 0)
    risk <- round(runif(120), 1)
    risk[sample(120, 5)] <- NA
    keep <- !is.na(risk)
    for (cause in 1:2)
      expect_identical(svforest:::oob_wolbers_c(d$time, d$status, risk, cause),
                       svforest:::wolbers_c_pairwise(d$time[keep], d$status[keep], risk[keep], cause))
  }
  # an infinite risk takes the pairwise count
  d <- competing_sample(60, 3, ties = TRUE)
  risk <- c(Inf, round(runif(59), 1))
  expect_identical(svforest:::oob_wolbers_c(d$time, d$status, risk, 1), wolbers_by_pairs(d$time, d$status, risk, 1))
  # 100,000 rows: the pairwise count took minutes
  d <- competing_sample(1e5, 4)
  expect_lt(system.time(svforest:::oob_wolbers_c(d$time, d$status, runif(1e5), 1))[["elapsed"]], 10)
})

test_that("with one cause Wolbers' C is Harrell's C as survival::concordance() counts it", {
  skip_if_not_installed("survival")
  d <- competing_sample(200, 2, ties = TRUE)
  status <- pmin(d$status, 1L)
  risk <- round(runif(200), 2)
  ref <- survival::concordance(survival::Surv(d$time, status) ~ risk, reverse = TRUE)$concordance
  expect_equal(svforest:::oob_wolbers_c(d$time, status, risk, 1L), unname(ref), tolerance = 1e-12)
})

test_that("the IPCW Brier score with competing events is riskRegression::Score()'s", {
  skip_if_not_installed("riskRegression")
  skip_if_not_installed("prodlim")
  d <- competing_sample(300, 3)  # distinct times: the two tie conventions coincide
  at <- c(0.5, 1, 1.5)
  set.seed(4)
  cif <- t(apply(matrix(runif(300 * 3), 300), 1, sort)) * 0.6
  Hist <- prodlim::Hist
  Surv <- survival::Surv  # Score() builds its censoring model with Surv() in the formula's environment
  for (cause in 1:2) {
    ref <- riskRegression::Score(list(m = cif), formula = Hist(time, status) ~ 1, data = as.data.frame(d),
                                 times = at, cause = cause, metrics = "brier", cens.model = "km",
                                 null.model = FALSE, conservative = TRUE)$Brier$score$Brier
    expect_equal(svforest:::ipcw_brier(d$time, d$status, 1 - cif, at, cause = cause), ref, tolerance = 1e-10)
  }
})

test_that("the time lost to a cause is the integral of its CIF step function", {
  times <- c(1, 2, 4)
  cif <- array(c(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0, 0.1, 0, 0.1, 0, 0.2), c(2, 3, 2),
               dimnames = list(NULL, NULL, c("a", "b")))
  lost <- svforest:::competing_years_lost(cif, times)
  expect_equal(dim(lost), c(2L, 2L))
  expect_identical(colnames(lost), c("a", "b"))
  # row 1, cause a: 0.1 on [1, 2), 0.3 on [2, 4)
  expect_equal(unname(lost[1, "a"]), 0.1 * 1 + 0.3 * 2)
  expect_equal(unname(lost[2, "b"]), 0.1 * 1 + 0.1 * 2)
  expect_equal(svforest:::competing_years_lost(cif[, , 1], times, horizon = 3), c(0.1 + 0.3, 0.2 + 0.4))
  expect_equal(svforest:::competing_years_lost(cif[1, , , drop = FALSE], times), lost[1, , drop = FALSE])
})

test_that("out-of-bag results come from the tally: rows without trees are NA, merged tallies add", {
  skip_if_not_installed("survival")
  d <- competing_sample(60, 5)
  event <- factor(c("censored", "relapse", "death")[d$status + 1L], levels = c("censored", "relapse", "death"))
  y <- survival::Surv(d$time, event)
  times <- sort(unique(d$time[d$status > 0]))
  set.seed(6)
  one <- array(runif(60 * length(times) * 2), c(60, length(times), 2))
  one <- aperm(apply(one, c(1, 3), function(v) 0.45 * cumsum(v) / sum(v)), c(2, 1, 3))  # increasing, at most 0.45
  tally <- list(oob_cif_sum = 3 * one, oob_count = rep(c(0L, 3L), c(5, 55)))
  res <- svforest:::competing_oob_results(tally, y, times)
  expect_true(all(is.na(res$oob_predictions[1:5, ])))
  expect_equal(res$oob_predictions[6:60, ], svforest:::competing_years_lost(one, times)[6:60, ],
               ignore_attr = TRUE)
  expect_named(res$oob_concordance, c("relapse", "death"))
  expect_equal(res$oob_error, 1 - unname(res$oob_concordance[1]))
  expect_equal(unname(res$oob_concordance[2]),
               svforest:::oob_wolbers_c(d$time, d$status, res$oob_predictions[, 2], 2))
  expect_true(all(res$oob_ibs > 0 & res$oob_ibs < 1))
  halves <- svforest:::merge_competing_tally(list(oob_cif_sum = one, oob_count = rep(1L, 60)),
                                             list(oob_cif_sum = 2 * one, oob_count = rep(2L, 60)))
  expect_equal(halves, list(oob_cif_sum = 3 * one, oob_count = rep(3L, 60)))
  none <- svforest:::competing_oob_results(list(oob_cif_sum = one, oob_count = integer(60)), y, times)
  expect_identical(none$oob_error, NA_real_)
})

test_that("the engine hands the out-of-bag tally over shaped and named: the model keeps it as it comes (#61)", {
  skip_if_not_installed("survival")
  d <- competing_sample(80, 7)
  event <- factor(c("censored", "relapse", "death")[d$status + 1L], levels = c("censored", "relapse", "death"))
  data <- data.frame(time = d$time, event = event, x1 = rnorm(80), x2 = rnorm(80))
  seen <- new.env()
  quiet <- function(expr) invisible(suppressMessages(utils::capture.output(expr)))
  quiet(trace("engine_fit", exit = bquote(assign("res", returnValue(), envir = .(seen))), where = asNamespace("svforest"),
              print = FALSE))
  on.exit(quiet(untrace("engine_fit", where = asNamespace("svforest"))), add = TRUE)
  fit <- svforest(survival::Surv(time, event) ~ x1 + x2, data = data, ntree = 6, seed = 3, num_threads = 1)
  sums <- seen$res$oob$chf_sum
  # the engine's own array: n x grid x causes, the causes named (no reshaping copy in R)
  expect_identical(dim(sums), c(80L, length(fit$forest$times), 2L))
  expect_identical(dimnames(sums), list(NULL, NULL, c("relapse", "death")))
  expect_identical(fit$oob_cif_sum, sums)
  # a flat n x (grid * causes) tally (no names) is reshaped into the same array
  flat <- matrix(as.vector(sums), nrow = 80L)
  tally <- svforest:::competing_engine_tally(list(chf_sum = flat, count = seen$res$oob$count), fit$oob_y)
  expect_identical(tally$oob_cif_sum, sums)
  # one cause's slice divided in place gives the figures the cause_slice() route gave
  k <- 2L
  cif <- svforest:::cause_slice(sums, k) / fit$oob_count
  cif[fit$oob_count == 0L, ] <- NA_real_
  expect_identical(fit$oob_predictions[, k], svforest:::competing_years_lost(cif, fit$forest$times))
})
