# Benchmark: does a fit take as long late in an R session as early on?
# Fits the default forest `--fits` times (default 60) on one set of the
# harness registry in one R process, alternating with ranger (500 trees) as a
# control, and prints the median fit time of the first and the last ten fits
# of each and their ratio (last / first). A ratio near 1 for svforest, as for
# ranger, means nothing builds up between fits (caret, tune and the
# uncertainty bench fit hundreds of forests in one session). Before the
# session task arena (src/RcppRunner.cpp) the ratio was 2.7 after 60 fits
# of concrete at 2 threads.
#
# Usage (from the repository root):
#   Rscript bench/session_bench.R [data_dir] [--only=concrete] [--fits=60] [--threads=2]
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
}, envir = globalenv())
a <- bench_args()
set_name <- if (length(a$only)) a$only[1] else "concrete"
fits <- if (length(a$value("fits"))) as.integer(a$value("fits")) else 60L
threads <- if (length(a$value("threads"))) as.integer(a$value("threads")) else 2L
stopifnot(fits >= 20)
suppressPackageStartupMessages({ library(svforest); library(ranger) })

s <- benchmark_registry(a$data_dir)[[set_name]]$load()
f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
peer <- s$train
for (j in names(peer)) if (anyNA(peer[[j]])) peer <- peer[!is.na(peer[[j]]), , drop = FALSE]  # ranger takes no NA
times <- matrix(NA_real_, fits, 2, dimnames = list(NULL, c("svforest", "ranger")))
for (i in seq_len(fits)) {
  times[i, "svforest"] <- system.time(svforest(f, s$train, seed = i, num_threads = threads))[["elapsed"]]
  times[i, "ranger"] <- system.time(ranger::ranger(f, peer, num.trees = 500, seed = i, num.threads = threads))[["elapsed"]]
}
first <- apply(times[1:10, , drop = FALSE], 2, stats::median)
last <- apply(times[(fits - 9):fits, , drop = FALSE], 2, stats::median)
lines <- c(sprintf("svforest %s, %s, %d fits of each model, %d threads, %s", utils::packageVersion("svforest"), set_name,
                   fits, threads, format(Sys.time(), tz = "UTC", usetz = TRUE)),
           sprintf("%-9s first ten %.3fs, last ten %.3fs (median), last / first %.2f", names(first), first, last,
                   last / first))
say(paste(lines, collapse = "\n"), "\n")
