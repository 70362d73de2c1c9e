skip_if_not_installed("tidypredict")
skip_if_not_installed("dbplyr")
skip_if_not_installed("dplyr")
skip_if_not_installed("RSQLite")

# tidypredict_sql() of a forest, run in SQLite through dbplyr: the
# predictions as columns of the table.
tidypredict_in_sqlite <- function(fit, new) {
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "new", new)
  f <- tidypredict::tidypredict_fit(fit)
  if (!is.list(f)) f <- list(.pred = f)
  sql <- tidypredict::tidypredict_sql(fit, con)
  if (!is.list(sql)) sql <- list(sql)
  DBI::dbGetQuery(con, sprintf("SELECT %s FROM new", paste(sprintf("%s AS %s", unlist(sql), DBI::dbQuoteIdentifier(con, names(f))),
                                                           collapse = ", ")))
}

tp_class_data <- function(n, seed) {
  withr::with_seed(seed, {
    d <- data.frame(x1 = rnorm(n), x2 = runif(n), f = factor(sample(c("a", "b", "c"), n, TRUE)), h = rnorm(n) > 0)
    d$y <- factor(cut(d$x1 + (d$f == "b") + d$x2 + 0.5 * d$h + rnorm(n, sd = 0.3), c(-Inf, 0.4, 1.3, Inf),
                      labels = c("lo", "mid", "hi")))
    d
  })
}

test_that("tidypredict_sql() of a default classification forest gives predict()'s probabilities in SQLite", {
  d <- tp_class_data(300, 1)
  # the default method and settings; fewer trees: dbplyr translates about 20 KB of expression a second
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  expect_identical(fit$method, "hybrid")
  new <- tp_class_data(200, 2)
  new$f[1:3] <- NA  # the fill of a missing level
  new$h <- as.integer(new$h)
  f <- tidypredict::tidypredict_fit(fit)
  expect_identical(names(f), levels(d$y))
  res <- tidypredict_in_sqlite(fit, new)
  new$h <- new$h == 1
  prob <- suppressWarnings(predict(fit, new, type = "prob"))
  expect_lt(max(abs(as.matrix(res) - prob)), 1e-9)
})

test_that("tidypredict_sql() of a default regression forest, axis cuts alone and hyperplanes alone", {
  d <- inside_regression_data(300)
  d <- d[stats::complete.cases(d), ]  # (no conditional-mean imputation: see the error below)
  new <- inside_regression_data(200, seed = 8)
  new <- new[stats::complete.cases(new), ]
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  expect_lt(max(abs(tidypredict_in_sqlite(fit, new)$.pred - predict(fit, new))), 1e-9)
  # axis cuts only
  axis <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1, n_oblique = 0)
  expect_identical(unique(stats::na.omit(unlist(lapply(axis$forest$trees, svforest:::tree_split_kinds)))), "axis")
  expect_lt(max(abs(tidypredict_in_sqlite(axis, new)$.pred - predict(axis, new))), 1e-9)
  # hyperplanes only (PSVM's splits), with class shares
  psvm <- svforest(Species ~ ., data = iris, method = "psvm", aggregation = "prob", ntree = 5, seed = 1,
                   num_threads = 1)
  expect_identical(unique(stats::na.omit(unlist(lapply(psvm$forest$trees, svforest:::tree_split_kinds)))), "oblique")
  res <- tidypredict_in_sqlite(psvm, iris[, 1:4])
  expect_lt(max(abs(as.matrix(res) - predict(psvm, iris, type = "prob"))), 1e-9)
})

test_that("what tidypredict expressions cannot hold is a clear error", {
  d <- inside_class_data(200)
  rsvt <- svforest(y ~ ., data = d, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  expect_error(tidypredict::tidypredict_fit(rsvt), "cannot express the \"vote\" aggregation")
  ranked <- svforest(y ~ ., data = d, ntree = 3, seed = 1, scale = "rank", num_threads = 1)
  expect_error(tidypredict::tidypredict_fit(ranked), "pre-fit step \"rank_scaling\"")
  joint <- svforest(y ~ ., data = inside_regression_data(200), ntree = 3, seed = 1, num_threads = 1)
  expect_error(tidypredict::tidypredict_fit(joint), "conditional-mean imputation")
  td <- svforest(Species ~ ., data = iris, method = "tdsvm", seed = 1, num_threads = 1)
  expect_error(tidypredict::tidypredict_fit(td), "kernel_svm")
})

# A default regression forest (100 trees) of 1,000 rows: deep trees (about
# 400 leaves each), a factor and hyperplanes.
tp_default_regression <- function(n, seed) {
  withr::with_seed(seed, {
    d <- data.frame(x1 = rnorm(n), x2 = runif(n), x3 = rnorm(n), x4 = rnorm(n), f = factor(sample(letters[1:3], n, TRUE)))
    d$y <- d$x1 + 2 * d$x2 - d$x3 * d$x4 + (d$f == "b") + rnorm(n, sd = 0.3)
    d
  })
}

test_that("tidypredict_sql() of a default 100-tree regression forest of 1,000 rows: seconds, predict()'s values in SQLite and PostgreSQL", {
  d <- tp_default_regression(1000, 1)
  fit <- svforest(y ~ ., data = d, seed = 1, num_threads = 2)
  expect_identical(fit$ntree, 100L)
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  DBI::dbWriteTable(con, "new", d)
  # dbplyr translated the forest's calls one by one: about 7 s a tree
  took <- system.time(sql <- tidypredict::tidypredict_sql(fit, con))[["elapsed"]]
  expect_lt(took, 60)
  got <- DBI::dbGetQuery(con, paste("SELECT", sql, "AS p FROM new"))$p
  expect_lt(max(abs(got - predict(fit, d))), 1e-9)
  # mutate() of a database table reads the same SQL
  lazy <- dplyr::collect(dplyr::mutate(dplyr::tbl(con, "new"), p = !!tidypredict::tidypredict_fit(fit)))
  expect_lt(max(abs(lazy$p - predict(fit, d))), 1e-9)
  pg <- local_postgres()
  DBI::dbWriteTable(pg, "new", d)
  got <- DBI::dbGetQuery(pg, paste("SELECT", tidypredict::tidypredict_sql(fit, dbplyr::simulate_postgres()), "AS p FROM new"))$p
  expect_lt(max(abs(got - predict(fit, d))), 1e-9)
})

test_that("tidypredict_to_column() and tidypredict_test() work without dplyr attached", {
  expect_false("package:dplyr" %in% search())
  d <- tp_default_regression(300, 2)
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 1)
  col <- tidypredict::tidypredict_to_column(d, fit)
  expect_lt(max(abs(col$fit - predict(fit, d))), 1e-9)
  test <- tidypredict::tidypredict_test(fit, d)
  expect_s3_class(test, "tidypredict_test")
  expect_false(test$alert)
  expect_output(print(test), "within the difference threshold")
  expect_identical(nrow(test$raw_results), 300L)
  # a classification forest: each class probability
  cl <- svforest(Species ~ ., data = iris, ntree = 10, seed = 1, num_threads = 1)
  expect_false(tidypredict::tidypredict_test(cl, iris)$alert)
  expect_lt(max(abs(test$raw_results$fit_te - predict(fit, d))), 1e-9)
  expect_error(tidypredict::tidypredict_test(fit), "needs `df`")
  expect_error(tidypredict::tidypredict_test(fit, d, include_intervals = TRUE), "no intervals")
})

test_that("tidypredict_fit() of an event-time forest says what tidypredict expressions hold", {
  skip_if_not_installed("survival")
  sv <- svforest(survival::Surv(time, status) ~ age + sex, data = survival::lung, ntree = 3, seed = 1, num_threads = 1)
  expect_error(tidypredict::tidypredict_fit(sv),
               "cannot express a survival forest .*nor can svforest_sql\\(\\): they hold a classification forest's class probabilities or a regression forest's prediction")
})
