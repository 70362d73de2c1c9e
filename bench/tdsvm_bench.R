# Benchmark: tree decomposition SVM (svforest, method "tdsvm") against a global
# RBF SVM (e1071::svm, LIBSVM) tuned on the same grid, and ranger.
#
# Usage (from the repository root):
#   Rscript bench/tdsvm_bench.R [data_dir] [--only=name1,name2] [--quick]
#
# data_dir defaults to "../shared/data" (letter and shuttle come from mlbench).
# --quick: letter only, on 4000 training rows (smoke run).
#
# Protocol, the same for both SVMs (the paper's: train / validation / test):
#   the training set is split once, stratified, into a training part (80%)
#   and a validation part (20%), seed 2024. Predictors are min-max scaled on
#   the training part ([0, 1]; sparse data: divided by the largest absolute
#   value), so both SVMs see the same numbers.
#   tdsvm  svforest(xtr, ytr, method = "tdsvm", validation = list(xval, yval),
#          cost = COST, gamma = GAMMA, num_threads = 2, seed = 1): the sigma /
#          parameter search of the paper (sigma0 default, top_k 5, 0.5 points),
#          then the final tree on the training part. Time = everything.
#   gsvm   e1071::svm(kernel = "radial", scale = FALSE) for every (C, gamma) of
#          the same grid on the training part, scored on the validation part,
#          two grid points at a time (parallel::mclapply, 2 cores, as tdsvm's
#          2 threads); the best model is kept. Time = all fits + validation
#          predictions. When the grid is not affordable ("single"), only tdsvm's
#          chosen (C, gamma) is fitted: its time is a LOWER bound of tuning.
#   ranger ranger(num.trees = 500, num.threads = 2, seed = 1) on the training
#          part (for reference; no tuning).
# Columns: test accuracy (%), training time (s), speed-up = gsvm time / tdsvm
# time, nsv = support vectors evaluated per test row (tdsvm: those of the leaf
# the row reaches, 0 in homogeneous leaves; gsvm: all of its SVs).
# Output: lines as models finish, a summary table, bench/results/tdsvm_bench.csv.

suppressPackageStartupMessages({
  library(svforest)
  library(ranger)
  library(Matrix)
  library(e1071)
})
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))  # say(), bench_args(), results_csv(), mlbench_data(), read_libsvm()

args <- bench_args()
quick <- args$flag("quick")
only <- args$only
data_dir <- args$data_dir
csv_path <- results_csv(if (quick) "tdsvm_bench_quick" else "tdsvm_bench")

NUM_THREADS <- 2L
SPLIT_SEED <- 2024L
# The package's default grid for tdsvm (20 pairs); the paper's has 63.
COST <- 10^(0:4)
GAMMA <- 10^(-1:2)
CACHE_MB <- 100  # LIBSVM kernel cache, the same for both SVMs (tdsvm's default)

loadavg <- function() paste(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1:3], collapse = " ")
elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  value <- force(expr)
  list(value = value, seconds = proc.time()[["elapsed"]] - t0)
}

# --- data ----------------------------------------------------------------------

need_file <- function(...) {
  path <- file.path(data_dir, ...)
  if (!file.exists(path)) stop("file not found: ", path, call. = FALSE)
  path
}

numeric_matrix <- function(df) {
  m <- as.matrix(df)
  storage.mode(m) <- "double"
  m
}

datasets <- list(
  letter = function() {
    d <- mlbench_data("LetterRecognition")
    x <- numeric_matrix(d[, names(d) != "lettr"])
    tr <- if (quick) 1:4000 else 1:16000
    list(xtr = x[tr, ], ytr = d$lettr[tr], xte = x[16001:20000, ], yte = d$lettr[16001:20000],
         split = "mlbench LetterRecognition, first 16000 / last 4000", gsvm = "grid")
  },
  shuttle = function() {
    d <- mlbench_data("Shuttle")
    x <- numeric_matrix(d[, names(d) != "Class"])
    tr <- 1:43500  # mlbench keeps the UCI order: shuttle.trn then shuttle.tst
    list(xtr = x[tr, ], ytr = d$Class[tr], xte = x[-tr, ], yte = d$Class[-tr],
         split = "mlbench Shuttle, first 43500 / last 14500", gsvm = "grid")
  },
  ijcnn1 = function() {
    tr <- read_libsvm(need_file("ijcnn1", "ijcnn1.gz"), 22L)
    te <- read_libsvm(need_file("ijcnn1", "ijcnn1.t.gz"), 22L)
    list(xtr = tr$x, ytr = factor(tr$y), xte = te$x, yte = factor(te$y), split = "LIBSVM ijcnn1 / ijcnn1.t (49990/91701), sparse",
         gsvm = "single")
  },
  a9a = function() {
    tr <- read_libsvm(need_file("a9a", "a9a"), 123L)
    te <- read_libsvm(need_file("a9a", "a9a.t"), 123L)
    list(xtr = tr$x, ytr = factor(tr$y), xte = te$x, yte = factor(te$y), split = "LIBSVM a9a / a9a.t (32561/16281), sparse",
         gsvm = "single")
  },
  synthetic_600k = function() {
    # 8 U(0,1) predictors; the class is a wavy boundary in 3 of them with a
    # little noise near it: large regions are pure (tree leaves without SVM).
    old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
    on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
    set.seed(1)
    n <- 600000L
    x <- matrix(runif(n * 8), n, 8, dimnames = list(NULL, paste0("x", 1:8)))
    f <- sin(6 * x[, 1]) + cos(6 * x[, 2]) + 2 * (x[, 3] - 0.5)
    y <- factor(ifelse(f + rnorm(n, sd = 0.1) > 0, "pos", "neg"))
    tr <- 1:500000
    list(xtr = x[tr, ], ytr = y[tr], xte = x[-tr, ], yte = y[-tr],
         split = "synthetic, 500000 train / 100000 test", gsvm = "none")
  }
)

# Stratified 80/20 split of the training set (fixed seed).
validation_split <- function(y, frac = 0.2, seed = SPLIT_SEED) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  val <- unlist(lapply(split(seq_along(y), y), function(i) i[sample.int(length(i), round(frac * length(i)))]))
  sort(val)
}

# The scaling svforest applies, for e1071 (dense copies).
scaler <- function(x) {
  if (inherits(x, "Matrix")) {
    m <- apply(abs(as.matrix(x)), 2, max)
    lo <- rep(0, length(m))
    width <- ifelse(m > 0, m, 1)
  } else {
    lo <- apply(x, 2, min)
    width <- apply(x, 2, max) - lo
    width[width == 0] <- 1
  }
  function(z) sweep(sweep(as.matrix(z), 2, lo), 2, width, "/")
}

# --- run -----------------------------------------------------------------------

run_sets <- if (quick) "letter" else if (length(only)) only else names(datasets)
results <- list()
add <- function(...) {
  row <- data.frame(..., stringsAsFactors = FALSE)
  results[[length(results) + 1]] <<- row
  say(sprintf("  %-7s acc %6.2f%%  time %8.1f s  nsv/row %8.1f  %s\n", row$model, row$accuracy, row$seconds,
              row$nsv, row$note))
}

for (name in run_sets) {
  d <- datasets[[name]]()
  val <- validation_split(d$ytr)
  xtr <- d$xtr[-val, , drop = FALSE]
  ytr <- d$ytr[-val]
  xval <- d$xtr[val, , drop = FALSE]
  yval <- d$ytr[val]
  say(sprintf("\n== %s: %s; training part %d, validation %d, test %d, %d predictors, %d classes [load %s]\n",
              name, d$split, nrow(xtr), nrow(xval), nrow(d$xte), ncol(xtr), nlevels(d$ytr), loadavg()))
  common <- list(dataset = name, n_train = nrow(xtr), n_test = nrow(d$xte), load = loadavg())

  td <- elapsed(svforest(xtr, ytr, method = "tdsvm", validation = list(x = xval, y = yval), cost = COST,
                         gamma = GAMMA, cache_size = CACHE_MB, num_threads = NUM_THREADS, seed = 1))
  fit <- td$value
  acc_td <- 100 * mean(predict(fit, d$xte, num_threads = NUM_THREADS) == d$yte)
  nsv_td <- mean(support_vectors_used(fit, d$xte))
  sel <- fit$tdsvm
  tree <- fit$forest$trees[[1]]
  do.call(add, c(common, list(model = "tdsvm", accuracy = acc_td, seconds = td$seconds, nsv = nsv_td,
                              speedup = NA_real_, note = sprintf(
    "sigma %d, C %g, gamma %g; %d leaves (%d with SVM); stages %s", sel$sigma, sel$cost, sel$gamma,
    svforest:::tree_n_leaves(tree), sum(svforest:::tree_leaf_is_model(tree)),
    paste(sprintf("%d:%.2f", tdsvm_sigmas <- unique(sel$curve$sigma),
                  100 * tapply(sel$curve$accuracy, sel$curve$stage, max)), collapse = " ")))))

  if (d$gsvm != "none") {
    sc <- scaler(xtr)
    str <- sc(xtr)
    sval <- sc(xval)
    grid <- if (d$gsvm == "grid") expand.grid(gamma = GAMMA, cost = COST) else data.frame(gamma = sel$gamma, cost = sel$cost)
    g <- elapsed({
      scores <- parallel::mclapply(seq_len(nrow(grid)), function(k) {
        m <- e1071::svm(str, ytr, kernel = "radial", cost = grid$cost[k], gamma = grid$gamma[k], scale = FALSE,
                        cachesize = CACHE_MB)
        list(acc = mean(predict(m, sval) == yval), model = m)
      }, mc.cores = NUM_THREADS, mc.preschedule = FALSE)
      accs <- vapply(scores, `[[`, 0, "acc")
      scores[[which.max(accs)]]$model
    })
    best <- g$value
    acc_g <- 100 * mean(predict(best, sc(d$xte)) == d$yte)
    do.call(add, c(common, list(model = "gsvm", accuracy = acc_g, seconds = g$seconds, nsv = best$tot.nSV,
                                speedup = g$seconds / td$seconds, note = sprintf(
      "%s; C %g, gamma %g; speed-up %.1fx, tdsvm - gsvm %+.2f points",
      if (d$gsvm == "grid") sprintf("tuned on %d grid points", nrow(grid)) else "ONE fit at tdsvm's (C, gamma): lower bound",
      best$cost, best$gamma, g$seconds / td$seconds, acc_td - acc_g))))
  }

  rf <- elapsed(ranger::ranger(x = as.matrix(xtr), y = ytr, num.trees = 500, num.threads = NUM_THREADS, seed = 1))
  acc_rf <- 100 * mean(predict(rf$value, as.matrix(d$xte), num.threads = NUM_THREADS)$predictions == d$yte)
  do.call(add, c(common, list(model = "ranger", accuracy = acc_rf, seconds = rf$seconds, nsv = NA_real_,
                              speedup = NA_real_, note = "500 trees")))
  rm(d, xtr, xval, fit)
  invisible(gc(verbose = FALSE))
  utils::write.csv(do.call(rbind, results), csv_path, row.names = FALSE)
}

say("\n== summary\n")
tab <- do.call(rbind, results)
print(tab[, c("dataset", "model", "n_train", "accuracy", "seconds", "speedup", "nsv", "load")], digits = 4,
      row.names = FALSE)
say("\nresults: ", bench_relpath(csv_path), "\n")
