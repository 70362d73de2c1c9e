# The benchmark harness: every data set of the registry (bench/datasets.R),
# svforest's methods and the peers, fitted on the same splits in the same
# run, one results table.
#
#   Rscript bench/harness.R [data_dir] [--only=a,b] [--task=classification|regression|survival]
#       [--methods=svforest,ranger,grf_llf,cubist,aorsf,grf,coxph,svforest:rsvt,...] [--seeds=1,2]
#       [--splits=auto|N] [--threads=2] [--out=name] [--list]
#   Rscript bench/harness.R --merge=commit1,commit2,... [--task=...] [--out=name]
#   Rscript bench/harness.R --commit=abc1234 [--task=...]
#   Rscript bench/harness.R --add=name1,name2,...
#
# The table: every row the harness scores goes to bench/results/harness.csv
# (bench/harness_table.R), keyed by commit (the checkout's short hash, read
# as text), dataset, method, seed and split; a re-run on the same commit
# replaces its rows. --out=name also writes this run's rows to a side file
# bench/results/<name>.csv (kept for commands that read it; its rows are in
# the table already). The summary printed at the end covers this run's rows.
#
# --merge fits nothing: it selects the table's rows of the given commits, a
# data set's rows under a later commit replacing its rows under earlier ones
# (a re-run of the sets a change touches), and prints the summary of the
# union; --commit=abc1234 is the same for one commit. A name that is not a
# commit of the table is read as a results file (bench/results/<name>.csv
# or a path), as --merge did before the table. With --out=name the selected
# rows are also written to bench/results/<name>.csv.
#
# --add fits nothing: it adds the rows of results files (names under
# bench/results or paths, e.g. side files of runs made on other branches)
# to the table, replacing rows of the same key:
#   Rscript bench/harness.R --add=name && git rm -q bench/results/name.csv
#
# Methods: "svforest" is svforest() with its defaults (no arguments besides
# seed and threads); "svforest:<method>" a preset with its defaults;
# "ranger" ranger with 500 trees and its defaults; "aorsf" aorsf's oblique
# random forest with 500 trees and its defaults (any task); for regression also
# "grf_llf" (grf's local linear forest, defaults) and "cubist" (Cubist,
# defaults). Default: svforest, ranger, and for regression grf_llf and cubist.
# Survival sets (bench/harness_survival.R): svforest, ranger, aorsf, grf
# (survival_forest) and coxph, scored by Harrell's C, the integrated Brier
# score and IPA (one row each), on 10 random halves with --splits=auto.
# Peers only this bench uses (grf, Cubist, aorsf) are installed from CRAN here
# when missing.
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
# Output: one row per data set x method x seed x split: commit, dataset,
# task, n_train, n_test, p, method, seed, split, metric (accuracy or rmse),
# value, fit_s and fit_cpu_s (elapsed and CPU seconds of the fit),
# predict_s (the test rows), predict10k_s (10,000 rows drawn from the test
# rows; the fastest of three runs), model_mb (serialised size), oob (the
# fit's out-of-bag error, NA if none); then a summary against ranger.
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
  source(file.path(here, "harness_table.R"))
  source(file.path(here, "harness_survival.R"))
}, envir = globalenv())

args <- bench_args()
task_filter <- args$value("task")
out_name <- args$value("out")
side_csv <- if (length(out_name)) results_csv(out_name[1]) else NULL
picks <- c(args$value("merge"), args$value("commit"))
if (length(args$value("add"))) {
  for (name in args$value("add")) {
    n <- harness_table_add(read_harness_csv(if (file.exists(name)) name else results_csv(name)))
    say(sprintf("%s: %d rows added, %d replaced in %s\n", name, n[["added"]], n[["replaced"]],
                bench_relpath(harness_table_path())))
  }
  quit(save = "no")
}
if (length(picks)) {
  res <- harness_select(picks, read_harness_csv(harness_table_path()))
  if (length(task_filter)) res <- res[res$task %in% task_filter, , drop = FALSE]
  if (!nrow(res)) stop("no rows selected", call. = FALSE)
  if (length(side_csv)) utils::write.csv(res, side_csv, row.names = FALSE)
  harness_summary(res)
  summarise_survival(res)
  say("\nresults: ", bench_relpath(harness_table_path()), ", commits ", paste(picks, collapse = ", "),
      if (length(side_csv)) paste0("; selection in ", bench_relpath(side_csv)), "\n")
  quit(save = "no")
}
# the registry's packaged data sets (Debian packages; installed here when missing)
for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
registry <- benchmark_registry(args$data_dir)
if (args$flag("list")) {
  for (nm in names(registry)) say(sprintf("%-20s %-15s %s\n", nm, registry[[nm]]$task, registry[[nm]]$source))
  quit(save = "no")
}
sets <- names(registry)
if (length(args$only)) sets <- intersect(args$only, sets)
if (length(task_filter)) sets <- sets[vapply(registry[sets], function(r) r$task %in% task_filter, TRUE)]
seeds <- if (length(args$value("seeds"))) as.integer(args$value("seeds")) else 1L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
methods_arg <- args$value("methods")
splits_arg <- if (length(args$value("splits"))) args$value("splits") else "auto"

suppressPackageStartupMessages(library(svforest))
stopifnot(requireNamespace("ranger", quietly = TRUE))
# The checkout's commit keys the rows in the table ("unknown" outside git).
commit <- tryCatch(suppressWarnings(system2("git", c("-C", dirname(bench_dir), "rev-parse", "--short", "HEAD"),
                                            stdout = TRUE, stderr = FALSE)),
                   error = function(e) character())
commit <- if (length(commit) == 1L && grepl("^[0-9a-f]+$", commit)) commit else "unknown"

# The number of splits of a set (see the header).
n_splits <- function(n_test) bench_n_splits(n_test, splits_arg)

# The fastest of three runs of a prediction: a single run on a shared
# machine measures the neighbours as much as the method.
timed_best <- function(f) {
  runs <- lapply(1:3, function(i) timed(f()))
  runs[[which.min(vapply(runs, function(r) r$seconds, 0))]]
}

rows10k <- function(test) test[rep_len(sample.int(nrow(test)), 10000L), , drop = FALSE]

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
  if (method == "aorsf") {
    # oblique at every node, 500 trees, its defaults (no missing values: the
    # imputed frame, as ranger's). aorsf refuses a constant column and a
    # column whose type differs between training and new rows (the imputed
    # new rows' ordered factors are plain): constant training columns are
    # dropped (they carry nothing), ordered factors are factors, integers
    # numbers
    varying <- vapply(xtr, function(col) length(unique(col)) > 1L, TRUE)
    plain <- function(x) {
      x <- x[varying]
      x[] <- lapply(x, function(col) {
        if (is.factor(col)) factor(col, levels = levels(col), ordered = FALSE)
        else if (is.integer(col)) as.double(col) else col
      })
      x
    }
    xtr <- plain(xtr)
    xte <- plain(xte)
    xbig <- plain(xbig)
    frame <- cbind(xtr, .outcome = y)
    fit <- timed(aorsf::orsf(frame, .outcome ~ ., n_tree = 500, n_thread = threads, tree_seeds = seed))
    type <- if (regression) "mean" else "class"
    pr <- function(x) {
      out <- stats::predict(fit$value, new_data = x, pred_type = type, n_thread = threads)
      if (regression) as.numeric(out) else levels(y)[as.integer(out)]
    }
    p <- timed(pr(xte))
    p10 <- timed_best(function() pr(xbig))
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
for (nm in sets) {
  entry <- registry[[nm]]
  s <- tryCatch(entry$load(), error = function(e) {
    say(sprintf("%-20s skipped: %s\n", nm, conditionMessage(e)))
    NULL
  })
  if (is.null(s)) next
  s$test <- align_levels(s$train, s$test)
  regression <- entry$task == "regression"
  survival <- entry$task == "survival"
  methods <- if (length(methods_arg)) methods_arg
             else if (survival) c("svforest", "ranger", "aorsf", "grf", "coxph")
             else c("svforest", "ranger", if (regression) c("grf_llf", "cubist"))
  if (!regression) methods <- setdiff(methods, c("grf_llf", "cubist"))
  if (!survival) methods <- setdiff(methods, c("grf", "coxph"))
  for (peer in intersect(methods, c("aorsf", "grf"))) if (!bench_need_cran(peer)) methods <- setdiff(methods, peer)
  if ("grf_llf" %in% methods && !bench_need_cran("grf")) methods <- setdiff(methods, "grf_llf")
  if ("cubist" %in% methods && !bench_need_cran("Cubist")) methods <- setdiff(methods, "cubist")
  base <- s
  splits <- if (survival && identical(splits_arg, "auto")) 10L else n_splits(nrow(base$test))
  for (split in seq_len(splits)) {
    s <- resplit(base, split)
    y_test <- if (!survival) s$test[[s$outcome]]
    for (seed in seeds) for (method in methods) {
      r <- tryCatch(if (survival) run_survival_method(method, s, seed, threads, rows10k(s$test), timed, split == 1L)
                    else run_method(method, s, seed), error = function(e) {
        say(sprintf("%-20s %-16s failed: %s\n", nm, method, conditionMessage(e)))
        NULL
      })
      if (is.null(r)) next
      scores <- if (survival) r$scores
                else if (regression) c(rmse = sqrt(mean((as.numeric(r$pred) - y_test)^2)))
                else c(accuracy = mean(as.character(r$pred) == as.character(y_test)))
      value <- scores[[1]]
      row <- data.frame(commit = commit, dataset = nm, task = entry$task, n_train = nrow(s$train),
                        n_test = nrow(s$test), p = ncol(s$train) - length(s$outcome), method = method, seed = seed,
                        split = split, metric = names(scores), value = unname(scores), fit_s = r$fit_s, fit_cpu_s = r$fit_cpu_s,
                        predict_s = r$predict_s, predict10k_s = r$predict10k_s, model_mb = r$model_mb,
                        oob = as.numeric(r$oob)[1], stringsAsFactors = FALSE)
      results[[length(results) + 1L]] <- row
      harness_table_add(row)
      say(sprintf("%-20s %-16s seed %d split %2d  %s %.4f  fit %6.2fs  pred10k %5.2fs  %7.2f MB%s\n", nm, method, seed,
                  split, row$metric[1], value, r$fit_s, r$predict10k_s, r$model_mb, bench_loadavg()))
      if (length(side_csv)) utils::write.csv(do.call(rbind, results), side_csv, row.names = FALSE)
    }
  }
}
if (!length(results)) quit(save = "no")
res <- do.call(rbind, results)

harness_summary(res)
summarise_survival(res)
say("\nresults: ", bench_relpath(harness_table_path()), " (commit ", commit, ")",
    if (length(side_csv)) paste0(" and ", bench_relpath(side_csv)), "\n")
