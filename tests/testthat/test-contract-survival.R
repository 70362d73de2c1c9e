# The contract matrix's survival condition (see test-contract-matrix.R):
# the default forest on a Surv outcome, on a matrix, on a data frame with
# factors and missing values, and with case weights. Invariants: the model
# and its predictions do not depend on the number of threads; saveRDS()
# keeps them; single-tree parts (out of order) combine into the whole
# forest, out-of-bag results included, and so do two halves and
# svforest_future() (their out-of-bag sums of cumulative hazards add in
# another grouping, so those agree to rounding); a row's out-of-bag CHF is
# the mean of predict() over the trees it was out of bag in.
skip_if_not_installed("survival")

survival_contract_data <- function() {
  set.seed(41)
  n <- 100
  x <- matrix(stats::rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  time <- stats::rexp(n, exp(x[, 1] - 0.5 * x[, 2]))
  censor <- stats::rexp(n, 0.4)
  y <- survival::Surv(pmin(time, censor) + 0.01, as.integer(time <= censor))
  frame <- data.frame(x1 = x[, 1], x2 = x[, 2], f = factor(sample(c("u", "v", "w"), n, TRUE)))
  frame$x1[c(4, 9)] <- NA
  frame$f[12] <- NA
  w <- stats::runif(n, 0.5, 2)
  w[c(3, 50)] <- 0
  # delayed entry (issue #59): entries before the exits; and each row split
  # in two counting-process rows of one subject, drawn together by `id`
  entry <- stats::runif(n, 0, 0.8) * y[, 1]
  split_at <- stats::runif(n, 0.3, 0.7) * y[, 1]
  two <- survival::Surv(c(rep(0, n), split_at), c(split_at, y[, 1]), c(rep(0L, n), y[, 2]))
  list(
    delayed_entry = list(x = x, y = survival::Surv(entry, y[, 1], y[, 2]), args = list()),
    subjects = list(x = rbind(x, x), y = two, args = list(id = rep(seq_len(n), 2))),
    matrix = list(x = x, y = y, args = list()),
    frame_missing = list(x = frame, y = y, args = list()),
    case_weights = list(x = x, y = y, args = list(case_weights = w))
  )
}

survival_oob_elements <- c("oob_predictions", "oob_concordance", "oob_error", "oob_ibs", "oob_chf_sum")

for (cond in names(survival_contract_data())) {
  test_that(paste("hybrid x survival", cond, "- threads, saveRDS, combine of parts, future, OOB rule"), {
    case <- survival_contract_data()[[cond]]
    args <- c(list(ntree = 4L, seed = 11), case$args)
    fit <- function(...) suppressWarnings(do.call(svforest, c(list(case$x, case$y), utils::modifyList(args, list(...)))))
    one <- fit(num_threads = 1)
    two <- fit(num_threads = 2)
    newx <- case$x[seq(1, nrow(case$x), by = 3), , drop = FALSE]
    types <- c("survival", "chf", "risk", "time")
    pred <- lapply(stats::setNames(nm = types), function(type) suppressWarnings(predict(one, newx, type = type, num_threads = 1)))

    # 1. threads
    expect_identical(without_call(two), without_call(one), info = "threads")
    for (type in types) {
      expect_identical(suppressWarnings(predict(one, newx, type = type, num_threads = 2)), pred[[type]],
                       info = paste("threads", type))
    }

    # 2. saveRDS
    path <- tempfile(fileext = ".rds")
    on.exit(unlink(path))
    saveRDS(one, path)
    back <- readRDS(path)
    expect_identical(without_call(back), without_call(one), info = "saveRDS")
    for (type in types) expect_identical(suppressWarnings(predict(back, newx, type = type)), pred[[type]])

    # 3. single-tree parts, out of order, combine into the whole forest, exactly
    singles <- lapply(0:3, function(t) fit(ntree = 1L, first_tree = t, num_threads = 1 + t %% 2))
    both <- combine(singles[c(3, 1, 4, 2)])
    expect_identical(both$forest, one$forest, info = "combine")
    for (what in c(survival_oob_elements, "oob_count")) expect_identical(both[[what]], one[[what]], info = what)
    for (type in types) expect_identical(suppressWarnings(predict(both, newx, type = type)), pred[[type]])
    # two halves: the same trees, predictions and out-of-bag results (the
    # leaves' hazards lie on a grid whose sums are exact in any grouping)
    halves <- combine(combine(singles[3:4]), combine(singles[1:2]))
    expect_identical(halves$forest, one$forest, info = "halves")
    expect_identical(halves$oob_count, one$oob_count)
    for (what in survival_oob_elements) expect_identical(halves[[what]], one[[what]], info = what)
    for (type in types) expect_identical(suppressWarnings(predict(halves, newx, type = type)), pred[[type]])

    # 4. the out-of-bag rule is predict()'s: the mean CHF of a row's out-of-bag trees
    member <- sapply(singles, function(s) s$oob_count > 0)
    expect_identical(as.integer(rowSums(member)), one$oob_count)
    rows <- if (is.null(one$rows_used)) seq_len(nrow(case$x)) else which(one$rows_used)
    x_rows <- case$x[rows, , drop = FALSE]
    per_tree <- lapply(singles, function(s) suppressWarnings(predict(s, x_rows, type = "chf")))
    expected <- Reduce(`+`, Map(function(p, m) p * m, per_tree, as.data.frame(member))) / rowSums(member)
    expected[rowSums(member) == 0, ] <- NA
    expect_equal(unname(suppressWarnings(predict(one, type = "chf"))), unname(expected), tolerance = 1e-12)

    # 5. svforest_future() grows the same forest
    skip_if_not_installed("future.apply")
    old_plan <- future::plan(future::sequential)
    on.exit(future::plan(old_plan), add = TRUE)
    far <- suppressWarnings(do.call(svforest_future, c(list(case$x, case$y), case$args,
                                                       list(ntree = args$ntree, seed = args$seed, chunks = 2L))))
    expect_identical(far$forest, one$forest, info = "future")
    expect_identical(far$oob_count, one$oob_count)
    for (what in survival_oob_elements) expect_identical(far[[what]], one[[what]], info = what)
    for (type in types) expect_identical(suppressWarnings(predict(far, newx, type = type)), pred[[type]])
    one_chunk <- suppressWarnings(do.call(svforest_future, c(list(case$x, case$y), case$args,
                                                             list(ntree = args$ntree, seed = args$seed, chunks = 1L))))
    expect_identical(without_call(one_chunk), without_call(one), info = "future, one chunk")
  })
}
