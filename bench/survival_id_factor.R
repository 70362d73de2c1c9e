# A survival forest with an ID-like factor: its out-of-bag C must stay an
# honest estimate of the test C (per-tree factor coding, levels ordered by
# the martingale scores of the tree's in-bag rows, outcome/Survival.cpp).
#
#   Rscript bench/survival_id_factor.R [--threads=1] [--seeds=1,2,3] [--out=survival_id_factor]
#
# Data per seed: 1,800 training and 1,800 test rows; exponential times with
# hazard exp(0.9 x1 - 0.7 x2), 3 noise predictors, uniform censoring (about
# a third censored); a factor "id" of 1,200 levels drawn at random for every
# row (no signal). svforest defaults (300 trees). Reported per seed:
# out-of-bag C, test C (survival::concordance of the predicted risk), their
# difference, whether the forest coded id per tree (level codes), and the
# fit time. Results: bench/results/<out>.txt.
suppressPackageStartupMessages({ library(svforest); library(survival) })
args <- commandArgs(TRUE)
arg <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1]) else default
}
threads <- as.integer(arg("threads", "1"))
seeds <- as.integer(strsplit(arg("seeds", "1,2,3"), ",")[[1]])
out <- arg("out", "survival_id_factor")

make_data <- function(n, n_levels = 1200) {
  x <- matrix(stats::rnorm(n * 5), n, 5, dimnames = list(NULL, paste0("x", 1:5)))
  event <- stats::rexp(n, exp(0.9 * x[, 1] - 0.7 * x[, 2]))
  censor <- stats::runif(n, 0, 3)
  id <- factor(sprintf("id%04d", sample.int(n_levels, n, TRUE)), levels = sprintf("id%04d", seq_len(n_levels)))
  data.frame(x, id = id, time = pmin(event, censor), status = as.integer(event <= censor))
}

rows <- lapply(seeds, function(seed) {
  set.seed(seed)
  train <- make_data(1800)
  test <- make_data(1800)
  elapsed <- system.time(fit <- svforest(Surv(time, status) ~ ., data = train, seed = seed,
                                         num_threads = threads))[["elapsed"]]
  risk <- predict(fit, test, type = "risk")
  test_c <- survival::concordance(Surv(test$time, test$status) ~ risk, reverse = TRUE)$concordance
  coded <- any(vapply(fit$forest$trees, function(t) length(t$factor_int) > 0, TRUE))
  data.frame(seed = seed, oob_c = fit$oob_concordance, test_c = test_c, gap = fit$oob_concordance - test_c,
             id_coded_per_tree = coded, fit_seconds = elapsed)
})
res <- do.call(rbind, rows)
lines <- c(sprintf("svforest %s, %d thread(s); 1,800 training and 1,800 test rows, id of 1,200 levels",
                   as.character(utils::packageVersion("svforest")), threads),
           utils::capture.output(print(res, digits = 4, row.names = FALSE)),
           sprintf("largest |oob C - test C|: %.4f", max(abs(res$gap))))
writeLines(lines)
dir.create("bench/results", showWarnings = FALSE)
writeLines(lines, file.path("bench/results", paste0(out, ".txt")))
