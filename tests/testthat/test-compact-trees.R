# Model format 3 saves trees in a compact layout (src/core/tree/TreeCodec.h):
# node children, leaf numbers and payload offsets are derived, integers are
# varints. Models of format 2 (the plain layout) are still read and upgrade.

plain_model <- function(fit) {
  fit$forest$trees <- lapply(fit$forest$trees, function(t) tree_plain(fit$forest, t))
  fit
}

test_that("models saved in format 2 predict as they did, as they are and upgraded", {
  saved <- readRDS(test_path("fixtures", "model-format-2.rds"))  # written from f240a54
  for (name in names(saved)) {
    case <- saved[[name]]
    old <- case$model
    expect_identical(old$format_version, 2L)
    expect_true(all(vapply(old$forest$trees, function(t) is.null(t$layout), TRUE)))
    type <- if (old$type == "classification") "prob" else "response"
    expect_identical(predict(old, case$newdata, type = type, num_threads = 1), case$predictions, info = name)
    new <- upgrade_model(old)
    expect_identical(new$format_version, svforest:::model_format_version)
    expect_true(all(vapply(new$forest$trees, function(t) identical(t$layout, 2L), TRUE)), info = name)
    expect_identical(predict(new, case$newdata, type = type, num_threads = 1), case$predictions, info = name)
    expect_identical(predict(new, case$newdata, type = "leaf", num_threads = 1),
                     predict(old, case$newdata, type = "leaf", num_threads = 1), info = name)
    # the upgrade loses nothing: the plain layout comes back array for array
    for (t in seq_along(old$forest$trees)) {
      expect_identical(tree_plain(new$forest, new$forest$trees[[t]]), old$forest$trees[[t]], info = name)
    }
    expect_lt(as.numeric(object.size(new$forest)), as.numeric(object.size(old$forest)))
    # a format-2 part combines with a format-3 one
    if (name == "psvm") {
      fresh <- svforest(case$newdata, iris$Species, method = "psvm", ntree = 2, seed = 99, num_threads = 1)
      both <- combine(old, fresh)
      expect_identical(both$format_version, svforest:::model_format_version)
      expect_length(predict(both, case$newdata, num_threads = 1), nrow(case$newdata))
    }
  }
})

test_that("every method writes compact trees that decode to the same trees and predictions", {
  for (m in all_methods()) {
    fit <- fit_method(m, Species ~ ., data = iris)
    expect_identical(fit$format_version, svforest:::model_format_version)
    expect_true(all(vapply(fit$forest$trees, function(t) identical(t$layout, 2L), TRUE)), info = m)
    plain <- plain_model(fit)
    for (t in seq_along(fit$forest$trees)) {
      expect_identical(tree_compact(fit$forest, plain$forest$trees[[t]]), fit$forest$trees[[t]], info = m)
    }
    expect_identical(predict(plain, iris, type = "prob", num_threads = 1),
                     predict(fit, iris, type = "prob", num_threads = 1), info = m)
    expect_identical(predict(plain, iris, type = "leaf", num_threads = 1),
                     predict(fit, iris, type = "leaf", num_threads = 1), info = m)
    expect_identical(lapply(fit$forest$trees, tree_nodes)[[1]][c("left_child", "leaf_id", "leaf_size")],
                     plain$forest$trees[[1]][c("left_child", "leaf_id", "leaf_size")], info = m)
  }
  reg <- fit_method("rsvt", mpg ~ ., data = mtcars)
  expect_identical(predict(plain_model(reg), mtcars, num_threads = 1), predict(reg, mtcars, num_threads = 1))
})

test_that("compact trees are a fraction of the plain ones and round-trip through saveRDS", {
  set.seed(3)
  x <- matrix(stats::runif(3000 * 8), 3000, 8)
  y <- factor(max.col(x[, 1:5] %*% matrix(stats::rnorm(25), 5, 5)))
  fit <- svforest(x, y, method = "psvm", ntree = 3, seed = 1, num_threads = 2)
  plain <- plain_model(fit)
  ratio <- as.numeric(object.size(fit$forest)) / as.numeric(object.size(plain$forest))
  # PSVM trees: 8-byte plane weights are kept; node arrays go, integers shrink
  expect_lt(ratio, 0.7)
  expect_identical(predict(fit, x, type = "prob", num_threads = 2), predict(plain, x, type = "prob", num_threads = 2))
  file <- tempfile(fileext = ".rds")
  saveRDS(fit, file)
  back <- readRDS(file)
  unlink(file)
  expect_identical(back, fit)
  expect_identical(predict(back, x, num_threads = 1), predict(fit, x, num_threads = 1))
})

test_that("a tree not in the grower's order is kept in the plain layout", {
  fit <- fit_method("psvm", Species ~ ., data = iris)
  f <- fit$forest
  t <- tree_plain(f, f$trees[[1]])
  # leaves numbered backwards: a valid tree the compact layout cannot derive
  L <- length(t$leaf_size)
  at <- t$leaf_id >= 0
  t$leaf_id[at] <- L - 1L - t$leaf_id[at]
  for (el in c("leaf_kind", "leaf_size", "leaf_int_start", "leaf_real_start")) t[[el]] <- rev(t[[el]])
  kept <- tree_compact(f, t)
  expect_null(kept$layout)
  expect_identical(kept, t)
  m <- fit
  m$forest$trees[[1]] <- kept
  expect_identical(predict(m, iris, type = "prob", num_threads = 1), predict(fit, iris, type = "prob", num_threads = 1))
})

test_that("damaged compact trees give an R error naming the tree", {
  fit <- fit_method("rsvt", Species ~ ., data = iris)
  damage <- tree_compact_damages(fit$forest$trees[[2]])
  expect_gte(length(damage), 15)
  for (what in names(damage)) {
    m <- fit
    m$forest$trees[[2]] <- damage[[what]]
    expect_error(predict(m, iris, num_threads = 1), "tree 2", info = what)
    expect_error(upgrade_model(`[[<-`(m, "format_version", 2L)), "tree 2", info = what)
  }
})

test_that("random byte damage to compact trees gives an error or a prediction, never a crash", {
  fit <- fit_method("rsvt", Species ~ ., data = iris)
  raw_fields <- c("split_kind", "split_int", "leaf_kind", "leaf_size", "leaf_int_length", "leaf_real_length",
                  "leaf_int")
  set.seed(11)
  outcomes <- character()
  for (i in 1:300) {
    m <- fit
    t <- m$forest$trees[[1]]
    field <- sample(raw_fields, 1)
    if (length(t[[field]]) == 0) next
    at <- sample(length(t[[field]]), 1)
    t[[field]][at] <- as.raw(sample(0:255, 1))
    m$forest$trees[[1]] <- t
    res <- tryCatch(predict(m, iris, type = "prob", num_threads = 1), error = function(e) conditionMessage(e))
    if (is.character(res)) expect_match(res, "tree 1", info = field)
    outcomes <- c(outcomes, if (is.character(res)) "error" else "prediction")
  }
  expect_true("error" %in% outcomes)
})

test_that("an oblique split's predictors saved as a bit mask are checked against the predictors", {
  fit <- fit_method("psvm", Species ~ ., data = iris)
  varint <- function(v) {  # zigzag varint of one integer, as the engine writes it
    z <- if (v < 0) -2 * v - 1 else 2 * v
    out <- raw()
    while (z >= 128) { out <- c(out, as.raw(z %% 128 + 128)); z <- z %/% 128 }
    c(out, as.raw(z))
  }
  t <- fit$forest$trees[[1]]
  first_end <- which(as.integer(t$split_int) < 128)[1]
  # the root's plane is saved as one negative code (-mask) ...
  root <- tree_describe(fit$forest, t, "split", 1L)[[1]]
  expect_identical(t$split_int[seq_len(first_end)], varint(-sum(2^as.vector(root$vars))))
  # ... so a mask naming a predictor the model lacks (bit 10 of 4) is damage
  bad <- t
  bad$split_int <- c(varint(-2^10), t$split_int[-seq_len(first_end)])
  m <- fit
  m$forest$trees[[1]] <- bad
  expect_error(predict(m, iris, num_threads = 1), "tree 1 is damaged: node 0: splits on predictor 10")
})

# Issue #61: prediction decodes a large forest's compact trees a group at a
# time (src/predict.cpp, ForestView::groups), each row's tally carried from
# one group to the next; `group_nodes` (nodes decoded at once) sets the
# groups here on small forests.
engine_outputs <- function(fit, data, group_nodes = NULL, aggregation = "vote") {
  d <- svforest:::new_engine_data(fit, data)
  req <- list(outputs = c("leaves", "tree_class", "tree_values", "tree_sd", "class", "class_curve"),
              aggregation = aggregation)
  if (!is.null(group_nodes)) req$group_nodes <- group_nodes
  svforest:::.svf_predict(fit$forest, d, 2L, req)
}

test_that("a forest read a group of trees at a time predicts as one decoded at once", {
  set.seed(5)
  n <- 300
  x <- data.frame(a = rnorm(n), b = rnorm(n), c = runif(n), f = factor(sample(c("u", "v", "w"), n, TRUE)))
  y3 <- factor(ifelse(x$a + (x$f == "u") > 0.4, "hi", ifelse(x$b > 0, "mid", "lo")))
  num <- x$a - 2 * x$b + rnorm(n, sd = 0.3)
  cases <- list(
    hybrid_class = list(svforest(x, y3, ntree = 9, seed = 1, num_threads = 2), "vote"),
    max_conf = list(svforest(x, y3, ntree = 9, seed = 1, num_threads = 2, aggregation = "max_confidence"),
                    "max_confidence"),
    prob = list(svforest(x, y3, ntree = 9, seed = 1, num_threads = 2, aggregation = "prob"), "prob"),
    regression = list(svforest(x, num, ntree = 9, seed = 1, num_threads = 2), "vote"),
    psvm = list(svforest(x[, 1:3], y3, method = "psvm", ntree = 7, seed = 1, num_threads = 2), "vote"))
  # a model with trees of both layouts: the plain trees are read where R holds them
  mixed <- cases$hybrid_class[[1]]
  mixed$forest$trees[c(2, 5)] <- lapply(mixed$forest$trees[c(2, 5)], function(t) tree_plain(mixed$forest, t))
  cases$mixed <- list(mixed, "vote")
  for (name in names(cases)) {
    fit <- cases[[name]][[1]]
    agg <- cases[[name]][[2]]
    newx <- if (name == "psvm") x[, 1:3] else x
    whole <- engine_outputs(fit, newx, aggregation = agg)
    nodes <- vapply(fit$forest$trees, function(t) if (is.null(t$n_nodes)) 0L else t$n_nodes, 0L)
    for (g in c(1, max(nodes), sum(nodes[1:3]) + 1)) {
      expect_identical(engine_outputs(fit, newx, g, agg), whole, info = paste(name, g))
    }
  }
  # sparse rows are read in place (no packed nodes), by groups too
  xs <- Matrix::Matrix(as.matrix(x[, 1:3]) * (abs(as.matrix(x[, 1:3])) > 0.5), sparse = TRUE)
  fit <- svforest(xs, num, ntree = 6, seed = 2, num_threads = 2)
  expect_identical(engine_outputs(fit, xs, 1), engine_outputs(fit, xs))
})

test_that("every tree of a forest read by groups is checked before any row is routed", {
  fit <- fit_method("rsvt", Species ~ ., data = iris)
  last <- length(fit$forest$trees)
  damage <- tree_compact_damages(fit$forest$trees[[last]])
  for (what in names(damage)[1:5]) {
    m <- fit
    m$forest$trees[[last]] <- damage[[what]]
    expect_error(engine_outputs(m, iris, 1), paste("tree", last), info = what)
    expect_error(svforest:::.svf_check_forest(m$forest), paste("tree", last), info = what)
  }
})

test_that("a value every leaf shares is stored once (layout 2); layout 1 trees read the same", {
  x <- iris[, 2:4]
  fit <- svforest(x, iris$Sepal.Length, ntree = 3, seed = 5, num_threads = 1)
  trees <- fit$forest$trees
  for (t in trees) {
    expect_identical(t$layout, 2L)
    expect_gt(t$n_leaves, 2L)
    for (el in c("leaf_kind", "leaf_int_length", "leaf_real_length")) expect_length(t[[el]], 1)
    expect_length(t$leaf_size, t$n_leaves)
    expect_length(tree_nodes(t)$leaf_kind, t$n_leaves)
    # split kinds (axis and oblique here) in 2 bits a node
    expect_length(t$split_kind, (t$n_nodes + 3) %/% 4)
    expect_length(tree_nodes(t)$split_kind, t$n_nodes)
  }
  # the same trees in layout 1, every leaf's value stored (one byte each here)
  per_leaf <- function(t) {
    for (el in c("leaf_kind", "leaf_int_length", "leaf_real_length")) t[[el]] <- rep(t[[el]], t$n_leaves)
    k <- tree_nodes(t)$split_kind
    t$split_kind <- as.raw(ifelse(k < 0, 2L * abs(k) - 1L, 2L * k))  # zigzag varints, 1 byte each
    t$layout <- 1L
    t
  }
  old <- fit
  old$forest$trees <- lapply(trees, per_leaf)
  for (type in c("response", "leaf")) {
    expect_identical(predict(old, x, type = type, num_threads = 1), predict(fit, x, type = type, num_threads = 1))
  }
  for (t in seq_along(trees)) {
    expect_identical(tree_plain(old$forest, old$forest$trees[[t]]), tree_plain(fit$forest, trees[[t]]))
    # rewriting gives layout 2 back
    expect_identical(tree_compact(fit$forest, old$forest$trees[[t]]), trees[[t]])
  }
  expect_lt(as.numeric(object.size(fit$forest)), as.numeric(object.size(old$forest)))
  # damaged shared arrays give an R error naming the tree
  damage <- tree_compact_damages(trees[[2]])
  expect_true(all(c("compact_leaf_kind_two", "compact_leaf_real_length_empty", "compact_shared_in_layout_1") %in%
                  names(damage)))
  odd <- which(vapply(trees, function(t) t$n_nodes %% 4 != 0, TRUE))[1]
  expect_true("compact_split_kind_spare_bits" %in% names(tree_compact_damages(trees[[odd]])))
  for (what in names(damage)) {
    m <- fit
    m$forest$trees[[2]] <- damage[[what]]
    expect_error(predict(m, x, num_threads = 1), "tree 2", info = what)
  }
})
