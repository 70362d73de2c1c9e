# Model size of the saved tree layouts: fits once, then reports the model's
# size (object.size and serialized) with its trees in the compact layout of
# model format 3 and in the plain layout of format 2 (the same trees,
# converted), and checks that both predict the test set identically.
#
# Usage (from the repository root):
#   Rscript bench/model_size.R [--data=multi] [--model=psvm] [--threads=2]
#       [--data_dir=../shared/data] [--n=100000]
# data "multi" is bench/scale_bench.R's n x 20, 20-class set (n = 100,000 by
# default; test set: n new rows); any other name is a data set of bench/bench_common.R's
# classification_datasets() (e.g. isolet, with its own test set) under
# --data_dir. model as in scale_bench.R (psvm: 100 trees; transform: 20;
# "hybrid", the default method). Also reports the share of the per-leaf
# out-of-bag counts (element leaf_oob, kept since issue #41) in the model.
suppressPackageStartupMessages(library(svforest))
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  v <- sub(paste0("^--", name, "="), "", grep(paste0("^--", name, "="), args, value = TRUE))
  if (length(v)) v[1] else default
}
threads <- as.integer(opt("threads", "2"))
data_name <- opt("data", "multi")
model <- opt("model", "psvm")
bench <- new.env()
# the data and fits of scale_bench.R, without running its driver
script <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
})
src <- readLines(file.path(script, "scale_bench.R"))
src <- src[seq_len(grep("^# --- one case", src) - 1L)]
eval(parse(text = src), envir = bench)
bench$threads <- threads
if (data_name == "multi") {
  n <- as.numeric(opt("n", "100000"))
  d <- bench$make_data(data_name, n, seed = 1)
  test <- bench$make_data(data_name, n, seed = 2)
} else {
  common <- new.env()
  sys.source(file.path(script, "bench_common.R"), envir = common)
  s <- common$classification_datasets(opt("data_dir", "../shared/data"))[[data_name]]()
  d <- list(x = s$xtr, y = s$ytr)
  test <- list(x = s$xte, y = s$yte)
}
fit_s <- system.time(fit <- bench$fit_model(model, d$x, d$y))[["elapsed"]]
plain <- fit
plain$forest$trees <- lapply(fit$forest$trees, function(t) svforest:::tree_plain(fit$forest, t))
plain$format_version <- 2L
mb <- function(x) as.numeric(utils::object.size(x)) / 2^20
smb <- function(x) length(serialize(x, NULL)) / 2^20
type <- if (fit$type == "classification") "prob" else "response"
p_compact <- predict(fit, test$x, type = type, num_threads = threads)
p_plain <- predict(plain, test$x, type = type, num_threads = threads)
cat(sprintf("%s %s: %d trees, fit %.1f s\n", data_name, model, length(fit$forest$trees), fit_s))
cat(sprintf("  plain layout (format 2):   object.size %8.1f MB, serialized %8.1f MB\n", mb(plain), smb(plain)))
cat(sprintf("  compact layout (format 3): object.size %8.1f MB, serialized %8.1f MB (%.3f of plain)\n",
            mb(fit), smb(fit), mb(fit) / mb(plain)))
cat(sprintf("  identical test-set %s predictions: %s; identical classes: %s\n", type, identical(p_compact, p_plain),
            identical(predict(fit, test$x, num_threads = threads), predict(plain, test$x, num_threads = threads))))
bare <- fit
bare$forest$trees <- lapply(fit$forest$trees, function(t) { t$leaf_oob <- NULL; t })
cat(sprintf("  without the out-of-bag counts: object.size %8.1f MB, serialized %8.1f MB (the counts: +%.2f%%, +%.2f%%)\n",
            mb(bare), smb(bare), 100 * (mb(fit) / mb(bare) - 1), 100 * (smb(fit) / smb(bare) - 1)))
parts <- names(fit$forest$trees[[1]])
per <- vapply(parts, function(e) sum(vapply(fit$forest$trees, function(t) mb(t[[e]]), 0)), 0)
cat("  compact layout by element (MB):\n")
print(round(per[per > 0.005], 2))
