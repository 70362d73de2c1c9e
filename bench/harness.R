# The benchmark harness: every data set of the registry (bench/datasets.R),
# svforest's methods and the peers, fitted on the same splits in the same
# run, one results table.
#
#   Rscript bench/harness.R [data_dir] [--only=a,b] [--task=classification|regression]
#       [--methods=svforest,ranger,grf_llf,cubist,svforest:rsvt,...] [--seeds=1,2]
#       [--splits=auto|N] [--threads=2] [--out=name] [--list]
#   Rscript bench/harness.R --merge=first,second,... [--task=...] --out=name
#
# --merge fits nothing: it joins earlier results (bench/results/<name>.csv),
# a data set's rows in a later file replacing its rows in earlier ones (a
# re-run of the sets a change touches), and prints the summary of the union.
#
# Methods: "svforest" is svforest() with its defaults (no arguments besides
# seed and threads); "svforest:<method>" a preset with its defaults;
# "ranger" ranger with 500 trees and its defaults; for regression also
# "grf_llf" (grf's local linear forest, defaults) and "cubist" (Cubist,
# defaults). Default: svforest, ranger, and for regression grf_llf and cubist.
# Peers only this bench uses (grf, Cubist) are installed from CRAN here when
# missing.
#
# Splits: a test set of a few dozen rows cannot tell two methods apart (one
# row of sonar's 69 is 1.4 points), so with --splits=auto (the default) a
# set is scored on min(10, ceiling(1000 / test rows)) splits, so that about
# 1,000 test rows or more stand behind each figure: the registry's own
# split, then re-splits of its pooled rows with the same number of test rows
# (stratified by class for classification), drawn with seeds 2, 3, ...
# --splits=1 scores the registry's split alone. Figures are means over
# splits and seeds.
#
# Every method gets the same training rows. svforest and Cubist take the
# data frames as they are (factors, missing values); ranger 0.14 and grf's
# local linear forest take no missing values, so they get the training
# medians (numbers) and most frequent levels (factors) in their place, and
# grf gets indicator columns for factors (model.matrix). Test rows with a
# factor level unseen in training get NA in that column, for every method.
#
# Output: bench/results/<out>.csv, one row per data set x method x seed x
# split: commit, dataset, task, n_train, n_test, p, method, seed, split, metric
# (accuracy or rmse), value, fit_s and fit_cpu_s (elapsed and CPU seconds
# of the fit), predict_s (the test rows),
# predict10k_s (10,000 rows drawn from the test rows; the fastest of three
# runs), model_mb
# (serialised size), oob (the fit's out-of-bag error, NA if none); then a
# summary against ranger.
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
}, envir = globalenv())

args <- bench_args()
# the registry's packaged data sets (Debian packages; installed here when missing)
for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
registry <- benchmark_registry(args$data_dir)
if (args$flag("list")) {
  for (nm in names(registry)) say(sprintf("%-20s %-15s %s\n", nm, registry[[nm]]$task, registry[[nm]]$source))
  quit(save = "no")
}
sets <- names(registry)
if (length(args$only)) sets <- intersect(args$only, sets)
task_filter <- args$value("task")
if (length(task_filter)) sets <- sets[vapply(registry[sets], function(r) r$task %in% task_filter, TRUE)]
seeds <- if (length(args$value("seeds"))) as.integer(args$value("seeds")) else 1L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
out_name <- if (length(args$value("out"))) args$value("out") else "harness"
methods_arg <- args$value("methods")
splits_arg <- if (length(args$value("splits"))) args$value("splits") else "auto"

suppressPackageStartupMessages(library(svforest))
stopifnot(requireNamespace("ranger", quietly = TRUE))
commit <- tryCatch(system2("git", c("-C", dirname(bench_dir), "rev-parse", "--short", "HEAD"), stdout = TRUE),
                   error = function(e) NA_character_)

# The number of splits of a set (see the header).
n_splits <- function(n_test) bench_n_splits(n_test, splits_arg)

# The fastest of three runs of a prediction: a single run on a shared
# machine measures the neighbours as much as the method.
timed_best <- function(f) {
  runs <- lapply(1:3, function(i) timed(f()))
  runs[[which.min(vapply(runs, function(r) r$seconds, 0))]]
}

rows10k <- function(test) test[rep_len(sample.int(nrow(test)), 10000L), , drop = FALSE]

# Elapsed seconds, and CPU seconds of the process (all its threads): on a
# shared machine the CPU time is the steadier figure.
timed <- function(expr) {
  invisible(gc(verbose = FALSE))
  t0 <- proc.time()
  value <- force(expr)
  d <- proc.time() - t0
  list(value = value, seconds = d[["elapsed"]], cpu = d[["user.self"]] + d[["sys.self"]])
}

# One method on one split: list(pred (test), fit_s, predict_s, predict10k_s, model_mb, oob).
run_method <- function(method, s, seed) {
  y <- s$train[[s$outcome]]
  preds <- setdiff(names(s$train), s$outcome)
  regression <- is.numeric(y)
  f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
  big <- rows10k(s$test)
  if (startsWith(method, "svforest")) {
    m <- sub("^svforest:?", "", method)
    fit <- timed(if (nzchar(m)) svforest(f, data = s$train, method = m, seed = seed, num_threads = threads, verbose = FALSE)
                 else svforest(f, data = s$train, seed = seed, num_threads = threads, verbose = FALSE))
    p <- timed(predict(fit$value, s$test, num_threads = threads))
    p10 <- timed_best(function() predict(fit$value, big, num_threads = threads))
    return(list(pred = p$value, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = p$seconds, predict10k_s = p10$seconds,
                model_mb = length(serialize(fit$value, NULL)) / 2^20, oob = fit$value$oob_error))
  }
  imp <- impute_like(s$train[preds], rbind(s$test[preds], big[preds]), preds)
  xtr <- imp$train
  xte <- imp$test[seq_len(nrow(s$test)), , drop = FALSE]
  xbig <- imp$test[-seq_len(nrow(s$test)), , drop = FALSE]
  if (method == "ranger") {
    fit <- timed(ranger::ranger(x = xtr, y = y, num.trees = 500, seed = seed, num.threads = threads, verbose = FALSE))
    pr <- function(x) stats::predict(fit$value, x, num.threads = threads)$predictions
    p <- timed(pr(xte))
    p10 <- timed_best(function() pr(xbig))
    return(list(pred = p$value, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = p$seconds, predict10k_s = p10$seconds,
                model_mb = length(serialize(fit$value, NULL)) / 2^20, oob = fit$value$prediction.error))
  }
  if (method == "grf_llf") {
    mm <- function(x) {
      m <- stats::model.matrix(~ ., data = x)[, -1, drop = FALSE]
      m
    }
    all <- mm(rbind(xtr, xte, xbig))
    ntr <- nrow(xtr)
    nte <- nrow(xte)
    fit <- timed(grf::ll_regression_forest(all[seq_len(ntr), , drop = FALSE], y, seed = seed, num.threads = threads))
    pr <- function(x) stats::predict(fit$value, x, num.threads = threads)$predictions
    p <- timed(pr(all[ntr + seq_len(nte), , drop = FALSE]))
    p10 <- timed_best(function() pr(all[-seq_len(ntr + nte), , drop = FALSE]))
    return(list(pred = p$value, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = p$seconds, predict10k_s = p10$seconds,
                model_mb = length(serialize(fit$value, NULL)) / 2^20, oob = NA_real_))
  }
  if (method == "cubist") {
    fit <- timed(Cubist::cubist(s$train[preds], y))
    p <- timed(stats::predict(fit$value, s$test[preds]))
    p10 <- timed_best(function() stats::predict(fit$value, big[preds]))
    return(list(pred = p$value, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = p$seconds, predict10k_s = p10$seconds,
                model_mb = length(serialize(fit$value, NULL)) / 2^20, oob = NA_real_))
  }
  stop("unknown method ", method)
}

results <- list()
csv <- results_csv(out_name)
merge_arg <- args$value("merge")
if (length(merge_arg)) {
  for (name in merge_arg) {
    part <- utils::read.csv(results_csv(name), stringsAsFactors = FALSE)
    results <- c(Filter(function(r) !r$dataset[1] %in% part$dataset, results), split(part, seq_len(nrow(part))))
  }
  merged <- do.call(rbind, results)
  if (length(task_filter)) merged <- merged[merged$task %in% task_filter, , drop = FALSE]
  results <- split(merged, seq_len(nrow(merged)))
  utils::write.csv(merged, csv, row.names = FALSE)
  sets <- character()
}
for (nm in sets) {
  entry <- registry[[nm]]
  s <- tryCatch(entry$load(), error = function(e) {
    say(sprintf("%-20s skipped: %s\n", nm, conditionMessage(e)))
    NULL
  })
  if (is.null(s)) next
  s$test <- align_levels(s$train, s$test)
  regression <- entry$task == "regression"
  methods <- if (length(methods_arg)) methods_arg
             else c("svforest", "ranger", if (regression) c("grf_llf", "cubist"))
  if (!regression) methods <- setdiff(methods, c("grf_llf", "cubist"))
  if ("grf_llf" %in% methods && !bench_need_cran("grf")) methods <- setdiff(methods, "grf_llf")
  if ("cubist" %in% methods && !bench_need_cran("Cubist")) methods <- setdiff(methods, "cubist")
  base <- s
  for (split in seq_len(n_splits(nrow(base$test)))) {
    s <- resplit(base, split)
    y_test <- s$test[[s$outcome]]
    for (seed in seeds) for (method in methods) {
      r <- tryCatch(run_method(method, s, seed), error = function(e) {
        say(sprintf("%-20s %-16s failed: %s\n", nm, method, conditionMessage(e)))
        NULL
      })
      if (is.null(r)) next
      value <- if (regression) sqrt(mean((as.numeric(r$pred) - y_test)^2))
               else mean(as.character(r$pred) == as.character(y_test))
      row <- data.frame(commit = commit, dataset = nm, task = entry$task, n_train = nrow(s$train),
                        n_test = nrow(s$test), p = ncol(s$train) - 1L, method = method, seed = seed,
                        split = split, metric = if (regression) "rmse" else "accuracy", value = value, fit_s = r$fit_s, fit_cpu_s = r$fit_cpu_s,
                        predict_s = r$predict_s, predict10k_s = r$predict10k_s, model_mb = r$model_mb,
                        oob = as.numeric(r$oob)[1], stringsAsFactors = FALSE)
      results[[length(results) + 1L]] <- row
      say(sprintf("%-20s %-16s seed %d split %2d  %s %.4f  fit %6.2fs  pred10k %5.2fs  %7.2f MB%s\n", nm, method, seed,
                  split, row$metric, value, r$fit_s, r$predict10k_s, r$model_mb, bench_loadavg()))
      utils::write.csv(do.call(rbind, results), csv, row.names = FALSE)
    }
  }
}
if (!length(results)) quit(save = "no")
res <- do.call(rbind, results)

# --- summary: svforest's default against the peers (means over splits and seeds)
agg <- stats::aggregate(cbind(value, fit_s, fit_cpu_s, predict10k_s, model_mb) ~ dataset + task + method, data = res, FUN = mean)
wide <- function(col, method) stats::setNames(agg[agg$method == method, col], agg$dataset[agg$method == method])
summarise_task <- function(task) {
  sets <- unique(agg$dataset[agg$task == task & agg$method == "svforest"])
  sets <- intersect(sets, agg$dataset[agg$method == "ranger"])
  if (!length(sets)) return(invisible())
  ours <- wide("value", "svforest")[sets]
  rng <- wide("value", "ranger")[sets]
  say(sprintf("\n== %s: %d data sets (svforest default vs ranger-500) ==\n", task, length(sets)))
  if (task == "classification") {
    d <- 100 * (ours - rng)
    say(sprintf("accuracy >= ranger on %d of %d (%.0f%%); worst %+.2f points (%s); mean %+.2f points (svforest %.4f, ranger %.4f)\n",
                sum(d >= -1e-9), length(d), 100 * mean(d >= -1e-9), min(d), names(d)[which.min(d)], mean(d),
                mean(ours), mean(rng)))
    for (nm in sets) say(sprintf("  %-20s svforest %.4f  ranger %.4f  %+6.2f\n", nm, ours[nm], rng[nm], d[nm]))
  } else {
    ratio <- ours / rng
    say(sprintf("rmse <= ranger on %d of %d (%.0f%%); worst %+.1f%% (%s)\n", sum(ratio <= 1 + 1e-9), length(ratio),
                100 * mean(ratio <= 1 + 1e-9), 100 * (max(ratio) - 1), names(ratio)[which.max(ratio)]))
    llf <- wide("value", "grf_llf")
    cub <- wide("value", "cubist")
    both <- intersect(sets, names(llf))
    if (length(both)) say(sprintf("rmse <= grf local linear forest on %d of %d\n", sum(ours[both] <= llf[both]), length(both)))
    for (nm in sets) say(sprintf("  %-20s svforest %.4g  ranger %.4g (%+.1f%%)  llf %s  cubist %s\n", nm, ours[nm], rng[nm],
                                 100 * (ratio[nm] - 1), if (nm %in% names(llf)) format(llf[nm], digits = 4) else "-",
                                 if (nm %in% names(cub)) format(cub[nm], digits = 4) else "-"))
  }
  fit_ratio <- wide("fit_s", "svforest")[sets] / wide("fit_s", "ranger")[sets]
  cpu_ratio <- wide("fit_cpu_s", "svforest")[sets] / wide("fit_cpu_s", "ranger")[sets]
  pred_ratio <- wide("predict10k_s", "svforest")[sets] / wide("predict10k_s", "ranger")[sets]
  size_ratio <- wide("model_mb", "svforest")[sets] / wide("model_mb", "ranger")[sets]
  say(sprintf("fit CPU time / ranger: median %.2f (max %.2f, %s)\n", stats::median(cpu_ratio), max(cpu_ratio),
              names(cpu_ratio)[which.max(cpu_ratio)]))
  say(sprintf("fit time / ranger: median %.2f (max %.2f, %s); predict 10k / ranger: median %.2f, max %.2f (%s); model size / ranger: max %.2f (%s)\n",
              stats::median(fit_ratio), max(fit_ratio), names(fit_ratio)[which.max(fit_ratio)],
              stats::median(pred_ratio), max(pred_ratio), names(pred_ratio)[which.max(pred_ratio)],
              max(size_ratio), names(size_ratio)[which.max(size_ratio)]))
}
summarise_task("classification")
summarise_task("regression")
say("\nresults: ", csv, "\n")
