# Does a survival forest's printed out-of-bag concordance hold on new rows?
# Pure noise (800 rows, 10 predictors, exponential times) and survival's pbc,
# 5 seeds, random halves: out-of-bag Harrell's C of the fit on one half
# against survival::concordance() of its risk on the other.
#   Rscript bench/survival_oob_check.R
library(svforest); library(survival)
cidx <- function(fit, d) concordance(Surv(time, status) ~ predict(fit, d, type = "risk"), data = d, reverse = TRUE)$concordance
res <- NULL
for (seed in 1:5) {
  set.seed(seed); n <- 800
  noise <- data.frame(matrix(rnorm(n * 10), n)); noise$time <- rexp(n); noise$status <- rbinom(n, 1, 0.7)
  for (set in c("noise", "pbc")) {
    d <- if (set == "noise") noise else { p <- survival::pbc[!is.na(survival::pbc$trt), -1]; p$status <- as.integer(p$status == 2); p }
    tr <- sample(nrow(d), nrow(d) %/% 2)
    fit <- suppressWarnings(svforest(Surv(time, status) ~ ., d[tr, ], seed = seed, num_threads = 2))
    res <- rbind(res, data.frame(set, seed, oob_c = fit$oob_concordance, test_c = suppressWarnings(cidx(fit, d[-tr, ]))))
  }
}
print(res); print(aggregate(cbind(oob_c, test_c) ~ set, res, mean))
