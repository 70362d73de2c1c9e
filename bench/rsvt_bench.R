# Benchmark: random support vector trees (svforest, method "rsvt") against
# ranger and a single global linear SVM, on public classification datasets.
#
# Usage (from the repository root):
#   Rscript bench/rsvt_bench.R [data_dir] [--quick] [--only=name1,name2]
#
# data_dir defaults to "../shared/data" (the offline dataset folder described
# by its README.md). --quick runs a few small datasets only (smoke run);
# --only= restricts the run to the named datasets.
#
# Models, all fitted in the same R process, one dataset at a time:
#   ranger     ranger(x, y), default 500 trees, num.threads = 2, seed = 1
#   rsvt       svforest(x, y) defaults (method "rsvt", ntree = 10,
#              split_rule = "admissible"), num_threads = 2, seed = 1
#   rsvt_pub   the same with split_rule = "published"
#   linsvm     one global linear SVM built with svforest: ntree = 1,
#              min_leaf_size = nrow(x) (one leaf, same CV over C)
# Ratios are model / ranger from the same run; acc_diff is in points
# (100 * (accuracy - ranger accuracy)).
#
# Output: one line per dataset and model as soon as it is fitted, a final
# summary table, and bench/results/rsvt_bench.csv.

suppressPackageStartupMessages({
  library(svforest)
  library(ranger)
  library(Matrix)
})
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))  # say(), bench_args(), results_csv(), mlbench_data(), read_libsvm()

# --- arguments -----------------------------------------------------------------

args <- bench_args()
quick <- args$flag("quick")
only <- args$only
data_dir <- args$data_dir
csv_path <- results_csv(if (quick) "rsvt_bench_quick" else "rsvt_bench")

NUM_THREADS <- 2L
SPLIT_SEED <- 2024L

# --- data helpers --------------------------------------------------------------

need_file <- function(...) {
  path <- file.path(data_dir, ...)
  if (!file.exists(path)) stop("file not found: ", path, call. = FALSE)
  path
}

as_num_matrix <- function(df) {
  m <- as.matrix(as.data.frame(lapply(df, function(col) {
    if (is.factor(col)) as.numeric(as.character(col)) else as.numeric(col)
  })))
  if (is.null(colnames(m)) || anyDuplicated(colnames(m))) colnames(m) <- paste0("x", seq_len(ncol(m)))
  colnames(m) <- make.names(colnames(m), unique = TRUE)
  m
}

# Stratified split: about 2/3 of each class to training, fixed seed.
stratified_split <- function(x, y, frac = 2 / 3, seed = SPLIT_SEED) {
  y <- droplevels(factor(y))
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  train <- unlist(lapply(split(seq_along(y), y), function(idx) {
    idx[sample.int(length(idx), max(1L, round(frac * length(idx))))]
  }), use.names = FALSE)
  train <- sort(train)
  test <- setdiff(seq_along(y), train)
  list(xtr = x[train, , drop = FALSE], ytr = y[train], xte = x[test, , drop = FALSE], yte = y[test],
       split = "stratified 2/3-1/3 (seed 2024)")
}

fixed_split <- function(xtr, ytr, xte, yte, split) {
  lev <- levels(droplevels(factor(c(as.character(ytr), as.character(yte)))))
  list(xtr = xtr, ytr = factor(ytr, levels = lev), xte = xte, yte = factor(yte, levels = lev), split = split)
}

# --- datasets ------------------------------------------------------------------
# Each loader returns list(xtr, ytr, xte, yte, split); x is a numeric matrix
# with column names (or a dgCMatrix), y a factor.

datasets <- list(
  sonar = function() {
    d <- mlbench_data("Sonar")
    stratified_split(as_num_matrix(d[, -61]), d$Class)
  },
  glass = function() {
    d <- mlbench_data("Glass")
    stratified_split(as_num_matrix(d[, -10]), d$Type)
  },
  breastcancer = function() {
    d <- mlbench_data("BreastCancer")
    d <- d[stats::complete.cases(d), names(d) != "Id"]
    stratified_split(as_num_matrix(d[, names(d) != "Class"]), d$Class)
  },
  vehicle = function() {
    d <- mlbench_data("Vehicle")
    stratified_split(as_num_matrix(d[, names(d) != "Class"]), d$Class)
  },
  vowel = function() {
    d <- mlbench_data("Vowel")
    # V1 is the speaker (15 speakers x 66 rows): an identifier, not a feature.
    stratified_split(as_num_matrix(d[, setdiff(names(d), c("V1", "Class"))]), d$Class)
  },
  satellite = function() {
    d <- mlbench_data("Satellite")
    # mlbench keeps the UCI order: rows 1..4435 = sat.trn, 4436..6435 = sat.tst.
    x <- as_num_matrix(d[, names(d) != "classes"])
    tr <- 1:4435
    fixed_split(x[tr, ], d$classes[tr], x[-tr, ], d$classes[-tr], "UCI sat.trn/sat.tst (4435/2000)")
  },
  letter = function() {
    d <- mlbench_data("LetterRecognition")
    x <- as_num_matrix(d[, names(d) != "lettr"])
    tr <- 1:16000
    fixed_split(x[tr, ], d$lettr[tr], x[-tr, ], d$lettr[-tr], "first 16000 / last 4000")
  },
  wdbc = function() {
    d <- utils::read.csv(need_file("sklearn", "breast_cancer.csv"), header = FALSE, skip = 1)
    stratified_split(as_num_matrix(d[, 1:30]), d[[31]])
  },
  wine_uci = function() {
    d <- utils::read.csv(need_file("sklearn", "wine_data.csv"), header = FALSE, skip = 1)
    stratified_split(as_num_matrix(d[, 1:13]), d[[14]])
  },
  winequality_red = function() {
    d <- utils::read.csv(need_file("winequality", "winequality-red.csv"), sep = ";")
    stratified_split(as_num_matrix(d[, names(d) != "quality"]), d$quality)
  },
  winequality_white = function() {
    d <- utils::read.csv(need_file("winequality", "winequality-white.csv"), sep = ";")
    stratified_split(as_num_matrix(d[, names(d) != "quality"]), d$quality)
  },
  segment = function() {
    d <- utils::read.table(need_file("segment", "segment.dat"), header = FALSE, sep = "\t")
    stratified_split(as_num_matrix(d[, 1:19]), d[[20]])
  },
  cmc = function() {
    d <- utils::read.csv(need_file("cmc", "cmc.data"), header = FALSE)
    stratified_split(as_num_matrix(d[, 1:9]), d[[10]])
  },
  urban_land_cover = function() {
    tr <- utils::read.csv(need_file("urban_land_cover", "training.csv"), check.names = TRUE)
    te <- utils::read.csv(need_file("urban_land_cover", "testing.csv"), check.names = TRUE)
    fixed_split(as_num_matrix(tr[, -1]), trimws(tr$class), as_num_matrix(te[, -1]), trimws(te$class),
                "UCI training/testing (168/507)")
  },
  madelon = function() {
    rd <- function(f) as_num_matrix(utils::read.table(need_file("madelon", f), header = FALSE))
    rl <- function(f) scan(need_file("madelon", f), quiet = TRUE)
    fixed_split(rd("madelon_train.data"), rl("madelon_train.labels"),
                rd("madelon_valid.data"), rl("madelon_valid.labels"), "UCI train/valid (2000/600)")
  },
  optdigits = function() {
    tr <- utils::read.csv(need_file("optdigits", "optdigits.tra"), header = FALSE)
    te <- utils::read.csv(need_file("optdigits", "optdigits.tes"), header = FALSE)
    fixed_split(as_num_matrix(tr[, 1:64]), tr[[65]], as_num_matrix(te[, 1:64]), te[[65]],
                "UCI .tra/.tes (3823/1797)")
  },
  isolet = function() {
    rd <- function(f) {
      m <- read_numeric_csv(need_file("isolet", f))
      list(x = `colnames<-`(m[, 1:617], paste0("f", 1:617)), y = m[, 618])
    }
    tr <- rd("isolet_train.csv.gz")
    te <- rd("isolet_test.csv.gz")
    fixed_split(tr$x, tr$y, te$x, te$y, "isolet1-4 / isolet5 (6238/1559)")
  },
  a9a = function() {
    tr <- read_libsvm(need_file("a9a", "a9a"), 123L)
    te <- read_libsvm(need_file("a9a", "a9a.t"), 123L)
    s <- fixed_split(tr$x, tr$y, te$x, te$y, "LIBSVM a9a/a9a.t (32561/16281), sparse for svforest")
    s$sparse <- TRUE
    s
  },
  synthetic_80k = function() {
    # 20 N(0,1) predictors; the class is a nonlinear function of 6 of them plus
    # Gaussian noise (sd 0.5): Bayes accuracy about 0.89, 49% positive.
    # Rows 1..80000 train, the rest test.
    old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
    on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
    set.seed(1)
    n <- 100000L
    x <- matrix(rnorm(n * 20), n, 20, dimnames = list(NULL, paste0("x", 1:20)))
    f <- x[, 1] * x[, 2] + sin(2 * x[, 3]) + 0.5 * (x[, 4]^2 - 1) - 0.75 * abs(x[, 5]) + 0.5 * x[, 6] + 0.6
    y <- factor(ifelse(f + rnorm(n, sd = 0.5) > 0, "pos", "neg"), levels = c("neg", "pos"))
    tr <- 1:80000
    fixed_split(x[tr, ], y[tr], x[-tr, ], y[-tr], "synthetic, 80000 train / 20000 test")
  }
)

# Plain reader for all-numeric comma-separated files without header (gz ok).
read_numeric_csv <- function(path) {
  con <- gzfile(path, "r")  # also reads uncompressed files
  first <- readLines(con, n = 1L)
  close(con)
  ncol <- length(strsplit(first, ",", fixed = TRUE)[[1]])
  matrix(scan(path, what = double(), sep = ",", quiet = TRUE), ncol = ncol, byrow = TRUE)
}

quick_sets <- c("sonar", "glass", "vowel", "segment")
run_sets <- if (length(only)) only else if (quick) quick_sets else names(datasets)
unknown <- setdiff(run_sets, names(datasets))
if (length(unknown)) stop("unknown dataset(s): ", paste(unknown, collapse = ", "))

# --- models --------------------------------------------------------------------

mb <- function(obj) as.numeric(utils::object.size(obj)) / 2^20
leaves_per_tree <- function(fit) mean(vapply(fit$forest$trees, svforest:::tree_n_leaves, 0L))
svm_leaf_pct <- function(fit) 100 * mean(unlist(lapply(fit$forest$trees, svforest:::tree_leaf_is_model)))

# Other processes on the machine skew timings: show the load when a dataset starts.
loadavg <- function() {
  if (!file.exists("/proc/loadavg")) return("")
  paste0("  [load avg ", paste(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1:3], collapse = " "), "]")
}

# Elapsed seconds of f(). Calls that finish in under 0.25 s are repeated
# (until 0.25 s in total, at most 50 calls) and the mean is reported, so that
# timings of small datasets are not just timer resolution.
timed <- function(f) {
  invisible(gc(verbose = FALSE))
  t0 <- proc.time()[["elapsed"]]
  value <- f()
  total <- proc.time()[["elapsed"]] - t0
  calls <- 1L
  while (total < 0.25 && calls < 50L) {
    t0 <- proc.time()[["elapsed"]]
    f()
    total <- total + proc.time()[["elapsed"]] - t0
    calls <- calls + 1L
  }
  list(value = value, seconds = total / calls)
}

# Each model: fit(xtr, ytr, dense) -> fitted object; predict(obj, xte) -> factor.
models <- list(
  ranger = list(
    fit = function(s) ranger::ranger(x = s$xtr_dense, y = s$ytr, num.threads = NUM_THREADS, seed = 1,
                                 verbose = FALSE),
    predict = function(m, s) stats::predict(m, data = s$xte_dense, num.threads = NUM_THREADS)$predictions
  ),
  rsvt = list(
    fit = function(s) svforest(s$xtr, s$ytr, ntree = 10, num_threads = NUM_THREADS, seed = 1),
    predict = function(m, s) stats::predict(m, s$xte, num_threads = NUM_THREADS)
  ),
  rsvt_pub = list(
    fit = function(s) svforest(s$xtr, s$ytr, ntree = 10, num_threads = NUM_THREADS, seed = 1,
                               split_rule = "published"),
    predict = function(m, s) stats::predict(m, s$xte, num_threads = NUM_THREADS)
  ),
  linsvm = list(
    fit = function(s) svforest(s$xtr, s$ytr, ntree = 1, min_leaf_size = nrow(s$xtr),
                               num_threads = NUM_THREADS, seed = 1),
    predict = function(m, s) stats::predict(m, s$xte, num_threads = NUM_THREADS)
  )
)

# --- output --------------------------------------------------------------------

cols <- c(dataset = "%-17s", model = "%-8s", n_train = "%7s", n_test = "%6s", p = "%4s", classes = "%3s",
          accuracy = "%6s", fit_s = "%8s", pred_s = "%7s", size_mb = "%8s", leaves = "%7s",
          svm_pct = "%5s", fit_ratio = "%8s", pred_ratio = "%8s", size_ratio = "%8s", acc_diff = "%6s")
header_labels <- c("dataset", "model", "n_train", "n_test", "p", "K", "acc", "fit_s", "pred_s", "size_MB",
                   "leaves", "svm%", "fit/rf", "pred/rf", "size/rf", "d_acc")

num <- function(x, digits) if (is.na(x)) "-" else formatC(x, format = "f", digits = digits)
ratio <- function(x) {
  if (is.na(x)) return("-")
  if (x >= 100) formatC(x, format = "f", digits = 0) else if (x >= 0.1) formatC(x, format = "f", digits = 2)
  else formatC(x, format = "g", digits = 2)
}

gmean <- function(x) ratio(exp(mean(log(pmax(x, 1e-6)))))

format_row <- function(r) {
  vals <- c(r$dataset, r$model, r$n_train, r$n_test, r$p, r$classes,
            num(r$accuracy, 4), num(r$fit_s, 3), num(r$pred_s, 3), num(r$size_mb, 2),
            num(r$leaves, 1), num(r$svm_pct, 0), ratio(r$fit_ratio), ratio(r$pred_ratio),
            ratio(r$size_ratio), num(r$acc_diff, 1))
  paste(mapply(sprintf, cols, vals), collapse = " ")
}
header_line <- function() paste(mapply(sprintf, cols, header_labels), collapse = " ")

# --- run -----------------------------------------------------------------------

say("svforest ", as.character(utils::packageVersion("svforest")),
    " | ranger ", as.character(utils::packageVersion("ranger")),
    " | ", R.version.string, " | threads ", NUM_THREADS, " | ", format(Sys.time()), "\n")
say("svforest from: ", find.package("svforest"), "\n")
say("data_dir: ", normalizePath(data_dir, mustWork = FALSE), if (quick) "  (quick run)" else "", "\n")
say("ratios are model / ranger (same run); d_acc = accuracy - ranger accuracy in points;\n",
    "leaves = mean leaves per tree; svm% = share of leaves holding an SVM\n\n")
say(header_line(), "\n")

results <- list()
run_start <- proc.time()[["elapsed"]]

for (ds in run_sets) {
  s <- tryCatch(datasets[[ds]](), error = function(e) e)
  if (inherits(s, "error")) {
    say(sprintf("%-17s skipped: %s\n", ds, conditionMessage(s)))
    next
  }
  s$ytr <- droplevels(s$ytr)
  s$yte <- factor(as.character(s$yte), levels = levels(s$ytr))
  s$xtr_dense <- if (inherits(s$xtr, "Matrix")) as.matrix(s$xtr) else s$xtr
  s$xte_dense <- if (inherits(s$xte, "Matrix")) as.matrix(s$xte) else s$xte
  say(sprintf("# %s: %s%s\n", ds, s$split, loadavg()))
  base <- NULL
  for (mname in names(models)) {
    m <- models[[mname]]
    res <- tryCatch({
      f <- timed(function() m$fit(s))
      p <- timed(function() m$predict(f$value, s))
      list(fit = f, pred = p)
    }, error = function(e) e)
    if (inherits(res, "error")) {
      say(sprintf("%-17s %-8s failed: %s\n", ds, mname, conditionMessage(res)))
      next
    }
    fit <- res$fit$value
    pred <- factor(as.character(res$pred$value), levels = levels(s$ytr))
    is_svf <- inherits(fit, "svforest")
    r <- list(
      dataset = ds, model = mname, n_train = nrow(s$xtr), n_test = nrow(s$xte), p = ncol(s$xtr),
      classes = nlevels(s$ytr), accuracy = mean(pred == s$yte, na.rm = FALSE),
      fit_s = res$fit$seconds, pred_s = res$pred$seconds, size_mb = mb(fit),
      serialized_mb = length(serialize(fit, NULL)) / 2^20,
      leaves = if (is_svf) leaves_per_tree(fit) else NA_real_,
      svm_pct = if (is_svf) svm_leaf_pct(fit) else NA_real_,
      min_leaf_size = if (is_svf) fit$params$min_leaf_size else NA_real_,
      ntree = if (is_svf) fit$ntree else fit$num.trees
    )
    if (mname == "ranger") base <- r
    r$fit_ratio <- if (is.null(base)) NA_real_ else r$fit_s / base$fit_s
    r$pred_ratio <- if (is.null(base)) NA_real_ else r$pred_s / base$pred_s
    r$size_ratio <- if (is.null(base)) NA_real_ else r$size_mb / base$size_mb
    r$acc_diff <- if (is.null(base)) NA_real_ else 100 * (r$accuracy - base$accuracy)
    r$split <- s$split
    results[[length(results) + 1L]] <- r
    say(format_row(r), "\n")
    rm(fit, res)
  }
  rm(s)
  invisible(gc(verbose = FALSE))
}

total <- proc.time()[["elapsed"]] - run_start
say(sprintf("\nTotal time: %.1f s%s\n", total, loadavg()))

if (length(results)) {
  tab <- do.call(rbind, lapply(results, as.data.frame, stringsAsFactors = FALSE))
  utils::write.csv(tab, csv_path, row.names = FALSE)
  say("\n=== Summary ===\n", header_line(), "\n")
  for (i in seq_len(nrow(tab))) say(format_row(as.list(tab[i, ])), "\n")
  svf <- tab[tab$model != "ranger", ]
  if (nrow(svf)) {
    say("\nPer model, over datasets (geometric mean of ratios to ranger, mean d_acc):\n")
    for (mname in unique(svf$model)) {
      t <- svf[svf$model == mname, ]
      say(sprintf("  %-8s fit/rf %6s  pred/rf %6s  size/rf %6s  d_acc %5.1f  (wins %d / %d datasets)\n", mname,
                  gmean(t$fit_ratio), gmean(t$pred_ratio),
                  gmean(t$size_ratio), mean(t$acc_diff), sum(t$acc_diff > 0), nrow(t)))
    }
  }
  say("\nCSV: ", csv_path, "\n")
}
