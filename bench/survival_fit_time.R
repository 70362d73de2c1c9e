# Survival fit time of one library (run once per library, each in its own
# R process, then compare the medians):
#   R_LIBS=<library of the base commit>   Rscript bench/survival_fit_time.R --out=fit_base.csv
#   R_LIBS=<library of the new commit> Rscript bench/survival_fit_time.R --out=fit_engine.csv
#   Rscript bench/survival_fit_time.R --compare=fit_base.csv,fit_engine.csv
# Data: pbc (418 rows), veteran (137), lung (228, complete rows) and a
# simulation of 2,000 rows and 10 predictors; default survival forests
# (300 trees), one thread, `--repeats` fits each (default 5), elapsed time
# per fit; the same seed in every repeat.
args <- commandArgs(TRUE)
arg <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1]) else default
}
compare <- arg("compare", "")
if (nzchar(compare)) {
  files <- strsplit(compare, ",")[[1]]
  a <- utils::read.csv(files[1])
  b <- utils::read.csv(files[2])
  ma <- tapply(a$seconds, a$set, stats::median)
  mb <- tapply(b$seconds, b$set, stats::median)
  res <- data.frame(set = names(ma), before = as.vector(ma), after = as.vector(mb[names(ma)]))
  res$ratio <- res$after / res$before
  print(res, digits = 3, row.names = FALSE)
  cat(sprintf("geometric mean ratio: %.3f\n", exp(mean(log(res$ratio)))))
  quit(save = "no")
}
suppressPackageStartupMessages({ library(svforest); library(survival) })
repeats <- as.integer(arg("repeats", "5"))
out <- arg("out", "survival_fit_time.csv")
sets <- local({
  pbc <- survival::pbc[!is.na(survival::pbc$trt), -1]
  pbc$status <- as.integer(pbc$status == 2)
  set.seed(1)
  n <- 2000
  sim <- data.frame(matrix(stats::rnorm(n * 10), n))
  event <- stats::rexp(n, exp(0.8 * sim$X1 - 0.6 * sim$X2 + 0.4 * sim$X3))
  censor <- stats::rexp(n, 0.4)
  sim$time <- pmin(event, censor)
  sim$status <- as.integer(event <= censor)
  list(pbc = pbc, veteran = survival::veteran, lung = stats::na.omit(survival::lung), sim2000 = sim)
})
rows <- NULL
for (r in seq_len(repeats)) {
  for (name in names(sets)) {
    d <- sets[[name]]
    t <- system.time(svforest(Surv(time, status) ~ ., data = d, seed = 1, num_threads = 1))[["elapsed"]]
    rows <- rbind(rows, data.frame(set = name, repeat_no = r, seconds = t))
  }
}
utils::write.csv(rows, out, row.names = FALSE)
print(stats::aggregate(seconds ~ set, rows, stats::median))
