# Benchmark: transformation forests against RSVT on small tabular sets, one
# setting changed at a time (defaults otherwise), on the accuracy bench's
# held-out split (bench/bench_common.R). Shows which part of the method
# costs accuracy where transform trails RSVT (issue #18: sonar, pima).
#
# Usage (from the repository root):
#   Rscript bench/archive/transform_settings.R [data_dir] [--only=sonar,pima]
# Output: one line per (dataset, setting): test accuracy and fit seconds
# (1 thread, seed 1).

source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench/archive"
}), "..", "bench_common.R"))  # archived: the helpers are one folder up
suppressPackageStartupMessages(library(svforest))
args <- bench_args()
sets <- if (length(args$only)) args$only else c("sonar", "pima")
data <- classification_datasets(args$data_dir)
settings <- list(
  "rsvt (reference)" = list(method = "rsvt"),
  "transform default" = list(),
  "ntree = 100" = list(ntree = 100),
  "node_tries = 3" = list(node_tries = 3),
  "max_depth = 5" = list(max_depth = 5),
  "subspace_dim = 1" = list(subspace_dim = 1),
  "subspace_dim = 3" = list(subspace_dim = 3),
  "min_node_size = 20" = list(min_node_size = 20),
  "transform_iter = 0 (identity T)" = list(transform_iter = 0),
  "transform_iter = 100" = list(transform_iter = 100))
for (nm in sets) {
  d <- data[[nm]]()
  for (label in names(settings)) {
    a <- utils::modifyList(list(x = d$xtr, y = d$ytr, method = "transform", seed = 1, num_threads = 1),
                           settings[[label]])
    t <- system.time(fit <- do.call(svforest, a))[["elapsed"]]
    say(sprintf("%-8s %-32s acc %.4f  fit %6.2f s\n", nm, label, mean(predict(fit, d$xte) == d$yte), t))
  }
}
