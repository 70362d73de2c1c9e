# Benchmark: randomized support vector forest (svforest, method "rsvf")
# against RSVT (method "rsvt") and ranger, all in one R process, one dataset
# at a time.
#
# Usage (from the repository root):
#   Rscript bench/rsvf_bench.R [data_dir] [--paper] [--only=letter,vehicle]
#
# data_dir defaults to "../shared/data" (a9a is read from there; letter,
# vehicle and satellite come from mlbench). --paper adds RSVF with the
# paper's letter setting (rsvf_paper_settings("letter"): 100 trees, depth <= 7)
# on letter. Datasets:
#   letter     mlbench LetterRecognition, first 16000 rows train / last 4000 test
#   vehicle    mlbench Vehicle, stratified 2/3 train / 1/3 test (seed 2024)
#   satellite  mlbench Satellite, UCI sat.trn (4435) / sat.tst (2000)
#   a9a        LIBSVM a9a / a9a.t (32561 / 16281), sparse dgCMatrix for svforest
# Models: ranger (500 trees), rsvt and rsvf with their defaults, all with
# num_threads = 2 and seed 1. Timings include the whole fit; the machine may
# be shared, so the load average is printed with every dataset and ratios to
# ranger (same run) are given. rsvf's OOB error is printed next to its test
# error (it is optimistic: the OOB rows chose the splits).
# Output: a line per model as it finishes, a summary, bench/results/rsvf_bench.csv.

suppressPackageStartupMessages({
  library(svforest)
  library(ranger)
  library(Matrix)
})
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))  # say(), bench_args(), results_csv(), mlbench_data(), read_libsvm()

args <- bench_args()
paper <- args$flag("paper")
only <- args$only
data_dir <- args$data_dir
threads <- 2L
csv_path <- results_csv("rsvf_bench")
load_avg <- function() {
  if (file.exists("/proc/loadavg")) paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ") else "?"
}
emit <- function(...) { cat(sprintf(...)); flush(stdout()) }

numeric_matrix <- function(df) {
  m <- vapply(df, function(v) as.numeric(if (is.factor(v)) as.character(v) else v), numeric(nrow(df)))
  colnames(m) <- paste0("v", seq_len(ncol(m)))
  m
}
loaders <- list(
  letter = function() {
    d <- mlbench_data("LetterRecognition")
    x <- numeric_matrix(d[, -1])
    list(xtr = x[1:16000, ], ytr = d$lettr[1:16000], xte = x[16001:20000, ], yte = d$lettr[16001:20000])
  },
  vehicle = function() {
    d <- mlbench_data("Vehicle")
    x <- numeric_matrix(d[, names(d) != "Class"])
    set.seed(2024)
    tr <- sort(unlist(lapply(split(seq_len(nrow(d)), d$Class),
                             function(i) i[sample.int(length(i), round(2 / 3 * length(i)))])))
    list(xtr = x[tr, ], ytr = d$Class[tr], xte = x[-tr, ], yte = d$Class[-tr])
  },
  satellite = function() {
    d <- mlbench_data("Satellite")
    x <- numeric_matrix(d[, names(d) != "classes"])
    tr <- 1:4435
    list(xtr = x[tr, ], ytr = droplevels(d$classes[tr]), xte = x[-tr, ], yte = d$classes[-tr])
  },
  a9a = function() {
    a <- read_libsvm(file.path(data_dir, "a9a", "a9a"), 123L)
    b <- read_libsvm(file.path(data_dir, "a9a", "a9a.t"), 123L)
    ytr <- factor(a$y)
    list(xtr = a$x, ytr = ytr, xte = b$x, yte = factor(b$y, levels = levels(ytr)))
  }
)

models <- list(
  ranger = function(s) {
    m <- ranger::ranger(x = as.matrix(s$xtr), y = s$ytr, num.threads = threads, seed = 1)
    list(model = m, predict = function(x) predict(m, as.matrix(x), num.threads = threads)$predictions)
  },
  rsvt = function(s) {
    m <- svforest(s$xtr, s$ytr, method = "rsvt", seed = 1, num_threads = threads)
    list(model = m, predict = function(x) predict(m, x, num_threads = threads))
  },
  rsvf = function(s) {
    m <- svforest(s$xtr, s$ytr, method = "rsvf", seed = 1, num_threads = threads)
    list(model = m, predict = function(x) predict(m, x, num_threads = threads))
  },
  rsvf_paper = function(s) {
    m <- do.call(svforest, c(list(s$xtr, s$ytr, method = "rsvf", seed = 1, num_threads = threads),
                             rsvf_paper_settings("letter")))
    list(model = m, predict = function(x) predict(m, x, num_threads = threads))
  }
)

sets <- if (length(only)) only else names(loaders)
rows <- list()
emit("svforest %s, %d threads, data from %s\n", as.character(utils::packageVersion("svforest")),
     threads, data_dir)
for (ds in sets) {
  s <- tryCatch(loaders[[ds]](), error = function(e) e)
  if (inherits(s, "error")) { emit("%-9s skipped: %s\n", ds, conditionMessage(s)); next }
  emit("# %s: %d train / %d test, %d predictors, %d classes [load %s]\n", ds, nrow(s$xtr), nrow(s$xte),
       ncol(s$xtr), nlevels(s$ytr), load_avg())
  use <- c("ranger", "rsvt", "rsvf", if (paper && ds == "letter") "rsvf_paper")
  for (mn in use) {
    t0 <- proc.time()[["elapsed"]]
    fitted <- tryCatch(models[[mn]](s), error = function(e) e)
    fit_s <- proc.time()[["elapsed"]] - t0
    if (inherits(fitted, "error")) { emit("  %-10s failed: %s\n", mn, conditionMessage(fitted)); next }
    t0 <- proc.time()[["elapsed"]]
    pred <- fitted$predict(s$xte)
    pred_s <- proc.time()[["elapsed"]] - t0
    m <- fitted$model
    r <- data.frame(dataset = ds, model = mn, accuracy = mean(as.character(pred) == as.character(s$yte)),
                    fit_s = fit_s, pred_s = pred_s,
                    oob_error = if (inherits(m, "svforest")) m$oob_error else m$prediction.error,
                    ntree = if (inherits(m, "svforest")) m$ntree else m$num.trees,
                    leaves = if (inherits(m, "svforest")) mean(vapply(m$forest$trees, svforest:::tree_n_leaves, 0L)) else NA,
                    load = load_avg(), stringsAsFactors = FALSE)
    base <- rows[[paste(ds, "ranger")]]
    r$fit_vs_ranger <- if (is.null(base)) 1 else r$fit_s / base$fit_s
    r$acc_vs_ranger <- if (is.null(base)) 0 else 100 * (r$accuracy - base$accuracy)
    rows[[paste(ds, mn)]] <- r
    emit("  %-10s acc %.4f  test err %6.2f%%  OOB err %6.2f%%  fit %8.1f s  pred %6.2f s  trees %3d  leaves %6.1f  fit/ranger %7.2f  d_acc %+5.1f  [load %s]\n",
         mn, r$accuracy, 100 * (1 - r$accuracy), 100 * r$oob_error, r$fit_s, r$pred_s, r$ntree,
         ifelse(is.na(r$leaves), 0, r$leaves), r$fit_vs_ranger, r$acc_vs_ranger, r$load)
  }
}
tab <- do.call(rbind, rows)
rownames(tab) <- NULL
emit("\n=== Summary ===\n")
print(tab[, c("dataset", "model", "accuracy", "oob_error", "fit_s", "pred_s", "ntree", "leaves",
              "fit_vs_ranger", "acc_vs_ranger")], digits = 4, row.names = FALSE)
wide <- reshape(tab[, c("dataset", "model", "accuracy")], idvar = "dataset", timevar = "model",
                direction = "wide")
if (all(c("accuracy.rsvf", "accuracy.rsvt") %in% names(wide))) {
  emit("\nrsvf at least as accurate as rsvt on %d of %d datasets\n",
       sum(wide$accuracy.rsvf >= wide$accuracy.rsvt, na.rm = TRUE), nrow(wide))
}
utils::write.csv(tab, csv_path, row.names = FALSE)
emit("CSV: %s\n", bench_relpath(csv_path))
