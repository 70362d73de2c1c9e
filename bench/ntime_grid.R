# The curve grid of survival and competing-risks forests (issue #61,
# `ntime`): the default forest with `ntime = Inf` (every distinct training
# event time) against bounded grids, on the harness's survival and
# competing-risks sets, development splits only (101, 102, ...; the harness
# scores splits 1 to 10). The trees are the same for every `ntime` (splits
# and tree choice read the exact times), so the differences are the grid's
# alone. Scores as the harness computes them (harness_survival.R:
# Harrell's C of the risk, integrated Brier score; harness_competing.R:
# Wolbers' C, time-dependent AUC and integrated Brier score per cause).
#   Rscript bench/ntime_grid.R [--splits=2] [--ntime=150,50] [--threads=2] [--only=pbc,...]
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
  source(file.path(here, "harness_survival.R"))
  # the competing harness's data sets, splits and scores, without running it
  exprs <- parse(file.path(here, "harness_competing.R"))
  for (e in exprs) {
    if (is.call(e) && identical(e[[1]], as.name("<-")) && is.call(e[[3]]) && identical(e[[3]][[1]], as.name("function")))
      eval(e, globalenv())
  }
}, envir = globalenv())
suppressPackageStartupMessages({
  library(survival)
  library(prodlim)
  library(riskRegression)
  library(svforest)
})

opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), commandArgs(TRUE), value = TRUE)
  if (length(hit)) sub(sprintf("^--%s=", name), "", hit[1]) else default
}
splits <- 100L + seq_len(as.integer(opt("splits", "2")))
grids <- c(Inf, as.numeric(strsplit(opt("ntime", "150"), ",")[[1]]))
threads <- as.integer(opt("threads", "2"))
only <- strsplit(opt("only", ""), ",")[[1]]
rows <- list()
record <- function(task, set, split, ntime, scores) {
  rows[[length(rows) + 1L]] <<- data.frame(task = task, dataset = set, split = split, ntime = ntime,
                                           metric = names(scores), value = unname(scores))
}
cat(sprintf("svforest %s, development splits %s, ntime %s\n", utils::packageVersion("svforest"),
            paste(splits, collapse = ","), paste(grids, collapse = ",")))

for (set in names(survival_sets())) {
  if (length(only) && !set %in% only) next
  d <- survival_sets()[[set]]()
  for (r in splits) {
    s <- resplit(survival_split(d), r)
    for (g in grids) {
      fit <- svforest(Surv(time, status) ~ ., data = s$train, seed = 1, num_threads = threads, ntime = g)
      pred <- list(surv = function(times) predict(fit, s$test, type = "survival", times = times, num_threads = threads),
                   risk = predict(fit, s$test, type = "risk", num_threads = threads))
      sc <- suppressWarnings(survival_scores(pred, s$train, s$test))
      record("survival", set, r, g, sc[c("cindex", "ibs")])
      cat(sprintf("%-16s split %d ntime %4s grid %5d  C %.4f  IBS %.4f\n", set, r, format(g),
                  length(fit$forest$times), sc[["cindex"]], sc[["ibs"]]))
    }
  }
}
for (set in names(competing_sets())) {
  if (length(only) && !set %in% only) next
  d <- tryCatch(competing_sets()[[set]](), error = function(e) NULL)
  if (is.null(d)) next
  for (r in splits) {
    s <- competing_split(d, r)
    train <- s$train
    test <- s$test
    train$event <- factor(train$event, 0:2, c("censored", "cause1", "cause2"))
    for (g in grids) {
      fit <- svforest(Surv(time, event) ~ ., data = train, seed = 1, num_threads = threads, ntime = g)
      sc <- unlist(lapply(1:2, function(k) {
        cif <- function(times) suppressWarnings(predict(fit, test, type = "cif", cause = k, times = times,
                                                        num_threads = threads))
        competing_scores(cif, test, k)[paste0(c("cindex", "auc", "ibs"), "_c", k)]
      }))
      record("competing", set, r, g, sc)
      cat(sprintf("%-16s split %d ntime %4s grid %5d  %s\n", set, r, format(g), length(fit$forest$times),
                  paste(sprintf("%s %.4f", names(sc), sc), collapse = " ")))
    }
  }
}

res <- do.call(rbind, rows)
base <- res[res$ntime == Inf, ]
cat("\n== each grid against ntime = Inf: mean over sets and splits of (grid - Inf); worst set ==\n")
for (g in setdiff(grids, Inf)) {
  one <- res[res$ntime == g, ]
  m <- merge(one, base, by = c("task", "dataset", "split", "metric"), suffixes = c("", ".inf"))
  m$diff <- m$value - m$value.inf
  m$kind <- sub("_c[0-9]+$", "", m$metric)
  per_set <- stats::aggregate(diff ~ task + dataset + kind, data = m, FUN = mean)
  for (kind in unique(per_set$kind)) {
    p <- per_set[per_set$kind == kind, ]
    worst <- if (kind == "ibs") p[which.max(p$diff), ] else p[which.min(p$diff), ]
    cat(sprintf("ntime %4s %-7s mean %+.5f  worst %s %+.5f  (%d sets)\n", format(g), kind, mean(p$diff),
                worst$dataset, worst$diff, nrow(p)))
  }
}
