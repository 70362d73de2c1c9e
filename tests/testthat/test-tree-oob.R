# Per-node out-of-bag counts (svforest_tree()$n_oob): kept by the engine at
# fit time, recomputed here from the tree table and the tree's out-of-bag
# rows drawn again from the fit's seed.

# Tree t's out-of-bag rows (scoring and choosing), from 1, drawn again.
tree_oob_rows <- function(fit, t, n) {
  s <- svforest:::tree_streams(fit)
  share <- if (is.numeric(fit$oob_choosing_share)) fit$oob_choosing_share else 0
  fraction <- if (is.null(fit$params$sample_fraction)) 1 else fit$params$sample_fraction
  svforest:::.svf_tree_oob_rows(n, fit$params$sampler, as.double(fraction), fit$sampling_weights, s$seed[t],
                                s$index[t], share)
}

# How many of the training rows `rows` pass through each node of the table
# of tree t (the rows walked down the table, as in helper-inside.R).
table_reach <- function(fit, data, t, rows) {
  tab <- svforest_tree(fit, t)
  values <- tree_values(fit, svforest_design(fit, data[rows, , drop = FALSE]), t)
  node <- rep(1L, length(rows))
  reach <- tabulate(node, nrow(tab))
  repeat {
    inner <- which(tab$kind[node] != "leaf")
    if (!length(inner)) break
    for (i in unique(node[inner])) {
      at <- inner[node[inner] == i]
      w <- tab$terms[[i]]
      s <- 0
      for (k in seq_along(w)) s <- s + w[[k]] * values[at, names(w)[k]]
      node[at] <- ifelse(s <= tab$threshold[i], tab$left[i], tab$right[i])
    }
    reach <- reach + tabulate(node[inner], nrow(tab))
  }
  reach
}

expect_oob_counts <- function(fit, data, trees) {
  n <- nrow(data)
  scored <- integer(n)
  for (t in trees) {
    tab <- svforest_tree(fit, t)
    oob <- tree_oob_rows(fit, t, n)
    scored[oob$scoring] <- scored[oob$scoring] + 1L
    all_oob <- c(oob$scoring, oob$choosing)
    expect_identical(tab$n_oob, table_reach(fit, data, t, all_oob), info = paste("tree", t))
    expect_identical(tab$n_oob[1], length(all_oob))
    split <- tab$kind != "leaf"
    expect_identical(tab$n_oob[split], tab$n_oob[tab$left[split]] + tab$n_oob[tab$right[split]])
  }
  scored
}

test_that("n_oob counts each node's out-of-bag rows: default classes with factors and missing values", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 6, seed = 5, num_threads = 1)
  expect_gt(fit$oob_choosing_share, 0)  # the default's choosing rows are counted too
  scored <- expect_oob_counts(fit, d, seq_len(fit$ntree))
  # the rows drawn again are the engine's: each row's scoring trees
  expect_identical(scored, as.integer(fit$oob_count))
  # the same counts (and forest) for any number of threads
  two <- svforest(y ~ ., data = d, ntree = 6, seed = 5, num_threads = 2)
  expect_identical(two$forest$trees, fit$forest$trees)
  # the counts are the fit's own: another seed's rows give other counts
  other <- svforest(y ~ ., data = d, ntree = 6, seed = 6, num_threads = 1)
  expect_false(identical(svforest_tree(other, 1)$n_oob[1], svforest_tree(fit, 1)$n_oob[1]) &&
                 identical(svforest_tree(other, 2)$n_oob[1], svforest_tree(fit, 2)$n_oob[1]))
})

test_that("n_oob for a regression forest, case weights, a subsample and RSVF's bootstrap", {
  d <- inside_regression_data(250)
  fit <- svforest(y ~ ., data = d, ntree = 4, seed = 2, num_threads = 1)
  expect_identical(expect_oob_counts(fit, d, 1:4), as.integer(fit$oob_count))
  w <- rep(c(1, 3), length.out = nrow(d))
  weighted <- svforest(y ~ ., data = d, ntree = 3, seed = 2, case_weights = w, num_threads = 1)
  expect_oob_counts(weighted, d, 1:3)
  sub <- svforest(y ~ ., data = d, ntree = 3, seed = 2, sampler = "subsample", sample_fraction = 0.5,
                  num_threads = 1)
  expect_oob_counts(sub, d, 1:3)
  expect_identical(svforest_tree(sub, 1)$n_oob[1], nrow(d) - svforest_tree(sub, 1)$n_inbag[1])
  rsvf <- fit_method("rsvf", Species ~ ., data = iris)
  expect_oob_counts(rsvf, iris, seq_len(rsvf$ntree))
})

test_that("a sampler that uses every row leaves no row out of bag: n_oob is 0", {
  fit <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 2, seed = 1, num_threads = 1)
  tab <- svforest_tree(fit, 2)
  expect_identical(tab$n_oob, integer(nrow(tab)))
  td <- svforest(Species ~ ., data = iris, method = "tdsvm", ntree = 1, seed = 1, num_threads = 1)
  expect_identical(svforest_tree(td, 1)$n_oob, integer(nrow(svforest_tree(td, 1))))
})

test_that("the counts survive saveRDS, both tree layouts and combine(); models without them read NA", {
  d <- inside_class_data(200)
  fit <- svforest(y ~ ., data = d, ntree = 3, seed = 4, num_threads = 1)
  counts <- svforest_tree(fit, 2)$n_oob
  path <- withr::local_tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(svforest_tree(readRDS(path), 2)$n_oob, counts)
  plain <- fit
  plain$forest$trees <- lapply(fit$forest$trees, function(t) svforest:::tree_plain(fit$forest, t))
  expect_identical(svforest_tree(plain, 2)$n_oob, counts)
  expect_identical(svforest:::tree_compact(fit$forest, plain$forest$trees[[2]]), fit$forest$trees[[2]])
  # a model saved before the counts were kept: the column is NA, predictions unchanged
  old <- fit
  old$forest$trees <- lapply(fit$forest$trees, function(t) { t$leaf_oob <- NULL; t })
  expect_identical(svforest_tree(old, 2)$n_oob, rep(NA_integer_, length(counts)))
  new <- stats::na.omit(d)
  expect_identical(predict(old, new, type = "prob", num_threads = 1), predict(fit, new, type = "prob", num_threads = 1))
  saved <- readRDS(test_path("fixtures", "model-format-2.rds"))[["psvm"]]$model
  expect_true(all(is.na(svforest_tree(saved, 1)$n_oob)))
  more <- svforest(y ~ ., data = d, ntree = 2, seed = 4, first_tree = 3, num_threads = 1)
  both <- combine(fit, more)
  expect_identical(svforest_tree(both, 5)$n_oob, svforest_tree(more, 2)$n_oob)
})

test_that("damaged out-of-bag counts are errors naming the tree", {
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  bad <- fit
  bad$forest$trees[[2]]$leaf_oob <- as.raw(c(1, 2))
  expect_error(svforest_tree(bad, 2), "Tree 2 of the model is damaged.*out-of-bag counts")
  expect_error(predict(bad, iris), "tree 2 is damaged")
  plain <- fit
  plain$forest$trees[[1]] <- svforest:::tree_plain(fit$forest, fit$forest$trees[[1]])
  plain$forest$trees[[1]]$leaf_oob[1] <- -1L
  expect_error(predict(plain, iris), "negative out-of-bag count")
  plain$forest$trees[[1]]$leaf_oob <- 1:2
  expect_error(predict(plain, iris), "leaf_oob")
})
