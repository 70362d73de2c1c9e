# Bad-input catalogue: every user-facing function, every method of
# svforest_methods(), every input container. Each case is a clear R error
# naming the argument or column, or a documented behaviour (?svforest,
# ?predict.svforest) checked here. `case()` counts the cases tried.

catalogue <- new.env()
catalogue$n <- 0L
case <- function(code) {
  catalogue$n <- catalogue$n + 1L
  code
}

x <- as.matrix(iris[, 1:4])
y <- iris$Species
sx <- Matrix::Matrix(x, sparse = TRUE)
lev <- levels(y)

# The four ways to give training data, each as a function of (x, y, ...).
containers <- list(
  formula = function(m, x, y, ...) {
    d <- as.data.frame(x)
    d$.y <- y
    fit_method(m, .y ~ ., data = d, ...)
  },
  data.frame = function(m, x, y, ...) fit_method(m, as.data.frame(x), y = y, ...),
  matrix = function(m, x, y, ...) fit_method(m, as.matrix(x), y = y, ...),
  dgCMatrix = function(m, x, y, ...) fit_method(m, Matrix::Matrix(as.matrix(x), sparse = TRUE), y = y, ...)
)

for (m in all_methods()) {

  # --- svforest(): predictor values --------------------------------------------

  test_that(paste(m, "- missing (with na_action = \"fail\") and infinite predictor values are errors naming the column"), {
    for (bad in list(NA, NaN, Inf, -Inf)) {
      xb <- x
      xb[7, "Petal.Length"] <- bad
      for (cont in names(containers)) {
        case(expect_error(containers[[cont]](m, xb, y, na_action = "fail"),
                          "(Missing|missing|Infinite|infinite).*`Petal.Length`", info = paste(cont, bad)))
        # the default imputes missing values, infinite ones stay errors
        if (is.infinite(bad)) {
          case(expect_error(containers[[cont]](m, xb, y), "(Infinite|infinite).*`Petal.Length`",
                            info = paste(cont, bad)))
        } else {
          case(expect_s3_class(containers[[cont]](m, xb, y), "svforest"))
        }
      }
    }
    xu <- unname(x)
    xu[3, 2] <- NaN
    case(expect_error(fit_method(m, xu, y = y, na_action = "fail"), "missing or infinite values in column 2"))
    case(expect_error(fit_method(m, Matrix::Matrix(xu, sparse = TRUE), y = y, na_action = "fail"),
                      "missing or infinite values in column 2"))
    d <- mixed_df(60)
    d$f[3] <- NA
    case(expect_error(fit_method(m, y ~ ., data = d, na_action = "fail"), "Missing values.*`f`"))
    d <- mixed_df(60)
    d$ch[5] <- NA
    case(expect_error(fit_method(m, d[c("a", "f", "ch")], y = d$y, na_action = "fail"), "Missing values.*`ch`"))
  })

  # --- svforest(): outcome --------------------------------------------------------

  test_that(paste(m, "- bad outcomes are errors naming `y`"), {
    yna <- y
    yna[5] <- NA
    for (cont in names(containers)) {
      case(expect_error(containers[[cont]](m, x, yna), "`y` has 1 missing value", info = cont))
      case(expect_error(containers[[cont]](m, x, factor(rep("a", 150))), "at least two classes.*only \"a\"",
                        info = cont))
    }
    case(expect_error(fit_method(m, x, y = factor(rep("a", 150), levels = c("a", "b"))),
                      "at least two classes.*only \"a\""))
    case(expect_error(fit_method(m, x, y = factor(rep(NA, 150), levels = "a")), "`y` has 150 missing"))
    case(expect_error(fit_method(m, x, y = addNA(factor(c(rep("a", 149), NA)))), "level that is NA"))
    # a numeric outcome is regression: a fit, or a clear error for classification-only methods
    if (is.null(svforest:::svf_method(m)$regression)) {
      case(expect_error(fit_method(m, x, y = as.numeric(y)), "is for classification only"))
      case(expect_error(fit_method(m, Sepal.Length ~ ., data = iris), "is for classification only"))
    } else {
      case(expect_identical(fit_method(m, x, y = as.numeric(y))$type, "regression"))
      case(expect_identical(fit_method(m, Sepal.Length ~ ., data = iris)$type, "regression"))
    }
    case(expect_error(fit_method(m, x, y = as.list(y)), "`y` must be a factor"))
    case(expect_error(fit_method(m, x, y = iris["Species"]), "`y` must be a factor"))
    case(expect_error(fit_method(m, x, y = y[-1]), "`y` has 149 values.*150 rows"))
    # character and logical outcomes become factors
    case(expect_identical(fit_method(m, x, y = as.character(y))$levels, lev))
    case(expect_identical(fit_method(m, x, y = x[, 1] > 5.8)$levels, c("FALSE", "TRUE")))
  })

  test_that(paste(m, "- an empty outcome level warns and is never predicted (documented)"), {
    ye <- factor(as.character(y), levels = c(lev[1:2], "none", lev[3]))
    for (cont in names(containers)) {
      case({
        expect_warning(fit <- containers[[cont]](m, x, ye), "Level \"none\" of `y` has no rows")
        expect_identical(fit$levels, levels(ye))
        newx <- if (cont %in% c("formula", "data.frame")) as.data.frame(x) else x
        prob <- predict(fit, newx, type = "prob", num_threads = 1)
        expect_true(all(prob[, "none"] == 0))
        expect_false(any(predict(fit, newx, num_threads = 1) == "none"))
      })
    }
  })

  # --- svforest(): shape ------------------------------------------------------------

  test_that(paste(m, "- zero rows and zero predictors are errors"), {
    for (cont in names(containers)) {
      case(expect_error(containers[[cont]](m, x[0, ], y[0]), "no rows", info = cont))
    }
    case(expect_error(fit_method(m, x[, 0], y = y), "no predictor columns"))
    case(expect_error(fit_method(m, sx[, 0], y = y), "no predictor columns"))
    case(expect_error(fit_method(m, iris[, 0], y = y), "`x` has no columns"))
    case(expect_error(fit_method(m, Species ~ 1, data = iris), "`formula` has no predictors"))
    case(expect_error(fit_method(m, Species ~ ., data = iris["Species"]), "`formula` has no predictors"))
    case(expect_error(fit_method(m, Species ~ ., data = iris[0]), "`data` has no columns"))
    case(expect_error(fit_method(m, ~ Sepal.Length, data = iris), "needs an outcome"))
    case(expect_error(fit_method(m, x[1, , drop = FALSE], y = y[1]), "at least two classes"))
  })

  test_that(paste(m, "- one predictor and two rows fit and predict"), {
    for (cont in names(containers)) {
      case({
        fit <- containers[[cont]](m, x[, "Petal.Length", drop = FALSE], y)
        newx <- if (cont %in% c("formula", "data.frame")) iris["Petal.Length"] else x[, "Petal.Length", drop = FALSE]
        pred <- predict(fit, newx, num_threads = 1)
        expect_valid_prediction(pred, "class", 150, lev, fit$ntree)
        if (identical(fit$params$splitter, "transform")) {
          # documented: transformation splits need two predictors, so every tree is one leaf
          expect_true(all(n_leaves(fit) == 1))
          expect_length(unique(pred), 1)
        } else {
          expect_gt(accuracy(pred, y), 0.8)  # petal length alone separates iris well
        }
      })
    }
    two <- c(1, 51)
    if (identical(m, "tdsvm")) {
      # documented: the search's stratified hold-out of one row per class is empty
      case(expect_error(fit_method(m, x[two, ], y = droplevels(y[two])),
                        "holds out no row of these 2 rows.*give `validation`"))
      case(expect_error(fit_method(m, x[two, ], y = droplevels(y[two]), validation_fraction = 0.9),
                        "leaves fewer than 2 of these 2 rows for training"))
      case({
        fit <- fit_method(m, x[two, ], y = droplevels(y[two]), sigma = 2)  # one cost and gamma: no search
        expect_null(fit$tdsvm)
        expect_valid_prediction(predict(fit, x, num_threads = 1), "class", 150, lev[1:2], fit$ntree)
      })
    } else {
      case({
        fit <- fit_method(m, x[two, ], y = droplevels(y[two]))
        expect_valid_prediction(predict(fit, x, num_threads = 1), "class", 150, lev[1:2], fit$ntree)
      })
    }
  })

  test_that(paste(m, "- constant predictors are never used; all-constant data predict one class (documented)"), {
    for (cont in names(containers)) {
      case({
        fit <- containers[[cont]](m, cbind(x, k = 3), y)
        a <- cbind(x, k = 3)
        b <- cbind(x, k = -100)
        if (cont %in% c("formula", "data.frame")) {
          a <- as.data.frame(a)
          b <- as.data.frame(b)
        }
        expect_identical(predict(fit, b, type = "prob", num_threads = 1),
                         predict(fit, a, type = "prob", num_threads = 1))
      })
      case({
        const <- matrix(1, 150, 3, dimnames = list(NULL, c("a", "b", "c")))
        fit <- containers[[cont]](m, const, y)
        newx <- matrix(stats::rnorm(30), 10, 3, dimnames = list(NULL, c("a", "b", "c")))
        if (cont %in% c("formula", "data.frame")) newx <- as.data.frame(newx)
        pred <- predict(fit, newx, type = "prob", num_threads = 1)
        expect_true(all(pred == pred[rep(1, 10), ]))
      })
    }
  })

  test_that(paste(m, "- duplicated rows fit; identical rows of different classes predict one class"), {
    case({
      fit <- fit_method(m, x[rep(1:150, 3), ], y = y[rep(1:150, 3)])
      expect_gt(accuracy(predict(fit, x, num_threads = 1), y), 0.85)
    })
    case({
      fit <- fit_method(m, x[c(1, 51), ][rep(1:2, 75), ], y = droplevels(y[c(1, 51)][rep(1:2, 75)]))
      expect_identical(as.character(predict(fit, x[c(1, 51), ], num_threads = 1)), lev[1:2])
    })
    case({
      fit <- fit_method(m, x[rep(1, 150), ], y = y)
      expect_length(unique(predict(fit, x, num_threads = 1)), 1)
    })
  })

  test_that(paste(m, "- extreme finite values and logical or integer columns fit and predict"), {
    xe <- x
    xe[, 1] <- ifelse(seq_len(150) %% 2 == 0, 1e308, -1e308)
    xe[, 2] <- xe[, 2] * 1e-310  # subnormal numbers
    case({
      fit <- fit_method(m, xe, y = y)
      expect_valid_prediction(predict(fit, xe, type = "prob", num_threads = 1), "prob", 150, lev, fit$ntree)
    })
    case({
      fit <- fit_method(m, x > 3, y = y)
      expect_valid_prediction(predict(fit, x > 3, num_threads = 1), "class", 150, lev, fit$ntree)
    })
    case({
      xi <- round(x * 10)
      storage.mode(xi) <- "integer"
      fit_i <- fit_method(m, xi, y = y)
      fit_d <- fit_method(m, round(x * 10), y = y)
      expect_identical(fit_i$forest, fit_d$forest)
    })
  })

  # --- svforest(): column types and containers -------------------------------------------

  test_that(paste(m, "- character columns become factors; other column types are errors naming them"), {
    d <- mixed_df(80)
    case({
      fit <- fit_method(m, y ~ ., data = d)
      expect_identical(fit$design$xlevels$ch, c("s", "t"))
      expect_valid_prediction(predict(fit, d, num_threads = 1), "class", 80, c("no", "yes"), fit$ntree)
      # the same column as a factor gives the same model
      d2 <- d
      d2$ch <- factor(d2$ch)
      expect_identical(fit$forest, fit_method(m, y ~ ., data = d2)$forest)
    })
    # (Date and POSIXct columns are numbers: test-edges.R)
    bad_cols <- list(z = complex(80), l = I(as.list(1:80)))
    for (col in names(bad_cols)) {
      db <- d
      db[[col]] <- bad_cols[[col]]
      case(expect_error(fit_method(m, y ~ ., data = db), paste0("`", col, "`"), info = col))
      case(expect_error(fit_method(m, db[setdiff(names(db), "y")], y = d$y), paste0("`", col, "`"), info = col))
    }
    case(expect_error(fit_method(m, matrix("a", 150, 2), y = y), "numeric matrix, not a character matrix"))
    case(expect_error(fit_method(m, matrix(complex(300), 150, 2), y = y), "not a complex matrix"))
  })

  test_that(paste(m, "- wrong containers and column names are errors"), {
    for (bad in list(NULL, 1:150, as.list(iris[1:4]), "x", array(1, c(150, 2, 2)), function(z) z)) {
      case(expect_error(fit_method(m, bad, y = y), "`x` must be a data frame, a numeric matrix"))
    }
    case(expect_error(fit_method(m, x), "`y` is missing"))
    case(expect_error(fit_method(m, Species ~ ., data = as.list(iris)), "`data` must be a data frame"))
    case(expect_error(fit_method(m, Species ~ .), "`data` must be a data frame"))
    case(expect_error(fit_method(m, Species ~ nosuchcolumn, data = iris), "nosuchcolumn"))
    dup <- data.frame(a = 1:4, a = 4:1, check.names = FALSE)
    case(expect_error(fit_method(m, dup, y = factor(c(1, 2, 1, 2))), "unique, non-empty column names"))
    for (nm in list(c("a", "a", "b", "c"), c("a", "", "b", "c"), c("a", NA, "b", "c"))) {
      xn <- x
      colnames(xn) <- nm
      case(expect_error(fit_method(m, xn, y = y), "`x` must have unique, non-empty column names"))
      sn <- sx
      colnames(sn) <- nm
      case(expect_error(fit_method(m, sn, y = y), "`x` must have unique, non-empty column names"))
    }
  })

  # --- svforest(): arguments ------------------------------------------------------------

  test_that(paste(m, "- bad ntree, num_threads, seed, verbose and method are errors naming them"), {
    for (bad in list(0, -1, 1.5, NA, NaN, "a", c(1, 2), Inf, -Inf, 1e6 + 1, 1e300, TRUE, list(2))) {
      case(expect_error(fit_method(m, x, y = y, ntree = bad), "`ntree` must be a single whole number"))
    }
    for (bad in list(0, -1, 1.5, NA, NaN, Inf, "2", 2000, c(1, 2))) {
      case(expect_error(fit_method(m, x, y = y, num_threads = bad), "`num_threads` must be a single whole number"))
    }
    for (bad in list(-1, 1.5, NA, NaN, Inf, "a", 1e10, c(1, 2))) {
      case(expect_error(fit_method(m, x, y = y, seed = bad), "`seed` must be a single whole number"))
    }
    for (bad in list(NA, "yes", 1, c(TRUE, FALSE))) {
      case(expect_error(fit_method(m, x, y = y, verbose = bad), "`verbose` must be TRUE or FALSE"))
    }
    for (bad in list("rf", NA_character_, c(m, m), 1, toupper(m))) {
      case(expect_error(fit_method(m, x, y = y, method = bad), "`method` must be one of"))
    }
    case(expect_error(fit_method(m, x, y = y, ntre = 5), "Unknown argument `ntre`"))
    case(expect_error(fit_method(m, Species ~ ., data = iris, ntre = 5), "Unknown argument `ntre`"))
    # other packages' names for it say what it is called here
    case(expect_error(fit_method(m, x, y = y, ntrees = 5), "`ntrees` is called `ntree` here"))
    case(expect_error(fit_method(m, Species ~ ., data = iris, num.trees = 5), "`num.trees` is called `ntree` here"))
    case(expect_error(fit_method(m, x, y = y, min_leaf = 5, costs = 1), "Unknown arguments `min_leaf`, `costs`"))
    case(expect_error(svforest(x, y, m, 2, 1, 1, FALSE, 5), "Unknown argument \\(unnamed\\)"))
  })

  test_that(paste(m, "- every method parameter rejects non-finite, missing and mistyped values"), {
    # the parameters of the method's parts; the others are an error naming the part
    params <- names(svforest:::resolve_parameters(m, list(), 150))
    for (p in setdiff(names(svforest:::svf_parameters), params)) {
      case(expect_error(do.call(fit_method, c(list(m, x, y = y), stats::setNames(list(1), p))),
                        # (ranger's `mtry` names this fit's own parameter, if any)
                        paste0("`", p, "` (is a parameter of the .*this fit|is called|has no equivalent)"), info = p))
    }
    # documented: NA is the default value of m_max, transform_rank, dim_per_class, sigma, mtry and
    # oblique_mtry ("automatic"), of oblique_stop ("never")
    # and, for classification, of sigma_max ("no cap")
    na_default <- intersect(c("m_max", "transform_rank", "dim_per_class", "sigma", "sigma_max", "mtry", "oblique_mtry",
                              "oblique_stop"), params)
    case(expect_identical(do.call(fit_method, c(list(m, x, y = y),
                                                stats::setNames(rep(list(NA), length(na_default)), na_default)))$forest,
                          fit_method(m, x, y = y)$forest))
    default_params <- svforest:::resolve_parameters(m, list(), 150)
    for (p in na_default) {
      for (na in list(NA, NA_integer_, NA_real_)) {
        case(expect_identical(svforest:::resolve_parameters(m, stats::setNames(list(na), p), 150), default_params,
                              info = p))
      }
      case(expect_error(do.call(fit_method, c(list(m, x, y = y), stats::setNames(list(NA_character_), p))),
                        paste0("`", p, "`"), info = p))
    }
    for (p in params) {
      for (bad in list(NA, NaN, Inf, -Inf, "bad value", list(1), NULL)) {
        if (is.null(bad)) next  # NULL means "the default"
        if (identical(bad, NA) && p %in% na_default) next  # checked above
        if (identical(bad, Inf) && p == "max_bins") next  # documented: Inf is valid (exact cuts)
        args <- stats::setNames(list(bad), p)
        case(expect_error(do.call(fit_method, c(list(m, x, y = y), args)), paste0("`", p, "`"),
                          info = paste(p, format(bad))))
      }
    }
  })

  test_that(paste(m, "- huge ntree is bounded; more threads than cores give the same model"), {
    case(expect_error(fit_method(m, x, y = y, ntree = 2e6), "between 1 and 1e\\+06"))
    case({
      many <- fit_method(m, x, y = y, num_threads = threads_above_cores())
      expect_identical(many$forest, fit_method(m, x, y = y, num_threads = 1)$forest)
    })
  })

  test_that(paste(m, "- a dgCMatrix with explicit zeros or no non-zeros fits (documented)"), {
    case({
      s <- sx
      s@x[c(1, 50, 100, 300, 500)] <- 0  # stored zeros: the same matrix
      fit <- fit_method(m, s, y = y)
      expect_identical(fit$forest, fit_method(m, Matrix::drop0(s), y = y)$forest)
    })
    for (empty in list(Matrix::Matrix(0, 150, 4, sparse = TRUE), {
      s <- sx
      s@x[] <- 0
      s
    })) {
      case({
        fit <- fit_method(m, empty, y = y)
        pred <- predict(fit, sx, type = "prob", num_threads = 1)
        expect_true(all(pred == pred[rep(1, 150), ]))
      })
    }
  })

  # --- predict() ------------------------------------------------------------------------

  fits <- list(
    frame = fit_method(m, Species ~ ., data = iris),
    matrix = fit_method(m, x, y = y),
    sparse = fit_method(m, sx, y = y)
  )
  newdata_for <- list(frame = iris, matrix = x, sparse = sx)
  fits_fail <- list(
    frame = fit_method(m, Species ~ ., data = iris, na_action = "fail"),
    matrix = fit_method(m, x, y = y, na_action = "fail"),
    sparse = fit_method(m, sx, y = y, na_action = "fail")
  )

  test_that(paste(m, "- predict(): missing (na_action = \"fail\") and infinite values are errors naming the column"), {
    for (kind in names(fits)) {
      for (bad in list(NA, NaN, Inf, -Inf)) {
        nd <- newdata_for[[kind]]
        nd[4, "Sepal.Width"] <- bad
        if (is.infinite(bad)) {
          case(expect_error(predict(fits[[kind]], nd, num_threads = 1),
                            "(Infinite|infinite).*`Sepal.Width`", info = paste(kind, bad)))
        } else {
          case(expect_false(anyNA(predict(fits[[kind]], nd, num_threads = 1))))
        }
        case(expect_error(predict(fits_fail[[kind]], nd, num_threads = 1),
                          "(Missing|missing|Infinite|infinite).*`Sepal.Width`", info = paste(kind, bad)))
      }
    }
    nd <- unname(x)
    nd[2, 3] <- NA
    case(expect_error(predict(fits_fail$matrix, nd, num_threads = 1), "missing or infinite values in column 3"))
  })

  test_that(paste(m, "- predict(): missing, reordered, extra and mistyped columns"), {
    for (kind in names(fits)) {
      fit <- fits[[kind]]
      nd <- newdata_for[[kind]]
      ref <- predict(fit, nd, type = "prob", num_threads = 1)
      case(expect_error(predict(fit, nd[, -2], num_threads = 1), "lacks column `Sepal.Width`", info = kind))
      case(expect_identical(predict(fit, nd[, 4:1], type = "prob", num_threads = 1), ref))
      extra <- if (kind == "frame") cbind(z = 0, nd) else cbind(z = 0, nd)
      case(expect_identical(predict(fit, extra, type = "prob", num_threads = 1), ref))
    }
    # positional matching only without names; then the count must match
    case(expect_identical(predict(fits$matrix, unname(x), type = "prob", num_threads = 1),
                          predict(fits$matrix, x, type = "prob", num_threads = 1)))
    case(expect_error(predict(fits$matrix, unname(x[, 1:3]), num_threads = 1), "has 3 columns.*fitted on 4"))
    case(expect_error(predict(fits$sparse, Matrix::Matrix(unname(x[, 1:3]), sparse = TRUE), num_threads = 1), "has 3 columns.*fitted on 4"))
    # a data frame for a matrix model: by name, numeric columns only
    case(expect_identical(predict(fits$matrix, iris[4:1], type = "prob", num_threads = 1),
                          predict(fits$matrix, x, type = "prob", num_threads = 1)))
    case(expect_error(predict(fits$matrix, transform(iris, Sepal.Length = as.character(Sepal.Length)),
                              num_threads = 1), "`Sepal.Length`.*not"))
    # text or factor where training had numbers
    d <- iris
    d$Sepal.Length <- as.character(d$Sepal.Length)
    case(expect_error(predict(fits$frame, d, num_threads = 1), "Column `Sepal.Length` of `newdata` must be numeric"))
    d$Sepal.Length <- factor(d$Sepal.Length)
    case(expect_error(predict(fits$frame, d, num_threads = 1), "Column `Sepal.Length` of `newdata` must be numeric"))
    d <- iris
    d$Petal.Width <- I(as.list(d$Petal.Width))
    case(expect_error(predict(fits$frame, d, num_threads = 1), "`Petal.Width` of `newdata`"))
  })

  test_that(paste(m, "- predict(): unseen factor levels and wrong factor types are errors naming the column"), {
    d <- mixed_df(80)
    fit <- fit_method(m, y ~ ., data = d)
    nd <- d
    nd$f <- factor(as.character(nd$f), levels = c("p", "q", "r", "zz"))
    case(expect_identical(predict(fit, nd, type = "prob", num_threads = 1),
                          predict(fit, d, type = "prob", num_threads = 1)))  # unused extra level is fine
    nd$f[2] <- "zz"
    case(expect_error(predict(fit, nd, num_threads = 1), "Column `f` of `newdata` has level not seen in training: \"zz\""))
    nd <- d
    nd$ch[1:2] <- c("u", "v")
    case(expect_error(predict(fit, nd, num_threads = 1), "Column `ch` of `newdata` has levels.*\"u\", \"v\""))
    nd <- d
    nd$f <- as.integer(nd$f)
    case(expect_error(predict(fit, nd, num_threads = 1), "Column `f` of `newdata` must be a factor or character"))
    nd <- d
    nd$f[3] <- NA
    case(expect_false(anyNA(expect_warning(predict(fit, nd, num_threads = 1), "`f`"))))  # imputed with the most frequent level
    fit_fail <- fit_method(m, y ~ ., data = d, na_action = "fail")
    case(expect_error(predict(fit_fail, nd, num_threads = 1), "Missing values.*`f`"))
    # a subset of levels (in another order) is fine
    nd <- d[d$f != "p", ]
    nd$f <- factor(as.character(nd$f), levels = c("r", "q"))
    case(expect_identical(predict(fit, nd, type = "prob", num_threads = 1),
                          predict(fit, d[d$f != "p", ], type = "prob", num_threads = 1)))
  })

  test_that(paste(m, "- predict(): zero rows give empty results of the right shape"), {
    for (kind in names(fits)) {
      nd <- newdata_for[[kind]][0, , drop = FALSE]
      fit <- fits[[kind]]
      case({
        expect_identical(predict(fit, nd, num_threads = 1), factor(character(), levels = lev))
        expect_identical(dim(predict(fit, nd, type = "prob", num_threads = 1)), c(0L, 3L))
        expect_identical(dim(predict(fit, nd, type = "votes", num_threads = 1)), c(0L, 3L))
        expect_identical(dim(predict(fit, nd, type = "leaf", num_threads = 1)), c(0L, fit$ntree))
      })
    }
  })

  test_that(paste(m, "- predict(): bad newdata, type, num_threads and extra arguments are errors"), {
    for (kind in names(fits)) {
      fit <- fits[[kind]]
      # without newdata: the out-of-bag predictions, or an error when the sampler left no row out
      if (is.null(fit$oob_predictions)) {
        case(expect_error(predict(fit), "`newdata` is required"))
        case(expect_error(predict(fit, NULL), "`newdata` is required"))
      } else {
        has <- fit$oob_count > 0
        case(expect_identical(predict(fit)[has], fit$oob_predictions[has]))
        case(expect_true(all(is.na(predict(fit, NULL)[!has]))))
      }
      for (bad in list(1:4, as.list(iris[1:4]), "a", matrix("a", 2, 4))) {
        case(expect_error(predict(fit, bad, num_threads = 1), "`newdata` must be", info = kind))
      }
      for (bad in list("response", NA, 1, c("prob", "class"), character())) {
        case(expect_error(predict(fit, newdata_for[[kind]], type = bad, num_threads = 1), "`type` must be one of"))
      }
      for (bad in list(0, -1, NA, Inf, 1.5, "2", 5000)) {
        case(expect_error(predict(fit, newdata_for[[kind]], num_threads = bad), "`num_threads`"))
      }
      case(expect_error(predict(fit, newdata_for[[kind]], typo = "prob"), "Unknown argument `typo`"))
      case(expect_identical(predict(fit, newdata_for[[kind]], type = "prob", num_threads = threads_above_cores()),
                            predict(fit, newdata_for[[kind]], type = "prob", num_threads = 1)))
    }
  })

  test_that(paste(m, "- predict(): sparse newdata with explicit zeros or no non-zeros; sparse for dense models"), {
    s <- sx
    s@x[c(2, 20, 200)] <- 0
    dense <- as.matrix(s)
    empty <- Matrix::Matrix(0, 5, 4, sparse = TRUE, dimnames = list(NULL, colnames(x)))
    for (kind in c("matrix", "sparse")) {
      fit <- fits[[kind]]
      for (type in c("prob", "leaf")) {
        case(expect_identical(predict(fit, s, type = type, num_threads = 1),
                              predict(fit, dense, type = type, num_threads = 1)))
        case(expect_identical(predict(fit, empty, type = type, num_threads = 1),
                              predict(fit, as.matrix(empty), type = type, num_threads = 1)))
      }
    }
  })

  test_that(paste(m, "- predict(): chunked prediction equals one pass (documented)"), {
    for (kind in names(fits)) {
      fit <- fits[[kind]]
      nd <- newdata_for[[kind]]
      whole <- lapply(c("class", "prob", "votes", "leaf"), function(t) predict(fit, nd, type = t, num_threads = 1))
      old <- options(svforest.predict_chunk_rows = 7)
      chunked <- lapply(c("class", "prob", "votes", "leaf"), function(t) predict(fit, nd, type = t, num_threads = 2))
      options(old)
      case(expect_identical(chunked, whole, info = kind))
    }
    old <- options(svforest.predict_chunk_rows = 0)
    on.exit(options(old))
    case(expect_error(predict(fits$matrix, x, num_threads = 1), "svforest.predict_chunk_rows"))
  })

  # --- print(), summary(), plot() -----------------------------------------------------

  test_that(paste(m, "- print, summary and plot handle one-leaf trees; plot checks newdata and y"), {
    grDevices::pdf(NULL)
    on.exit(grDevices::dev.off(), add = TRUE)
    const <- fit_method(m, matrix(1, 150, 2), y = y)
    for (fit in c(fits, list(const = const))) {
      case({
        expect_output(print(fit), "Support vector forest")
        expect_output(print(summary(fit)), "Support vector forest")
        expect_identical(plot(fit, newdata = newdata_for$matrix[, seq_len(fit$forest$num_features)], y = y), fit)
      })
    }
    fit <- fits$matrix
    case(expect_error(plot(fit, newdata = x), "Give both `newdata` and `y`"))
    case(expect_error(plot(fit, y = y), "Give both `newdata` and `y`"))
    case(expect_error(plot(fit, newdata = x, y = y[1:10]), "one value per row of `newdata` \\(150\\)"))
    case(expect_error(plot(fit, newdata = x, y = as.integer(y)), "`y` must be a factor or character"))
    yb <- as.character(y)
    yb[c(3, 4)] <- c(NA, "daisy")
    case(expect_error(plot(fit, newdata = x, y = yb), "2 values that are missing or not among.*\"daisy\""))
  })
}

test_that("print, summary and plot reject objects that are not svforest models", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  for (obj in list(structure(list(), class = "svforest"), structure(list(a = 1), class = "svforest"),
                   structure(1:3, class = "svforest"))) {
    case(expect_error(print(obj), "not a usable svforest model"))
    case(expect_error(summary(obj), "not a usable svforest model"))
    case(expect_error(plot(obj), "not a usable svforest model"))
    case(expect_error(predict(obj, iris), "not a usable svforest model"))
  }
})

test_that("svforest_methods() lists every method with its parts and takes no arguments", {
  tab <- svforest_methods()
  case(expect_s3_class(tab, "data.frame"))
  case(expect_identical(names(tab)[1:5], c("method", "sampler", "splitter", "leaf", "aggregation")))
  case(expect_false(anyDuplicated(tab$method) > 0))
  case(expect_error(svforest_methods(1), "unused argument"))
  # every listed method is fitted above; each fit uses the listed parts
  for (i in seq_len(nrow(tab))) {
    case({
      fit <- fit_method(tab$method[i], x, y = y)
      expect_identical(unlist(fit$params[c("sampler", "splitter", "leaf", "aggregation")]),
                       unlist(tab[i, c("sampler", "splitter", "leaf", "aggregation")]))
    })
  }
})

test_that("the catalogue tried many cases", {
  if (nzchar(Sys.getenv("SVFOREST_REPORT_CASES"))) message("bad-input cases tried: ", catalogue$n)
  expect_gt(catalogue$n, 300 * length(all_methods()))
})
