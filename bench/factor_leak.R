# An ID-like factor must not leak labels into the trees it scores
# (factor_coding = "order", per-tree level values from in-bag rows).
#
#   Rscript bench/factor_leak.R [--threads=2] [--seeds=1,2,3] [--levels=1500] [--out=factor_leak]
#
# Data: a logistic model on 5 numeric predictors (4 informative), plus a
# factor "id" of 1,500 levels (--levels) drawn at random for every row (no signal);
# 2,000 training rows, 2,000 test rows, per seed. svforest (defaults) and
# ranger (500 trees, defaults) are fitted on the same rows in this process;
# svforest also without the id column. Reported: test error, svforest's
# out-of-bag error, and fit times. Results: bench/results/<out>.csv.
suppressPackageStartupMessages({ library(svforest); library(ranger) })
args <- commandArgs(TRUE)
arg <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1]) else default
}
threads <- as.integer(arg("threads", "2"))
seeds <- as.integer(strsplit(arg("seeds", "1,2,3"), ",")[[1]])
out <- arg("out", "factor_leak")
n_levels <- as.integer(arg("levels", "1500"))

make_data <- function(n, seed, n_levels = 1500) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 5), n, 5, dimnames = list(NULL, paste0("x", 1:5)))
  p <- stats::plogis(1.2 * x[, 1] + x[, 2] - x[, 3] + 0.6 * x[, 4])
  y <- factor(ifelse(stats::runif(n) < p, "yes", "no"))
  id <- factor(sprintf("id%04d", sample.int(n_levels, n, TRUE)), levels = sprintf("id%04d", seq_len(n_levels)))
  data.frame(x, id = id, y = y)
}

rows <- list()
for (seed in seeds) {
  all <- make_data(4000, seed, n_levels)
  train <- all[1:2000, ]
  test <- all[2001:4000, ]
  time_fit <- function(expr) { t0 <- proc.time()[["elapsed"]]; v <- force(expr); list(v = v, s = proc.time()[["elapsed"]] - t0) }
  sv <- time_fit(svforest(y ~ ., train, seed = seed, num_threads = threads))
  sv_no <- time_fit(svforest(y ~ . - id, train, seed = seed, num_threads = threads))
  rg <- time_fit(ranger::ranger(y ~ ., train, num.trees = 500, seed = seed, num.threads = threads))
  err <- function(pred) mean(pred != test$y)
  rows[[length(rows) + 1]] <- data.frame(
    seed = seed, levels = n_levels,
    svforest_test = err(predict(sv$v, test)), svforest_oob = sv$v$oob_error, svforest_s = sv$s,
    svforest_noid_test = err(predict(sv_no$v, test)), svforest_noid_oob = sv_no$v$oob_error,
    ranger_test = err(predict(rg$v, test)$predictions), ranger_oob = rg$v$prediction.error, ranger_s = rg$s)
  print(rows[[length(rows)]], digits = 4)
}
res <- do.call(rbind, rows)
res$commit <- tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA)
dir.create("bench/results", showWarnings = FALSE)
utils::write.csv(res, file.path("bench/results", paste0(out, ".csv")), row.names = FALSE)
cat("\nmeans over seeds:\n")
print(colMeans(res[setdiff(names(res), c("seed", "levels", "commit"))]), digits = 4)
