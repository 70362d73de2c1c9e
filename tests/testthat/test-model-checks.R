# A damaged model is an R error in predict(), never a crash.

fit <- svforest(Species ~ ., data = iris, ntree = 4, seed = 51, num_threads = 1)
tree1 <- fit$forest$trees[[1]]
internal <- which(tree1$leaf_id < 0)      # 1-based positions of split nodes
svm_leaf <- which(tree1$leaf_type == 1L)[1]
pred1 <- function(m, ...) predict(m, iris, num_threads = 1, ...)

test_that("the fixture has split nodes and SVM leaves to damage", {
  expect_gte(length(internal), 2)
  expect_false(is.na(svm_leaf))
  expect_length(pred1(fit), 150)
})

test_that("a model without its class or of another format version is rejected", {
  m <- unclass(fit)
  expect_error(svforest:::predict.svforest(m, iris), "does not inherit from class 'svforest'")
  m <- fit
  m$format_version <- 2L
  expect_error(pred1(m), "model format 2.*reads format 1")
  m$format_version <- 1  # double, not integer
  expect_error(pred1(m), "model format")
  m$format_version <- NULL
  expect_error(pred1(m), "model format NULL")
})

test_that("missing or damaged top-level elements are rejected", {
  for (el in c("levels", "forest", "design", "params")) {
    m <- fit
    m[[el]] <- NULL
    expect_error(pred1(m), "not a usable svforest model", info = el)
  }
  m <- fit
  m$levels <- m$levels[1:2]
  expect_error(pred1(m), "num_classes' does not match 'levels'")
  m$levels <- 1:3
  expect_error(pred1(m), "'levels' is damaged")
  m$levels <- "setosa"
  expect_error(pred1(m), "'levels' is damaged")
  m <- fit
  m$forest$num_classes <- 2L
  expect_error(pred1(m), "does not match 'levels'")
  m <- fit
  m$forest$trees <- list()
  expect_error(pred1(m), "'trees' must be a non-empty list")
  m$forest$trees <- NULL
  expect_error(pred1(m), "'forest' is damaged")
  m <- fit
  m$params$aggregation <- NULL
  expect_error(pred1(m), "'params' is damaged")
  m <- fit
  m$forest$scale_center <- 1:4
  expect_error(pred1(m), "'scale_center' must be a double vector")
  m <- fit
  m$forest$scale_factor <- m$forest$scale_factor[-1]
  expect_error(pred1(m), "'scale_factor' has length 3, expected 4")
  m <- fit
  m$forest$trees[[2]] <- "a"
  expect_error(pred1(m), "tree 2 is not a list")
})

test_that("damaged trees are rejected with a message naming the tree", {
  damage <- list(
    split_var_high = function(t) { t$split_var[internal[1]] <- 99L; t },
    split_var_negative = function(t) { t$split_var[internal[1]] <- -5L; t },
    left_child_backwards = function(t) { t$left_child[internal[2]] <- 0L; t },
    left_child_self = function(t) { t$left_child[internal[2]] <- internal[2] - 1L; t },
    left_child_out_of_range = function(t) { t$left_child[internal[1]] <- length(t$leaf_id); t },
    right_child_out_of_range = function(t) { t$right_child[internal[1]] <- 1000L; t },
    right_child_na = function(t) { t$right_child[internal[1]] <- NA_integer_; t },
    leaf_counts_truncated = function(t) { t$leaf_counts <- head(t$leaf_counts, -1); t },
    leaf_counts_negative = function(t) { t$leaf_counts[1] <- -3L; t },
    leaf_counts_zero = function(t) { t$leaf_counts[1:3] <- 0L; t },
    coef_truncated = function(t) { t$coef <- head(t$coef, -1); t },
    coef_empty = function(t) { t$coef <- numeric(0); t },
    split_var_double = function(t) { t$split_var <- as.double(t$split_var); t },
    leaf_id_double = function(t) { t$leaf_id <- as.double(t$leaf_id); t },
    leaf_counts_double = function(t) { t$leaf_counts <- as.double(t$leaf_counts); t },
    coef_integer = function(t) { t$coef <- as.integer(t$coef); t },
    leaf_coef_start_high = function(t) { t$leaf_coef_start[svm_leaf] <- 1000000L; t },
    leaf_coef_start_negative = function(t) { t$leaf_coef_start[svm_leaf] <- -1L; t },
    leaf_coef_start_na = function(t) { t$leaf_coef_start[svm_leaf] <- NA_integer_; t },
    leaf_type_unknown = function(t) { t$leaf_type[1] <- 7L; t },
    leaf_id_out_of_range = function(t) { t$leaf_id[which(t$leaf_id >= 0)[1]] <- 50L; t },
    leaf_id_twice = function(t) { lf <- which(t$leaf_id >= 0); t$leaf_id[lf[2]] <- t$leaf_id[lf[1]]; t },
    leaf_size_empty = function(t) { t$leaf_size <- integer(0); t },
    split_value_missing = function(t) { t$split_value <- NULL; t },
    leaf_cost_truncated = function(t) { t$leaf_cost <- t$leaf_cost[-1]; t },
    no_nodes = function(t) {
      for (el in c("split_var", "left_child", "right_child", "leaf_id")) t[[el]] <- integer(0)
      t$split_value <- numeric(0)
      t
    }
  )
  for (what in names(damage)) {
    m <- fit
    m$forest$trees[[1]] <- damage[[what]](tree1)
    for (type in c("class", "leaf")) {
      expect_error(pred1(m, type = type), "tree 1", info = what)
    }
  }
})

test_that("damaging the last tree is caught too", {
  m <- fit
  m$forest$trees[[4]]$left_child[1] <- -1L
  expect_error(pred1(m), "tree 4 is damaged: node 0 has children out of range")
})

test_that("print, summary and plot refuse a model of another format", {
  m <- fit
  m$format_version <- 99L
  expect_error(print(m), "model format 99")
  expect_error(summary(m), "model format 99")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_error(plot(m), "model format 99")
})

# --- random damage --------------------------------------------------------------

mutate_value <- function(v, kind) {
  n <- length(v)
  i <- if (n > 0) sample.int(n, 1) else 1L
  int <- is.integer(v)
  switch(kind,
    truncate = v[seq_len(max(0, n - sample.int(max(n, 1), 1)))],
    extend = c(v, v),
    huge = { v[i] <- if (int) .Machine$integer.max else 1e308; v },
    negative = { v[i] <- if (int) -sample.int(1e6, 1) else -1e308; v },
    minus_one = { v[i] <- if (int) -1L else -1; v },
    small = { v[i] <- if (int) sample(-2:20, 1) else stats::runif(1, -5, 5); v },
    na = { v[i] <- NA; v },
    nan = { v[i] <- NaN; v },
    to_double = as.double(v),
    to_integer = suppressWarnings(as.integer(v)),
    to_character = as.character(v),
    to_logical = as.logical(v),
    null = NULL,
    empty = v[0],
    list = as.list(v))
}

# Models of every method, fitted on a data frame, a matrix and a dgCMatrix,
# each with the newdata it predicts (a few rows keep 1000+ predictions fast).
mutation_models <- function() {
  xm <- as.matrix(iris[, 1:4])
  rows <- seq(1, 150, by = 10)
  out <- list()
  for (m in all_methods()) {
    out[[paste(m, "frame")]] <- list(fit = fit_method(m, Species ~ ., data = iris), newdata = iris[rows, ])
    out[[paste(m, "matrix")]] <- list(fit = fit_method(m, xm, y = iris$Species), newdata = xm[rows, ])
    out[[paste(m, "sparse")]] <- list(fit = fit_method(m, Matrix::Matrix(xm, sparse = TRUE), y = iris$Species),
                                      newdata = Matrix::Matrix(xm[rows, ], sparse = TRUE))
  }
  out
}

# One random damage of a model: an element of a tree (most often), of the
# forest, or of the model itself (levels, format, class, design, params).
mutate_model <- function(m, kinds) {
  kind <- sample(kinds, 1)
  # some kinds do not apply to some values (e.g. a list to logical): then
  # the value is emptied instead
  safe_mutate <- function(v) tryCatch(suppressWarnings(mutate_value(v, kind)), error = function(e) v[0])
  u <- stats::runif(1)
  if (!is.list(m$forest) || !is.list(m$forest$trees) || length(m$forest$trees) == 0) return(m)
  if (u < 0.7) {
    t <- sample.int(length(m$forest$trees), 1)
    if (!is.list(m$forest$trees[[t]])) return(m)
    el <- sample(names(m$forest$trees[[t]]), 1)
    m$forest$trees[[t]][el] <- list(safe_mutate(m$forest$trees[[t]][[el]]))
  } else if (u < 0.85) {
    el <- sample(names(m$forest), 1)
    if (el == "trees" && stats::runif(1) < 0.5) {
      m$forest$trees <- switch(sample(3, 1), m$forest$trees[-1], c(m$forest$trees, m$forest$trees[1]),
                               rev(m$forest$trees))
    } else {
      m$forest[el] <- list(safe_mutate(m$forest[[el]]))
    }
  } else {
    el <- sample(c("levels", "format_version", "ntree", "method", "design", "params", "class"), 1)
    if (el == "class") {
      class(m) <- sample(list("foo", c("svforest", "list"), character()), 1)[[1]]
    } else if (el == "design" && is.list(m$design) && length(m$design)) {
      d <- sample(names(m$design), 1)
      m$design[d] <- list(safe_mutate(m$design[[d]]))
    } else if (el == "params" && is.list(m$params)) {
      m$params$aggregation <- safe_mutate(m$params$aggregation)
    } else {
      m[el] <- list(safe_mutate(m[[el]]))
    }
  }
  m
}

test_that("1200 random mutations of models of every method give a valid result or an R error, never a crash", {
  kinds <- c("truncate", "extend", "huge", "negative", "minus_one", "small", "na", "nan",
             "to_double", "to_integer", "to_character", "to_logical", "null", "empty", "list")
  models <- mutation_models()
  n_mutations <- 1200
  outcome <- character(0)
  withr_seed(2024, {
    for (k in seq_len(n_mutations)) {
      pick <- models[[sample.int(length(models), 1)]]
      m <- pick$fit
      for (j in seq_len(sample(c(1, 1, 1, 2, 3), 1))) m <- mutate_model(m, kinds)
      type <- sample(c("class", "prob", "votes", "leaf"), 1)
      res <- tryCatch(predict(m, pick$newdata, type = type, num_threads = sample(1:2, 1)),
                      error = function(e) e)
      if (inherits(res, "error")) {
        outcome[k] <- if (nzchar(conditionMessage(res))) "error" else "error without message"
        next
      }
      # a model that passed the checks gives a result of the right shape
      # (checked here without expectations in the loop, which would be slow)
      n <- NROW(pick$newdata)
      K <- length(m$levels)
      ntree <- length(m$forest$trees)
      valid <- switch(type,
        class = is.factor(res) && length(res) == n && identical(levels(res), m$levels),
        prob = identical(dim(res), c(n, K)),
        votes = identical(dim(res), c(n, K)) && all(rowSums(res) == ntree),
        leaf = identical(dim(res), c(n, ntree)) && all(vapply(seq_len(ntree), function(t) {
          all(res[, t] >= 1L & res[, t] <= length(m$forest$trees[[t]]$leaf_size))
        }, TRUE)))
      outcome[k] <- if (valid) "ok" else paste("invalid", type)
    }
  })
  if (nzchar(Sys.getenv("SVFOREST_REPORT_CASES"))) {
    message("mutations: ", paste(names(table(outcome)), table(outcome), sep = " = ", collapse = ", "))
  }
  expect_identical(setdiff(outcome, c("ok", "error")), character(0))
  expect_length(outcome, n_mutations)
  # the mutations exercise both outcomes
  expect_gt(sum(outcome == "error"), n_mutations / 4)
  expect_gt(sum(outcome == "ok"), n_mutations / 20)
})

test_that("a model saved by another package version is read when its format matches, else rejected", {
  for (m in all_methods()) {
    fit <- fit_method(m, Species ~ ., data = iris)
    old <- fit
    old$package_version <- "0.0.1"  # format unchanged: usable
    expect_identical(predict(old, iris, num_threads = 1), predict(fit, iris, num_threads = 1))
    future <- fit
    future$format_version <- model_format_version_next()
    expect_error(predict(future, iris, num_threads = 1),
                 sprintf("model format %d, this version of svforest reads format %d \\(refit the model\\)",
                         model_format_version_next(), model_format_version_next() - 1L))
    file <- tempfile(fileext = ".rds")
    saveRDS(future, file)
    expect_error(predict(readRDS(file), iris, num_threads = 1), "refit the model")
    unlink(file)
  }
})
