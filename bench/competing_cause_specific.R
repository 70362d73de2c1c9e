# Cause 1's time-dependent AUC (mean over the 25/50/75% quantiles of the test
# event times, as bench/harness_competing.R scores it) on the competing-risks
# harness's splits, for forests that see cause 1 alone (cause-specific:
# ranger-500 and svforest's survival forest, other causes censored, ranked by
# their cumulative hazard) beside svforest's competing-risks forest and the
# cause-specific Cox model. It asks whether a set where the Cox model leads
# (pbc: about 12 training transplants, a linear effect of age) is one where
# forests as such trail, or ours alone.
#
#   Rscript bench/competing_cause_specific.R [--sets=pbc_cr,mgus2_cr] [--splits=10] [--threads=1]
# Results: bench/results/competing_cause_specific.txt (the command on its first line).
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  # the harness's data sets, splits and scores, without its run
  src <- parse(file.path(here, "harness_competing.R"))
  is_function <- vapply(src, function(e) is.call(e) && identical(e[[1]], as.name("<-")) && is.call(e[[3]]) &&
                          identical(e[[3]][[1]], as.name("function")), TRUE)
  for (f in c("bench_common.R", "datasets.R", "harness_table.R")) source(file.path(here, f), local = globalenv())
  for (e in src[is_function]) eval(e, globalenv())
})
suppressPackageStartupMessages({
  library(survival)
  library(prodlim)
  library(riskRegression)
  library(svforest)
})
options(width = 160)
args <- bench_args()
sets_wanted <- if (length(args$value("sets"))) strsplit(args$value("sets"), ",")[[1]] else c("pbc_cr", "mgus2_cr")
n_splits <- if (length(args$value("splits"))) as.integer(args$value("splits")) else 10L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 1L
sets <- competing_sets()

cause1_auc <- function(cif, test) competing_scores(cif, test, 1)[["auc_c1"]]
# a matrix of a curve at `times` from its values at `grid` (0 before the first)
at_times <- function(values, grid, times) {
  idx <- findInterval(times, grid)
  out <- matrix(0, nrow(values), length(times))
  out[, idx > 0] <- values[, idx[idx > 0], drop = FALSE]
  out
}

rows <- list()
for (nm in sets_wanted) {
  d <- sets[[nm]]()
  for (split_no in seq_len(n_splits)) {
    s <- competing_split(d, split_no)
    preds <- setdiff(names(s$train), c("time", "event"))
    imp <- impute_like(s$train[preds], s$test[preds], preds)
    one <- cbind(imp$train, time = s$train$time, status = as.integer(s$train$event == 1L))
    rg <- ranger::ranger(Surv(time, status) ~ ., data = one, num.trees = 500, seed = 1, num.threads = threads)
    rg_pred <- predict(rg, imp$test, num.threads = threads)
    sv_one <- s$train
    sv_one$status <- as.integer(sv_one$event == 1L)
    sv_one$event <- NULL
    sv_cs <- svforest(Surv(time, status) ~ ., data = sv_one, seed = 1, num_threads = threads, verbose = FALSE)
    cr <- s$train
    cr$event <- factor(cr$event, levels = 0:2, labels = c("censored", "cause1", "cause2"))
    sv_cr <- svforest(Surv(time, event) ~ ., data = cr, seed = 1, num_threads = threads, verbose = FALSE)
    # CSC prints the coefficients of a Cox fit that fails
    quiet <- function(expr) {
      utils::capture.output(value <- expr)
      value
    }
    csc <- tryCatch(quiet(riskRegression::CSC(Hist(time, event) ~ ., data = cbind(imp$train, time = s$train$time,
                                                                                    event = s$train$event))),
                    error = function(e) NULL)
    auc <- suppressWarnings(c(
      ranger_cause_specific = cause1_auc(function(times) at_times(rg_pred$chf, rg_pred$unique.death.times, times),
                                         s$test),
      svforest_cause_specific = cause1_auc(function(times) {
        1 - predict(sv_cs, s$test, type = "survival", times = times, num_threads = threads)
      }, s$test),
      svforest = cause1_auc(function(times) {
        predict(sv_cr, s$test, type = "cif", cause = "cause1", times = times, num_threads = threads)
      }, s$test),
      csc = tryCatch(quiet(cause1_auc(function(times) {
        riskRegression::predictRisk(csc, newdata = imp$test, times = times, cause = 1, product.limit = FALSE)
      }, s$test)), error = function(e) NA_real_)))
    rows[[length(rows) + 1]] <- data.frame(set = nm, split = split_no, events1_train = sum(s$train$event == 1L),
                                           t(auc))
  }
}
res <- do.call(rbind, rows)
print(res, digits = 3, row.names = FALSE)
methods <- c("ranger_cause_specific", "svforest_cause_specific", "svforest", "csc")
scored <- stats::complete.cases(res[, methods])
say("\nmeans over the splits where every method has a score (an AUC is NaN where a horizon has no cause-1 case;\n",
    "the Cox fit fails on some pbc splits)\n")
print(cbind(stats::aggregate(res[scored, methods], list(set = res$set[scored]), mean),
            splits = as.vector(table(res$set[scored]))), digits = 4, row.names = FALSE)
