# Benchmark: every svforest method preset with its defaults against ranger
# (500 trees, probability forest), on held-out data, in one table.
#
# Usage (from the repository root):
#   Rscript bench/accuracy_bench.R [data_dir] [--quick] [--only=sonar,spam]
#       [--methods=rsvt,psvm] [--threads=2] [--timeout=300] [--max-train=N]
#
#   data_dir     the offline dataset folder (its README.md describes the files),
#                default ../shared/data
#   --quick      a subset that runs in a few minutes: iris, wine, sonar,
#                vehicle, segment, cmc, urban_land_cover, spam
#   --only=      the named datasets (names as printed; see
#                classification_datasets() in bench/bench_common.R)
#   --methods=   presets to run (default: every svforest_methods()$method);
#                ranger always runs, first, as the reference
#   --threads=N  threads for svforest and ranger (default 2)
#   --timeout=S  seconds allowed for one model's fit and prediction (default
#                300). Each model runs in a forked child process
#                (parallel::mcparallel); a child over its time is killed and
#                its row says "timeout". Without fork (Windows) there is no
#                limit.
#   --max-train=N  use a stratified subsample of N training rows (seed 2024)
#                where the training set is larger (same rows for every model)
#   --scale=     predictor scaling(s) to run each preset with, e.g.
#                --scale=minmax,rank,none: one model per preset and value,
#                named <preset>/<value> (svforest(..., scale = <value>));
#                default: the presets' own default, models named <preset>
#   --select     add the model "select": svforest_select() over the --methods
#                presets (--select-folds=K, default 3, cross-validation folds
#                of the training rows, --select-repeats=R, default 1; seed 1),
#                refitted with the chosen
#                method; its row names the choice. Its fit time includes
#                every cross-validation fit.
#
# Datasets: every classification set of data_dir (the standard test split
# where the README gives one, else a stratified 2/3-1/3 split, seed 2024),
# mlbench's Sonar, Vehicle, Glass, Ionosphere, Satellite, Vowel, DNA,
# LetterRecognition, BreastCancer (rows with NA dropped), PimaIndiansDiabetes,
# and kernlab's spam (kernlab is installed from Debian when missing).
#
# Models, one dataset at a time:
#   ranger   ranger::ranger(x, y, num.trees = 500, probability = TRUE, seed = 1);
#            its class is the most probable class
#   <preset> svforest(x, y, method = <preset>, seed = 1) with the preset's
#            defaults; class from predict(type = "class"), probabilities from
#            predict(type = "prob")
# Columns: accuracy; Brier score (mean over test rows of
# sum_k (p_k - 1[y = k])^2, 0 is perfect, 2 the worst); log-loss (mean of
# -log p_true, probabilities clipped to [1e-15, 1 - 1e-15]); fit and predict
# seconds (predict = class prediction; calls under 0.25 s are repeated and
# averaged); model size (object.size, MB); fit/rf = fit time / ranger's;
# d_acc = accuracy - ranger's, in points.
#
# Output: each dataset's rows as soon as they are fitted (ranger first), a
# per-method summary, and bench/results/accuracy_bench[_quick].csv.

suppressPackageStartupMessages({
  library(svforest)
  library(ranger)
  library(Matrix)
})
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))  # bench_args(), results_csv(), say(), classification_datasets(), ...

# --- arguments -----------------------------------------------------------------

args <- bench_args()
quick <- args$flag("quick")
one_number <- function(name, default) {
  v <- args$value(name)
  if (!length(v)) return(default)
  x <- suppressWarnings(as.numeric(v[1]))
  if (is.na(x) || x <= 0) stop("--", name, "= needs a positive number", call. = FALSE)
  x
}
threads <- as.integer(one_number("threads", 2))
timeout <- one_number("timeout", 300)
max_train <- one_number("max-train", Inf)
all_methods <- svforest_methods()$method
methods <- if (length(args$value("methods"))) args$value("methods") else all_methods
bad <- setdiff(methods, all_methods)
if (length(bad)) stop("unknown method(s): ", paste(bad, collapse = ", "), "; known: ",
                      paste(all_methods, collapse = ", "), call. = FALSE)

datasets <- classification_datasets(args$data_dir)
quick_sets <- c("iris", "wine", "sonar", "vehicle", "segment", "cmc", "urban_land_cover", "spam")
run_sets <- if (length(args$only)) args$only else if (quick) quick_sets else names(datasets)
unknown <- setdiff(run_sets, names(datasets))
if (length(unknown)) stop("unknown dataset(s): ", paste(unknown, collapse = ", "), "; known: ",
                          paste(names(datasets), collapse = ", "), call. = FALSE)
csv_path <- results_csv(if (quick && !length(args$only)) "accuracy_bench_quick" else "accuracy_bench")

# --- models --------------------------------------------------------------------
# fit(s) -> model; predict_class(m, s) -> class labels; predict_prob(m, s) ->
# n_test x K matrix with the class levels as column names.

ranger_model <- list(
  fit = function(s) ranger::ranger(x = s$xtr_dense, y = s$ytr, num.trees = 500, probability = TRUE,
                                   num.threads = threads, seed = 1, verbose = FALSE),
  predict_prob = function(m, s) stats::predict(m, data = s$xte_dense, num.threads = threads)$predictions,
  predict_class = function(m, s) {
    p <- stats::predict(m, data = s$xte_dense, num.threads = threads)$predictions
    colnames(p)[max.col(p, ties.method = "first")]
  }
)

svforest_model <- function(method, scale = NULL) {
  force(method)
  force(scale)
  list(
  fit = function(s) {
    if (is.null(scale)) svforest(s$xtr, s$ytr, method = method, num_threads = threads, seed = 1)
    else svforest(s$xtr, s$ytr, method = method, num_threads = threads, seed = 1, scale = scale)
  },
  predict_prob = function(m, s) stats::predict(m, s$xte, type = "prob", num_threads = threads),
  predict_class = function(m, s) as.character(stats::predict(m, s$xte, type = "class", num_threads = threads))
  )
}

scales <- args$value("scale")
bad_scale <- setdiff(scales, c("minmax", "rank", "auto", "none"))
if (length(bad_scale)) stop("unknown --scale value(s): ", paste(bad_scale, collapse = ", "), call. = FALSE)
models <- list(ranger = ranger_model)
for (meth in methods) {
  if (!length(scales)) models[[meth]] <- svforest_model(meth)
  for (sc in scales) models[[paste0(meth, "/", sc)]] <- svforest_model(meth, sc)
}
if (args$flag("select")) {
  select_folds <- as.integer(one_number("select-folds", 3))
  select_repeats <- as.integer(one_number("select-repeats", 1))
  models$select <- list(
    fit = function(s) svforest_select(s$xtr, s$ytr, methods = methods, folds = select_folds,
                                      repeats = select_repeats, seed = 1,
                                      num_threads = threads),
    predict_prob = function(m, s) stats::predict(m, s$xte, type = "prob", num_threads = threads),
    predict_class = function(m, s) as.character(stats::predict(m, s$xte, type = "class", num_threads = threads)),
    note = function(m) paste0("chose ", m$method, " (CV acc ",
                              paste(sprintf("%s %.3f", m$table$method, m$table$accuracy), collapse = ", "), ")")
  )
}

# Fit, time and predict one model; returns a small list (no model object).
run_one <- function(model, s) {
  f <- bench_timed(function() model$fit(s))
  pc <- bench_timed(function() model$predict_class(f$value, s))
  list(fit_s = f$seconds, pred_s = pc$seconds, class = as.character(pc$value),
       prob = model$predict_prob(f$value, s), note = if (is.function(model$note)) model$note(f$value) else "",
       size_mb = as.numeric(utils::object.size(f$value)) / 2^20)
}

# run_one() in a forked child, killed after `limit` seconds. Returns the result,
# or list(status = "timeout" | "error: ..." | "crashed").
can_fork <- .Platform$OS.type == "unix"
run_limited <- function(model, s, limit) {
  if (!can_fork) {
    return(tryCatch(run_one(model, s), error = function(e) list(status = paste("error:", conditionMessage(e)))))
  }
  job <- parallel::mcparallel(run_one(model, s), silent = TRUE)
  t0 <- proc.time()[["elapsed"]]
  repeat {
    res <- parallel::mccollect(job, wait = FALSE, timeout = 0.5)
    if (!is.null(res)) break
    if (proc.time()[["elapsed"]] - t0 > limit) {
      tools::pskill(job$pid, tools::SIGKILL)
      suppressWarnings(parallel::mccollect(job, wait = TRUE))  # reap the child
      return(list(status = "timeout"))
    }
  }
  res <- res[[1]]
  if (is.null(res)) return(list(status = "crashed"))
  if (inherits(res, "try-error")) {
    msg <- trimws(sub("^Error in [^:]*: ", "", as.character(res)))
    return(list(status = paste("error:", gsub("[[:space:]]+", " ", msg))))
  }
  res
}

# --- metrics -------------------------------------------------------------------

# Accuracy, Brier score and log-loss on the test labels `y` (character). A test
# class the model never saw has probability 0.
prob_metrics <- function(cls, prob, y) {
  lev <- union(colnames(prob), unique(y))
  P <- matrix(0, length(y), length(lev), dimnames = list(NULL, lev))
  P[, colnames(prob)] <- prob
  Y <- matrix(0, length(y), length(lev))
  Y[cbind(seq_along(y), match(y, lev))] <- 1
  p_true <- P[cbind(seq_along(y), match(y, lev))]
  eps <- 1e-15
  c(accuracy = mean(cls == y), brier = mean(rowSums((P - Y)^2)),
    logloss = -mean(log(pmin(pmax(p_true, eps), 1 - eps))))
}

# --- output --------------------------------------------------------------------

cols <- c(dataset = "%-17s", n = "%6s", p = "%5s", classes = "%3s", method = "%-12s", accuracy = "%6s",
          brier = "%6s", logloss = "%7s", fit_s = "%8s", pred_s = "%7s", size_mb = "%8s",
          fit_ratio = "%7s", acc_diff = "%6s", status = "%s")
labels <- c("dataset", "n", "p", "K", "method", "acc", "brier", "logloss", "fit_s", "pred_s", "size_MB",
            "fit/rf", "d_acc", "")
num <- function(x, digits) if (is.na(x)) "-" else formatC(x, format = "f", digits = digits)
ratio <- function(x) {
  if (is.na(x)) return("-")
  if (x >= 100) formatC(x, format = "f", digits = 0) else if (x >= 0.1) formatC(x, format = "f", digits = 2)
  else formatC(x, format = "g", digits = 2)
}
format_row <- function(r) {
  vals <- c(r$dataset, r$n, r$p, r$classes, r$method, num(r$accuracy, 4), num(r$brier, 4),
            num(r$logloss, 3), num(r$fit_s, 2), num(r$pred_s, 3), num(r$size_mb, 2),
            ratio(r$fit_ratio), num(r$acc_diff, 1), if (identical(r$status, "ok")) r$note else r$status)
  sub("[[:space:]]+$", "", paste(mapply(sprintf, cols, vals), collapse = " "))
}
header_line <- function() sub("[[:space:]]+$", "", paste(mapply(sprintf, cols, labels), collapse = " "))

# --- run -----------------------------------------------------------------------

say("svforest ", as.character(utils::packageVersion("svforest")), " (", bench_relpath(find.package("svforest")), ")",
    " | ranger ", as.character(utils::packageVersion("ranger")), " | ", R.version.string,
    "\nthreads ", threads, " | timeout ", timeout, " s per model", if (!can_fork) " (not enforced: no fork)",
    if (is.finite(max_train)) paste0(" | max-train ", max_train), " | ", format(Sys.time()), "\n")
say("data_dir: ", bench_relpath(args$data_dir), if (quick) "  (quick run)" else "", "\n")
say("n = training rows; fit/rf = fit time / ranger's; d_acc = accuracy - ranger's (points)\n\n")
say(header_line(), "\n")

results <- list()
run_start <- proc.time()[["elapsed"]]
for (ds in run_sets) {
  s <- tryCatch(datasets[[ds]](), error = function(e) e)
  if (inherits(s, "error")) {
    say(sprintf("%-17s skipped: %s\n", ds, conditionMessage(s)))
    next
  }
  if (nrow(s$xtr) > max_train) {
    sub_idx <- bench_split_stratified(matrix(seq_len(nrow(s$xtr))), s$ytr, frac = max_train / nrow(s$xtr))
    keep <- sort(as.integer(sub_idx$xtr))
    s$xtr <- s$xtr[keep, , drop = FALSE]
    s$ytr <- s$ytr[keep]
    s$split <- paste0(s$split, "; training subsample of ", length(keep), " rows")
  }
  s$ytr <- droplevels(s$ytr)
  s$xtr_dense <- if (inherits(s$xtr, "Matrix")) as.matrix(s$xtr) else s$xtr
  s$xte_dense <- if (inherits(s$xte, "Matrix")) as.matrix(s$xte) else s$xte
  if (!isTRUE(s$sparse)) {
    s$xtr <- s$xtr_dense
    s$xte <- s$xte_dense
  }
  y_test <- as.character(s$yte)
  say(sprintf("# %s: %d train / %d test rows, %s%s\n", ds, nrow(s$xtr), nrow(s$xte), s$split, bench_loadavg()))
  base <- NULL
  for (mname in names(models)) {
    out <- run_limited(models[[mname]], s, timeout)
    r <- list(dataset = ds, n = nrow(s$xtr), n_test = nrow(s$xte), p = ncol(s$xtr), classes = nlevels(s$ytr),
              method = mname, accuracy = NA_real_, brier = NA_real_, logloss = NA_real_, fit_s = NA_real_,
              pred_s = NA_real_, size_mb = NA_real_, fit_ratio = NA_real_, acc_diff = NA_real_,
              status = if (is.null(out$status)) "ok" else out$status, split = s$split, note = "")
    if (r$status == "ok") {
      m <- prob_metrics(out$class, out$prob, y_test)
      r[names(m)] <- as.list(m)
      r$fit_s <- out$fit_s
      r$pred_s <- out$pred_s
      r$size_mb <- out$size_mb
      r$note <- out$note
    }
    if (mname == "ranger") base <- r
    if (!is.null(base) && base$status == "ok" && r$status == "ok") {
      r$fit_ratio <- r$fit_s / base$fit_s
      r$acc_diff <- 100 * (r$accuracy - base$accuracy)
    }
    results[[length(results) + 1L]] <- r
    say(format_row(r), "\n")
  }
  rm(s)
  invisible(gc(verbose = FALSE))
}
total <- proc.time()[["elapsed"]] - run_start
say(sprintf("\nTotal time: %.1f s%s\n", total, bench_loadavg()))

if (length(results)) {
  tab <- do.call(rbind, lapply(results, as.data.frame, stringsAsFactors = FALSE))
  utils::write.csv(tab, csv_path, row.names = FALSE)
  # Per method, over the datasets where both it and ranger finished.
  rf <- tab[tab$method == "ranger" & tab$status == "ok", ]
  svf <- tab[tab$method != "ranger", ]
  if (nrow(svf) && nrow(rf)) {
    say("\nPer method vs ranger, over the datasets where both finished (mean differences;\n",
        "brier/logloss: method - ranger, lower is better; fit/rf: geometric mean):\n")
    say(sprintf("  %-12s %4s %7s %8s %9s %7s %11s %s\n", "method", "sets", "d_acc", "d_brier", "d_logloss",
                "fit/rf", ">= ranger", "not finished"))
    for (mname in unique(svf$method)) {
      t <- svf[svf$method == mname, ]
      nf <- t[t$status != "ok", ]
      t <- merge(t[t$status == "ok", ], rf, by = "dataset", suffixes = c("", ".rf"))
      say(sprintf("  %-12s %4d %7s %8s %9s %7s %11s %s\n", mname, nrow(t),
                  num(mean(t$accuracy - t$accuracy.rf) * 100, 1), num(mean(t$brier - t$brier.rf), 4),
                  num(mean(t$logloss - t$logloss.rf), 3),
                  if (nrow(t)) ratio(exp(mean(log(pmax(t$fit_ratio, 1e-6))))) else "-",
                  sprintf("%d / %d", sum(t$accuracy >= t$accuracy.rf), nrow(t)),
                  if (nrow(nf)) paste0(nf$dataset, " (", substr(nf$status, 1, 7), ")", collapse = ", ") else ""))
    }
  }
  say("\nCSV: ", bench_relpath(csv_path), "\n")
}
