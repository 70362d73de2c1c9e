# Issue #58: how many rows a large node of the default regression forest
# (max_bins = 1024) fits its hyperplane directions on (HybridSplitter.cpp,
# the fit sample), chosen on development data only.
#
# RULE (written before the run). Candidates 1024 (the sample before this
# choice), 4096, 16384 and 0 (every row), smallest first.
#   (a) the generator of bench/binned_search.R's regr100k case with seeds
#       21, 22, 23, 24 (100,000 training rows each; test RMSE on 50,000 rows
#       of seed 1000 + the seed), forest seed 1, one thread, the default
#       otherwise: the mean RMSE and the summed fit CPU seconds (user + sys)
#       of each candidate;
#   (b) the harness's regression sets whose training rows exceed 1,024
#       (smaller ones cannot reach a sample: their forests are the same
#       whatever the candidate), development splits 101 and 102 (at most 2
#       per set), forest seed 1: each set's mean RMSE change in percent
#       against 1024, then the mean over sets.
# A candidate is eligible if its (b) mean change is at most +0.2% and its
# (a) CPU at most 1.05 x 1024's (1024 is eligible). The choice is the
# smallest eligible candidate whose (a) mean RMSE is within 0.1% of the
# best eligible candidate's. Classification stays at 1024 unless measured
# otherwise (its issue line is met).
#
# The fit sample is read here from the environment variable SVF_FIT_ROWS,
# which only a temporary development build reads (best_oblique(), not
# committed): `size_t fit_rows = kFitRows; if (const char* e =
# std::getenv("SVF_FIT_ROWS")) fit_rows = std::strtoul(e, nullptr, 10);
# if (fit_rows == 0) fit_rows = n;` and `n > fit_rows` / `fit_rows` in the
# sample_rows() call in place of kFitRows.
#
# Usage (from the repository root, the development build first in R_LIBS):
#   Rscript bench/fit_rows_dev.R a --seeds=21,22 [--candidates=1024,4096,16384,0] [--threads=1] [--out=NAME]
#   Rscript bench/fit_rows_dev.R b [data_dir] [--candidates=...] [--threads=1] [--out=NAME]
#   Rscript bench/fit_rows_dev.R rule --a=NAME1,NAME2 --b=NAME
# Output: bench/results/<NAME>.csv, one row per fit; `rule` prints the
# tables and the choice.
local({
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  for (helper in c("bench_common.R", "datasets.R"))
    source(file.path(if (length(script)) dirname(normalizePath(script[1])) else "bench", helper), local = globalenv())
})
args <- bench_args()
mode <- commandArgs(trailingOnly = TRUE)[1]
arg <- function(name, default) if (length(args$value(name))) args$value(name) else default
candidates <- as.integer(arg("candidates", c("1024", "4096", "16384", "0")))
threads <- as.integer(arg("threads", "1"))
cpu <- function(t) t[["user.self"]] + t[["sys.self"]]

fit_with <- function(k, ...) {  # the candidate's fit sample, then a default fit
  Sys.setenv(SVF_FIT_ROWS = as.character(k))
  on.exit(Sys.unsetenv("SVF_FIT_ROWS"))
  t <- system.time(fit <- svforest::svforest(..., seed = 1, num_threads = threads, verbose = FALSE))
  list(fit = fit, cpu = cpu(t))
}

if (identical(mode, "a")) {
  suppressPackageStartupMessages(library(svforest))
  regr <- local({  # bench/binned_search.R's regr generator
    quadrant_score <- function(n, p, seed) {
      set.seed(seed)
      x <- matrix(stats::runif(n * p, -1, 1), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
      q <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
      w <- c(1, -2, 2, -1)[q]
      list(x = x, score = w * x[, 1] + (2 - w) * x[, 2] + 0.5 * x[, 3] - 0.5 * x[, 4])
    }
    function(n, seed) {
      d <- quadrant_score(n, 20, seed)
      list(x = d$x, y = d$score + stats::rnorm(n, sd = 0.25))
    }
  })
  csv <- results_csv(arg("out", "fit_rows_dev_a"))
  rows <- NULL
  for (seed in as.integer(args$value("seeds"))) {
    train <- regr(100000, seed)
    test <- regr(50000, 1000 + seed)
    for (k in candidates) {
      r <- fit_with(k, train$x, train$y)
      rmse <- sqrt(mean((stats::predict(r$fit, test$x, num_threads = threads) - test$y)^2))
      rows <- rbind(rows, data.frame(seed = seed, fit_rows = k, rmse = rmse, fit_cpu = r$cpu, load = bench_loadavg()))
      say(sprintf("seed %d  fit_rows %6d  rmse %.5f  cpu %.1f\n", seed, k, rmse, r$cpu))
      utils::write.csv(rows, csv, row.names = FALSE)
      rm(r)
      gc()
    }
  }
} else if (identical(mode, "b")) {
  for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
  suppressPackageStartupMessages(library(svforest))
  pos <- commandArgs(trailingOnly = TRUE)
  pos <- pos[!startsWith(pos, "--")]  # (the first is the mode)
  registry <- benchmark_registry(if (length(pos) > 1) pos[2] else "../shared/data")
  csv <- results_csv(arg("out", "fit_rows_dev_b"))
  rows <- NULL
  for (nm in names(registry)[vapply(registry, function(r) r$task == "regression", TRUE)]) {
    base <- registry[[nm]]$load()
    base$test <- align_levels(base$train, base$test)
    for (split in 100L + seq_len(min(2L, bench_n_splits(nrow(base$test), "auto")))) {
      s <- resplit(base, split)
      if (nrow(s$train) <= 1024) break
      f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
      for (k in candidates) {
        r <- fit_with(k, f, data = s$train)
        rmse <- sqrt(mean((predict(r$fit, s$test, num_threads = threads) - s$test[[s$outcome]])^2))
        rows <- rbind(rows, data.frame(dataset = nm, split = split, n_train = nrow(s$train), fit_rows = k,
                                       rmse = rmse, fit_cpu = r$cpu))
        say(sprintf("%-18s split %d  n %6d  fit_rows %6d  rmse %.5f  cpu %.1f\n", nm, split, nrow(s$train), k,
                    rmse, r$cpu))
        utils::write.csv(rows, csv, row.names = FALSE)
      }
    }
  }
} else if (identical(mode, "rule")) {
  a <- do.call(rbind, lapply(args$value("a"), function(nm) utils::read.csv(results_csv(nm))))
  b <- utils::read.csv(results_csv(args$value("b")))
  ta <- stats::aggregate(cbind(rmse, fit_cpu) ~ fit_rows, data = a, FUN = mean)
  ta$n_seeds <- as.vector(table(a$fit_rows)[as.character(ta$fit_rows)])
  ta$fit_cpu <- ta$fit_cpu * ta$n_seeds  # summed over the seeds
  ta$cpu_ratio <- ta$fit_cpu / ta$fit_cpu[ta$fit_rows == 1024]
  bs <- stats::aggregate(rmse ~ dataset + fit_rows, data = b, FUN = mean)
  ref <- bs[bs$fit_rows == 1024, ]
  bs$change <- 100 * (bs$rmse / ref$rmse[match(bs$dataset, ref$dataset)] - 1)
  ta$b_change <- vapply(ta$fit_rows, function(k) mean(bs$change[bs$fit_rows == k]), 0)
  ta <- ta[order(ifelse(ta$fit_rows == 0, Inf, ta$fit_rows)), ]
  ta$eligible <- ta$fit_rows == 1024 | (ta$b_change <= 0.2 & ta$cpu_ratio <= 1.05)
  best <- min(ta$rmse[ta$eligible])
  ta$vs_best <- 100 * (ta$rmse / best - 1)
  choice <- ta$fit_rows[ta$eligible & ta$rmse <= best * 1.001][1]
  say("(a) seeds ", paste(sort(unique(a$seed)), collapse = ","), ": mean RMSE, CPU summed over seeds;",
      " (b) mean over sets of the RMSE change (%) against 1024\n")
  print(within(ta, {rmse <- round(rmse, 5); cpu_ratio <- round(cpu_ratio, 3); b_change <- round(b_change, 3);
                    vs_best <- round(vs_best, 3); fit_cpu <- round(fit_cpu, 1)}), row.names = FALSE)
  say("\n(a) per seed\n")
  print(stats::reshape(a[, c("seed", "fit_rows", "rmse")], idvar = "seed", timevar = "fit_rows",
                       direction = "wide"), row.names = FALSE, digits = 5)
  say("\n(b) per set (RMSE change against 1024, %)\n")
  print(stats::reshape(bs[bs$fit_rows != 1024, c("dataset", "fit_rows", "change")], idvar = "dataset",
                       timevar = "fit_rows", direction = "wide"), row.names = FALSE, digits = 3)
  say("\nchoice (0: every row): ", choice, "\n")
} else {
  stop("the first argument is a, b or rule")
}
