# Benchmark: fit and predict time of every method, as a ratio to ranger in the
# same process, and model size. Written for the engine renovation (issue 15),
# whose promise is "fit and predict speed within 5% of before, model size not
# larger": run it with the old and the new build of svforest and compare the
# ratio columns (ranger is the yardstick that absorbs the machine's drift).
#
# Usage (from the repository root):
#   Rscript bench/engine_speed_bench.R [--reps=5] [--threads=2] [--only=rsvt,psvm]
#   R_LIBS=/path/to/other/build Rscript bench/engine_speed_bench.R   # another build
#
# Data: synthetic "XOR of linear problems" (three classes, 20 predictors,
# 6,000 training rows, 20,000 rows to predict), the same for every method.
# Each time is the median of --reps runs; ranger (100 trees) is timed between
# the svforest runs. Output: a table and bench/results/engine_speed_bench.csv.
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))
suppressPackageStartupMessages({ library(svforest); library(ranger) })
a <- bench_args()
reps <- as.integer(if (length(a$value("reps"))) a$value("reps") else 5)
threads <- as.integer(if (length(a$value("threads"))) a$value("threads") else 2)

# one linear score per quadrant of (x1, x2), the same for training and test
set.seed(99)
w <- matrix(rnorm(4 * 20), 4, 20)
make_data <- function(n, p, seed) {
  set.seed(seed)
  x <- matrix(runif(n * p, -1, 1), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  q <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
  s <- rowSums(w[q, ] * x)
  y <- factor(cut(s, c(-Inf, -1, 1, Inf), labels = c("a", "b", "c")))
  list(x = x, y = y)
}
train <- make_data(6000, 20, 1)
test <- make_data(20000, 20, 2)

cases <- list(
  rsvt = list(method = "rsvt"),
  psvm = list(method = "psvm"),
  transform = list(method = "transform", ntree = 10),
  tdsvm = list(method = "tdsvm"),
  rsvf = list(method = "rsvf", ntree = 10),
  psvm_linear = list(method = "psvm", leaf = "linear_svm", ntree = 20)
)
if (length(a$only)) cases <- cases[a$only]

median_time <- function(f) median(vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0))
ranger_fit <- function() ranger(x = train$x, y = train$y, num.trees = 100, num.threads = threads, seed = 1)
rg <- ranger_fit()
say(sprintf("svforest %s, %d threads, %d reps\n", packageVersion("svforest"), threads, reps))
rows <- list()
for (name in names(cases)) {
  args <- c(list(train$x, train$y, seed = 1, num_threads = threads, verbose = FALSE), cases[[name]])
  fit <- do.call(svforest, args)
  t_fit <- median_time(function() do.call(svforest, args))
  r_fit <- median_time(ranger_fit)
  t_pred <- median_time(function() predict(fit, test$x, type = "prob", num_threads = threads))
  r_pred <- median_time(function() predict(rg, test$x, num.threads = threads))
  acc <- mean(predict(fit, test$x, num_threads = threads) == test$y)
  rows[[name]] <- data.frame(case = name, fit_s = t_fit, fit_ratio = t_fit / r_fit, predict_s = t_pred,
                             predict_ratio = t_pred / r_pred, accuracy = acc,
                             size_mb = as.numeric(object.size(fit)) / 2^20)
  say(sprintf("%-12s fit %7.3f s (%6.3f x ranger)  predict %6.3f s (%6.3f x ranger)  acc %.4f  size %.3f MB\n",
              name, t_fit, t_fit / r_fit, t_pred, t_pred / r_pred, acc, rows[[name]]$size_mb))
}
out <- do.call(rbind, rows)
utils::write.csv(out, results_csv("engine_speed_bench"), row.names = FALSE)
