skip_if_not_installed("DBI")
skip_if_not_installed("RSQLite")

# The SQL of svforest_sql() run in SQLite and in a throwaway PostgreSQL
# server (helper-sql.R; those tests skip where it cannot start).

# Writes `data` as table `name` (replacing it) and runs `sql`.
run_sql <- function(con, name, data, sql) {
  if (DBI::dbExistsTable(con, name)) DBI::dbRemoveTable(con, name)
  DBI::dbWriteTable(con, name, data, row.names = FALSE)
  DBI::dbGetQuery(con, sql)
}

expect_sql_equals_predict <- function(res, fit, new, tolerance = 1e-9) {
  predict <- function(...) suppressWarnings(stats::predict(...))  # (missing values are filled, as documented)
  if (identical(fit$type, "regression")) {
    expect_lt(max(abs(res$.pred - predict(fit, new))), tolerance)
    return(invisible())
  }
  prob <- predict(fit, new, type = "prob")
  expect_lt(max(abs(as.matrix(res[, paste0(".pred_", colnames(prob))]) - prob)), tolerance)
  expect_identical(res$.pred_class, as.character(predict(fit, new)))
}

# Values that need double precision: a million plus a fraction.
million_data <- function(n, seed) {
  withr::with_seed(seed, {
    d <- data.frame(a = 1e6 + runif(n), b = rnorm(n))
    d$y <- factor(ifelse(d$a - 1e6 + 0.2 * d$b + rnorm(n, sd = 0.1) > 0.5, "yes", "no"))
    d
  })
}

test_that("values near a million: PostgreSQL and SQLite give predict()'s classes and probabilities", {
  fit <- svforest(y ~ ., data = million_data(1000, 1), ntree = 20, seed = 1, num_threads = 1)
  new <- million_data(1000, 2)[c("a", "b")]
  sql <- svforest_sql(fit, "new")
  # standard double precision: REAL is single precision in PostgreSQL
  expect_false(grepl("AS REAL", sql, fixed = TRUE))
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  expect_sql_equals_predict(run_sql(lite, "new", new, sql), fit, new)
  pg <- local_postgres()
  expect_sql_equals_predict(run_sql(pg, "new", new, sql), fit, new)
  expect_sql_equals_predict(run_sql(pg, "new", new, svforest_sql(fit, "new", materialize = FALSE)), fit, new)
})

odd_names_data <- function(n, seed) {
  withr::with_seed(seed, {
    d <- data.frame(`a b` = rnorm(n), `_id` = runif(n), `1x` = factor(sample(c("u", "v", "w"), n, TRUE)),
                    select = rnorm(n) > 0, check.names = FALSE)
    d$y <- factor(ifelse(d$`a b` + d$`_id` + (d$`1x` == "v") - d$select + rnorm(n, sd = 0.3) > 0.5, "p", "q"))
    d$`a b`[1:5] <- NA
    d$select[6:10] <- NA
    d
  })
}

test_that("columns named `a b`, `_id`, `1x`, `select`, and a logical as 0/1 or boolean, in both engines", {
  fit <- svforest(y ~ ., data = odd_names_data(300, 1), ntree = 10, seed = 1, num_threads = 1)
  new <- odd_names_data(200, 2)
  new$y <- NULL
  sql <- svforest_sql(fit, "new")
  stored <- new
  stored$select <- as.integer(stored$select)  # the documented 0/1 form
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  expect_sql_equals_predict(run_sql(lite, "new", stored, sql), fit, new)
  pg <- local_postgres()
  expect_sql_equals_predict(run_sql(pg, "new", stored, sql), fit, new)
  # an R logical becomes a boolean column in PostgreSQL
  expect_sql_equals_predict(run_sql(pg, "new", new, sql), fit, new)
  # a name is quoted, never inserted: a quote in it stays inside the identifier
  expect_match(svforest_sql(fit, "t\"; DROP TABLE new; --"), "FROM \"t\"\"; DROP TABLE new; --\"", fixed = TRUE)
})

test_that("tables and key columns named like the statement's own steps and columns, in both engines", {
  d <- odd_names_data(300, 1)
  names(d)[1:2] <- c("c1", "ok")  # predictors named like the design's columns
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 1, num_threads = 1)
  reg_data <- d
  reg_data$y <- reg_data$ok + withr::with_seed(3, stats::rnorm(nrow(d)))
  reg <- svforest(y ~ ., data = reg_data, ntree = 10, seed = 1, num_threads = 1)
  new <- odd_names_data(200, 2)
  names(new)[1:2] <- c("c1", "ok")
  new$y <- NULL
  new$select <- as.integer(new$select)
  in_engine <- function(con) {
    # a table named as a step was read as that step (SQLite: "circular reference")
    for (table in c("inputs", "design", "route1", "summed", "Summed")) {
      expect_sql_equals_predict(run_sql(con, table, new, svforest_sql(fit, table)), fit, new)
    }
    # a key named as a step's column took that column's place: wrong classes, silently
    for (key in c("c1", "ok", "n1", "s1", "v1")) {
      keyed <- new
      keyed[[key]] <- seq_len(nrow(new)) * 10L
      for (model in list(fit, reg)) {
        res <- run_sql(con, "keyed", keyed, svforest_sql(model, "keyed", id = key))
        expect_identical(names(res)[1], key)
        expect_equal(as.integer(res[[1]]), keyed[[key]])
        expect_sql_equals_predict(res, model, keyed)
      }
    }
  }
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  in_engine(lite)
  expect_error(svforest_sql(fit, "keyed", id = ".pred_class"),
               "`id` is \".pred_class\", a name of the statement's own columns")
  expect_error(svforest_sql(reg, "keyed", id = ".PRED"), "a name of the statement's own columns (.pred)", fixed = TRUE)
  in_engine(local_postgres())
})

test_that("large forests are summed a block of trees at a time, with predict()'s additions, in both engines", {
  d <- million_data(200, 3)
  d$r <- d$b + withr::with_seed(4, stats::rnorm(nrow(d)))
  cls <- svforest(y ~ a + b, data = d, ntree = 10, seed = 1, num_threads = 1)
  vote <- svforest(y ~ a + b, data = d, ntree = 10, seed = 1, aggregation = "vote", num_threads = 1)
  reg <- svforest(r ~ a + b, data = d, ntree = 10, seed = 1, num_threads = 1)
  new <- million_data(150, 5)
  blocks_of_3 <- function(model, materialize) {
    svforest:::sql_statement(model, svforest:::sql_table("new"), "id", seq_along(model$forest$trees), materialize,
                             block = 3L)
  }
  keyed <- cbind(id = seq_len(nrow(new)), new)
  in_engine <- function(con) {
    for (model in list(cls, vote, reg)) {
      for (materialize in c(TRUE, FALSE)) {
        sql <- blocks_of_3(model, materialize)
        expect_true(grepl("summed3 AS", sql, fixed = TRUE) && !grepl("summed4 AS", sql, fixed = TRUE))
        res <- run_sql(con, "new", keyed, sql)
        expect_equal(res$id, keyed$id)
        expect_sql_equals_predict(res, model, new, tolerance = 1e-12)
      }
    }
  }
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  in_engine(lite)
  # a forest of at most one block is written as before: one sum step
  expect_false(grepl("summed1", svforest_sql(cls, "new"), fixed = TRUE))
  # 1,001 trees: one chain of additions was deeper than SQLite's 1,000 levels
  big <- svforest(r ~ a + b, data = d[1:60, ], ntree = 1001, seed = 1, num_threads = 1)
  expect_sql_equals_predict(run_sql(lite, "new", new, svforest_sql(big, "new")), big, new, tolerance = 1e-12)
  pg <- local_postgres()
  in_engine(pg)
  expect_sql_equals_predict(run_sql(pg, "new", new, svforest_sql(big, "new")), big, new, tolerance = 1e-12)
})

test_that("an x/y fit with a factor and a logical column exports to SQL exactly", {
  xy <- function(n, seed) {
    withr::with_seed(seed, data.frame(a = rnorm(n), f = factor(sample(c("u", "v", "w"), n, TRUE)), h = rnorm(n) > 0))
  }
  x <- xy(300, 1)
  y <- factor(ifelse(x$a + (x$f == "v") + x$h > 0.8, "p", "q"))
  x$a[1:10] <- NA
  fit <- svforest(x, y, ntree = 10, seed = 1, num_threads = 1)
  new <- xy(200, 2)
  new$f[3] <- NA
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  expect_sql_equals_predict(run_sql(lite, "new", new, svforest_sql(fit, "new")), fit, new)
  reg <- svforest(x, as.numeric(y) + withr::with_seed(3, rnorm(300)), ntree = 5, seed = 1, num_threads = 1)
  expect_sql_equals_predict(run_sql(lite, "new", new, svforest_sql(reg, "new")), reg, new)
})

test_that("materialize = FALSE: the statement grows linearly with the forest, and gives predict()'s values", {
  d <- inside_class_data(600, seed = 21)
  d$y <- withr::with_seed(1, factor(sample(levels(d$y), nrow(d), TRUE)))  # noise: deep trees
  fit <- svforest(y ~ ., data = d, ntree = 8, seed = 1, scale = "rank", num_threads = 1)
  expect_gt(max(svforest_tree(fit, 1)$depth), 15)
  new <- inside_class_data(300, seed = 22)
  plain <- svforest_sql(fit, "new", materialize = FALSE)
  expect_false(grepl("MATERIALIZED", plain, fixed = TRUE))
  # twice the trees, about twice the text (each node written once)
  ratio <- nchar(svforest_sql(fit, "new", trees = 1:8)) / nchar(svforest_sql(fit, "new", trees = 1:4))
  expect_lt(ratio, 2.6)
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite))
  elapsed <- system.time(res <- run_sql(lite, "new", new, plain))[["elapsed"]]
  expect_sql_equals_predict(res, fit, new)
  expect_lt(elapsed, 20)
  pg <- local_postgres()
  expect_sql_equals_predict(run_sql(pg, "new", new, plain), fit, new)
  expect_sql_equals_predict(run_sql(pg, "new", new, svforest_sql(fit, "new")), fit, new)
})

test_that("a pre-fit step without SQL is refused by name; with its SQL it is in the statement", {
  set.seed(12)
  x <- data.frame(a = rexp(200), b = rnorm(200), c = runif(200))
  y <- factor(ifelse(x$a + x$b + rnorm(200, sd = 0.3) > 1, "hi", "lo"))
  new <- data.frame(a = c(40, 0.5, -3, 1), b = c(-25, 30, 0.1, 0), c = c(9, -9, 0.5, 0.2))
  do.call(svforest:::register_prefit_step, clip_step)
  on.exit(svforest:::remove_prefit_step("clip"))
  fit <- svforest(x, y, ntree = 10, seed = 4, num_threads = 1)
  expect_error(svforest_sql(fit, "new"), "cannot express the pre-fit step \"clip\"")
  # the same step saying how SQL writes it: each column clipped to its bounds
  clip_sql <- function(design, state) {
    design$layers <- c(design$layers, list(function(cols) {
      sprintf("CASE WHEN %s < %.17g THEN %.17g WHEN %s > %.17g THEN %.17g ELSE %s END", cols, state$lower,
              state$lower, cols, state$upper, state$upper, cols)
    }))
    design
  }
  do.call(svforest:::register_prefit_step, c(clip_step, list(sql = clip_sql)))
  sql <- svforest_sql(fit, "new")
  expect_match(sql, sprintf("%.17g", fit$design$clip$upper[["a"]]), fixed = TRUE)
  lite <- sql_connection()
  on.exit(DBI::dbDisconnect(lite), add = TRUE)
  expect_sql_equals_predict(run_sql(lite, "new", new, sql), fit, new)
})
