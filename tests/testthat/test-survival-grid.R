# The curve grid of survival and competing-risks forests (`ntime`, issue
# #61): leaves, out-of-bag tallies and default predictions on at most
# `ntime` event times, exact at each; splits on the rows' exact times.

grid_data <- function(n = 600, seed = 11) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n, dimnames = list(NULL, paste0("x", 1:4)))
  event <- rexp(n, exp(x[, 1] - 0.5 * x[, 2]))
  censor <- rexp(n, 0.4)
  data.frame(x, time = pmin(event, censor), status = as.integer(event <= censor))
}

test_that("ntime bounds the curve grid; the trees' splits and the predictions at grid times are ntime = Inf's", {
  skip_if_not_installed("survival")
  d <- grid_data()
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., d, ntree = 10, seed = 1, num_threads = 1, ...)
  all <- fit(ntime = Inf)
  grid <- fit(ntime = 40)
  events <- sort(unique(d$time[d$status == 1]))
  expect_identical(all$forest$times, events)
  expect_lte(length(grid$forest$times), 40)
  expect_gte(length(grid$forest$times), 30)
  expect_true(all(grid$forest$times %in% events))
  expect_identical(max(grid$forest$times), max(events))
  expect_identical(fit()$params$ntime, 150)
  # the same splits: the leaves of every row agree
  expect_identical(predict(all, d, type = "leaf"), predict(grid, d, type = "leaf"))
  # each curve at a grid time is the exact one (the leaf's hazard summed to that time)
  at <- grid$forest$times
  expect_identical(predict(grid, d[1:50, ], type = "chf"), predict(all, d[1:50, ], type = "chf", times = at))
  expect_identical(as.vector(predict(grid, d[1:50, ], type = "chf", times = c(0.1, 1, 2))),
                   as.vector(predict(all, d[1:50, ], type = "chf", times = at[findInterval(c(0.1, 1, 2), at)])))
  # the out-of-bag tally lives on the grid; risk (the CHF summed over it) orders rows as ntime = Inf's
  expect_identical(dim(grid$oob_chf_sum), c(nrow(d), length(at)))
  expect_gt(stats::cor(grid$oob_predictions, all$oob_predictions, method = "spearman", use = "complete.obs"), 0.99)
  expect_lt(abs(grid$oob_concordance - all$oob_concordance), 0.01)
  expect_lt(abs(grid$oob_ibs - all$oob_ibs), 0.01)
  expect_equal(predict(grid, d[1:5, ], type = "risk"), rowSums(predict(grid, d[1:5, ], type = "chf")))
})

test_that("ntime: clear errors for bad values; Inf allowed; same forest for any thread count; saveRDS round trip", {
  skip_if_not_installed("survival")
  d <- grid_data(300, 12)
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., d, ntree = 6, seed = 2, ...)
  for (bad in list(1, 0, 2.5, NA, NA_real_, -Inf, "10", c(10, 20), NaN))
    expect_error(fit(num_threads = 1, ntime = bad), "`ntime` must be a whole number of at least 2 or `Inf`")
  one <- fit(num_threads = 1, ntime = 20)
  two <- fit(num_threads = 2, ntime = 20)
  expect_identical(one$forest, two$forest)
  expect_identical(one$oob_predictions, two$oob_predictions)
  expect_lte(length(one$forest$times), 20)
  file <- tempfile(fileext = ".rds")
  saveRDS(one, file)
  back <- readRDS(file)
  expect_identical(predict(back, d[1:20, ]), predict(one, d[1:20, ]))
  expect_identical(predict(back, type = "risk"), predict(one, type = "risk"))
  expect_error(svforest(Species ~ ., iris, ntree = 2, ntime = 10), "ntime")
})

test_that("competing risks on the grid: exact CIFs at grid times, the same leaves, a bounded tally", {
  skip_if_not_installed("survival")
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "protime")])
  pbc$status <- factor(pbc$status, 0:2, c("censored", "transplant", "death"))
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., pbc, ntree = 10, seed = 3, num_threads = 1, ...)
  all <- fit(ntime = Inf)
  grid <- fit(ntime = 25)
  at <- grid$forest$times
  expect_lte(length(at), 25)
  expect_identical(predict(all, pbc, type = "leaf"), predict(grid, pbc, type = "leaf"))
  expect_identical(predict(grid, pbc[1:30, ], type = "cif"), predict(all, pbc[1:30, ], type = "cif", times = at))
  expect_identical(dim(grid$oob_cif_sum), c(nrow(pbc), length(at), 2L))
  expect_lt(max(abs(grid$oob_concordance - all$oob_concordance)), 0.02)
  one <- svforest(survival::Surv(time, status) ~ ., pbc, ntree = 6, seed = 3, num_threads = 1, ntime = 25)
  two <- svforest(survival::Surv(time, status) ~ ., pbc, ntree = 6, seed = 3, num_threads = 2, ntime = 25)
  expect_identical(one$forest, two$forest)
  file <- tempfile(fileext = ".rds")
  saveRDS(one, file)
  expect_identical(predict(readRDS(file), pbc[1:10, ], type = "cif"), predict(one, pbc[1:10, ], type = "cif"))
})

test_that("a saved survival or competing-risks model grows linearly with rows", {
  skip_if_not_installed("survival")
  size <- function(n, competing = FALSE) {
    set.seed(n)
    x <- matrix(rnorm(n * 3), n, dimnames = list(NULL, c("a", "b", "c")))
    time <- rexp(n, exp(x[, 1]))
    status <- sample(0:2, n, TRUE, prob = c(0.2, 0.4, 0.4))
    d <- data.frame(x, time = time)
    if (competing) d$status <- factor(status, 0:2, c("censored", "one", "two")) else d$status <- as.integer(status > 0)
    f <- svforest(survival::Surv(time, status) ~ ., d, ntree = 5, seed = 1, num_threads = 1, min_node_size = 40)
    file <- tempfile()
    saveRDS(f, file, compress = FALSE)
    file.size(file)
  }
  expect_lt(size(2000) / size(1000), 2.2)
  expect_lt(size(2000, TRUE) / size(1000, TRUE), 2.2)
})

test_that("the internal survival entry takes ntime too", {
  skip_if_not_installed("survival")
  d <- grid_data(300, 13)
  x <- as.matrix(d[, 1:4])
  all <- svforest:::survival_engine_fit(x, d$time, d$status, params = list(ntree = 5L, ntime = Inf))
  grid <- svforest:::survival_engine_fit(x, d$time, d$status, params = list(ntree = 5L, ntime = 30))
  expect_identical(all$times, sort(unique(d$time[d$status == 1])))
  expect_lte(length(grid$times), 30)
  expect_identical(svforest:::survival_engine_predict(grid, x[1:10, ]),
                   svforest:::survival_engine_predict(all, x[1:10, ], times = grid$times))
  expect_error(svforest:::survival_engine_fit(x, d$time, d$status, params = list(ntime = 1.5)), "ntime")
})

test_that("ntime is tunable: a dials object and the censored regression engine's argument", {
  skip_if_not_installed("dials")
  p <- svf_ntime()
  expect_s3_class(p, "quant_param")
  expect_identical(unname(unlist(p$range)), c(20L, 500L))
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not("censored regression" %in% parsnip::get_model_env()$rand_forest_modes,
              "parsnip has no censored regression mode")
  spec <- parsnip::set_engine(parsnip::rand_forest(mode = "censored regression"), "svforest")
  expect_true("ntime" %in% tune::tunable(spec)$name)
})
