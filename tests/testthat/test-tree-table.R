test_that("walking the tables of a default classification forest reproduces predict()", {
  d <- inside_class_data(400)
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 3, num_threads = 1)
  new <- inside_class_data(1000, seed = 11)
  walked <- walk_tables(fit, new)
  expect_equal(unname(walked$prob), unname(predict(fit, new, type = "prob")), tolerance = 1e-9)
  expect_identical(walked$class, predict(fit, new))
  tab <- svforest_tree(fit, 4)  # per-tree level values changed training: tree 2 now has no hyperplane split
  expect_true(all(c("axis", "hyperplane", "leaf") %in% tab$kind))
  expect_setequal(unlist(lapply(tab$terms, names)),
                  intersect(svforest_design(fit)$term, unlist(lapply(tab$terms, names))))
  # leaves hold class shares that sum to one; splits have two children
  leaf <- tab$kind == "leaf"
  expect_equal(vapply(tab$prediction[leaf], sum, 0), rep(1, sum(leaf)))
  expect_true(all(!is.na(tab$left[!leaf])) && all(is.na(tab$left[leaf])))
  expect_identical(tab$n_inbag[1], 400L)
  expect_identical(tab$n_inbag[!leaf], tab$n_inbag[tab$left[!leaf]] + tab$n_inbag[tab$right[!leaf]])
})

test_that("factor codings and missing values are readable from the fit", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  map <- svforest_design(fit)
  expect_identical(map$type[map$name == "f"], "factor_code")
  coding <- svforest_factor_coding(fit, "f", tree = 3)
  expect_setequal(names(coding), c("a", "b", "c", "(missing)"))
  # the design holds the level CODE (position in the coding); tree 3 maps it
  # to coding[code]: a row of "b" reads code of "b", a missing f "(missing)"
  new <- d[1:2, ]
  new$f <- factor(c("b", NA), levels = levels(d$f))
  vals <- svforest_design(fit, new)
  expect_equal(unname(vals[, "f"]), match(c("b", "(missing)"), names(coding)))
  expect_identical(map$variable[map$type == "missing_indicator"], c("x1", "x3"))
  expect_error(svforest_factor_coding(fit, "x1"), "coded factor")
})

test_that("weights and thresholds are on the user's scale", {
  d <- stats::na.omit(inside_class_data(300))  # (median imputation is equivariant, its floor is not)
  big <- d
  big$x1 <- big$x1 * 1000
  a <- svforest(y ~ x1 + x2 + x3, data = d, ntree = 2, seed = 2, num_threads = 1)
  b <- svforest(y ~ x1 + x2 + x3, data = big, ntree = 2, seed = 2, num_threads = 1)
  # the engine is equivariant up to rounding, so the trees agree near the root
  ta <- svforest_tree(a, 1)
  tb <- svforest_tree(b, 1)
  h <- which(ta$kind == "hyperplane")[1]
  expect_identical(tb$kind[h], "hyperplane")
  wa <- ta$terms[[h]]
  wb <- tb$terms[[h]]
  expect_identical(names(wb), names(wa))
  expect_true("x1" %in% names(wa))
  expect_equal(wb * ifelse(names(wb) == "x1", 1000, 1), wa, tolerance = 1e-6)
  expect_equal(tb$threshold[h], ta$threshold[h], tolerance = 1e-6)
  x1_cut <- function(tab) which(tab$kind == "axis" & vapply(tab$terms, function(w) identical(names(w), "x1"), NA))
  cuts_a <- ta$threshold[x1_cut(ta)]
  cuts_b <- tb$threshold[x1_cut(tb)]
  expect_gt(length(cuts_a), 0)
  expect_equal(cuts_b[1], 1000 * cuts_a[1], tolerance = 1e-6)
  expect_true("hyperplane" %in% ta$kind)
})

test_that("linear leaves (rsvt) walk to predict(), coefficients per unit of the predictors", {
  d <- inside_class_data(400)
  fit <- svforest(y ~ x1 + x2 + x3 + f, data = d, method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
  new <- inside_class_data(1000, seed = 12)
  walked <- walk_tables(fit, new)
  expect_equal(unname(walked$prob), unname(predict(fit, new, type = "prob")), tolerance = 1e-9)
  expect_identical(walked$class, predict(fit, new))
  tab <- svforest_tree(fit, 1)
  expect_true(any(tab$leaf_model %in% "linear_svm"))
  # a leaf's coefficient on x2 is the engine's weight on scaled x2 times its scale factor
  big <- d
  big$x2 <- big$x2 * 1000
  fit_big <- svforest(y ~ x1 + x2 + x3 + f, data = big, method = "rsvt", ntree = 5, seed = 2, num_threads = 1)
  lin <- which(tab$leaf_model %in% "linear_svm")[1]
  expect_equal(svforest_tree(fit_big, 1)$coefficients[[lin]]["x2", ] * 1000, tab$coefficients[[lin]]["x2", ],
               tolerance = 1e-4)
})

test_that("regression forests (default and rsvt) walk to predict()", {
  d <- inside_regression_data(300)
  new <- inside_regression_data(1000, seed = 9)
  fit <- svforest(y ~ ., data = d, ntree = 20, seed = 1, num_threads = 1)
  expect_equal(walk_tables(fit, new)$response, predict(fit, new), tolerance = 1e-9)
  lin <- svforest(y ~ ., data = d, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  expect_true(any(svforest_tree(lin, 1)$leaf_model %in% c("ridge", "linear_svr")))
  expect_equal(walk_tables(lin, new)$response, predict(lin, new), tolerance = 1e-9)
  expect_identical(svforest_design(fit)$type[svforest_design(fit)$name == "fb"], "factor_level")
})

test_that("rank-transformed columns are named rank() and their cuts read in raw units", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 10, seed = 5, scale = "rank", num_threads = 1)
  map <- svforest_design(fit)
  expect_true("rank(x2)" %in% map$term)
  new <- inside_class_data(1000, seed = 13)
  walked <- walk_tables(fit, new)
  expect_equal(unname(walked$prob), unname(predict(fit, new, type = "prob")), tolerance = 1e-9)
  tabs <- lapply(1:10, function(t) svforest_tree(fit, t))
  cut <- do.call(rbind, lapply(tabs, function(tab) tab[tab$kind == "axis" & vapply(tab$terms, function(w) identical(names(w), "rank(x2)"), NA), ]))
  expect_gt(nrow(cut), 0)
  raw <- as.numeric(sub("^x2 <= ", "", cut$label[1]))
  rank_col <- map$rank_map[[match("rank(x2)", map$term)]]
  # rows at the raw cut go left, rows a little above go right
  expect_lte(svforest:::rank_apply_column(raw * (1 - 1e-3), rank_col), cut$threshold[1])
  expect_gt(svforest:::rank_apply_column(raw * (1 + 1e-2) + 1e-3, rank_col), cut$threshold[1])
})

test_that("the forest summary counts axis cuts and hyperplanes per predictor", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 5, seed = 1, num_threads = 1)
  s <- svforest_tree_summary(fit)
  tabs <- lapply(1:5, function(t) svforest_tree(fit, t))
  n_axis <- sum(vapply(tabs, function(tab) sum(tab$kind == "axis"), 0))
  expect_identical(sum(s$axis), as.integer(n_axis))
  x1_axis <- sum(vapply(tabs, function(tab) sum(tab$kind == "axis" & vapply(tab$terms, function(w) "x1" %in% names(w), NA)), 0))
  expect_identical(s$axis[s$term == "x1"], as.integer(x1_axis))
  expect_true(all(s$mean_depth_axis[s$axis > 0] >= 0))
})

test_that("bad arguments and damaged models give clear errors", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  expect_error(svforest_tree(fit, 4), "from 1 to 3")
  expect_error(svforest_tree(fit, 0), "from 1 to 3")
  expect_error(svforest_tree(fit, "a"), "whole number")
  expect_error(svforest_tree(iris), "svforest")
  broken <- fit
  broken$forest$trees[[1]]$leaf_kind <- NULL
  expect_error(svforest_tree(broken, 1), "Tree 1 of the model is damaged")
  cut <- fit
  cut$forest$trees[[2]]$split_real <- cut$forest$trees[[2]]$split_real[-1]
  expect_error(svforest_tree(cut, 2), "Tree 2 of the model is damaged")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error(plot(cut, tree = 2), "Tree 2 of the model is damaged")
})

test_that("every preset gives the same columns; psvm hyperplanes walk to predict()", {
  cols <- c("node", "parent", "left", "right", "depth", "kind", "leaf", "terms", "threshold", "label", "n_inbag", "n_oob",
            "prediction", "leaf_model", "intercept", "coefficients")
  for (m in c("rsvt", "rsvf", "psvm", "transform", "tdsvm")) {
    fit <- svforest(Species ~ ., data = iris, method = m, ntree = 2, seed = 1, num_threads = 1)
    tab <- svforest_tree(fit, 1)
    expect_setequal(names(tab), cols)
    leaf <- tab$kind == "leaf"
    expect_identical(sum(leaf), as.integer(svforest:::tree_n_leaves(fit$forest$trees[[1]])), label = m)
    expect_identical(sum(tab$n_inbag[leaf]), tab$n_inbag[1], label = m)
    expect_true(all(is.na(tab$leaf_model[!leaf])) && !anyNA(tab$leaf_model[leaf]), label = m)
  }
  tf <- svforest_tree(svforest(Species ~ ., data = iris, method = "transform", ntree = 1, seed = 1, num_threads = 1), 1)
  expect_true(any(grepl("transform", tf$kind)))
  expect_true(all(vapply(tf$terms[grepl("transform", tf$kind)], is.null, NA)))
  psvm <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 3, seed = 1, num_threads = 1)
  expect_true(any(svforest_tree(psvm, 1)$kind == "hyperplane"))
  walked <- walk_tables(psvm, iris)
  expect_equal(unname(walked$prob), unname(predict(psvm, iris, type = "prob")), tolerance = 1e-9)
})
