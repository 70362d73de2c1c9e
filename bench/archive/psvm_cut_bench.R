# PSVM trees' split offset: the information-gain cut (psvm_cut = "gain", the
# default) against the proximal SVM's own offset (psvm_cut = "plane", the
# paper's), with ranger (500 trees) for reference, on the accuracy bench's
# held-out splits, in one process.
#   Rscript bench/archive/psvm_cut_bench.R [data_dir] [--only=spam,vehicle] [--threads=2]
# Datasets: classification_datasets() of bench_common.R (default: every one
# with at most 10,000 training rows). Output: accuracy per model and fit
# seconds; bench/archive/results/psvm_cut_bench.csv.
suppressPackageStartupMessages({ library(svforest); library(ranger); library(Matrix) })
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench/archive"
}), "..", "bench_common.R"))  # archived: the helpers are one folder up
args <- bench_args()
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
datasets <- classification_datasets(args$data_dir)
run_sets <- if (length(args$only)) args$only else names(datasets)
variants <- list(gain = list(psvm_cut = "gain"), plane = list(psvm_cut = "plane"))
say("psvm_cut: information-gain cut vs the proximal SVM's offset; ranger-500 for reference", bench_loadavg(), "\n")
rows <- list()
for (ds in run_sets) {
  s <- tryCatch(datasets[[ds]](), error = function(e) NULL)
  if (is.null(s) || (!length(args$only) && nrow(s$xtr) > 10000)) next
  xtr <- as.matrix(s$xtr); xte <- as.matrix(s$xte); ytr <- droplevels(s$ytr); yte <- as.character(s$yte)
  rg <- ranger::ranger(x = xtr, y = ytr, num.trees = 500, seed = 1, num.threads = threads)
  r <- data.frame(dataset = ds, n = nrow(xtr), p = ncol(xtr),
                  ranger = mean(as.character(predict(rg, xte, num.threads = threads)$predictions) == yte))
  for (v in names(variants)) {
    secs <- system.time(fit <- do.call(svforest, c(list(xtr, ytr, method = "psvm", seed = 1, num_threads = threads),
                                                   variants[[v]])))[["elapsed"]]
    r[[v]] <- mean(as.character(predict(fit, xte, num_threads = threads)) == yte)
    r[[paste0(v, "_s")]] <- secs
  }
  r$gain_minus_plane <- 100 * (r$gain - r$plane)
  r$gain_minus_ranger <- 100 * (r$gain - r$ranger)
  rows[[length(rows) + 1]] <- r
  say(sprintf("%-17s n %5d p %4d  ranger %.3f  gain %.3f  plane %.3f  gain-plane %+5.1f  gain-ranger %+5.1f\n",
              ds, r$n, r$p, r$ranger, r$gain, r$plane, r$gain_minus_plane, r$gain_minus_ranger))
}
tab <- do.call(rbind, rows)
say(sprintf("\nmean over %d sets: gain - plane %+.2f points, gain - ranger %+.2f points; gain within 2 points of ranger on %d\n",
            nrow(tab), mean(tab$gain_minus_plane), mean(tab$gain_minus_ranger), sum(tab$gain_minus_ranger >= -2)))
utils::write.csv(tab, results_csv("psvm_cut_bench"), row.names = FALSE)
