# The training matrix on its way to the engine: no n x p copies or
# temporaries when there is nothing to impute (a million-row fit must not
# hold several copies of its data; bench/scale_bench.R measures the fit).

test_that("column medians for imputation equal stats::median, with and without NA", {
  set.seed(1)
  x <- matrix(round(rnorm(41 * 6), 1), 41, 6)
  x[sample(length(x), 30)] <- NA
  x[, 5] <- NA                       # nothing observed: 0
  x[, 6] <- c(rep(2, 20), rep(3, 21)) # ties, odd count
  x[1, 6] <- NA                      # even count: the mean of the middle two
  expected <- apply(x, 2, function(v) if (all(is.na(v))) 0 else stats::median(v, na.rm = TRUE))
  expect_identical(svforest:::.svf_column_medians(x), expected)
  expect_identical(svforest:::.svf_column_medians(x[0, ]), rep(0, 6))
  expect_identical(svforest:::.svf_column_medians(x[, 0]), numeric())
})

test_that("a matrix without NA reaches the engine without an n x p allocation", {
  skip_if_not(capabilities("profmem"))
  n <- 20000
  p <- 10
  set.seed(2)
  x <- matrix(runif(n * p), n, p, dimnames = list(NULL, paste0("x", 1:p)))
  log <- tempfile()
  utils::Rprofmem(log, threshold = n * p * 4)  # half a copy of the data or more
  design <- svforest:::x_design(x, svforest:::design_inputs(list(na_action = "impute"), n))
  utils::Rprofmem(NULL)
  big <- if (file.exists(log)) grep("^[0-9]+ :", readLines(log), value = TRUE) else character()
  expect_identical(big, character())
  expect_identical(design$x, x)  # the same values and names (here no copy at all)
})

test_that("finite values whose sum overflows a double are accepted, Inf is not", {
  x <- matrix(runif(300), 150, 2, dimnames = list(NULL, c("a", "b")))
  x[, 1] <- ifelse(seq_len(150) %% 2 == 0, 1e308, 9e307)
  y <- factor(rep(c("u", "v"), 75))
  expect_silent(svforest(x, y, method = "rsvt", ntree = 2, seed = 1, num_threads = 1))
  x[7, 2] <- -Inf
  expect_error(svforest(x, y, method = "rsvt", ntree = 2, seed = 1, num_threads = 1), "`b`")
})
