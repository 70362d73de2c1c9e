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
