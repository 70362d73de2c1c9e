# Missing predictor values: na_action = "impute" (the default) fills them in
# with training medians (numeric), a "(missing)" level or the training mode
# (factors), and adds a 0/1 indicator per column that had NA in training.

# Sets a share `rate` of the predictor values of a data frame or matrix to NA
# (missing completely at random), seeded.
inject_mcar <- function(x, rate, seed) {
  withr_seed(seed, {
    if (is.data.frame(x)) {
      for (v in names(x)) x[[v]][stats::runif(nrow(x)) < rate] <- NA
    } else {
      x[stats::runif(length(x)) < rate] <- NA
    }
    x
  })
}

iris_split <- function() {
  test_rows <- seq(3, 150, by = 3)
  list(train = iris[-test_rows, ], test = iris[test_rows, ])
}

for (m in all_methods()) {
  test_that(paste(m, "- fits and predicts with 10% and 30% MCAR missing predictors, well above chance"), {
    s <- iris_split()
    for (rate in c(0.1, 0.3)) {
      tr <- s$train
      te <- s$test
      tr[1:4] <- inject_mcar(tr[1:4], rate, seed = 10)
      te[1:4] <- inject_mcar(te[1:4], rate, seed = 11)
      expect_true(anyNA(tr) && anyNA(te))
      fit <- fit_method(m, Species ~ ., data = tr)
      pred <- predict(fit, te, num_threads = 1)
      expect_false(anyNA(pred))
      expect_length(pred, nrow(te))
      prob <- predict(fit, te, type = "prob", num_threads = 1)
      expect_false(anyNA(prob))
      # chance is 1/3
      expect_gt(accuracy(pred, te$Species), 0.6, label = paste(m, rate, "accuracy"))
      # every predictor had NA: one indicator each
      expect_true(all(paste0(names(iris)[1:4], "_missing") %in% fit$design$feature_names))
      # the matrix interface too
      fm <- fit_method(m, as.matrix(tr[1:4]), y = tr$Species)
      pm <- predict(fm, as.matrix(te[1:4]), num_threads = 1)
      expect_false(anyNA(pm))
      expect_gt(accuracy(pm, te$Species), 0.6, label = paste(m, rate, "matrix accuracy"))
    }
  })

  test_that(paste(m, "- missingness that carries signal is learnt through the indicator"), {
    n <- 300
    d <- withr_seed(3, {
      d <- data.frame(x1 = stats::runif(n), x2 = stats::runif(n), x3 = stats::runif(n))
      gone <- stats::runif(n) < 0.5
      d$x1[gone] <- NA
      d$y <- factor(ifelse(gone, "gone", "here"))
      d
    })
    train <- d[1:200, ]
    test <- d[201:300, ]
    fit <- fit_method(m, y ~ ., data = train)
    expect_true("x1_missing" %in% fit$design$feature_names)
    acc <- accuracy(predict(fit, test, num_threads = 1), test$y)
    expect_gt(acc, 0.9)
    # without the indicator (missing x1 replaced by random observed values)
    # the predictors hold no information on y
    blind <- withr_seed(4, {
      b <- d
      miss <- is.na(b$x1)
      b$x1[miss] <- sample(b$x1[!miss], sum(miss), replace = TRUE)
      b
    })
    fit_blind <- fit_method(m, y ~ ., data = blind[1:200, ])
    acc_blind <- accuracy(predict(fit_blind, blind[201:300, ], num_threads = 1), blind$y[201:300])
    expect_lt(acc_blind, 0.75)
    expect_gt(acc, acc_blind + 0.15)
  })

  test_that(paste(m, "- rows with every predictor missing are fitted and predicted"), {
    s <- iris_split()
    tr <- s$train
    tr[c(1, 40, 80), 1:4] <- NA
    fit <- fit_method(m, Species ~ ., data = tr)
    te <- s$test[1:3, ]
    te[2, 1:4] <- NA
    pred <- predict(fit, te, type = "prob", num_threads = 1)
    expect_false(anyNA(pred))
    expect_equal(unname(rowSums(pred)), rep(1, 3))
    # alone or with other rows: the same prediction
    x_all_na <- predict(fit, te[2, ], type = "prob", num_threads = 1)
    expect_identical(x_all_na, pred[2, , drop = FALSE])
    fm <- fit_method(m, as.matrix(tr[1:4]), y = tr$Species)
    all_na <- matrix(NA_real_, 2, 4, dimnames = list(NULL, names(iris)[1:4]))
    expect_false(anyNA(predict(fm, all_na, num_threads = 1)))
  })
}

test_that("NA in factor, character and logical predictors", {
  d <- mixed_df(150)
  d$l <- d$a > 0
  d$f[c(2, 5, 9)] <- NA
  d$ch[c(3, 7)] <- NA
  d$l[c(4, 8)] <- NA
  fit <- svforest(y ~ ., data = d, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  expect_identical(fit$design$xlevels$f, c("p", "q", "r", "(missing)"))
  expect_identical(fit$design$xlevels$ch, c("s", "t", "(missing)"))
  expect_true(all(c("f(missing)", "ch(missing)", "l_missing") %in% fit$design$feature_names))
  expect_false("a_missing" %in% fit$design$feature_names)
  nd <- d[1:20, ]
  expect_false(anyNA(predict(fit, nd, num_threads = 1)))
  # the "(missing)" level is the same as NA
  lvl <- nd
  lvl$f <- as.character(lvl$f)
  lvl$f[is.na(lvl$f)] <- "(missing)"
  expect_identical(predict(fit, lvl, type = "prob", num_threads = 1), predict(fit, nd, type = "prob", num_threads = 1))

  # a factor without NA in training: NA at predict time is its most frequent level
  d0 <- mixed_df(150)
  fit0 <- svforest(y ~ ., data = d0, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  mode_f <- names(which.max(table(d0$f)))
  mode_ch <- names(which.max(table(d0$ch)))
  nd <- d0[1:10, ]
  nd$f[c(1, 4)] <- NA
  nd$ch[2] <- NA
  filled <- nd
  filled$f[c(1, 4)] <- mode_f
  filled$ch[2] <- mode_ch
  expect_identical(predict(fit0, nd, type = "prob", num_threads = 1),
                   predict(fit0, filled, type = "prob", num_threads = 1))
  expect_false(any(grepl("missing", fit0$design$feature_names)))
})

test_that("NA only at predict time: the training medians, no indicators", {
  x <- as.matrix(iris[1:4])
  med <- apply(x, 2, stats::median)
  nd <- x[c(1, 60, 120), ]
  nd[1, 2] <- NA
  nd[2, c(1, 4)] <- NA
  nd[3, ] <- NA
  filled <- nd
  filled[is.na(nd)] <- med[col(nd)[is.na(nd)]]
  sx <- Matrix::Matrix(x, sparse = TRUE)
  fits <- list(
    frame = svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1),
    matrix = svforest(x, iris$Species, ntree = 3, seed = 1, num_threads = 1),
    sparse = svforest(sx, iris$Species, ntree = 3, seed = 1, num_threads = 1)
  )
  for (kind in names(fits)) {
    fit <- fits[[kind]]
    expect_identical(fit$design$feature_names, colnames(x), info = kind)
    as_kind <- function(m) switch(kind, frame = as.data.frame(m), matrix = m, sparse = Matrix::Matrix(m, sparse = TRUE))
    got <- predict(fit, as_kind(nd), type = "prob", num_threads = 1)
    expect_false(anyNA(got))
    expect_identical(got, predict(fit, as_kind(filled), type = "prob", num_threads = 1), info = kind)
  }
  # sparse NA stored in the x slot of newdata, dense model
  snd <- Matrix::Matrix(x[1:5, ], sparse = TRUE)
  snd@x[2] <- NA
  expect_false(anyNA(predict(fits$matrix, snd, num_threads = 1)))
})

test_that("sparse input: NA in the x slot, medians over the observed values with the zeros", {
  x <- as.matrix(iris[1:4])
  x[x < 2] <- 0
  xna <- inject_mcar(x, 0.2, seed = 5)
  s <- Matrix::Matrix(xna, sparse = TRUE)
  expect_true(anyNA(s@x))
  expect_equal(svforest:::sparse_column_medians(s), unname(apply(xna, 2, stats::median, na.rm = TRUE)))
  fs <- svforest(s, iris$Species, ntree = 3, seed = 1, num_threads = 1)
  fd <- svforest(xna, iris$Species, ntree = 3, seed = 1, num_threads = 1)
  expect_equal(fs$design$impute$values, fd$design$impute$values)
  expect_identical(fs$design$feature_names, fd$design$feature_names)
  ps <- predict(fs, s, num_threads = 1)
  expect_false(anyNA(ps))
  expect_gt(accuracy(ps, iris$Species), 0.8)
  expect_identical(predict(fs, s, type = "prob", num_threads = 1), predict(fs, xna, type = "prob", num_threads = 1))
  # a column with every value missing is imputed with 0
  xa <- x
  xa[, 3] <- NA
  fa <- svforest(xa, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fa$design$impute$values[3], 0)
  expect_false(anyNA(predict(fa, xa, num_threads = 1)))
})

test_that("unnamed matrices: indicators appended, columns matched by position", {
  x <- unname(as.matrix(iris[1:4]))
  x[c(2, 30), 3] <- NA
  fit <- svforest(x, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$forest$num_features, 5L)
  expect_false(anyNA(predict(fit, x, num_threads = 1)))
  expect_error(predict(fit, cbind(x, 1), num_threads = 1), "has 5 columns, the model was fitted on 4")
})

test_that("a model survives saveRDS with NA data and gives identical predictions", {
  s <- iris_split()
  tr <- s$train
  tr[1:4] <- inject_mcar(tr[1:4], 0.2, seed = 1)
  te <- s$test
  te[1:4] <- inject_mcar(te[1:4], 0.2, seed = 2)
  for (m in all_methods()) {
    fit <- fit_method(m, Species ~ ., data = tr)
    path <- tempfile(fileext = ".rds")
    saveRDS(fit, path)
    back <- readRDS(path)
    unlink(path)
    expect_identical(predict(back, te, type = "prob", num_threads = 1),
                     predict(fit, te, type = "prob", num_threads = 1), info = m)
  }
})

# the same model with 1 and 2 threads on NA data, every method: test-contract-matrix.R

test_that("regression with missing predictors", {
  n <- 240
  d <- withr_seed(9, {
    x <- matrix(stats::runif(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
    y <- 3 * x[, 1] + 2 * x[, 2] - x[, 3] + stats::rnorm(n, sd = 0.1)
    list(x = x, y = y)
  })
  xna <- inject_mcar(d$x, 0.1, seed = 9)
  tr <- 1:160
  te <- 161:240
  for (m in c("rsvt", "rsvf", "tdsvm")) {
    fit <- fit_method(m, xna[tr, ], y = d$y[tr])
    expect_identical(fit$type, "regression")
    p <- predict(fit, xna[te, ], num_threads = 1)
    expect_false(anyNA(p))
    # far better than the mean
    expect_lt(mean((p - d$y[te])^2), 0.5 * mean((mean(d$y[tr]) - d$y[te])^2), label = m)
    df <- data.frame(xna, y = d$y)
    ff <- fit_method(m, y ~ ., data = df[tr, ])
    expect_false(anyNA(predict(ff, df[te, ], num_threads = 1)))
  }
})

test_that("tdsvm validation data goes through the same imputation", {
  s <- iris_split()
  tr <- s$train
  tr[1:4] <- inject_mcar(tr[1:4], 0.2, seed = 3)
  va <- s$test
  va[1:4] <- inject_mcar(va[1:4], 0.2, seed = 4)
  fit <- svforest(Species ~ ., data = tr, method = "tdsvm", validation = va, cost = 1, gamma = 1,
                  sigma0 = 20, seed = 1, num_threads = 1)
  expect_false(anyNA(predict(fit, va, num_threads = 1)))
  xm <- as.matrix(tr[1:4])
  fm <- svforest(xm, tr$Species, method = "tdsvm", validation = list(x = as.matrix(va[1:4]), y = va$Species),
                 cost = 1, gamma = 1, sigma0 = 20, seed = 1, num_threads = 1)
  expect_false(anyNA(predict(fm, as.matrix(va[1:4]), num_threads = 1)))
})

test_that("na_action: \"fail\" keeps the error, bad values are errors, Inf and NA outcomes stay errors", {
  d <- iris
  d$Petal.Length[3] <- NA
  expect_error(svforest(Species ~ ., data = d, na_action = "fail", ntree = 2, num_threads = 1),
               "Missing values.*`Petal.Length`")
  x <- as.matrix(d[1:4])
  expect_error(svforest(x, d$Species, na_action = "fail", ntree = 2, num_threads = 1),
               "missing or infinite values in `Petal.Length`")
  for (bad in list("omit", NA, 1, c("fail", "impute"), TRUE)) {
    expect_error(svforest(x, d$Species, na_action = bad, ntree = 2, num_threads = 1), "`na_action` must be one of")
  }
  # a "fail" model does not impute at predict time either
  fit <- svforest(Species ~ ., data = iris, na_action = "fail", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$design$na_action, NULL)
  expect_error(predict(fit, d, num_threads = 1), "Missing values.*`Petal.Length`")
  # Inf is an error with imputation too
  di <- iris
  di$Sepal.Width[2] <- Inf
  expect_error(svforest(Species ~ ., data = di, ntree = 2, num_threads = 1), "Infinite values.*`Sepal.Width`")
  xi <- as.matrix(di[1:4])
  expect_error(svforest(xi, di$Species, ntree = 2, num_threads = 1), "missing or infinite values in `Sepal.Width`")
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(fit, di, num_threads = 1), "Infinite values.*`Sepal.Width`")
  # NA in the outcome
  y <- iris$Species
  y[4] <- NA
  expect_error(svforest(as.matrix(iris[1:4]), y, ntree = 2, num_threads = 1), "`y` has 1 missing value")
  # na_action is not a method parameter and is not partially matched
  expect_error(svforest(as.matrix(iris[1:4]), iris$Species, na_act = "fail", ntree = 2, num_threads = 1))
})

test_that("models without the imputation fields (older models) still predict, without imputing", {
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  fm <- svforest(as.matrix(iris[1:4]), iris$Species, ntree = 2, seed = 1, num_threads = 1)
  for (f in list(fit, fm)) {
    old <- f
    old$design[c("na_action", "impute", "input_names", "input_ncol")] <- NULL
    nd <- if (identical(f$design$type, "frame")) iris else as.matrix(iris[1:4])
    expect_identical(predict(old, nd, type = "prob", num_threads = 1), predict(f, nd, type = "prob", num_threads = 1))
    nd[3, 2] <- NA
    expect_error(predict(old, nd, num_threads = 1), "(Missing|missing)")
  }
})

test_that("rows of case weight 0 do not count for the imputation: the model is the one without them", {
  d <- iris
  d[1:4] <- inject_mcar(d[1:4], 0.2, seed = 12)
  w <- rep(1, 150)
  w[c(2, 20:30, 77)] <- 0
  d$Sepal.Length[c(2, 20)] <- 100  # would move nothing but the medians were they counted
  d$Petal.Width[77] <- NA
  x <- as.matrix(d[1:4])
  for (m in c("rsvt", "psvm")) {
    a <- fit_method(m, Species ~ ., data = d, case_weights = w)
    b <- fit_method(m, Species ~ ., data = d[w > 0, ])
    expect_identical(a$design$impute, b$design$impute)
    expect_identical(a$forest, b$forest)
    am <- fit_method(m, x, y = d$Species, case_weights = w)
    bm <- fit_method(m, x[w > 0, ], y = d$Species[w > 0])
    expect_identical(am$design, bm$design)
    expect_identical(am$forest, bm$forest)
  }
})

test_that("a damaged imputation in a model is an error, not odd predictions", {
  x <- inject_mcar(as.matrix(iris[1:4]), 0.1, seed = 2)
  fm <- svforest(x, iris$Species, ntree = 2, seed = 1, num_threads = 1)
  ff <- svforest(Species ~ ., data = data.frame(x, Species = iris$Species), ntree = 2, seed = 1, num_threads = 1)
  damage <- list(
    function(f) { f$design$impute$values <- "a"; f },
    function(f) { f$design$impute$values <- NULL; f },
    function(f) { f$design$impute <- 1; f },
    function(f) { f$design$na_action <- "maybe"; f },
    function(f) { f$design$impute$indicator_names <- NA_character_; f }
  )
  for (f in list(fm, ff)) {
    for (k in seq_along(damage)) {
      expect_error(predict(damage[[k]](f), x, num_threads = 1), "not a usable svforest model", info = k)
    }
  }
  bad <- fm
  bad$design$impute$indicators <- 7L
  expect_error(predict(bad, x, num_threads = 1), "design\\$impute")
  bad <- fm
  bad$design$input_ncol <- 3
  expect_error(predict(bad, x, num_threads = 1), "design\\$impute")
})

test_that("permutation importance: an indicator column is permuted with its predictor", {
  d <- xor_linear(200, p = 4, seed = 8)
  x <- inject_mcar(d$x, 0.2, seed = 8)
  fit <- svforest(x, d$y, method = "rsvt", ntree = 3, seed = 1, num_threads = 1, importance = "permutation")
  expect_true("x1_missing" %in% fit$design$feature_names)
  expect_setequal(names(fit$variable_importance), colnames(x))
})

test_that("parts of a forest grown on NA data combine into the forest grown in one go", {
  d <- iris
  d[1:4] <- inject_mcar(d[1:4], 0.2, seed = 13)
  whole <- svforest(Species ~ ., data = d, ntree = 5, seed = 4, num_threads = 1)
  a <- svforest(Species ~ ., data = d, ntree = 2, seed = 4, num_threads = 1)
  b <- svforest(Species ~ ., data = d, ntree = 3, first_tree = 2, seed = 4, num_threads = 1)
  both <- combine(a, b)
  expect_identical(both$forest, whole$forest)
  expect_identical(predict(both, d, type = "prob", num_threads = 1), predict(whole, d, type = "prob", num_threads = 1))
})

test_that("correlated numeric predictors fill each other in (conditional means), stored for predict()", {
  set.seed(31)
  n <- 400
  z <- rnorm(n)
  x <- cbind(a = z + rnorm(n, sd = 0.1), b = 2 * z + rnorm(n, sd = 0.1), c = rnorm(n))
  y <- factor(ifelse(z > 0, "p", "q"))
  xm <- x
  xm[sample(n, 100), "a"] <- NA
  for (input in list(xm, as.data.frame(xm))) {
    fit <- svforest(input, y, ntree = 2, seed = 1, num_threads = 1)
    joint <- fit$design$impute$joint
    expect_false(is.null(joint))
    # a row with `a` missing and b = 2: the conditional mean of a is near 1,
    # where the median (near 0) would be
    probe <- input[1:2, ]
    probe[, "a"] <- NA
    probe[, "b"] <- c(2, -2)
    filled <- if (is.data.frame(probe)) svforest:::frame_na_apply(probe, fit$design$impute)$mf$a
              else svforest:::joint_fill(as.matrix(probe), joint)[, "a"]
    expect_equal(unname(filled), c(1, -1), tolerance = 0.1)
    # predictions follow: rows with a missing and b telling the class
    expect_identical(as.character(predict(fit, probe)), c("p", "q"))
  }
  bad <- svforest(xm, y, ntree = 2, seed = 1, num_threads = 1)
  bad$design$impute$joint$cov <- bad$design$impute$joint$cov[1:2, 1:2]
  expect_error(predict(bad, xm), "'design\\$impute' is damaged")
})
