# A damaged contrast or terms of a model's design is an error naming it
# (R/check-design.R), not predictions from other columns or other codes.

set.seed(39)
n <- 120
dd <- data.frame(a = rnorm(n), b = rnorm(n), g = factor(sample(letters[1:4], n, TRUE)))
dd$y <- factor(ifelse(dd$a + (dd$g %in% c("a", "b")) + rnorm(n, sd = 0.3) > 0.5, "p", "q"))
fit_g <- svforest(y ~ a + b + g, data = dd, ntree = 10, seed = 1, num_threads = 1)
pred_g <- predict(fit_g, dd, num_threads = 1)
is_code_contrast_of <- function(fit, v) svforest:::is_code_contrast(fit$design$contrasts[[v]])

test_that("NA or infinite contrast codes are an error naming the factor", {
  for (bad in c(NA, Inf, -Inf)) {
    m <- fit_g
    m$design$contrasts$g[2, 1] <- bad
    expect_error(predict(m, dd, num_threads = 1), "'design\\$contrasts' of factor `g` holds NA or infinite",
                 info = bad)
  }
  m <- fit_g
  m$design$contrasts$g <- m$design$contrasts$g[-1, , drop = FALSE]
  expect_error(predict(m, dd, num_threads = 1), "one row per level")
  m <- fit_g
  names(m$design$contrasts) <- "h"
  expect_error(predict(m, dd, num_threads = 1), "factor `h` has no levels")
  # indicator contrasts (the paper presets' coding) are checked too
  ind <- svforest(y ~ a + g, data = dd, method = "rsvt", ntree = 3, seed = 2, num_threads = 1)
  ind$design$contrasts$g[3, 3] <- NaN
  expect_error(predict(ind, dd, num_threads = 1), "factor `g` holds NA or infinite")
})

test_that("the damage changes predictions when it is not caught", {
  # the reason for the checks: these models predict other classes
  m <- fit_g
  m$design$terms <- stats::delete.response(stats::terms(y ~ b + a + g))
  expect_error(predict(m, dd, num_threads = 1), "'design\\$terms' does not match 'design\\$predictors'")
  # the engine input built from the damaged terms: other columns in other places
  x_ok <- svforest:::new_engine_data(fit_g, dd)$x
  x_damaged <- svforest:::new_engine_data(m, dd)$x
  expect_identical(dim(x_damaged), dim(x_ok))
  expect_false(isTRUE(all.equal(unname(x_damaged), unname(x_ok))))
  m <- fit_g
  m$design$contrasts$g[2, 1] <- NA
  expect_true(anyNA(svforest:::new_engine_data(m, dd)$x))
})

test_that("terms reordered or of another formula are an error naming the terms", {
  m <- fit_g
  m$design$terms <- stats::delete.response(stats::terms(y ~ a + g + b))
  expect_error(predict(m, dd, num_threads = 1), "'design\\$terms' does not match")
  m <- fit_g
  attr(m$design$terms, "term.labels") <- rev(attr(m$design$terms, "term.labels"))
  expect_error(predict(m, dd, num_threads = 1), "'design\\$terms' is damaged \\(its term labels")
  # terms permuted consistently (labels and columns): the design columns' origins disagree
  m <- fit_g
  tt <- m$design$terms
  attr(tt, "factors") <- attr(tt, "factors")[, c(2, 1, 3)]
  attr(tt, "term.labels") <- attr(tt, "term.labels")[c(2, 1, 3)]
  m$design$terms <- tt
  expect_error(predict(m, dd, num_threads = 1), "'design\\$terms' does not match 'design\\$origin'")
  # a plain numeric data frame: the terms name the columns
  plain <- svforest(y ~ ., data = dd[c("a", "b", "y")], ntree = 3, seed = 3, num_threads = 1)
  expect_false(is.null(plain$design$columns))
  plain$design$terms <- stats::delete.response(stats::terms(y ~ b + a))
  expect_error(predict(plain, dd, num_threads = 1), "'design\\$terms' does not match 'design\\$feature_names'")
})

test_that("undamaged fits of every design path still predict", {
  dm <- dd
  dm$a[3] <- NA
  dm$`g g` <- dm$g
  x_num <- as.matrix(dd[c("a", "b")])
  fits <- list(
    formula_factor = fit_g,
    interaction = svforest(y ~ a * g + log(abs(b) + 1), data = dd, ntree = 3, seed = 4, num_threads = 1),
    odd_name = svforest(y ~ a + `g g`, data = dm[-3, ], ntree = 3, seed = 5, num_threads = 1),
    plain_frame = svforest(y ~ ., data = dd[c("a", "b", "y")], ntree = 3, seed = 6, num_threads = 1),
    matrix = svforest(x_num, dd$y, ntree = 3, seed = 7, num_threads = 1),
    xy_frame = svforest(dd[c("a", "b", "g")], dd$y, ntree = 3, seed = 8, num_threads = 1),
    xy_plain = svforest(dd[c("a", "b")], dd$a + dd$b, ntree = 3, seed = 9, num_threads = 1),
    impute = svforest(y ~ a + b + g, data = dm, na_action = "impute", ntree = 3, seed = 10, num_threads = 1),
    impute_xy = svforest(dm[c("a", "g")], dm$y, na_action = "impute", ntree = 3, seed = 11, num_threads = 1),
    order = svforest(y ~ ., data = dd, factor_coding = "order", ntree = 3, seed = 12, num_threads = 1),
    auto = svforest(dd[c("a", "g")], dd$a, factor_coding = "auto", ntree = 3, seed = 13, num_threads = 1),
    indicator = svforest(y ~ ., data = dd, factor_coding = "indicator", ntree = 3, seed = 14, num_threads = 1)
  )
  full <- dm
  full$a <- dd$a
  for (what in names(fits)) {
    p <- predict(fits[[what]], if (what == "matrix") x_num else full, num_threads = 1)
    expect_length(p, n)
  }
  expect_true(is_code_contrast_of(fits$order, "g"))
  expect_false(is_code_contrast_of(fits$indicator, "g"))
})

test_that("a wide model's light terms (no factors matrix) are still checked by their variables", {
  set.seed(40)
  wide <- as.data.frame(matrix(rnorm(30 * 101), 30))
  wide$g <- factor(rep(c("u", "v", "w"), 10))
  fit <- svforest(wide, factor(rep(c("s", "t"), 15)), ntree = 2, seed = 15, num_threads = 1)
  expect_null(attr(fit$design$terms, "factors"))
  expect_length(predict(fit, wide[1, ], num_threads = 1), 1)
  m <- fit
  m$design$terms <- stats::terms(stats::reformulate(rev(names(wide))))
  expect_error(predict(m, wide, num_threads = 1), "'design\\$terms' does not match 'design\\$predictors'")
})
