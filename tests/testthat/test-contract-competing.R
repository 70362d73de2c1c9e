# The contract matrix's competing-risks condition (see
# test-contract-matrix.R): the default forest on a competing-risks outcome,
# on a matrix, on a data frame with factors and missing values, and with
# case weights. Invariants: the model and its predictions do not depend on
# the number of threads; saveRDS() keeps them; single-tree parts (out of
# order) and two halves combine into the whole forest, out-of-bag results
# included, and so does svforest_future(); a row's out-of-bag CIF is the
# mean of predict() over the trees it was out of bag in.
skip_if_not_installed("survival")

competing_contract_data <- function() {
  set.seed(43)
  n <- 120
  x <- matrix(stats::rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("x", 1:4)))
  t1 <- stats::rexp(n, 0.5 * exp(x[, 1]))
  t2 <- stats::rexp(n, 0.5 * exp(-x[, 2]))
  censor <- stats::rexp(n, 0.3)
  time <- pmin(t1, t2, censor) + 0.01
  code <- ifelse(censor < pmin(t1, t2), 0L, ifelse(t1 < t2, 1L, 2L))
  y <- survival::Surv(time, factor(c("censored", "relapse", "death")[code + 1L], c("censored", "relapse", "death")))
  frame <- data.frame(x1 = x[, 1], x2 = x[, 2], f = factor(sample(c("u", "v", "w"), n, TRUE)))
  frame$x1[c(4, 9)] <- NA
  frame$f[12] <- NA
  w <- stats::runif(n, 0.5, 2)
  w[c(3, 50)] <- 0
  list(
    matrix = list(x = x, y = y, args = list()),
    frame_missing = list(x = frame, y = y, args = list()),
    case_weights = list(x = x, y = y, args = list(case_weights = w))
  )
}

# (newdata's missing values are filled in with a warning, as in training)
quiet_predict <- function(...) suppressWarnings(stats::predict(...))

competing_oob_elements <- c("oob_predictions", "oob_concordance", "oob_error", "oob_ibs", "oob_cif_sum")

for (cond in names(competing_contract_data())) {
  test_that(paste("hybrid x competing", cond, "- threads, saveRDS, combine of parts, future, OOB rule"), {
    case <- competing_contract_data()[[cond]]
    args <- c(list(ntree = 4L, seed = 11), case$args)
    fit <- function(...) suppressWarnings(do.call(svforest, c(list(case$x, case$y), utils::modifyList(args, list(...)))))
    one <- fit(num_threads = 1)
    expect_identical(one$type, "competing")
    newx <- case$x[seq(1, nrow(case$x), by = 3), , drop = FALSE]
    types <- c("cif", "chf", "survival", "risk")
    pred <- lapply(stats::setNames(nm = types), function(type) quiet_predict(one, newx, type = type, num_threads = 1))
    same_predictions <- function(model, info) {
      for (type in types) expect_identical(quiet_predict(model, newx, type = type), pred[[type]], info = paste(info, type))
    }

    # 1. threads
    two <- fit(num_threads = 2)
    expect_identical(without_call(two), without_call(one), info = "threads")
    for (type in types) expect_identical(quiet_predict(one, newx, type = type, num_threads = 2), pred[[type]])

    # 2. saveRDS
    path <- tempfile(fileext = ".rds")
    on.exit(unlink(path))
    saveRDS(one, path)
    back <- readRDS(path)
    expect_identical(without_call(back), without_call(one), info = "saveRDS")
    same_predictions(back, "saveRDS")

    # 3. single-tree parts, out of order, and two halves combine into the
    # whole forest exactly (the leaves' curves lie on a grid whose sums are
    # exact in any grouping)
    singles <- lapply(0:3, function(t) fit(ntree = 1L, first_tree = t, num_threads = 1 + t %% 2))
    both <- combine(singles[c(3, 1, 4, 2)])
    expect_identical(both$forest, one$forest, info = "combine")
    for (what in c(competing_oob_elements, "oob_count")) expect_identical(both[[what]], one[[what]], info = what)
    same_predictions(both, "combine")
    halves <- combine(combine(singles[3:4]), combine(singles[1:2]))
    expect_identical(halves$forest, one$forest, info = "halves")
    for (what in c(competing_oob_elements, "oob_count")) expect_identical(halves[[what]], one[[what]], info = what)

    # 4. the out-of-bag rule is quiet_predict()'s: the mean CIF of a row's out-of-bag trees
    member <- sapply(singles, function(s) s$oob_count > 0)
    expect_identical(as.integer(rowSums(member)), one$oob_count)
    rows <- if (is.null(one$rows_used)) seq_len(nrow(case$x)) else which(one$rows_used)
    x_rows <- case$x[rows, , drop = FALSE]
    per_tree <- lapply(singles, function(s) quiet_predict(s, x_rows, type = "cif", cause = "death"))
    expected <- Reduce(`+`, Map(function(p, m) p * m, per_tree, as.data.frame(member))) / rowSums(member)
    expected[rowSums(member) == 0, ] <- NA
    expect_equal(unname(quiet_predict(one, type = "cif", cause = "death")), unname(expected), tolerance = 1e-12)

    # 5. svforest_future() grows the same forest
    skip_if_not_installed("future.apply")
    old_plan <- future::plan(future::sequential)
    on.exit(future::plan(old_plan), add = TRUE)
    far <- suppressWarnings(do.call(svforest_future, c(list(case$x, case$y), case$args,
                                                       list(ntree = args$ntree, seed = args$seed, chunks = 2L))))
    expect_identical(far$forest, one$forest, info = "future")
    for (what in c(competing_oob_elements, "oob_count")) expect_identical(far[[what]], one[[what]], info = what)
    same_predictions(far, "future")
  })
}
