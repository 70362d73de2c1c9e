# Where the default forest's fit time goes: fits svforest's default (one
# thread) on registry sets under a sampling profiler run by the caller
# (bench/profile_default.sh), and ranger-500 in the same process for the ratio.
# Usage: Rscript bench/profile_default.R [data_dir] --only=spam,friedman1 [--what=svforest|ranger|both]
here <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
})
source(file.path(here, "bench_common.R"))
source(file.path(here, "datasets.R"))
args <- bench_args()
what <- if (length(args$value("what"))) args$value("what") else "both"
registry <- benchmark_registry(args$data_dir)
suppressPackageStartupMessages(library(svforest))
for (nm in args$only) {
  s <- registry[[nm]]$load()
  f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
  t_svf <- t_rg <- NA
  if (what %in% c("svforest", "both"))
    t_svf <- system.time(fit <- svforest(f, data = s$train, seed = 1, num_threads = 1, verbose = FALSE))[["elapsed"]]
  if (what %in% c("ranger", "both")) {
    tr <- s$train[stats::complete.cases(s$train), ]
    t_rg <- system.time(ranger::ranger(f, data = tr, num.trees = 500, seed = 1, num.threads = 1))[["elapsed"]]
  }
  say(sprintf("%-12s n=%d p=%d  svforest %.2fs (%d trees)  ranger-500 %.2fs  ratio %.2f\n", nm, nrow(s$train),
              ncol(s$train) - 1L, t_svf, if (exists("fit")) length(fit$forest$trees) else NA, t_rg, t_svf / t_rg))
}
