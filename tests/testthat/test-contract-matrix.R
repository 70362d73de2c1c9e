# The contract as a matrix: every method x every condition x every
# invariant. Conditions: plain, case weights, missing values, sparse input,
# rank scaling, calibrated, each aggregation, regression. Invariants:
# 1. the model (importance included) and its predictions do not depend on
#    the number of threads;
# 2. saveRDS() and readRDS() keep the model and its predictions;
# 3. single-tree parts (first_tree = 0..3, given out of order), and two
#    halves made of them, combine into the whole forest: same trees,
#    predictions and out-of-bag results;
# 4. a row's out-of-bag prediction is what predict() says from that row's
#    out-of-bag trees (which the single-tree parts identify);
# 5. (the default method) svforest_future() grows the same forest.
# Every cell uses a sampler that leaves rows out (the method's own, else
# "bootstrap") so that the out-of-bag invariants bind; test-contract.R
# covers the presets with their own samplers. Small data, four trees.
# The default method ("hybrid") has conditions of its own: data frames with
# factor columns, which each tree codes by its own in-bag rows, and a forest
# that grows by its out-of-bag error.
# Outcomes of event times have their conditions in test-contract-survival.R
# and test-contract-competing.R (competing risks).

matrix_data <- function() {
  set.seed(31)
  n <- 120
  x <- matrix(stats::rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  y <- factor(c("a", "b", "c")[1L + (x[, 1] > 0) + (x[, 2] + 0.5 * x[, 3] > 0.5)])
  yr <- x[, 1] - x[, 2]^2 + stats::rnorm(n, sd = 0.1)
  xna <- x
  xna[sample(length(x), 40)] <- NA
  w <- stats::runif(n, 0.5, 2)
  w[c(3, 50)] <- 0  # rows of weight 0 are left out
  list(x = x, y = y, yr = yr, xna = xna, xs = Matrix::Matrix(x * (abs(x) > 0.6), sparse = TRUE), w = w)
}

# Each condition: the data and extra arguments of a cell.
matrix_conditions <- function(d) {
  plain <- list(x = d$x, y = d$y, args = list())
  with_args <- function(...) utils::modifyList(plain, list(args = list(...)))
  list(
    plain = plain,
    case_weights = with_args(case_weights = d$w),
    missing = utils::modifyList(plain, list(x = d$xna)),
    sparse = utils::modifyList(plain, list(x = d$xs)),
    rank = with_args(scale = "rank"),
    calibrated = with_args(calibrate = "platt"),
    vote = with_args(aggregation = "vote"),
    prob = with_args(aggregation = "prob"),
    max_confidence = with_args(aggregation = "max_confidence"),
    regression = list(x = d$x, y = d$yr, args = list())
  )
}

# Data of the default method's conditions: data frames with factors (a
# level effect in the outcome, so the per-tree level order matters), and
# linear classes on which 8 trees of seed 12 grow to 16 by the out-of-bag
# rule (growth is rare on data this small: the cell checks that it grew).
default_data <- function() {
  set.seed(32)
  n <- 120
  shift <- c(u = -1.5, v = 0, w = 1.5, z = 0.5)
  f <- factor(sample(names(shift), n, TRUE))
  frame <- data.frame(x1 = stats::rnorm(n), x2 = stats::rnorm(n), f = f,
                      g = factor(sample(c("p", "q", "r"), n, TRUE)))
  y <- factor(c("a", "b", "c")[1L + (frame$x1 + shift[f] > 0) + (frame$x2 > 0.4)])
  many <- factor(sample(sprintf("l%02d", 1:14), n, TRUE))  # over 10 levels: "auto" codes it per tree
  frame_r <- data.frame(x1 = frame$x1, x2 = frame$x2, many = many)
  yr <- frame$x1 + seq(-2, 2, length.out = 14)[many] + stats::rnorm(n, sd = 0.1)
  n_lin <- 240
  x_lin <- matrix(stats::rnorm(n_lin * 6), n_lin, 6, dimnames = list(NULL, paste0("x", 1:6)))
  list(frame = frame, y = y, frame_r = frame_r, yr = yr, x_lin = x_lin,
       y_lin = factor(ifelse(rowSums(x_lin) > 0, "a", "b")))
}

# Conditions of the default method alone (see matrix_conditions()).
default_conditions <- function(d) {
  list(
    factors = list(x = d$frame, y = d$y, args = list(factor_coding = "order"), coded = "f"),
    factors_regression = list(x = d$frame_r, y = d$yr, args = list(factor_coding = "auto"), coded = "many"),
    growth = list(x = d$x_lin, y = d$y_lin, args = list(ntree = 8L, ntree_max = 32L, seed = 12))
  )
}

# The training rows behind a fit's out-of-bag elements: without rows of
# weight 0 and without the rows calibration holds out.
oob_rows <- function(fit, y) {
  rows <- seq_along(y)
  if (!is.null(fit$rows_used)) rows <- rows[fit$rows_used]
  if (!is.null(fit$calibration)) {
    held <- svforest:::calibration_rows(fit$calibration$method, NULL, y[rows], "classification", fit$seed)$held
    rows <- rows[-held]
  }
  rows
}

oob_elements <- c("oob_predictions", "oob_error", "oob_prob", "oob_brier", "oob_logloss", "oob_votes",
                  "oob_prob_sum", "oob_count", "oob_confidence", "oob_confident_class", "oob_sum",
                  "oob_rsquared", "oob_error_ensemble", "oob_even_votes", "oob_even_prob_sum", "oob_even_count")

d <- matrix_data()
default_method <- svforest:::default_method("classification")
for (method in all_methods()) {
  conditions <- matrix_conditions(d)
  if (method == default_method) conditions <- c(conditions, default_conditions(default_data()))
  for (cond in names(conditions)) {
    if (cond == "regression" && !method %in% svforest:::regression_methods()) next
    label <- paste(method, "x", cond)
    test_that(paste(label, "- threads, saveRDS, combine of parts, OOB rule"), {
      case <- conditions[[cond]]
      regression <- is.numeric(case$y)
      args <- utils::modifyList(method_args(method), list(ntree = 4L, seed = 11, importance = "permutation"))
      args <- utils::modifyList(args, case$args)  # a condition may set ntree and seed
      if (identical(svforest:::svf_method(method)$sampler, "all")) args$sampler <- "bootstrap"
      fit <- function(...) suppressWarnings(do.call(svforest, c(list(case$x, case$y), utils::modifyList(args, list(...)))))
      one <- fit(num_threads = 1)
      two <- fit(num_threads = 2)
      types <- if (regression) c("response", "leaf") else c("class", "prob", "votes", "leaf")
      newx <- case$x[seq(1, nrow(case$x), by = 3), , drop = FALSE]

      # 1. threads (the importance too)
      expect_false(is.null(one$variable_importance))
      expect_identical(without_call(two), without_call(one), info = "threads")
      pred <- lapply(types, function(type) predict(one, newx, type = type, num_threads = 1))
      names(pred) <- types
      for (type in types) {
        expect_identical(predict(one, newx, type = type, num_threads = 2), pred[[type]], info = paste("threads", type))
      }

      # 2. saveRDS round trip
      path <- tempfile(fileext = ".rds")
      on.exit(unlink(path))
      saveRDS(one, path)
      back <- readRDS(path)
      expect_identical(without_call(back), without_call(one), info = "saveRDS")
      for (type in types) expect_identical(predict(back, newx, type = type), pred[[type]], info = paste("saveRDS", type))

      # the default's conditions bind: the forest grew, the trees code a factor each their own way
      if (!is.null(args$ntree_max)) expect_gt(one$ntree, args$ntree)
      if (!is.null(case$coded)) {
        codings <- lapply(seq_len(one$ntree), function(t) svforest_factor_coding(one, case$coded, tree = t))
        expect_gt(length(unique(codings)), 1L)
      }

      # 3. single-tree parts, out of order, combine into the whole forest
      n_trees <- one$ntree
      singles <- lapply(seq_len(n_trees) - 1L, function(t) {
        fit(ntree = 1L, ntree_max = NULL, first_tree = t, num_threads = 1 + t %% 2, importance = NULL)
      })
      shuffled <- c(rev(seq(1L, n_trees, by = 2L)), seq(2L, n_trees, by = 2L))
      both <- suppressWarnings(combine(singles[shuffled]))  # calibrated parts: a warning
      expect_identical(both$forest, one$forest, info = "combine")
      for (what in oob_elements) expect_identical(both[[what]], one[[what]], info = paste("combine", what))
      # two halves (themselves combined) give the same
      half <- n_trees %/% 2L
      halves <- suppressWarnings(combine(combine(singles[(half + 1L):n_trees]), combine(singles[seq_len(half)])))
      expect_identical(halves$forest, one$forest, info = "halves")
      for (what in oob_elements) expect_identical(halves[[what]], one[[what]], info = paste("halves", what))
      uncalibrated <- one
      uncalibrated$calibration <- NULL
      for (type in types) {
        expect_identical(predict(both, newx, type = type), predict(uncalibrated, newx, type = type),
                         info = paste("combine", type))
      }

      # 4. the out-of-bag rule is predict()'s
      member <- sapply(singles, function(s) s$oob_count > 0)
      expect_identical(as.integer(rowSums(member)), one$oob_count, info = "OOB trees")
      rows <- oob_rows(one, case$y)
      expect_identical(predict_from_oob_trees(one, case$x[rows, , drop = FALSE], member), one$oob_predictions,
                       info = "OOB rule")

      # 5. the default method: svforest_future() grows the same forest (in
      # rounds, where it grows by the out-of-bag rule)
      if (method == default_method && is.null(args$calibrate) && requireNamespace("future.apply", quietly = TRUE)) {
        old_plan <- future::plan(future::sequential)
        on.exit(future::plan(old_plan), add = TRUE)
        future_args <- args[setdiff(names(args), c("ntree", "seed", "importance"))]
        far <- suppressWarnings(do.call(svforest_future, c(list(case$x, case$y), future_args,
                                                           list(ntree = args$ntree, seed = args$seed, chunks = 2L))))
        expect_identical(far$forest, one$forest, info = "future")
        for (what in oob_elements) expect_identical(far[[what]], one[[what]], info = paste("future", what))
        expect_identical(predict(far, newx, type = types[1]), pred[[types[1]]], info = "future predict")
      }
    })
  }
}
