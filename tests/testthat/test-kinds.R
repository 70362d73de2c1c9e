# The engine's kinds answer for themselves: R's part names are the engine's,
# payloads are read through the engine's descriptions, and class-frequency
# leaves are stored compactly with the predictions of the full counts.

test_that("R's leaf and splitter names are the engine's registries", {
  engine <- svforest:::.svf_part_names()
  parts <- svforest:::svf_registry$parts
  expect_setequal(names(parts$leaf), engine$leaf)
  expect_setequal(names(parts$splitter), engine$splitter)
  # every leaf kind a model can hold is written by a leaf part R names
  kinds <- svforest:::.svf_leaf_kinds()
  expect_true(all(kinds$part %in% names(parts$leaf)))
  expect_false(anyDuplicated(kinds$code) > 0)
  # the linear leaf parts R offers for local explanations come from the engine
  expect_setequal(svforest:::linear_leaf_parts(), kinds$name[kinds$linear])
})

test_that("a class-frequency leaf stores only the classes it holds", {
  fit <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 3, seed = 2, num_threads = 1)
  f <- fit$forest
  for (tree in f$trees) {
    expect_true(all(tree_leaf_payload_kinds(tree) == "class_counts"))
    expect_true(all(tree_leaf_kinds(tree) == "constant"))
    counts <- tree_leaf_counts(f, tree)
    present <- colSums(counts > 0)
    # [m, m classes, m counts]: a pure leaf holds 3 integers
    expect_identical(length(tree_plain(f, tree)$leaf_int), as.integer(sum(1 + 2 * present)))
    expect_identical(as.integer(colSums(counts)), tree_leaf_sizes(tree))
  }
})

# The forest with every compact class-count leaf written as the full counts
# of the kind saved before (code of "constant"), as old models hold them.
with_full_counts <- function(forest) {
  code <- svforest:::leaf_kind_codes()[["constant"]]
  forest$trees <- lapply(forest$trees, function(tree) {
    counts <- tree_leaf_counts(forest, tree)
    stopifnot(all(tree_leaf_payload_kinds(tree) == "class_counts"))
    tree <- tree_plain(forest, tree)
    tree$leaf_kind <- rep(as.integer(code), ncol(counts))
    tree$leaf_int <- as.vector(counts)
    tree$leaf_int_start <- as.integer(nrow(counts) * (seq_len(ncol(counts)) - 1L))
    tree
  })
  forest
}

test_that("compact class counts predict as the full counts, value for value", {
  d <- datasets::iris
  for (agg in c("vote", "prob", "max_confidence")) {
    fit <- svforest(Species ~ ., data = d, method = "psvm", ntree = 4, seed = 3, num_threads = 1,
                    aggregation = agg)
    old <- fit
    old$forest <- with_full_counts(fit$forest)
    expect_false(identical(old$forest, fit$forest))
    for (type in c("class", "prob", "votes", "leaf")) {
      expect_identical(predict(old, d, type = type), predict(fit, d, type = type), info = paste(agg, type))
    }
  }
  # and for an RSVT forest whose pure leaves fall back to class frequencies
  fit <- svforest(Species ~ ., data = d, method = "rsvt", ntree = 3, seed = 4, num_threads = 1)
  kinds <- unlist(lapply(fit$forest$trees, tree_leaf_payload_kinds))
  expect_true(all(c("class_counts", "linear_svm") %in% kinds))
})

test_that("a model saved with full class counts predicts as when it was saved", {
  path <- test_path("fixtures", "model-full-counts.rds")
  skip_if_not(file.exists(path), "no fixture")
  saved <- readRDS(path)
  kinds <- unlist(lapply(saved$model$forest$trees, tree_leaf_payload_kinds))
  expect_true(all(kinds == "constant"))  # the code written before compact leaves
  expect_identical(predict(saved$model, saved$newdata, type = "prob"), saved$prob)
  expect_identical(predict(saved$model, saved$newdata, type = "votes"), saved$votes)
  expect_identical(predict(saved$model, saved$newdata), saved$class)
})

test_that("payload descriptions name each kind's fields and where they are stored", {
  fit <- svforest(Species ~ ., data = iris, method = "rsvf", ntree = 2, seed = 5, num_threads = 1)
  f <- fit$forest
  tree <- tree_plain(f, f$trees[[1]])  # `at` positions are in the plain arrays
  node <- tree_split_nodes(tree)[1]
  s <- tree_describe(f, tree, "split", node)[[1]]
  expect_identical(s$kind, "oblique")
  expect_identical(as.vector(s$vars), tree$split_int[attr(s$vars, "at") + seq_along(s$vars) - 1L])
  expect_identical(as.vector(s$weights), tree$split_real[attr(s$weights, "at") + seq_along(s$weights) - 1L])
  lin <- which(tree_leaf_payload_kinds(tree) == "linear_svm")[1]
  l <- tree_describe(f, tree, "leaf", lin)[[1]]
  expect_identical(dim(l$coef)[1], f$num_features + 1L)
  expect_identical(tree_describe(f, tree, "leaf", lin, "cost")[[1]][[1]], tree_leaf_costs(f, tree)[lin])
  # a leaf node has no split payload; a field a kind lacks is NULL
  expect_identical(tree_describe(f, tree, "split", which(tree$leaf_id >= 0)[1]), list(list()))
  expect_null(tree_describe(f, tree, "leaf", lin, "gamma")[[1]])
})
