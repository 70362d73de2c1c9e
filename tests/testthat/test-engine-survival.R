# The engine's survival forests through their internal R entry
# (R/engine-survival.R).

survival_fit <- svforest:::survival_engine_fit
survival_predict <- svforest:::survival_engine_predict

# Exponential times whose log-hazard is `risk` of the predictors, censored
# independently.
simulate_survival <- function(n, seed, p = 2, risk = function(x) 4 * (x[, 1] + x[, 2]) - 4) {
  set.seed(seed)
  x <- matrix(runif(n * p), n, dimnames = list(NULL, paste0("x", seq_len(p))))
  event <- rexp(n, exp(risk(x)))
  censor <- rexp(n, 0.2)
  list(x = x, time = pmin(event, censor), status = as.integer(event <= censor))
}

harrell_c <- function(d, risk) {
  survival::concordance(survival::Surv(d$time, d$status) ~ risk, reverse = TRUE)$concordance
}

test_that("the out-of-bag concordance finds a linear hazard and none in noise", {
  skip_if_not_installed("survival")
  signal <- simulate_survival(300, 1, p = 5)
  fit <- survival_fit(signal$x, signal$time, signal$status, params = list(ntree = 50L))
  expect_gt(harrell_c(signal, fit$oob_risk), 0.7)
  # the engine's own out-of-bag C is Harrell's C of the same risk
  expect_equal(fit$oob_concordance, harrell_c(signal, fit$oob_risk), tolerance = 1e-8)

  noise <- simulate_survival(300, 2, p = 5, risk = function(x) rep(0, nrow(x)))
  fit <- survival_fit(noise$x, noise$time, noise$status, params = list(ntree = 50L))
  expect_lt(abs(harrell_c(noise, fit$oob_risk) - 0.5), 0.06)
})

test_that("survival curves are in [0, 1] and non-increasing, cumulative hazards non-decreasing", {
  d <- simulate_survival(200, 3)
  fit <- survival_fit(d$x, d$time, d$status, params = list(ntree = 20L))
  times <- c(0, sort(unique(d$time))[c(1, 10, 50, 100)], max(d$time) * 2)
  surv <- survival_predict(fit, d$x[1:30, ], times, type = "survival")
  chf <- survival_predict(fit, d$x[1:30, ], times, type = "chf")
  expect_equal(dim(surv), c(30L, length(times)))
  expect_true(all(surv >= 0 & surv <= 1))
  expect_true(all(surv[, 1] == 1))
  expect_true(all(apply(surv, 1, diff) <= 0))
  expect_true(all(apply(chf, 1, diff) >= 0))
  expect_equal(surv, exp(-chf))
  # risk: the sum of the CHF over the training event times
  expect_equal(survival_predict(fit, d$x[1:30, ], type = "risk"), rowSums(survival_predict(fit, d$x[1:30, ])))
  expect_gt(stats::var(survival_predict(fit, d$x, type = "risk")), 0)
})

test_that("the same seed gives the same forest for 1 and 2 threads, and it survives saveRDS", {
  d <- simulate_survival(200, 4, p = 4)
  one <- survival_fit(d$x, d$time, d$status, params = list(ntree = 12L, seed = 7), num_threads = 1L)
  two <- survival_fit(d$x, d$time, d$status, params = list(ntree = 12L, seed = 7), num_threads = 2L)
  expect_identical(one, two)
  expect_identical(survival_predict(one, d$x, num_threads = 1L), survival_predict(two, d$x, num_threads = 2L))
  other <- survival_fit(d$x, d$time, d$status, params = list(ntree = 12L, seed = 8))
  expect_false(identical(one$trees, other$trees))
  path <- tempfile(fileext = ".rds")
  saveRDS(one, path)
  expect_identical(survival_predict(readRDS(path), d$x), survival_predict(one, d$x))
})

test_that("hyperplanes fitted to martingale scores order a diagonal risk better than axis cuts", {
  skip_if_not_installed("survival")
  gain <- vapply(1:3, function(s) {
    train <- simulate_survival(300, s)
    test <- simulate_survival(500, 100 + s)
    test_c <- function(params) {
      fit <- survival_fit(train$x, train$time, train$status,
                          params = c(list(ntree = 50L, seed = s, min_node_size = 20L), params))
      harrell_c(test, survival_predict(fit, test$x, type = "risk"))
    }
    test_c(list(oblique_choice = "none", tree_choice = "none")) - test_c(list(n_oblique = 0L))
  }, numeric(1))
  expect_true(all(gain > 0))
})

test_that("out-of-bag choices keep fewer hyperplanes than the in-bag log-rank alone", {
  d <- simulate_survival(300, 9, p = 4)
  oblique_share <- function(params) {
    fit <- survival_fit(d$x, d$time, d$status, params = c(list(ntree = 20L), params))
    kinds <- unlist(lapply(fit$trees, svforest:::tree_split_kinds))
    mean(kinds[!is.na(kinds)] == "oblique")
  }
  free <- oblique_share(list(oblique_choice = "none", tree_choice = "none"))
  by_node <- oblique_share(list(tree_choice = "none"))
  # the tree choice between the node-chosen structure and rivals grown on
  # the same sample: a fully oblique one adds hyperplanes, an axis-only one
  # removes them, and with both (the default) each tree is one of the three
  against_oblique <- oblique_share(list(tree_rival = "oblique"))
  against_axis <- oblique_share(list(tree_rival = "axis"))
  against_both <- oblique_share(list())
  expect_gt(by_node, 0)
  expect_lt(by_node, free)
  expect_gt(against_oblique, by_node)
  expect_lte(against_oblique, free)
  expect_lt(against_axis, by_node)
  expect_gt(against_both, against_axis)
  expect_lt(against_both, against_oblique)
  expect_equal(oblique_share(list(n_oblique = 0L)), 0)
  expect_error(survival_fit(d$x, d$time, d$status, params = list(tree_rival = "diagonal")), "tree_rival")
})

test_that("an axis cut is the one of largest log-rank statistic (survdiff's chi-square)", {
  skip_if_not_installed("survival")
  for (seed in 1:3) {
    d <- simulate_survival(150, seed, p = 1, risk = function(x) 3 * sin(6 * x[, 1]))
    d$time <- round(d$time, 1) + 0.1  # tied times
    d$status[order(d$time)[1:5]] <- 0L  # rows censored before any event: never at risk at an event time
    fit <- survival_fit(d$x, d$time, d$status,
                        params = list(ntree = 1L, n_oblique = 0L, max_depth = 1L, sampler = "subsample",
                                      sample_fraction = 1, oblique_choice = "none", tree_choice = "none"))
    values <- sort(unique(d$x[, 1]))
    cuts <- (utils::head(values, -1) + utils::tail(values, -1)) / 2
    chisq <- vapply(cuts, function(cut) {
      survival::survdiff(survival::Surv(d$time, d$status) ~ I(d$x[, 1] < cut))$chisq
    }, 0)
    expect_equal(fit$trees[[1]]$split_real, cuts[which.max(chisq)])
  }
})

test_that("min_leaf_size keeps log-rank cuts from isolating a few early deaths", {
  set.seed(7)
  x <- matrix(runif(100), 100, 1)
  time <- rexp(100, 0.1) + 1
  status <- rbinom(100, 1, 0.8)
  top <- order(x[, 1], decreasing = TRUE)[1:2]
  time[top] <- c(0.01, 0.02)  # the two largest x die first
  status[top] <- 1L
  smaller_side <- function(min_leaf_size) {
    fit <- survival_fit(x, time, status,
                        params = list(ntree = 1L, n_oblique = 0L, max_depth = 1L, sampler = "subsample",
                                      sample_fraction = 1, min_leaf_size = min_leaf_size, oblique_choice = "none",
                                      tree_choice = "none"))
    cut <- fit$trees[[1]]$split_real
    min(sum(x[, 1] < cut), sum(x[, 1] > cut))
  }
  expect_equal(smaller_side(1L), 2L)
  expect_gte(smaller_side(10L), 10L)
  expect_error(survival_fit(x, time, status, params = list(min_leaf_size = -1)), "min_leaf_size")
})

test_that("a one-leaf tree holds the Nelson-Aalen estimate of its rows", {
  skip_if_not_installed("survival")
  d <- simulate_survival(80, 5)
  d$time <- round(d$time, 1) + 0.1  # tied times
  fit <- survival_fit(d$x, d$time, d$status,
                      params = list(ntree = 1L, min_node_size = 1000L, sampler = "subsample", sample_fraction = 1))
  reference <- survival::survfit(survival::Surv(d$time, d$status) ~ 1, ctype = 1)
  at <- c(fit$times, max(d$time) + 1)
  expected <- summary(reference, times = at, extend = TRUE)$cumhaz
  # (the leaf's hazards lie on a grid of 2^-32, below 1e-9 from the estimate)
  chf <- as.vector(survival_predict(fit, d$x[1, , drop = FALSE], at))
  expect_equal(chf, expected, tolerance = 1e-9)
  expect_identical(chf * 2^32, round(chf * 2^32))
  # the same leaf for every row
  expect_equal(length(unique(survival_predict(fit, d$x, type = "risk"))), 1L)

  # case weights reweight the draw (ranger's case.weights), rows are not
  # repeated: a subsample of every row holds each row once, whatever the weights
  w <- rep(c(1, 2, 3), length.out = 80)
  weighted <- survival_fit(d$x, d$time, d$status, weights = w,
                           params = list(ntree = 1L, min_node_size = 1000L, sampler = "subsample", sample_fraction = 1))
  expect_equal(as.vector(survival_predict(weighted, d$x[1, , drop = FALSE], at)), expected, tolerance = 1e-9)
  # half of the rows, drawn by weight: rows of weight 3 are drawn more often than rows of weight 1
  drawn <- vapply(1:40, function(s) {
    half <- survival_fit(d$x, d$time, d$status, weights = w,
                         params = list(ntree = 1L, seed = s, min_node_size = 1000L, sampler = "subsample",
                                       sample_fraction = 0.5))
    tapply(!is.na(half$oob_risk), w, mean)  # out of bag by weight
  }, numeric(3))
  expect_gt(mean(drawn["1", ]), mean(drawn["3", ]) + 0.2)
})

test_that("bad survival input gets a clear error", {
  d <- simulate_survival(50, 6)
  expect_error(survival_fit(d$x, -d$time, d$status), "'time' must hold positive finite numbers")
  expect_error(survival_fit(d$x, d$time, d$status + 1L), "'status' must be 0/1 or logical")
  expect_error(survival_fit(d$x, d$time, rep(0L, 50)), "at least one event")
  expect_error(survival_fit(d$x[-1, ], d$time, d$status), "one row per time")
  expect_error(survival_fit(d$x, d$time, d$status, weights = rep(-1, 50)), "'weights' must be positive")
  expect_error(survival_fit(d$x, d$time, d$status, params = list(ntre = 5L)), "unknown survival engine parameter")
  expect_error(survival_fit(d$x, d$time, d$status, params = list(sampler = "all")), "out-of-bag rows are needed")
  fit <- survival_fit(d$x, d$time, as.logical(d$status), params = list(ntree = 2L))
  expect_error(survival_predict(fit, d$x[, 1, drop = FALSE]), "must have 2 columns")
  expect_error(survival_predict(fit, d$x, times = NA), "'times' must hold finite numbers")
  damaged <- fit
  damaged$trees[[1]]$leaf_real <- -damaged$trees[[1]]$leaf_real
  expect_error(survival_predict(damaged, d$x), "damaged")
})

test_that("the survival leaf is registered but no user's choice for other outcomes", {
  expect_true("nelson_aalen" %in% names(svforest:::svf_registry$parts$leaf))
  expect_false("nelson_aalen" %in% svforest:::part_names("leaf"))
  expect_error(svforest(Species ~ ., data = iris, leaf = "nelson_aalen", ntree = 2, num_threads = 1),
               "must be one of")
})

test_that("svforest() takes the survival defaults where the user gives none, and the user's values where given", {
  skip_if_not_installed("survival")
  d <- simulate_survival(120, 9)
  data <- data.frame(d$x, time = d$time, status = d$status)
  fit <- svforest(survival::Surv(time, status) ~ ., data = data, ntree = 3, seed = 1, num_threads = 1)
  expect_equal(fit$params[c("min_node_size", "sampler", "sample_fraction")],
               list(min_node_size = 20L, sampler = "subsample", sample_fraction = 0.632))
  # the family's forest is the engine's with the same parameters
  engine <- survival_fit(d$x, d$time, d$status, params = list(ntree = 3L, seed = 1))
  expect_identical(fit$forest$trees, engine$trees)
  mine <- svforest(survival::Surv(time, status) ~ ., data = data, ntree = 3, seed = 1, num_threads = 1,
                   sampler = "bootstrap", min_node_size = 5)
  expect_equal(mine$params[c("min_node_size", "sampler", "sample_fraction")],
               list(min_node_size = 5L, sampler = "bootstrap", sample_fraction = 1))
  expect_false(identical(mine$forest$trees, fit$forest$trees))
})

test_that("a node needs min_node_events events to split (default: the square root of the training events)", {
  set.seed(3)
  n <- 2000
  x <- matrix(rnorm(n * 3), n, 3)
  event <- rexp(n, 0.05 * exp(x[, 1]))
  censor <- runif(n, 0, 3)
  time <- pmin(event, censor)
  status <- as.integer(event <= censor)  # rare events
  expect_lt(mean(status), 0.2)
  expect_identical(survival_min_node_events(status), as.integer(ceiling(sqrt(sum(status)))))
  leaves <- function(...) {
    fit <- survival_fit(x, time, status, params = list(ntree = 3L, ...))
    sum(vapply(fit$trees, tree_n_leaves, 0L))
  }
  fewer <- leaves()
  expect_lt(fewer, leaves(min_node_events = 0L))
  expect_identical(fewer, leaves(min_node_events = survival_min_node_events(status)))
  # more events than the sample holds: every tree is one leaf
  expect_identical(leaves(min_node_events = sum(status) + 1L), 3L)
  expect_error(survival_fit(x, time, status, params = list(min_node_events = -1)), "min_node_events")
})

test_that("above 1,024 events a survival forest's nodes need 32 (E / 1024)^(1/8) events, competing risks' the square root", {
  expect_identical(survival_min_node_events(rep(1L, 1024), knee = 1024), 32L)
  expect_identical(survival_min_node_events(rep(1L, 1025), knee = 1024), 33L)  # 32.0004: continuous at the knee
  expect_identical(survival_min_node_events(rep(1L, 11339), knee = 1024), 44L)  # 43.2
  expect_identical(survival_min_node_events(rep(1L, 114000), knee = 1024), 58L)  # 57.7
  expect_identical(survival_min_node_events(rep(1L, 114000)), 338L)
  expect_identical(survival_min_node_events(rep(1L, 11339)), 107L)
  skip_if_not_installed("survival")
  set.seed(4)
  n <- 1600
  d <- data.frame(a = rnorm(n), b = rnorm(n))
  d$time <- rexp(n, exp(d$a))
  d$status <- rep(c(1L, 1L, 1L, 0L), length.out = n)  # 1,200 events: 32 (1200 / 1024)^(1/8) is 32.6, sqrt 34.6
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., data = d, ntree = 2, seed = 1, num_threads = 1, ...)
  risk <- function(f) predict(f, d[1:50, ], type = "risk")
  expect_identical(risk(fit()), risk(fit(min_node_events = 33L)))
  expect_false(identical(risk(fit()), risk(fit(min_node_events = 35L))))
  d$status <- factor(rep(c("one", "two", "one", "censored"), length.out = n), c("censored", "one", "two"))
  cif <- function(f) predict(f, d[1:50, ], type = "cif")
  expect_identical(cif(fit()), cif(fit(min_node_events = 35L)))
})

test_that("above 1,024 events a survival forest draws ceiling(sqrt(p)) predictors, at or below floor(sqrt(p))", {
  expect_identical(survival_mtry(rep(1L, 1025), 20L, knee = 1024), 5L)
  expect_identical(survival_mtry(rep(1L, 1024), 20L, knee = 1024), NA_integer_)
  expect_identical(survival_mtry(c(rep(1L, 1025), rep(0L, 500)), 25L, knee = 1024), 5L)
  skip_if_not_installed("survival")
  set.seed(5)
  n <- 1500
  d <- as.data.frame(matrix(rnorm(n * 10), n))
  d$time <- rexp(n, exp(d$V1))
  d$status <- rep(c(1L, 1L, 1L, 0L), length.out = n)  # 1,125 events: mtry 4 (floor(sqrt(10)) is 3)
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., data = d, ntree = 2, seed = 1, num_threads = 1, ...)
  risk <- function(f) predict(f, d[1:50, ], type = "risk")
  expect_identical(risk(fit()), risk(fit(mtry = 4L)))
  expect_false(identical(risk(fit()), risk(fit(mtry = 3L))))
  d$status <- factor(rep(c("one", "two", "one", "censored"), length.out = n), c("censored", "one", "two"))
  cif <- function(f) predict(f, d[1:50, ], type = "cif")
  expect_identical(cif(fit()), cif(fit(mtry = 3L)))  # competing risks: floor(sqrt(p)) at any count
})

test_that("the engine's Harrell's C counts pairs as Harrell defined them, ties in risk and time included", {
  skip_if_not_installed("survival")
  # pairs whose earlier time (strictly earlier) is an event; tied risks count 1/2
  pairwise <- function(time, status, risk) {
    num <- den <- 0
    for (i in which(status == 1L)) {
      later <- time > time[i]
      num <- num + sum(risk[i] > risk[later]) + 0.5 * sum(risk[i] == risk[later])
      den <- den + sum(later)
    }
    num / den
  }
  set.seed(11)
  n <- 150
  time <- round(rexp(n, 0.2), 1)  # ties in time
  status <- rbinom(n, 1, 0.7)
  risk <- round(rnorm(n), 1)      # ties in risk
  expect_identical(svforest:::harrell_concordance(time, status, risk), pairwise(time, status, risk))
  risk[c(3, 9)] <- NA  # rows without a risk are left out
  keep <- !is.na(risk)
  expect_identical(svforest:::harrell_concordance(time, status, risk),
                   pairwise(time[keep], status[keep], risk[keep]))
  # without tied times, survival::concordance() counts the same pairs
  time <- rexp(n, 0.2)
  risk <- round(rnorm(n), 1)
  expect_equal(svforest:::harrell_concordance(time, status, risk),
               survival::concordance(survival::Surv(time, status) ~ risk, reverse = TRUE)$concordance,
               tolerance = 1e-12)
  expect_true(is.na(svforest:::harrell_concordance(c(1, 2), c(0L, 0L), c(1, 2))))  # no comparable pair
})

# Six weak signal predictors among 20: single trees order risks poorly and
# more trees help.
wide_survival_frame <- function(n, seed) {
  set.seed(seed)
  x <- matrix(rnorm(n * 20), n, dimnames = list(NULL, paste0("x", 1:20)))
  event <- rexp(n, exp(0.6 * rowSums(x[, 1:6])))
  censor <- rexp(n, 0.3)
  data.frame(x, time = pmin(event, censor), status = as.integer(event <= censor))
}

test_that("a survival forest grows by out-of-bag error (1 - Harrell's C) up to ntree_max, the same for any threads", {
  skip_if_not_installed("survival")
  d <- wide_survival_frame(800, 1)
  grown <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 8, ntree_max = 500, seed = 1, num_threads = 1)
  expect_gt(length(grown$forest$trees), 8)
  expect_lte(length(grown$forest$trees), 500)
  expect_identical(grown$ntree, length(grown$forest$trees))
  two <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 8, ntree_max = 500, seed = 1, num_threads = 2)
  expect_identical(length(two$forest$trees), length(grown$forest$trees))
  expect_identical(predict(two, d[1:40, ], type = "chf"), predict(grown, d[1:40, ], type = "chf"))
  # without ntree_max: exactly ntree
  exact <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 8, seed = 1, num_threads = 1)
  expect_identical(length(exact$forest$trees), 8L)
  # the forest's first 8 trees are those of the exact forest
  expect_identical(grown$forest$trees[1:8], exact$forest$trees)
  # svforest_future() reads the same rule on its parts' merged tallies
  skip_if_not_installed("future.apply")
  old_plan <- future::plan(future::sequential)
  on.exit(future::plan(old_plan), add = TRUE)
  far <- svforest_future(survival::Surv(time, status) ~ ., data = d, ntree = 8, ntree_max = 500, seed = 1,
                         chunks = 3)
  expect_identical(far$forest$trees, grown$forest$trees)
})

test_that("an ID-like factor is coded per tree from in-bag martingale scores: out-of-bag C stays honest", {
  skip_if_not_installed("survival")
  sim <- function(n) {
    x <- matrix(rnorm(n * 2), n, dimnames = list(NULL, c("x1", "x2")))
    event <- rexp(n, exp(0.9 * x[, 1] - 0.7 * x[, 2]))
    censor <- runif(n, 0, 3)
    id <- factor(sample.int(400, n, TRUE), levels = seq_len(400))
    data.frame(x, id = id, time = pmin(event, censor), status = as.integer(event <= censor))
  }
  set.seed(21)
  train <- sim(600)
  test <- sim(600)
  fit <- svforest(survival::Surv(time, status) ~ ., data = train, ntree = 40, seed = 3, num_threads = 1)
  # the factor enters as level codes that each tree reads through its own values
  expect_true(all(vapply(fit$forest$trees, function(t) length(t$factor_int) == 2L, TRUE)))
  risk <- predict(fit, test, type = "risk")
  test_c <- survival::concordance(survival::Surv(test$time, test$status) ~ risk, reverse = TRUE)$concordance
  expect_lt(abs(fit$oob_concordance - test_c), 0.04)
  expect_gt(test_c, 0.65)
})

test_that("importance = \"permutation\" at fit time ranks the true predictor first (out-of-bag concordance)", {
  skip_if_not_installed("survival")
  set.seed(5)
  n <- 300
  d <- data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n), noise = runif(n))
  event <- rexp(n, exp(1.2 * d$a + 0.3 * d$b))
  censor <- rexp(n, 0.3)
  d$time <- pmin(event, censor)
  d$status <- as.integer(event <= censor)
  fit <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 20, seed = 2, num_threads = 1,
                  importance = "permutation")
  imp <- fit$variable_importance
  expect_identical(attr(imp, "type"), "permutation")
  expect_identical(names(imp), c("a", "b", "c", "noise"))
  expect_identical(names(which.max(imp)), "a")
  expect_gt(imp[["a"]], 0.05)
  expect_lt(abs(imp[["noise"]]), 0.02)
  two <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 20, seed = 2, num_threads = 2,
                  importance = "permutation")
  expect_identical(two$variable_importance, imp)
})
