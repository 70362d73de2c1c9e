# Survival defaults for many events (issue #61's line "survival held-out C at 20,000 training rows at
# least aorsf-500's minus 0.005"), chosen on SIMULATED DEVELOPMENT sets: the registry's survival sets
# hold at most about 1,100 training events, so a rule for large event counts cannot be chosen there,
# and the scored line's rows (bench/memory_event.R, event_data(40000, "survival") with seed 61) are
# never used here. Five generators, two seeds each (10 sets), 30,000 rows: the first 20,000 train,
# the other 10,000 held out:
#   ph_sparse     proportional hazards, exponential baseline, 5 signal + 25 noise predictors, uniform
#                 censoring (about 44%)
#   ph_nonlinear  Weibull (shape 1.5) proportional hazards with sin, square, interaction and binary
#                 terms, 15 predictors (5 binary), exponential censoring (about 26%)
#   aft_crossing  log-normal accelerated failure time whose spread depends on a predictor (crossing
#                 hazards: not proportional), an interaction, 20 predictors, uniform censoring (about 30%)
#   corr_heavy    AR(0.6)-correlated predictors (25), threshold and interaction terms, heavy
#                 exponential censoring (about 73%)
#   bench_event   bench/memory_event.R's generator (20 predictors) with seeds 201 and 202 (never 61)
# Every fit: svforest(Surv(time, status) ~ ., seed = 1, num_threads = 2) and the variant's arguments,
# a function of the training events E. Scores as the harness's (bench/harness_survival.R): held-out
# Harrell's C of predict(type = "risk") and the IPCW integrated Brier score over the held-out event
# times up to their 75th percentile (here at most 200 of them, at their quantiles, for memory).
#
# Candidates (written before the run; each changes nothing at E <= 1,024 training events, the
# registry's sizes, where the square-root rule was chosen):
#   default  main's: min_node_events = ceiling(sqrt(E)), oblique_fit = "ridge"
#   q        min_node_events = ceiling(32 (E / 1024)^(1/4)) above 1,024 events (continuous with
#            sqrt(E) at 1,024; grows as E^(1/4) beyond: about 58 at 11,000 events, 104 at 113,000)
#   q_cox    q, and oblique_fit = "cox" above 1,024 events
#   cox      oblique_fit = "cox" above 1,024 events, node rule unchanged (run last, if time allows)
# Choice rule: among q, q_cox, cox, the largest mean held-out C gain over default across the 10 sets,
# provided it is positive, mean IBS is not worse than default's, and then the registry's development
# splits (bench/survival_variants.R --splits=4) are not worse on mean C and mean IBS; else no change.
#   Rscript bench/survival_large_dev.R [--variants=default,q,q_cox,cox] [--only=ph_sparse,...]
#       [--seeds=1,2] [--threads=2] [--out=survival_large_dev]
#
# Second round (issue #61, 2026-12-07; written and committed before any of its runs). The default is now
# q (main cc77f7c). NEW candidates, each changing nothing at E <= 1,024 training events (so nothing on
# the registry's sets), each a function of the training events E and the design's predictors p:
#   default    main cc77f7c's: min_node_events q, min_leaf_size 10, min_node_size 20, mtry floor(sqrt(p))
#   e8         slower node growth beyond the knee: min_node_events = ceiling(32 (E / 1024)^(1/8))
#              (44 at 11,339 events against q's 59; 58 at 114,000 against q's 104)
#   mtry_ceil  q, and mtry = ceiling(sqrt(p)) above 1,024 events (aorsf's; 5 against 4 at p = 20)
#   e8_mtry    e8 and mtry_ceil together
#   leaf5      q, and min_leaf_size 5, min_node_size 10 above 1,024 events (smaller leaves)
# (Not run: ntime above 150 at 200,000 rows stores every leaf's curve at more times, against the 2 GB
# line; more trees: 300 -> 500 would take the 200,000-row fit from 898 to about 1,500 CPU s.)
# Choice rule: among e8, mtry_ceil, e8_mtry, leaf5, the one of largest mean held-out C gain over default
# across the 10 sets, provided that gain is at least +0.0005, its mean IBS is not worse than default's and
# its mean fit CPU seconds are at most 1.3 times default's; else no change. (The registry's development
# splits need no run: below 1,025 events every candidate is the default.)
#   Rscript bench/survival_large_dev.R --variants=default,e8,mtry_ceil,e8_mtry,leaf5 --seeds=1 --threads=1 \
#       --out=survival_large_dev2_s1      (and --seeds=2 ... --out=survival_large_dev2_s2, beside it)
#   Rscript bench/survival_large_dev.R --summarise=survival_large_dev2_s1,survival_large_dev2_s2
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "harness_survival.R"))
}, envir = globalenv())
suppressPackageStartupMessages({
  library(survival)
  library(svforest)
})

opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), commandArgs(TRUE), value = TRUE)
  if (length(hit)) sub(sprintf("^--%s=", name), "", hit[1]) else default
}
knee <- 1024
q_rule <- function(e) if (e > knee) as.integer(ceiling(sqrt(knee) * (e / knee)^0.25)) else NA_integer_
e8_rule <- function(e) if (e > knee) as.integer(ceiling(sqrt(knee) * (e / knee)^0.125)) else NA_integer_
above <- function(e, value) if (e > knee) value else NULL  # an argument given above the knee only
# a variant: its svforest() arguments from the training events e and the predictors p (first round's:
# against the square root, main 7ea08a2's default; second round's: against q, main cc77f7c's default)
variants <- list(
  default = function(e, p) list(),
  q = function(e, p) list(min_node_events = q_rule(e)),
  q_cox = function(e, p) list(min_node_events = q_rule(e), oblique_fit = if (e > knee) "cox" else "ridge"),
  cox = function(e, p) list(oblique_fit = if (e > knee) "cox" else "ridge"),
  e8 = function(e, p) list(min_node_events = e8_rule(e)),
  mtry_ceil = function(e, p) list(mtry = above(e, as.integer(ceiling(sqrt(p))))),
  e8_mtry = function(e, p) list(min_node_events = e8_rule(e), mtry = above(e, as.integer(ceiling(sqrt(p))))),
  leaf5 = function(e, p) list(min_leaf_size = above(e, 5L), min_node_size = above(e, 10L))
)

# uniform censoring on (0, hi) and the event time: observed time and status
censored <- function(x, event, censor) data.frame(x, time = pmin(event, censor), status = as.integer(event <= censor))
normal_x <- function(n, p) matrix(rnorm(n * p), n, dimnames = list(NULL, sprintf("x%02d", seq_len(p))))
generators <- list(
  ph_sparse = function(n) {
    x <- normal_x(n, 30)
    lp <- 0.7 * x[, 1] - 0.5 * x[, 2] + 0.4 * x[, 3] - 0.3 * x[, 4] + 0.2 * x[, 5]
    censored(x, rexp(n, 0.1 * exp(lp)), runif(n, 0, 20))
  },
  ph_nonlinear = function(n) {
    x <- cbind(matrix(runif(n * 10, -2, 2), n), matrix(rbinom(n * 5, 1, 0.4), n))
    colnames(x) <- sprintf("x%02d", seq_len(15))
    lp <- sin(1.5 * x[, 1]) + 0.5 * x[, 2]^2 - 0.6 * x[, 3] * x[, 4] + 0.8 * x[, 11] - 0.5 * x[, 12] * x[, 5]
    event <- (-log(runif(n)) / (0.05 * exp(lp)))^(1 / 1.5)
    censored(x, event, rexp(n, 0.08))
  },
  aft_crossing = function(n) {
    x <- normal_x(n, 20)
    event <- exp(1 + 0.5 * x[, 1] - 0.4 * x[, 2] + 0.3 * x[, 3] * x[, 6] + exp(0.4 * x[, 4]) * rnorm(n))
    censored(x, event, runif(n, 0, 15))
  },
  corr_heavy = function(n) {
    z <- normal_x(n, 25)
    x <- z
    for (j in 2:25) x[, j] <- 0.6 * x[, j - 1] + sqrt(1 - 0.36) * z[, j]
    lp <- 0.6 * (x[, 1] > 0) - 0.5 * (x[, 2] > 1) + 0.4 * x[, 3] + 0.4 * x[, 4] * x[, 5] + 0.3 * abs(x[, 8])
    censored(x, rexp(n, 0.05 * exp(lp)), rexp(n, 0.3))
  },
  bench_event = function(n) {  # bench/memory_event.R's event_data(n, "survival") without its seed
    p <- 20
    x <- normal_x(n, p)
    lp <- 0.8 * x[, 1] - 0.6 * x[, 2] + 0.5 * x[, 3] * x[, 4] + 0.4 * pmax(x[, 5], 0)
    censor <- rexp(n, 0.25)
    censored(x, rexp(n, 0.3 * exp(lp)), censor)
  }
)
seed_of <- function(g, k) if (g == "bench_event") 200L + k else 1000L + 10L * match(g, names(generators)) + k

summarise <- opt("summarise", "")
pick <- strsplit(opt("variants", "default,q,q_cox"), ",")[[1]]
only <- strsplit(opt("only", paste(names(generators), collapse = ",")), ",")[[1]]
seeds <- as.integer(strsplit(opt("seeds", "1,2"), ",")[[1]])
threads <- as.integer(opt("threads", "2"))
csv <- results_csv(opt("out", "survival_large_dev"))
rows <- if (file.exists(csv) && nzchar(opt("append", ""))) list(utils::read.csv(csv)) else list()
cat(sprintf("svforest %s, variants %s\n", utils::packageVersion("svforest"), paste(pick, collapse = ",")))
if (nzchar(summarise)) {  # only the summary, over the rows of several runs' files
  rows <- lapply(strsplit(summarise, ",")[[1]], function(f) utils::read.csv(results_csv(f)))
  seeds <- integer(0)
}
for (k in seeds) for (g in only) {
  set.seed(seed_of(g, k))
  d <- generators[[g]](30000)
  train <- d[1:20000, ]
  test <- d[20001:30000, ]
  e <- sum(train$status == 1)
  grid <- survival_grid(test$time, test$status)
  grid <- unique(grid[unique(round(seq(1, length(grid), length.out = min(200, length(grid)))))])
  for (v in pick) {
    t0 <- proc.time()
    fit <- do.call(svforest, c(list(Surv(time, status) ~ ., data = train, seed = 1, num_threads = threads,
                                    verbose = FALSE), Filter(Negate(is.null), variants[[v]](e, ncol(train) - 2L))))
    spent <- proc.time() - t0
    risk <- predict(fit, test, type = "risk", num_threads = threads)
    surv <- predict(fit, test, type = "survival", times = grid, num_threads = threads)
    ibs <- integrated_brier(surv, test$time, test$status, grid)
    cindex <- survival::concordance(Surv(test$time, test$status) ~ risk, reverse = TRUE)$concordance
    rows[[length(rows) + 1L]] <- data.frame(set = g, seed = k, events = e, variant = v, cindex = cindex, ibs = ibs,
                                            fit_cpu_s = spent[["user.self"]] + spent[["sys.self"]])
    cat(sprintf("%-13s seed %d events %5d %-8s C %.4f  IBS %.5f  fit cpu %6.1fs\n", g, k, e, v, cindex, ibs,
                spent[["user.self"]] + spent[["sys.self"]]))
    utils::write.csv(do.call(rbind, rows), csv, row.names = FALSE)
  }
}
res <- do.call(rbind, rows)
base <- res[res$variant == "default", ]
for (v in setdiff(unique(res$variant), "default")) {
  a <- merge(res[res$variant == v, ], base, by = c("set", "seed"), suffixes = c("", ".d"))
  dc <- a$cindex - a$cindex.d
  di <- a$ibs - a$ibs.d
  cat(sprintf("%-9s C %+.4f (>= default on %d of %d, worst %+.4f %s)  IBS %+.5f (worse on %d, worst %+.5f)  cpu x%.2f (mean)\n",
              v, mean(dc), sum(dc >= 0), length(dc), min(dc), a$set[which.min(dc)], mean(di), sum(di > 0), max(di),
              mean(a$fit_cpu_s) / mean(a$fit_cpu_s.d)))
}
cat("\nresults: ", bench_relpath(csv), "\n", sep = "")
