# Issue 51: plots, leaf numbers, n_oob, damaged splits, pred_int, `. - z`,
# survival weights and survival predictions as ranger and aorsf users expect.

lung_data <- function() {
  d <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog", "ph.karno", "wt.loss")])
  d$status <- d$status - 1L
  d
}

test_that("plot(fit, tree = k) draws a one-leaf tree (rsvf regression, tdsvm)", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  set.seed(1)
  d <- data.frame(x = rnorm(8), y = rnorm(8))
  reg <- svforest(y ~ x, data = d, method = "rsvf", ntree = 2, seed = 1, num_threads = 1)
  expect_identical(nrow(svforest_tree(reg, 1)), 1L)
  boxes <- plot(reg, tree = 1)
  expect_identical(boxes$kind, "leaf")
  td <- svforest(Species ~ ., data = droplevels(iris[c(1:6, 51:56), ]), method = "tdsvm", seed = 1, num_threads = 1)
  one <- which(vapply(seq_len(td$ntree), function(k) nrow(svforest_tree(td, k)), 0L) == 1L)
  expect_gt(length(one), 0)
  expect_identical(plot(td, tree = one[1])$kind, "leaf")
})

test_that("a tree's boxes do not overlap on the default 480 px device", {
  path <- tempfile(fileext = ".png")
  grDevices::png(path)  # 480 x 480 px
  on.exit({
    grDevices::dev.off()
    unlink(path)
  })
  aq <- na.omit(airquality)
  for (fit in list(svforest(Ozone ~ ., data = aq, ntree = 2, seed = 1, num_threads = 1),
                   svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1))) {
    boxes <- plot(fit, tree = 1)
    cex <- attr(boxes, "cex")
    if (is.null(cex)) cex <- graphics::par("cex")
    text <- attr(boxes, "text")
    if (is.null(text)) text <- boxes$label
    half <- graphics::strwidth(text, cex = cex) / 2 + 0.05
    for (d in unique(boxes$y)) {
      at <- which(boxes$y == d)
      at <- at[order(boxes$x[at])]
      if (length(at) < 2) next
      right_edge <- boxes$x[at[-length(at)]] + half[at[-length(at)]]
      left_edge <- boxes$x[at[-1]] - half[at[-1]]
      expect_true(all(right_edge < left_edge), info = paste("depth", d))
    }
    expect_lt(max(graphics::strheight(text, cex = cex)) + 0.16, 1)  # levels 1 apart
  }
})

test_that("a survival forest's plot shows its out-of-bag figures and takes a Surv y", {
  skip_if_not_installed("survival")
  d <- lung_data()
  fit <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 8, seed = 1, num_threads = 1)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(fit))
  y <- survival::Surv(d$time, d$status)
  expect_silent(plot(fit, newdata = d, y = y))
  curve <- svforest:::survival_error_curve(fit, d, y)
  expect_length(curve, 8L)
  risk <- predict(fit, d, type = "risk", num_threads = 1)
  c_all <- survival::concordance(y ~ risk, reverse = TRUE)$concordance
  expect_equal(curve[8], 1 - unname(c_all), tolerance = 1e-12)
  expect_error(plot(fit, newdata = d, y = d$status), "Surv")
})

test_that("predict(type = \"leaf\") joins to svforest_tree()'s `leaf` column and gives the predictions", {
  aq <- na.omit(airquality)
  fit <- svforest(Ozone ~ ., data = aq, ntree = 4, seed = 2, num_threads = 1)
  leaves <- predict(fit, aq, type = "leaf", num_threads = 1)
  per_tree <- vapply(seq_len(4), function(k) {
    tab <- svforest_tree(fit, k)
    expect_true(all(tab$leaf_model[tab$kind == "leaf"] == "constant"))
    rows <- tab[match(leaves[, k], tab$leaf), ]
    expect_true(all(rows$kind == "leaf"))
    unlist(rows$prediction)
  }, numeric(nrow(aq)))
  expect_equal(rowMeans(per_tree), predict(fit, aq, num_threads = 1), tolerance = 1e-9)
  # classification: the leaves' class shares average to "prob" (constant leaves)
  cl <- svforest(Species ~ ., data = iris, method = "psvm", ntree = 3, seed = 1, num_threads = 1)
  lv <- predict(cl, iris, type = "leaf", num_threads = 1)
  tab <- svforest_tree(cl, 2)
  expect_identical(sort(tab$leaf[!is.na(tab$leaf)]), seq_len(sum(tab$kind == "leaf")))
  expect_true(all(lv[, 2] %in% tab$leaf))
})

test_that("a fresh survival fit counts its out-of-bag rows per node (n_oob)", {
  skip_if_not_installed("survival")
  d <- lung_data()
  fit <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 3, seed = 1, num_threads = 1)
  for (k in 1:3) {
    tab <- svforest_tree(fit, k)
    expect_false(anyNA(tab$n_oob))
    # a subsample of ceiling(0.632 n) distinct rows leaves the others out
    expect_identical(tab$n_oob[1], nrow(d) - as.integer(ceiling(0.632 * nrow(d))))
    split <- tab$kind != "leaf"
    expect_identical(tab$n_oob[split], tab$n_oob[tab$left[split]] + tab$n_oob[tab$right[split]])
  }
})

test_that("NA, NaN or Inf in a split's weights or threshold is an error naming the section", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  for (bad in c(NA, NaN, Inf, -Inf)) {
    m <- fit
    m$forest$engine$trees[[1]]$split_real[1] <- bad  # the issue's command
    expect_error(predict(m, iris, num_threads = 1), "section 'forest'")
    m <- unclass(fit)  # the section itself
    m$forest$engine$trees[[1]]$split_real[3] <- bad
    class(m) <- class(fit)
    expect_error(predict(m, iris, num_threads = 1), "tree 1 .*split weight or threshold.*section 'forest'")
    m <- fit
    m$forest$trees[[2]]$split_real[1] <- bad
    expect_error(predict(m, iris, num_threads = 1), "tree 2 .*split weight or threshold.*section 'forest'")
  }
})

test_that("parsnip pred_int on small data: NA with a warning when too few calibration rows, else finite", {
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::set_mode(parsnip::rand_forest(trees = 20), "regression"), "svforest",
                              num_threads = 1, seed = 1)
  fit <- parsnip::fit(spec, mpg ~ ., data = mtcars)
  expect_warning(wide <- predict(fit, mtcars[1:3, ], type = "pred_int", level = 0.95),
                 "32 calibration rows are too few.*needs about 39")
  expect_true(all(is.na(wide$.pred_lower)) && all(is.na(wide$.pred_upper)))
  expect_silent(narrow <- predict(fit, mtcars[1:3, ], type = "pred_int", level = 0.8))
  expect_true(all(is.finite(narrow$.pred_lower) & is.finite(narrow$.pred_upper)))
  expect_true(all(narrow$.pred_lower <= narrow$.pred_upper))
})

test_that("a formula `y ~ . - z` needs only the columns the model uses at predict()", {
  d <- iris
  d$z <- seq_len(150)
  fit <- svforest(Species ~ . - z, data = d, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(predict(fit, iris, num_threads = 1), predict(fit, d, num_threads = 1))
  expect_error(predict(fit, iris[, -1], num_threads = 1), "lacks column `Sepal.Length`")
})

test_that("a column a formula removes (`. - z`) reaches neither the imputation nor the indicators", {
  d <- withr::with_seed(5, data.frame(a = rnorm(200), b = rexp(200), c = runif(200)))
  d$z <- d$a * 2 + withr::with_seed(6, rnorm(200))  # a close proxy of `a`
  d$y <- factor(ifelse(d$a + d$b > 1, "p", "q"))
  d$a[1:20] <- NA
  d$z[21:40] <- NA
  fit <- svforest(y ~ . - z, data = d, ntree = 5, seed = 1, num_threads = 1)
  # the same forest as without the column: `z` filled no `a` and made no `z_missing`
  without <- svforest(y ~ ., data = d[c("a", "b", "c", "y")], ntree = 5, seed = 1, num_threads = 1)
  expect_identical(fit$forest, without$forest)
  expect_false("z_missing" %in% fit$design$feature_names)
  new <- d[1:60, ]
  moved <- new
  moved$z <- moved$z + 100
  prob <- function(data) suppressWarnings(predict(fit, data, type = "prob", num_threads = 1))
  expect_identical(prob(moved), prob(new))
  expect_identical(prob(new[names(new) != "z"]), prob(new))
  skip_if_not_installed("RSQLite")
  con <- sql_connection(new = new)
  on.exit(DBI::dbDisconnect(con))
  res <- DBI::dbGetQuery(con, svforest_sql(fit, "new"))
  expect_lt(max(abs(as.matrix(res[, c(".pred_p", ".pred_q")]) - prob(new))), 1e-9)
})

test_that("survival case weights reweight the draw; nodes count distinct rows", {
  skip_if_not_installed("survival")
  d <- lung_data()
  n <- nrow(d)
  f <- function(w) svforest(survival::Surv(time, status) ~ ., data = d, ntree = 10, seed = 3, num_threads = 1,
                            case_weights = w)
  plain <- f(NULL)
  set.seed(4)
  w <- runif(n)
  weighted <- f(w)
  leaves <- function(fit) mean(vapply(seq_len(10), function(k) sum(svforest_tree(fit, k)$kind == "leaf"), 0))
  expect_lt(leaves(weighted), 1.5 * leaves(plain))
  for (k in 1:3) {
    tab <- svforest_tree(weighted, k)
    expect_identical(tab$n_inbag[1], as.integer(ceiling(0.632 * n)))  # distinct rows, no copies
    expect_true(all(tab$n_inbag[tab$kind == "leaf"] >= 10L))  # min_leaf_size in rows
  }
  # a row of large weight is drawn into (nearly) every tree: rarely out of bag
  heavy <- rep(1, n)
  heavy[1:5] <- 1000
  hw <- f(heavy)
  expect_lt(max(hw$oob_count[1:5]), stats::median(hw$oob_count[-(1:5)]))
})

test_that("classification and regression weights keep their documented copies (subsample, all)", {
  # documented in ?svforest_weights: "subsample" and "all" repeat a drawn row about
  # weight / smallest times; the bootstrap draws by weight (as ranger)
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, sampler = "all",
                  case_weights = rep(c(1, 2), 75))
  expect_identical(svforest_tree(fit, 1)$n_inbag[1], 225L)
})

test_that("survival: leaf and per-tree output, the times attribute, a warning past the last event time", {
  skip_if_not_installed("survival")
  d <- lung_data()
  fit <- svforest(survival::Surv(time, status) ~ ., data = d, ntree = 4, seed = 1, num_threads = 1)
  leaves <- predict(fit, d[1:20, ], type = "leaf", num_threads = 1)
  expect_identical(dim(leaves), c(20L, 4L))
  tab <- svforest_tree(fit, 3)
  expect_true(all(tab$kind[match(leaves[, 3], tab$leaf)] == "leaf"))
  times <- c(100, 300, 500)
  trees <- predict(fit, d[1:20, ], type = "trees", times = times, num_threads = 1)
  expect_identical(dim(trees), c(20L, 3L, 4L))
  chf <- predict(fit, d[1:20, ], type = "chf", times = times, num_threads = 1)
  expect_equal(unname(apply(-log(trees), c(1, 2), mean)), unname(unclass(chf)[, 1:3]), tolerance = 1e-12,
               ignore_attr = TRUE)
  # the grid beside the matrix (ranger's unique.death.times)
  s <- predict(fit, d[1:5, ], num_threads = 1)
  expect_identical(attr(s, "times"), fit$forest$times)
  expect_identical(attr(chf, "times"), times)
  last <- max(fit$forest$times)
  expect_warning(predict(fit, d[1:5, ], times = c(10, last + 1, last + 100), num_threads = 1),
                 "2 of `times`.*past the last training event time")
  expect_silent(predict(fit, d[1:5, ], times = c(10, last), num_threads = 1))
  warnings <- 0L
  withCallingHandlers(predict(fit, times = last + 1), warning = function(w) {
    warnings <<- warnings + 1L
    invokeRestart("muffleWarning")
  })
  expect_identical(warnings, 1L)
  # aorsf's risk at a horizon h: 1 - S(h)
  h <- stats::median(d$time)
  expect_equal(1 - predict(fit, d[1:5, ], times = h, num_threads = 1)[, 1],
               1 - exp(-predict(fit, d[1:5, ], type = "chf", times = h, num_threads = 1)[, 1]))
  expect_error(predict(fit, type = "leaf"), "needs `newdata`")
})

test_that("predict(fit) without newdata gives out-of-bag predictions for every outcome", {
  fit <- svforest(Species ~ ., data = iris, ntree = 10, seed = 1, num_threads = 1)
  cls <- predict(fit)
  expect_identical(cls, fit$oob_predictions)
  expect_identical(sum(is.na(cls)), sum(fit$oob_count == 0L))
  expect_equal(mean(cls != iris$Species, na.rm = TRUE), fit$oob_error_ensemble)
  prob <- predict(fit, type = "prob")
  expect_identical(dim(prob), c(150L, 3L))
  expect_equal(unname(rowSums(prob[!is.na(prob[, 1]), ])), rep(1, sum(!is.na(prob[, 1]))))
  aq <- na.omit(airquality)
  reg <- svforest(Ozone ~ ., data = aq, ntree = 10, seed = 1, num_threads = 1)
  expect_identical(predict(reg), reg$oob_predictions)
  expect_equal(mean((predict(reg) - aq$Ozone)^2, na.rm = TRUE), reg$oob_error)
  expect_error(predict(reg, type = "interval"), "needs `newdata`")
  all_rows <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, sampler = "all")
  expect_error(predict(all_rows), "no out-of-bag predictions")
})
