# The quantile forest's training leaves recorded by the engine as the trees
# grow (src/training_leaves.h, Forest.cpp) against every training row routed
# through the finished trees, as predict(type = "leaf") routes them.

# A fit whose engine result is kept: list(fit, recorded = the engine's
# training_leaves, NULL when it routed none).
fit_recording <- function(x, y, ...) {
  recorded <- NULL
  grow <- function(...) {
    res <- svforest:::engine_fit(...)
    recorded <<- res$training_leaves
    res
  }
  fit <- svforest(x, y, num_threads = 1, .grow_forest = grow, ...)
  list(fit = fit, recorded = recorded)
}

routed_quantile_forest <- function(fit, x) {
  design <- svforest:::new_engine_data(fit, x)
  svforest:::pack_quantile_forest(svforest:::forest_leaves(fit$forest, design, 1L), fit$conformal$quantile_forest$y)
}

leaves_data <- function(n, seed) {
  withr_seed(seed, {
    x <- data.frame(a = stats::runif(n, -1, 1), b = stats::runif(n, -1, 1), c = stats::rnorm(n),
                    f = factor(sample(c("p", "q", "r", "s"), n, TRUE)))
    list(x = x, y = x$a * (x$b > 0) + (x$f %in% c("p", "r")) + stats::rnorm(n, sd = 0.3))
  })
}

test_that("the recorded training leaves are the leaves predict() routes the rows to", {
  d <- leaves_data(700, 1)
  num <- as.matrix(d$x[, 1:3])
  holes <- num
  holes[withr_seed(2, sample(length(holes), 150))] <- NA
  fits <- list(
    default = fit_recording(num, d$y, ntree = 6, seed = 1),
    exact = fit_recording(num, d$y, ntree = 6, seed = 2, max_bins = Inf),
    factors = fit_recording(d$x, d$y, ntree = 6, seed = 3),
    missing = suppressWarnings(fit_recording(holes, d$y, ntree = 6, seed = 4)),
    weights = fit_recording(num, d$y, ntree = 6, seed = 5, case_weights = withr_seed(3, stats::runif(700, 0.1, 2))),
    every_row = fit_recording(num[1:300, ], d$y[1:300], method = "rsvt", ntree = 4, seed = 6)
  )
  xs <- list(default = num, exact = num, factors = d$x, missing = holes, weights = num, every_row = num[1:300, ])
  for (nm in names(fits)) {
    f <- fits[[nm]]
    expect_false(is.null(f$recorded), label = paste(nm, "recorded"))
    expect_identical(f$fit$conformal$quantile_forest, suppressWarnings(routed_quantile_forest(f$fit, xs[[nm]])),
                     label = nm)
  }
  # the recorder's own form: two bytes per row and tree
  expect_identical(length(fits$default$recorded), 2L * 700L * 6L)
})

test_that("rows that may sit in two leaves, and sparse rows, are routed instead", {
  d <- leaves_data(400, 4)
  num <- as.matrix(d$x[, 1:3])
  band <- fit_recording(num, d$y, method = "rsvf", delta_tau = 0.2, ntree = 4, seed = 1)
  expect_null(band$recorded)
  expect_identical(band$fit$conformal$quantile_forest, routed_quantile_forest(band$fit, num))
  sparse <- Matrix::Matrix(num * (num > 0), sparse = TRUE)
  thin <- fit_recording(sparse, d$y, ntree = 4, seed = 2)
  expect_null(thin$recorded)
})

test_that("a recorded quantile forest of the wrong size is not used", {
  d <- leaves_data(200, 5)
  num <- as.matrix(d$x[, 1:3])
  fit <- svforest(num, d$y, ntree = 3, seed = 1, num_threads = 1)
  want <- fit$conformal$quantile_forest
  short <- raw(2 * 200 * 2)  # two trees' columns for a forest of three
  expect_identical(svforest:::quantile_forest(fit$forest, num, d$y, 1L, short), want)
})
