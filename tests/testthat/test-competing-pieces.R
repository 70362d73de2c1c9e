# The competing-risks pieces of the engine (src/core/outcome/competing/),
# through the test hooks: the Aalen-Johansen curves against survival's (and
# cmprsk's), the cause-specific log-rank statistics against survdiff, the
# scan's best cut against every cut, and the hyperplane target.
skip_if_not_installed("survival")
Surv <- survival::Surv

cr_data <- function(n = 120, seed = 1, ties = TRUE) {
  set.seed(seed)
  x <- rnorm(n)
  t1 <- rexp(n, exp(0.8 * x))
  t2 <- rexp(n, 0.6)
  c0 <- rexp(n, 0.4)
  time <- pmin(t1, t2, c0)
  if (ties) time <- ceiling(time * 8) / 8  # many ties, across causes and with censoring
  cause <- ifelse(c0 < pmin(t1, t2), 0L, ifelse(t1 <= t2, 1L, 2L))
  list(x = x, time = time, cause = cause, w = runif(n, 0.5, 2))
}

# The grid (event times of any cause) and each row's 0-based index on it.
grid_of <- function(d) {
  grid <- sort(unique(d$time[d$cause > 0]))
  list(grid = grid, index = findInterval(d$time, grid) - 1L)
}

curves <- function(d, weights = numeric()) {
  g <- grid_of(d)
  c(svforest:::.svf_competing_curves(g$index, d$cause, weights, 2L, length(g$grid)), list(grid = g$grid))
}

test_that("one group's Aalen-Johansen CIFs equal survfit's pstate, with ties, censoring and weights", {
  d <- cr_data()
  ev <- factor(d$cause, levels = 0:2, labels = c("censored", "a", "b"))
  for (w in list(NULL, d$w)) {
    cv <- curves(d, if (is.null(w)) numeric() else w)
    sf <- if (is.null(w)) survival::survfit(Surv(d$time, ev) ~ 1) else survival::survfit(Surv(d$time, ev) ~ 1, weights = w)
    at <- match(cv$grid[cv$at], sf$time)
    expect_false(anyNA(at))
    expect_equal(cv$cif, unname(sf$pstate[at, 2:3]), tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(cv$survival, unname(sf$pstate[at, 1]), tolerance = 1e-8)
    # cause-specific Nelson-Aalen: survfit's cumulative hazard of 0 -> k
    expect_equal(cv$chf, unname(sf$cumhaz[at, 1:2]), tolerance = 1e-8, ignore_attr = TRUE)
    # stored only where something changes: every grid time has an event here
    expect_identical(cv$at, seq_along(cv$grid))
    expect_true(all(abs(rowSums(cv$cif) + cv$survival - 1) < 1e-10))
    expect_true(all(diff(cv$cif[, 1]) >= 0) && all(diff(cv$cif[, 2]) >= 0))
  }
  if (requireNamespace("cmprsk", quietly = TRUE)) {
    cv <- curves(d)
    ci <- cmprsk::timepoints(cmprsk::cuminc(d$time, d$cause, cencode = 0), cv$grid)$est
    expect_equal(unname(t(ci)), cv$cif, tolerance = 1e-8, ignore_attr = TRUE)
  }
})

test_that("a node's curves change only at its own event times; lookups step between them", {
  d <- cr_data(n = 80, seed = 3)
  g <- grid_of(d)
  keep <- d$x > 0.3  # a node: its rows on the forest's grid
  sub <- lapply(d, `[`, keep)
  cv <- svforest:::.svf_competing_curves(g$index[keep], sub$cause, numeric(), 2L, length(g$grid))
  own <- which(g$grid %in% sub$time[sub$cause > 0])
  expect_identical(cv$at, own)
  expect_lt(length(cv$at), length(g$grid))
  step <- c(0, cv$cif[, 1])[findInterval(seq_along(g$grid), cv$at) + 1L]
  expect_equal(cv$cif1_on_grid, step)
  expect_true(all(abs(rowSums(cv$cif) + cv$survival - 1) < 1e-10))
})

test_that("the cause-specific log-rank statistics equal survdiff's, and the composite is their sum", {
  d <- cr_data(n = 150, seed = 2)
  g <- grid_of(d)
  left <- d$x > 0
  lr <- svforest:::.svf_competing_logrank(g$index, d$cause, left, 2L, length(g$grid))
  for (k in 1:2) {
    ref <- survival::survdiff(Surv(d$time, d$cause == k) ~ left)$chisq
    expect_equal(lr$per_cause[k], ref, tolerance = 1e-8)
  }
  expect_equal(lr$composite, sum(lr$per_cause))
  none <- svforest:::.svf_competing_logrank(g$index, d$cause, rep(TRUE, 150), 2L, length(g$grid))
  expect_identical(none$composite, 0)
})

test_that("the scan's best cut is the best of every cut by the composite statistic", {
  d <- cr_data(n = 90, seed = 4)
  g <- grid_of(d)
  v <- round(d$x, 1)  # ties in the values too
  best <- svforest:::.svf_competing_best_cut(v, g$index, d$cause, 2L, length(g$grid), 5L)
  u <- sort(unique(v))
  cuts <- (u[-1] + u[-length(u)]) / 2
  stat <- vapply(cuts, function(cut) {
    l <- v < cut
    if (sum(l) < 5 || sum(!l) < 5) return(-Inf)
    svforest:::.svf_competing_logrank(g$index, d$cause, l, 2L, length(g$grid))$composite
  }, 0)
  expect_identical(best[1], 1)
  expect_equal(best[3], max(stat), tolerance = 1e-10)
  expect_equal(best[2], cuts[which.max(stat)])
})

test_that("the hyperplane target is the weighted cause-specific martingale residuals", {
  d <- cr_data(n = 100, seed = 5)
  g <- grid_of(d)
  w <- c(1, 0.5)
  target <- svforest:::.svf_competing_target(g$index, d$cause, w, 2L, length(g$grid))
  ev <- factor(d$cause, levels = 0:2, labels = c("censored", "a", "b"))
  sf <- survival::survfit(Surv(d$time, ev) ~ 1)
  H <- function(k) stats::stepfun(sf$time, c(0, sf$cumhaz[, k]))(d$time)
  expect_equal(target, w[1] * ((d$cause == 1) - H(1)) + w[2] * ((d$cause == 2) - H(2)), tolerance = 1e-10)
  # cause 1 alone orders rows by their cause-1 risk: rows with large x rank higher
  t1 <- svforest:::.svf_competing_target(g$index, d$cause, c(1, 0), 2L, length(g$grid))
  expect_gt(stats::cor(t1, d$x, method = "spearman"), 0.1)
  expect_error(svforest:::.svf_competing_target(g$index, d$cause, 1, 2L, length(g$grid)), "bad arguments")
  expect_error(svforest:::.svf_competing_curves(g$index, d$cause + 1L, numeric(), 2L, length(g$grid)), "bad row")
})
