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
  expect_true(any(grepl("Harrell's C 0\\.[0-9]{4}, integrated Brier score 0\\.[0-9]{4}", out)))
  out <- capture.output(print(summary(fit)))
  expect_true(any(grepl("Harrell's C", out)) && any(grepl("Nelson-Aalen", out)))
})
