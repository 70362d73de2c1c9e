# Out-of-bag figures of a competing-risks forest on pure noise (issue 49):
# two causes drawn independently of 10 N(0, 1) predictors, 800 training
# rows and 800 new rows per seed. Honest out-of-bag concordance per cause
# (Wolbers') is within noise of the new rows' and near 0.5.
#
#   Rscript bench/competing_oob_noise.R [--seeds=5] [--threads=2] [--test_rows=800]
# (a held-out C on 800 rows has a standard error of about 0.02 of its own:
# --test_rows=4000 measures the held-out figure the out-of-bag one estimates)
# Results: bench/results/competing_oob_noise.txt (the command on its first line).
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
})
suppressPackageStartupMessages({
  library(svforest)
  library(survival)
})
args <- bench_args()
seeds <- seq_len(if (length(args$value("seeds"))) as.integer(args$value("seeds")) else 5L)
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
test_rows <- if (length(args$value("test_rows"))) as.integer(args$value("test_rows")) else 800L
noise <- function(n, p = 10) {
  x <- as.data.frame(matrix(rnorm(n * p), n, p))
  x$time <- rexp(n)
  x$event <- factor(sample(c("censored", "one", "two"), n, replace = TRUE, prob = c(0.3, 0.35, 0.35)),
                    levels = c("censored", "one", "two"))
  x
}
rows <- lapply(seeds, function(s) {
  set.seed(s)
  train <- noise(800)
  test <- noise(test_rows)
  fit <- svforest(Surv(time, event) ~ ., train, seed = s, num_threads = threads)
  risk <- predict(fit, test, type = "risk", num_threads = threads)
  status <- as.integer(test$event) - 1L
  held_out <- vapply(1:2, function(k) svforest:::oob_wolbers_c(test$time, status, risk[, k], k), 0)
  data.frame(seed = s, ntree = fit$ntree, oob_c1 = fit$oob_concordance[[1]], test_c1 = held_out[1],
             oob_c2 = fit$oob_concordance[[2]], test_c2 = held_out[2])
})
res <- do.call(rbind, rows)
res$gap_c1 <- res$oob_c1 - res$test_c1
res$gap_c2 <- res$oob_c2 - res$test_c2
print(res, digits = 4, row.names = FALSE)
say(sprintf("%d training rows, %d held-out rows per seed\n", 800L, test_rows))
say(sprintf("largest |OOB - held-out| per cause: %.4f, %.4f; mean OOB - held-out %.4f, %.4f\n",
            max(abs(res$gap_c1)), max(abs(res$gap_c2)), mean(res$gap_c1), mean(res$gap_c2)))
say(sprintf("mean OOB C %.4f, %.4f; mean held-out C %.4f, %.4f\n", mean(res$oob_c1), mean(res$oob_c2),
            mean(res$test_c1), mean(res$test_c2)))
