# Cost of a many-level factor (per-tree coding, R/factor-coding.R).
#
#   Rscript bench/factor_scale.R regression [--threads=2]
#       2,000 rows, 5 numeric predictors and an 800-level character column
#       (regression default, factor_coding "auto"): fit time with and without
#       the column, and test RMSE on 2,000 more rows; ranger on the same rows.
#   /usr/bin/time -v Rscript bench/factor_scale.R memory [--threads=2]
#       a 15,000-level factor in 20,000 rows, 10 trees (classification
#       default); read the peak memory from time's "Maximum resident set size".
suppressPackageStartupMessages(library(svforest))
args <- commandArgs(TRUE)
part <- if (length(args)) args[1] else "regression"
hit <- grep("^--threads=", args, value = TRUE)
threads <- if (length(hit)) as.integer(sub("^--threads=", "", hit[1])) else 2L
elapsed <- function(expr) { t0 <- proc.time()[["elapsed"]]; v <- force(expr); list(v = v, s = proc.time()[["elapsed"]] - t0) }

if (identical(part, "regression")) {
  set.seed(1)
  n <- 4000
  x <- matrix(stats::rnorm(n * 5), n, 5, dimnames = list(NULL, paste0("x", 1:5)))
  d <- data.frame(x, code = sprintf("c%03d", sample.int(800, n, TRUE)))
  d$y <- x[, 1] + 2 * sin(x[, 2]) + x[, 3] * x[, 4] + stats::rnorm(n, sd = 0.5)
  train <- d[1:2000, ]
  test <- d[2001:4000, ]
  test <- test[test$code %in% train$code, ]  # levels unseen in training are an error
  with_col <- elapsed(svforest(y ~ ., train, seed = 1, num_threads = threads))
  without <- elapsed(svforest(y ~ . - code, train, seed = 1, num_threads = threads))
  rg <- elapsed(ranger::ranger(y ~ ., train, num.trees = 500, seed = 1, num.threads = threads))
  rmse <- function(p) sqrt(mean((p - test$y)^2))
  cat(sprintf("with the 800-level column: %.2f s, test RMSE %.4f (%d design columns)\n", with_col$s,
              rmse(predict(with_col$v, test)), length(with_col$v$design$feature_names)))
  cat(sprintf("without it:                %.2f s, test RMSE %.4f\n", without$s, rmse(predict(without$v, test))))
  cat(sprintf("time ratio: %.2f; ranger (with the column): %.2f s, test RMSE %.4f\n", with_col$s / without$s,
              rg$s, rmse(predict(rg$v, test)$predictions)))
} else {
  set.seed(2)
  n <- 20000
  d <- data.frame(id = factor(sprintf("l%05d", sample.int(15000, n, TRUE))), x1 = stats::rnorm(n), x2 = stats::rnorm(n))
  d$y <- factor(ifelse(d$x1 + d$x2 + stats::rnorm(n) > 0, "a", "b"))
  fit <- elapsed(svforest(y ~ ., d, ntree = 10, seed = 1, num_threads = threads))
  cat(sprintf("15,000-level factor, 20,000 rows, 10 trees: %.2f s, %d design columns, OOB error %.4f\n", fit$s,
              length(fit$v$design$feature_names), fit$v$oob_error))
}
