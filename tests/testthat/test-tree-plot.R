test_that("plot(tree =) draws a default tree whose labels are the table's", {
  d <- inside_class_data(300)
  fit <- svforest(y ~ ., data = d, ntree = 3, seed = 2, num_threads = 1)
  file <- tempfile(fileext = ".png")
  grDevices::png(file, width = 1400, height = 800)
  drawn <- plot(fit, tree = 2, max_depth = 3)
  grDevices::dev.off()
  expect_gt(file.size(file), 5000)
  tab <- svforest_tree(fit, 2)
  expect_setequal(drawn$node, tab$node[tab$depth <= 3 & (is.na(tab$parent) | tab$depth[pmax(1, tab$parent)] < 3)])
  splits <- drawn$kind != "leaf" & drawn$y < 3
  expect_identical(drawn$label[splits], tab$label[drawn$node[splits]])
  axis <- drawn$label[drawn$kind == "axis" & drawn$y < 3]
  expect_true(all(grepl("^[A-Za-z0-9_.()]+ <= -?[0-9.]+", axis)))
  hyper <- drawn$label[drawn$kind == "hyperplane" & drawn$y < 3]
  expect_gt(length(hyper), 0)
  # a hyperplane shows its three largest terms with their signs
  i <- drawn$node[drawn$kind == "hyperplane" & drawn$y < 3][1]
  w <- tab$terms[[i]]
  map <- svforest_design(fit)
  range <- 1 / map$scale_factor[match(names(w), map$term)]
  top <- names(w)[order(-abs(w * range))][seq_len(min(3, length(w)))]
  for (nm in top) expect_true(grepl(nm, tab$label[i], fixed = TRUE))
  leaves <- drawn$kind == "leaf"
  expect_true(all(grepl("^(lo|mid|hi) [01]\\.[0-9]{2}\nn = [0-9]+$", drawn$label[leaves])))
  expect_true(all(grepl("^\\.\\.\\. \\([0-9]+ rows\\)$", drawn$label[drawn$kind != "leaf" & drawn$y == 3])))
})

test_that("plot(fit) without tree is unchanged, and bad tree arguments are errors", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fit), fit)
  expect_error(plot(fit, tree = 5), "from 1 to 3")
  expect_error(plot(fit, tree = 1, max_depth = -1), "max_depth")
  deep <- plot(fit, tree = 1, max_depth = 10)
  expect_true(all(deep$kind[deep$label != ""] %in% c("axis", "hyperplane", "leaf")))
})
