# Fitting through each interface gives valid models; the interfaces agree.

test_that("formula interface fits a valid model on iris", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, ntree = 4, seed = 1, num_threads = 1)
  expect_valid_model(fit, n = 150, p = 4, levels = levels(iris$Species), ntree = 4)
  expect_identical(fit$method, "rsvt")
  expect_identical(fit$design$feature_names, names(iris)[1:4])
  pred <- predict(fit, iris, num_threads = 1)
  expect_valid_prediction(pred, "class", 150, levels(iris$Species), 4)
  expect_gt(accuracy(pred, iris$Species), 0.9)
})

test_that("default ntree of rsvt is 10", {
  fit <- svforest(method = "rsvt", Species ~ ., data = iris, seed = 1, num_threads = 1)
  expect_identical(fit$ntree, 10L)
  expect_length(fit$forest$trees, 10)
  expect_identical(svforest_methods()$default_ntree[svforest_methods()$method == "rsvt"], 10L)
})

test_that("x/y interface accepts a matrix, a data frame and a dgCMatrix", {
  x <- as.matrix(iris[, 1:4])
  y <- iris$Species
  lev <- levels(y)
  fm <- svforest(x, y, ntree = 3, seed = 2, num_threads = 1)
  expect_valid_model(fm, 150, 4, lev, 3)
  expect_identical(fm$design$type, "matrix")
  fd <- svforest(iris[, 1:4], y, ntree = 3, seed = 2, num_threads = 1)
  expect_valid_model(fd, 150, 4, lev, 3)
  expect_identical(fd$design$type, "frame")
  fs <- svforest(Matrix::Matrix(x, sparse = TRUE), y, ntree = 3, seed = 2, num_threads = 1)
  expect_valid_model(fs, 150, 4, lev, 3)
  expect_identical(fs$design$type, "sparse")
  for (f in list(fm, fd, fs)) {
    expect_gt(accuracy(predict(f, x, num_threads = 1), y), 0.9)
  }
  # a matrix and a data frame of the same numbers give the same forest
  expect_identical(fm$forest, fd$forest)
})

test_that("formula and data frame x give identical models and predictions for a seed", {
  d <- mixed_df(200, seed = 3)
  ff <- svforest(y ~ ., data = d, ntree = 5, seed = 11, num_threads = 1)
  fx <- svforest(d[c("a", "f", "ch")], d$y, ntree = 5, seed = 11, num_threads = 1)
  expect_identical(ff$forest, fx$forest)
  for (type in c("class", "prob", "votes", "leaf")) {
    expect_identical(predict(ff, d, type = type, num_threads = 1),
                     predict(fx, d, type = type, num_threads = 1))
  }
})

test_that("factor predictors become one indicator column per level", {
  d <- mixed_df(200, seed = 4)
  fit <- svforest(y ~ a + f, data = d, ntree = 4, seed = 1, num_threads = 1, factor_coding = "indicator")
  expect_identical(fit$design$feature_names, c("a", "fp", "fq", "fr"))
  expect_identical(fit$forest$num_features, 4L)
  # the default for classes: one column of level ranks (test-factor-coding.R)
  expect_identical(svforest(y ~ a + f, data = d, ntree = 2, seed = 1, num_threads = 1)$design$feature_names,
                   c("a", "f"))
  expect_identical(fit$design$xlevels$f, c("p", "q", "r"))
  # predicting with a factor column in newdata works, whatever its level order
  nd <- d[1:20, ]
  nd$f <- factor(as.character(nd$f), levels = c("r", "q", "p"))
  expect_identical(predict(fit, nd, type = "prob", num_threads = 1),
                   predict(fit, d[1:20, ], type = "prob", num_threads = 1))
  # ... or with only some of the levels present
  nd <- droplevels(d[d$f == "q", ][1:5, ])
  expect_identical(predict(fit, nd, num_threads = 1),
                   predict(fit, d[d$f == "q", ][1:5, ], num_threads = 1))
  # the model uses the factor: it beats the numeric predictor alone
  fa <- svforest(y ~ a, data = d, ntree = 4, seed = 1, num_threads = 1)
  test <- mixed_df(1000, seed = 5)
  expect_gt(accuracy(predict(fit, test, num_threads = 1), test$y),
            accuracy(predict(fa, test, num_threads = 1), test$y) + 0.05)
})

test_that("an unseen factor level in newdata is an error naming the column", {
  d <- mixed_df(200, seed = 6)
  fit <- svforest(y ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)
  nd <- d[1:3, ]
  nd$f <- as.character(nd$f)
  nd$f[2] <- "zz"
  expect_error(predict(fit, nd, num_threads = 1), "`f`.*not seen in training.*\"zz\"")
  nd <- d[1:3, ]
  nd$ch[1] <- "new"
  expect_error(predict(fit, nd, num_threads = 1), "`ch`.*\"new\"")
  # a numeric column where a factor was used in training
  nd <- d[1:3, ]
  nd$f <- 1:3
  expect_error(predict(fit, nd, num_threads = 1), "`f`.*factor or character")
})

test_that("character predictor columns work like factors", {
  d <- mixed_df(200, seed = 7)
  expect_type(d$ch, "character")
  fit <- svforest(y ~ ., data = d, ntree = 3, seed = 1, num_threads = 1, factor_coding = "indicator")
  expect_true(all(c("chs", "cht") %in% fit$design$feature_names))
  expect_true("ch" %in% svforest(y ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)$design$feature_names)
  expect_identical(fit$design$xlevels$ch, c("s", "t"))
  d2 <- d
  d2$ch <- factor(d2$ch)
  fit2 <- svforest(y ~ ., data = d2, ntree = 3, seed = 1, num_threads = 1, factor_coding = "indicator")
  expect_identical(fit$forest, fit2$forest)
  expect_identical(svforest(y ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)$forest,
                   svforest(y ~ ., data = d2, ntree = 2, seed = 1, num_threads = 1)$forest)
  # newdata may give the column as character or factor
  expect_identical(predict(fit, d, num_threads = 1), predict(fit, d2, num_threads = 1))
  expect_identical(predict(fit2, d, num_threads = 1), predict(fit2, d2, num_threads = 1))
})

test_that("logical predictors, integer matrices, character and logical outcomes are accepted", {
  d <- mixed_df(150, seed = 8)
  d$lg <- d$a > 0
  fit <- svforest(y ~ a + lg, data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_valid_prediction(predict(fit, d[1:5, ], num_threads = 1), "class", 5, c("no", "yes"), 2)
  # newdata whose logical column holds a single value
  expect_length(predict(fit, d[d$lg, ][1:2, ], num_threads = 1), 2)

  xi <- matrix(rep(1:10, length.out = 300), 150, 2)
  fi <- svforest(xi, d$y, ntree = 2, seed = 1, num_threads = 1)
  expect_valid_model(fi, 150, 2, c("no", "yes"), 2)

  fc <- svforest(d["a"], as.character(d$y), ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fc$levels, c("no", "yes"))
  fl <- svforest(d["a"], d$a > 0.3, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fl$levels, c("FALSE", "TRUE"))
  d$ych <- as.character(d$y)
  ff <- svforest(ych ~ a + f, data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(ff$levels, c("no", "yes"))
})

test_that("formula interactions and `.` with exclusions build the right columns", {
  d <- mixed_df(150, seed = 9)
  f1 <- svforest(y ~ . - ch, data = d, ntree = 2, seed = 1, num_threads = 1, factor_coding = "indicator")
  expect_identical(f1$design$feature_names, c("a", "fp", "fq", "fr"))
  f2 <- svforest(y ~ a * f, data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(f2$design$feature_names, c("a", "fp", "fq", "fr", "a:fp", "a:fq", "a:fr"))
  expect_length(predict(f2, d[1:4, ], num_threads = 1), 4)
})

test_that("formulas with transformed predictors fit and predict", {
  d <- mixed_df(150, seed = 10)
  fit <- svforest(y ~ log(abs(a)) + f, data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(fit$design$feature_names, c("log(abs(a))", "f"))
  expect_length(predict(fit, d[1:3, ], num_threads = 1), 3)
})

test_that("a factor predictor with a single level is kept as a constant column", {
  d <- mixed_df(150, seed = 12)
  d$one <- factor("k")
  fit <- svforest(y ~ ., data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_true("onek" %in% fit$design$feature_names)
  expect_length(predict(fit, d[1:3, ], num_threads = 1), 3)
})

test_that("constant predictors are kept and never split on", {
  d <- mixed_df(200, seed = 13)
  x <- cbind(a = d$a, const = 5, b = d$a^2)
  fit <- svforest(x, d$y, ntree = 4, seed = 1, num_threads = 1)
  expect_identical(fit$forest$num_features, 3L)
  split_vars <- unlist(lapply(fit$forest$trees, tree_split_vars, forest = fit$forest))
  expect_gt(length(split_vars), 0)
  expect_false(any(split_vars == 1L))  # 0-based index of `const`
})

test_that("the bundled segment data is as documented and RSVT fits it", {
  data("segment", package = "svforest", envir = environment())
  expect_identical(dim(segment), c(2310L, 20L))
  expect_s3_class(segment$class, "factor")
  expect_identical(levels(segment$class),
                   c("brickface", "sky", "foliage", "cement", "window", "path", "grass"))
  expect_true(all(table(segment$class) == 330L))
  expect_true(all(vapply(segment[names(segment) != "class"], is.numeric, TRUE)))
  idx <- withr_seed(1, sample(nrow(segment), 1500))
  fit <- svforest(class ~ ., data = segment[idx, ], ntree = 5, seed = 1, num_threads = 2)
  expect_valid_model(fit, 1500, 19, levels(segment$class), 5)
  expect_gt(accuracy(predict(fit, segment[-idx, ], num_threads = 2), segment$class[-idx]), 0.85)
})
