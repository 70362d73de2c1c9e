# Edges a new user hits: missing values at prediction, dates, mtry beyond
# the predictors, ranger's argument names, unsupported outcomes, wide data
# frames.

test_that("missing values in newdata give one warning naming the columns, or an error on request", {
  fit <- svforest(Species ~ ., data = iris, ntree = 10, seed = 1, num_threads = 1)
  nd <- iris[c(101, 51, 1), ]
  nd$Petal.Length[1] <- NA
  nd$Petal.Width[1:2] <- NA
  # one warning per call, whatever the chunk size
  withr::with_options(list(svforest.predict_chunk_rows = 1), {
    w <- character()
    p <- withCallingHandlers(predict(fit, nd, type = "prob", num_threads = 1),
                             warning = function(cnd) {
                               w <<- c(w, conditionMessage(cnd))
                               invokeRestart("muffleWarning")
                             })
  })
  expect_length(w, 1)
  expect_match(w, "`Petal.Length`, `Petal.Width`", fixed = TRUE)
  expect_equal(dim(p), c(3L, 3L))
  # na_action = "fail" makes them an error; complete rows are silent
  expect_error(predict(fit, nd, na_action = "fail"), "Missing values.*`Petal.Length`, `Petal.Width`.*na_action")
  expect_silent(predict(fit, iris[1:5, ], na_action = "fail"))
  expect_silent(predict(fit, iris[1:5, ]))
  # a column the model does not use does not count
  extra <- cbind(iris[1:3, ], unused = NA)
  expect_silent(predict(fit, extra))
  expect_error(predict(fit, nd, na_action = "drop"), "na_action")
  # a model fitted with "fail" cannot impute: it says so
  strict <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, na_action = "fail")
  expect_error(predict(strict, nd, na_action = "impute"), "fitted with na_action = \"fail\"")
  expect_error(predict(strict, nd), "Missing values")
})

test_that("missing values in matrix and sparse newdata are named too", {
  x <- as.matrix(iris[1:4])
  fit <- svforest(x, iris$Species, ntree = 5, seed = 1, num_threads = 1)
  nd <- x[c(1, 51), ]
  nd[2, "Sepal.Width"] <- NA
  expect_warning(predict(fit, nd), "`Sepal.Width`")
  expect_error(predict(fit, nd, na_action = "fail"), "`Sepal.Width`")
  unnamed <- svforest(unname(x), iris$Species, ntree = 5, seed = 1, num_threads = 1)
  expect_warning(predict(unnamed, unname(nd)), "column 2")
  sparse <- svforest(Matrix::Matrix(x, sparse = TRUE), iris$Species, ntree = 5, seed = 1, num_threads = 1)
  expect_warning(predict(sparse, Matrix::Matrix(nd, sparse = TRUE)), "`Sepal.Width`")
})

test_that("Date and POSIXct predictors are used as numbers, the same way at predict time", {
  set.seed(3)
  day <- as.Date("2020-01-01") + sample(0:730, 200, replace = TRUE)
  y <- factor(ifelse(day > as.Date("2021-01-01"), "late", "early"))
  d <- data.frame(y = y, day = day, noise = rnorm(200))
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 1)
  expect_identical(fit$design$dates, c(day = "Date"))
  as_num <- transform(d, day = as.numeric(day))
  ref <- svforest(y ~ ., data = as_num, ntree = 20, seed = 1, num_threads = 1)
  expect_identical(predict(fit, d, type = "prob"), predict(ref, as_num, type = "prob"))
  expect_gt(mean(predict(fit, d) == d$y), 0.95)
  # the date matters: shifting it changes the answer
  shifted <- transform(d, day = day + 800)
  expect_true(all(predict(fit, shifted) == "late"))
  # at predict time the column must again be a Date
  expect_error(predict(fit, as_num), "`day` of `newdata` must be a Date")
  # POSIXct (seconds) through the x interface and the general formula path
  d$when <- as.POSIXct(d$day) + 3600
  fx <- svforest(d[c("when", "noise")], d$y, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(fx$design$dates, c(when = "POSIXct"))
  expect_gt(mean(predict(fx, d) == d$y), 0.9)
  fl <- svforest(y ~ when + log(abs(noise)), data = d, ntree = 5, seed = 1, num_threads = 1)
  expect_gt(mean(predict(fl, d) == d$y), 0.9)
  expect_error(predict(fl, transform(d, when = format(when))), "when")
  r <- readRDS(local({ f <- tempfile(); saveRDS(fit, f); f }))
  expect_identical(predict(r, d, type = "prob"), predict(fit, d, type = "prob"))
  damaged <- fit
  damaged$design$dates <- c(day = "Datum")
  expect_error(predict(damaged, d), "design\\$dates")
})

test_that("mtry and oblique_mtry beyond the predictors are errors naming both numbers", {
  expect_error(svforest(Species ~ ., data = iris, mtry = 5, ntree = 2, seed = 1), "`mtry` is 5, more than the 4 predictor columns")
  expect_error(svforest(Species ~ ., data = iris, oblique_mtry = 9, ntree = 2, seed = 1),
               "`oblique_mtry` is 9, more than the 4")
  fit <- svforest(Species ~ ., data = iris, mtry = 4, oblique_mtry = 4, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$params$mtry, 4L)
})

test_that("ranger's predict() argument names get svforest's equivalent", {
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(fit, data = iris), "`data` is called `newdata`")
  expect_error(predict(fit, iris, num.threads = 1), "`num.threads` is called `num_threads`")
  expect_error(predict(fit, iris, predict.all = TRUE), "type = \"trees\"")
  expect_error(predict(fit, iris, nodes = TRUE), "type = \"leaf\"")
  expect_error(predict(fit, iris, bogus = 1), "Unknown argument `bogus`")
})

test_that("survival outcomes, overflowing weights and outcome spreads are clear user errors", {
  skip_if_not_installed("survival")
  lung <- survival::lung[c("time", "status", "age", "sex")]
  expect_error(svforest(survival::Surv(time, status, type = "left") ~ age + sex, data = lung, ntree = 2),
               "type \"left\"; svforest fits right-censored outcomes, Surv\\(time, status\\), and delayed entry")
  expect_error(svforest(Species ~ ., data = iris, ntree = 2, num_threads = 1, case_weights = c(1e308, rep(1, 149)),
                        class_weights = c(setosa = 10, versicolor = 1, virginica = 1)),
               "overflow or underflow .* for 1 rows")
  y <- c(rep(1.7e308, 9), -1.7e308)
  expect_error(svforest(matrix(1:10), y, ntree = 2, num_threads = 1), "spread exceeds the largest double")
  expect_error(svforest(cbind(a = 1:10), cbind(y, y), ntree = 2), "not a matrix with 2 columns")
})

test_that("a wide numeric data frame takes the plain path: the model of the general one, fast", {
  set.seed(2)
  x <- as.data.frame(matrix(rnorm(60 * 6), 60))
  names(x)[2] <- "my col"
  x$V3[c(4, 9)] <- NA
  y <- factor(ifelse(x$V1 + x$V4 > 0, "a", "b"))
  d <- cbind(y = y, x)
  plain <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  expect_identical(plain$design$columns, names(x))
  general <- svforest(y ~ V1 + `my col` + V3 + V4 + V5 + V6, data = d, ntree = 5, seed = 1, num_threads = 1)
  expect_null(general$design$columns)
  strip <- function(m) {
    m$call <- NULL
    m$design <- NULL
    m
  }
  expect_identical(strip(plain), strip(general))
  expect_identical(plain$design$feature_names, general$design$feature_names)
  expect_identical(plain$design$impute, general$design$impute)
  nd <- d[1:10, ]
  nd$V5[2] <- NA
  expect_identical(suppressWarnings(predict(plain, nd, type = "prob")),
                   suppressWarnings(predict(general, nd, type = "prob")))
  text <- d[1:3, ]
  text$V1 <- as.character(text$V1)
  expect_error(predict(plain, text), "`V1` of `newdata` must be numeric")
  expect_error(predict(plain, d[1:3, -3]), "lacks column `my col`")
  damaged <- plain
  damaged$design$columns <- c(NA, "V1")
  expect_error(predict(damaged, d), "design\\$columns")
  # the x interface takes the same path
  xi <- svforest(x, y, ntree = 5, seed = 1, num_threads = 1)
  no_expression <- function(m) {
    m <- strip(m)
    m$outcome <- NULL  # the formula's outcome (?svforest_model)
    m
  }
  expect_identical(no_expression(xi), no_expression(plain))
  # 5,000 columns: the design costs little next to the matrix fit
  wide <- as.data.frame(matrix(rnorm(20 * 5000), 20))
  yw <- factor(rep(c("a", "b"), 10))
  fw <- svforest(wide, yw, ntree = 10, seed = 1, num_threads = 1)
  t_predict <- system.time(pw <- predict(fw, wide))[["elapsed"]]
  expect_identical(pw, predict(svforest(as.matrix(wide), yw, ntree = 10, seed = 1, num_threads = 1), as.matrix(wide)))
  expect_lt(t_predict, 5)
})
