# Out-of-bag figures on pure noise: does the default forest's out-of-bag
# error hold on new rows? 20 N(0, 1) predictors, a two-class outcome drawn
# independently of them, 400 training rows and 2,000 test rows per seed.
# An honest out-of-bag error is within noise of the test error (about 50%),
# an honest out-of-bag log-loss is at least log 2, and the growth rule has no
# reason to grow past 100 trees.
#
#   Rscript bench/oob_noise.R [--seeds=10] [--threads=2]
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
})
suppressPackageStartupMessages(library(svforest))
args <- bench_args()
seeds <- seq_len(if (length(args$value("seeds"))) as.integer(args$value("seeds")) else 10L)
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
noise <- function(n, p = 20) {
  x <- as.data.frame(matrix(rnorm(n * p), n, p))
  x$y <- factor(sample(c("a", "b"), n, replace = TRUE))
  x
}
rows <- lapply(seeds, function(s) {
  set.seed(s)
  train <- noise(400)
  test <- noise(2000)
  fit <- svforest(y ~ ., train, seed = s, num_threads = threads)
  data.frame(seed = s, ntree = fit$ntree, oob_error = fit$oob_error, oob_logloss = fit$oob_logloss,
             test_error = mean(predict(fit, test) != test$y))
})
res <- do.call(rbind, rows)
print(res, digits = 3, row.names = FALSE)
cat(sprintf("\nmean out-of-bag error %.4f, mean test error %.4f (gap %+.2f points)\n",
            mean(res$oob_error), mean(res$test_error), 100 * (mean(res$oob_error) - mean(res$test_error))))
cat(sprintf("mean out-of-bag log-loss %.4f (log 2 = %.4f); most trees %d\n",
            mean(res$oob_logloss), log(2), max(res$ntree)))
