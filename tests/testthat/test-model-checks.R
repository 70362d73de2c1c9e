# A damaged model is an R error in predict(), never a crash.

fit <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 4, seed = 51, num_threads = 1)
tree1 <- fit$forest$trees[[1]]
pred1 <- function(m, ...) predict(m, iris, num_threads = 1, ...)

test_that("the fixture has split nodes and SVM leaves to damage", {
  expect_gte(length(tree_split_nodes(tree1)), 2)
  expect_true("linear_svm" %in% tree_leaf_kinds(tree1))
  expect_length(pred1(fit), 150)
})

test_that("a model without its class or of another format version is rejected", {
  m <- unclass(fit)
  expect_error(svforest:::predict.svforest(m, iris), "does not inherit from class 'svforest'")
  m <- fit
  current <- svforest:::model_format_version
  m$format_version <- model_format_version_next()
  expect_error(pred1(m), sprintf("model format %d.*reads formats 2 to %d", current + 1L, current))
  m$format_version <- as.double(current)  # double, not integer
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
  damage <- tree_damages(fit$forest, tree1)
  # the catalogue covers the nodes, the axis splits and the linear leaves of this tree
  expect_gte(length(damage), 25)
  for (what in names(damage)) {
    m <- fit
    m$forest$trees[[1]] <- damage[[what]]
    for (type in c("class", "leaf")) {
      expect_error(pred1(m, type = type), "tree 1", info = what)
    }
  }
})

test_that("damaging the last tree is caught too", {
  m <- fit
  m$forest$trees[[4]] <- tree_damages(m$forest, m$forest$trees[[4]])$root_child_negative
  expect_error(pred1(m), "tree 4 is damaged")
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
# and of the combinations of parts (helper-methods.R),
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
  # regression models of every method that fits a numeric outcome
  for (m in intersect(all_methods(), svforest:::regression_methods())) {
    out[[paste(m, "regression")]] <- list(fit = fit_method(m, xm[, 2:4], y = xm[, 1]), newdata = xm[rows, 2:4])
  }
  # the combinations of parts of the contract test
  for (case in part_combinations) {
    out[[case_label(case)]] <- list(fit = do.call(svforest, c(list(xm, iris$Species, seed = 1, num_threads = 1), case)),
                                    newdata = xm[rows, ])
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
          all(res[, t] >= 1L & res[, t] <= tree_n_leaves(m$forest$trees[[t]]))
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
                 sprintf("model format %d, this version of svforest reads formats 2 to %d \\(refit the model\\)",
                         model_format_version_next(), model_format_version_next() - 1L))
    file <- tempfile(fileext = ".rds")
    saveRDS(future, file)
    expect_error(predict(readRDS(file), iris, num_threads = 1), "refit the model")
    unlink(file)
  }
})
