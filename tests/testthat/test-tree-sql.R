skip_if_not_installed("DBI")
skip_if_not_installed("RSQLite")

test_that("the SQL of a 100-tree default classification forest gives predict()'s probabilities and classes", {
  d <- inside_class_data(400)
  fit <- svforest(y ~ ., data = d, ntree = 100, seed = 3, num_threads = 1)
  expect_identical(length(fit$forest$trees), 100L)
  new <- inside_class_data(1000, seed = 11)
  new$row_id <- 1000 + seq_len(nrow(new))
  elapsed <- system.time(sql <- svforest_sql(fit, "new", id = "row_id"))[["elapsed"]]
  expect_lt(elapsed, 10)
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, sql)
  expect_identical(names(res), c("row_id", ".pred_lo", ".pred_mid", ".pred_hi", ".pred_class"))
  expect_identical(res$row_id, new$row_id)
  prob <- predict(fit, new, type = "prob")
  expect_lt(max(abs(as.matrix(res[, 2:4]) - prob)), 1e-9)
  expect_identical(res$.pred_class, as.character(predict(fit, new)))
  # the rows with missing values and the character column matter: rows differ by them
  expect_true(anyNA(new$x1) && anyNA(new$x3) && anyNA(new$f))
})

test_that("the SQL of a default regression forest gives predict()'s means", {
  d <- inside_regression_data(300)
  fit <- svforest(y ~ ., data = d, seed = 1, num_threads = 1)
  new <- inside_regression_data(1000, seed = 9)
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expect_identical(names(res), ".pred")
  expect_lt(max(abs(res$.pred - predict(fit, new))), 1e-9)
  # the factor's indicators and the missing-value fill are in the query
  alone <- new[1:3, ]
  alone$f <- factor(c("a", "b", NA), levels = levels(new$f))
  alone$x1 <- c(NA, 0.5, NA)
  DBI::dbWriteTable(con, "alone", alone)
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "alone"))
  expect_lt(max(abs(res$.pred - predict(fit, alone))), 1e-9)
  expect_gt(length(unique(round(res$.pred, 6))), 1)
})

test_that("linear leaves, votes, rank maps and a subset of trees", {
  d <- inside_class_data(300)
  new <- inside_class_data(1000, seed = 5)
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  rsvt <- svforest(y ~ ., data = d, method = "rsvt", ntree = 5, seed = 3, num_threads = 1)
  expect_identical(rsvt$params$aggregation, "vote")
  res <- DBI::dbGetQuery(con, svforest_sql(rsvt, "new"))
  expect_lt(max(abs(as.matrix(res[, 1:3]) - predict(rsvt, new, type = "prob"))), 1e-9)
  expect_identical(res$.pred_class, as.character(predict(rsvt, new)))
  expect_identical(DBI::dbGetQuery(con, svforest_sql(rsvt, "new", trees = 1, materialize = FALSE)),
                   DBI::dbGetQuery(con, svforest_sql(rsvt, "new", trees = 1)))
  ranked <- svforest(y ~ ., data = d, ntree = 10, seed = 3, scale = "rank", num_threads = 1)
  res <- DBI::dbGetQuery(con, svforest_sql(ranked, "new"))
  expect_lt(max(abs(as.matrix(res[, 1:3]) - predict(ranked, new, type = "prob"))), 1e-9)
  one <- DBI::dbGetQuery(con, svforest_sql(ranked, "new", trees = 2))
  leaf <- predict(ranked, new, type = "leaf")[, 2]
  tab <- svforest_tree(ranked, 2)
  node_of_leaf <- match(seq_len(sum(tab$kind == "leaf")) - 1L, svforest:::tree_nodes(ranked$forest$trees[[2]])$leaf_id)
  expect_equal(unname(as.matrix(one[, 1:3])),
               unname(do.call(rbind, tab$prediction[node_of_leaf[leaf]])), tolerance = 1e-9)
  reg <- svforest(y ~ ., data = inside_regression_data(300), method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  new_reg <- inside_regression_data(500, seed = 4)
  DBI::dbWriteTable(con, "new_reg", new_reg)
  res <- DBI::dbGetQuery(con, svforest_sql(reg, "new_reg"))
  expect_lt(max(abs(res$.pred - predict(reg, new_reg))), 1e-9)
})

test_that("models fitted on a matrix with missing values", {
  withr::local_seed(7)
  x <- matrix(rnorm(900), 300, 3, dimnames = list(NULL, c("a", "b", "c")))
  y <- factor(ifelse(x[, 1] - x[, 2] > 0, "p", "q"))
  x[sample(900, 60)] <- NA
  fit <- svforest(x, y, ntree = 10, seed = 1, num_threads = 1)
  new <- matrix(rnorm(600), 200, 3, dimnames = list(NULL, c("a", "b", "c")))
  new[sample(600, 80)] <- NA
  con <- sql_connection(new = as.data.frame(new))
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expect_lt(max(abs(as.matrix(res[, 1:2]) - predict(fit, new, type = "prob"))), 1e-9)
  expect_identical(res$.pred_class, as.character(predict(fit, new)))
})

test_that("a level unseen in training gives NULL, as predict() gives an error", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  new <- d[1:3, ]
  new$g[2] <- "w"
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expect_true(is.na(res$.pred_class[2]) && is.na(res$.pred_lo[2]))
  expect_identical(res$.pred_class[-2], as.character(predict(fit, new[-2, ])))
  expect_error(predict(fit, new), "not seen in training")
})

test_that("what SQL cannot express, and bad arguments, are clear errors", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  expect_error(svforest_sql(fit, "iris", trees = 4), "from 1 to 3")
  expect_error(svforest_sql(fit, 3), "table name")
  expect_error(svforest_sql(fit, "iris", id = 1), "`id`")
  expect_error(svforest_sql(fit, "iris", materialize = NA), "`materialize`")
  td <- svforest(Species ~ ., data = iris, method = "tdsvm", seed = 1, num_threads = 1)
  expect_error(svforest_sql(td, "iris"), "kernel_svm.*method \"tdsvm\"")
  tf <- svforest(Species ~ ., data = iris, method = "transform", ntree = 2, seed = 1, num_threads = 1)
  expect_error(svforest_sql(tf, "iris"), "transform.*method \"transform\"")
  logged <- svforest(Species ~ log(Sepal.Length) + Petal.Width, data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_error(svforest_sql(logged, "iris"), "log\\(Sepal.Length\\)")
  broken <- fit
  broken$forest$trees[[2]]$leaf_kind <- NULL
  expect_error(svforest_sql(broken, "iris"), "Tree 2 of the model is damaged")
})

test_that("deep trees nest CASEs in their THEN branches only (nested this deep they overflow SQLite's parser)", {
  d <- inside_class_data(1500, seed = 21)
  d$y <- withr::with_seed(1, factor(sample(levels(d$y), nrow(d), TRUE)))  # noise: deep trees
  fit <- svforest(y ~ ., data = d, ntree = 3, seed = 1, num_threads = 1)
  # (SQLite 3.40 refuses CASEs nested 20 deep in their THEN branches)
  expect_gt(max(svforest_tree(fit, 1)$depth), 20)
  new <- inside_class_data(300, seed = 22)
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expect_lt(max(abs(as.matrix(res[, 1:3]) - predict(fit, new, type = "prob"))), 1e-9)
  expect_identical(res$.pred_class, as.character(predict(fit, new)))
})

test_that("trees that nest more CASEs than one expression holds are routed chunk by chunk, resumed by a search on the node", {
  fit <- svforest(y ~ ., data = inside_class_data(600, seed = 21), ntree = 3, seed = 1, num_threads = 1)
  vote <- svforest(y ~ ., data = inside_class_data(600, seed = 21), ntree = 3, seed = 1, aggregation = "vote",
                   num_threads = 1)
  reg <- svforest(y ~ ., data = inside_regression_data(600), ntree = 3, seed = 1, num_threads = 1)
  new <- inside_class_data(300, seed = 22)
  new_reg <- inside_regression_data(300, seed = 4)
  con <- sql_connection(new = new, new_reg = new_reg)
  on.exit(DBI::dbDisconnect(con))
  # three nested CASEs per expression: several routing steps, each resumed by a binary search
  nested3 <- function(model, table, materialize = TRUE) {
    svforest:::sql_statement(model, svforest:::sql_table(table), NULL, seq_along(model$forest$trees), materialize, 3L)
  }
  sql <- nested3(fit, "new")
  expect_true(grepl("route1 AS MATERIALIZED", sql) && grepl("CASE WHEN n1 <= [0-9]+ THEN", sql))
  res <- DBI::dbGetQuery(con, sql)
  expect_lt(max(abs(as.matrix(res[, 1:3]) - predict(fit, new, type = "prob"))), 1e-9)
  expect_identical(res$.pred_class, as.character(predict(fit, new)))
  res <- DBI::dbGetQuery(con, nested3(vote, "new", materialize = FALSE))
  expect_identical(res$.pred_class, as.character(predict(vote, new)))
  sql <- nested3(reg, "new_reg")
  expect_true(grepl("route1 AS MATERIALIZED", sql) && grepl("CASE WHEN n1 <= [0-9]+ THEN", sql))
  expect_lt(max(abs(DBI::dbGetQuery(con, sql)$.pred - predict(reg, new_reg))), 1e-9)
})

test_that("a data frame of numbers alone (the plain design path) gives SQL too, missing values filled", {
  fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
  new <- iris[c(1:20, 60:80, 120:140), ]
  new$Sepal.Length[3] <- NA
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expected <- suppressWarnings(predict(fit, new, type = "prob"))
  expect_lt(max(abs(as.matrix(res[, 1:3]) - expected)), 1e-9)
  expect_identical(res$.pred_class, as.character(suppressWarnings(predict(fit, new))))
})
