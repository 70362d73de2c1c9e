# Binned split search (issue #58): the default forest of a base build
# against a build with `max_bins`, both in one run, each fit in its own
# Rscript under /usr/bin/time -v (peak RSS and elapsed time of the whole
# child: data, fit, prediction; the fit's own seconds are timed inside).
#   class100k  100,000 x 20 rows of scale_bench.R's two-class generator,
#              test accuracy on 50,000 new rows
#   regr100k   the same rows with scale_bench.R's numeric target, test RMSE
#   surv10k    10,000 x 20 right-censored rows (below), 50 trees, Harrell's
#              C of the predicted risk on 10,000 new rows
#   (class1000k, regr1000k: the same generators at 1,000,000 rows; any
#   <kind><thousands>k)
# Configurations: base (the base library, no max_bins), inf (the new
# library, max_bins = Inf: today's exact search) and bins<B> (max_bins = B).
# Besides the fit's elapsed seconds, its CPU seconds (user + system, all
# threads): on a machine shared with other work the elapsed time follows
# the load, the CPU time the work.
# Usage (from the repository root; libraries as arguments, never in here):
#   Rscript bench/binned_search.R --base-lib=<lib> --new-lib=<lib>
#       [--cases=class100k,regr100k,surv10k] [--configs=base,inf] [--bins=255]
#       [--threads=2]
# Output: a table (ratios against base on the same case).
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  v <- sub(paste0("^--", name, "="), "", grep(paste0("^--", name, "="), args, value = TRUE))
  if (length(v)) v[1] else default
}

source_generators <- function() {
  quadrant_score <- function(n, p, seed) {
    set.seed(seed)
    x <- matrix(stats::runif(n * p, -1, 1), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
    q <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
    w <- c(1, -2, 2, -1)[q]
    list(x = x, score = w * x[, 1] + (2 - w) * x[, 2] + 0.5 * x[, 3] - 0.5 * x[, 4])
  }
  list(
    class = function(n, seed) {
      d <- quadrant_score(n, 20, seed)
      flip <- stats::runif(n) < 0.05
      list(x = d$x, y = factor(ifelse(xor(d$score > 0, flip), "pos", "neg"), levels = c("neg", "pos")))
    },
    regr = function(n, seed) {
      d <- quadrant_score(n, 20, seed)
      list(x = d$x, y = d$score + stats::rnorm(n, sd = 0.25))
    },
    # hazard exp(score / 2) of the same score (nonlinear in x1, x2), about a
    # third of the rows censored
    surv = function(n, seed) {
      d <- quadrant_score(n, 20, seed)
      event <- stats::rexp(n, exp(0.5 * d$score))
      censor <- stats::rexp(n, 0.5)
      list(x = as.data.frame(d$x), time = pmin(event, censor), status = as.integer(event <= censor))
    })
}

child <- function(case, config, out) {
  suppressPackageStartupMessages(library(svforest))
  gen <- source_generators()
  threads <- as.integer(opt("threads", "2"))
  extra <- if (grepl("^bins", config)) list(max_bins = as.numeric(sub("^bins", "", config)))
           else if (config == "inf") list(max_bins = Inf) else list()
  kind <- sub("[0-9]+k$", "", case)
  n <- 1000 * as.numeric(sub("k$", "", sub("^[a-z]+", "", case)))  # class100k: 100,000 rows
  train <- gen[[kind]](n, 1)
  test <- gen[[kind]](if (kind == "surv") 10000 else 50000, 2)
  if (kind == "surv") {
    d <- data.frame(train$x, time = train$time, status = train$status)
    t <- system.time(fit <- do.call(svforest, c(list(survival::Surv(time, status) ~ ., data = d, ntree = 50,
                                                     seed = 1, num_threads = threads), extra)))
    risk <- stats::predict(fit, test$x, type = "risk", num_threads = threads)
    score <- survival::concordance(survival::Surv(test$time, test$status) ~ risk, reverse = TRUE)$concordance
  } else {
    t <- system.time(fit <- do.call(svforest, c(list(train$x, train$y, seed = 1, num_threads = threads), extra)))
    pred <- stats::predict(fit, test$x, num_threads = threads)
    score <- if (kind == "class") mean(pred == test$y) else sqrt(mean((pred - test$y)^2))
  }
  saveRDS(list(fit_seconds = t[["elapsed"]], fit_cpu = t[["user.self"]] + t[["sys.self"]], score = score), out)
}

run_one <- function(case, config, lib) {
  out <- tempfile(fileext = ".rds")
  log <- tempfile(fileext = ".txt")
  env <- c(paste0("R_LIBS=", lib))
  status <- system2("/usr/bin/time", c("-v", file.path(R.home("bin"), "Rscript"), "bench/binned_search.R",
                                       "--child", case, config, out, paste0("--threads=", opt("threads", "2"))),
                    env = env, stdout = log, stderr = log)
  txt <- readLines(log)
  grab <- function(pattern) sub(".*: ", "", grep(pattern, txt, value = TRUE, fixed = TRUE)[1])
  rss_kb <- as.numeric(grab("Maximum resident set size"))
  elapsed <- grab("Elapsed (wall clock)")
  res <- if (file.exists(out)) readRDS(out) else list(fit_seconds = NA, fit_cpu = NA, score = NA)
  if (!file.exists(out)) cat(txt, sep = "\n")
  data.frame(case = case, config = config, fit_seconds = res$fit_seconds, fit_cpu = res$fit_cpu,
             child_elapsed = elapsed,
             peak_rss_mb = round(rss_kb / 1024), score = res$score)
}

if (identical(args[1], "--child")) {
  child(args[2], args[3], args[4])
} else {
  base_lib <- opt("base-lib", "")
  new_lib <- opt("new-lib", "")
  if (!nzchar(base_lib) || !nzchar(new_lib)) stop("give --base-lib= and --new-lib=")
  cases <- strsplit(opt("cases", "class100k,regr100k,surv10k"), ",")[[1]]
  bins <- strsplit(opt("bins", "255"), ",")[[1]]
  rows <- NULL
  for (case in cases) {
    configs <- c(strsplit(opt("configs", "base,inf"), ",")[[1]], paste0("bins", bins))
    for (config in configs) {
      r <- run_one(case, config, if (config == "base") base_lib else new_lib)
      print(r, row.names = FALSE)
      rows <- rbind(rows, r)
    }
  }
  if (!any(rows$config == "base")) {
    print(rows, row.names = FALSE)
    quit(save = "no")
  }
  base <- rows[rows$config == "base", c("case", "fit_seconds", "fit_cpu", "score")]
  names(base)[2:4] <- c("base_seconds", "base_cpu", "base_score")
  rows <- merge(rows, base, by = "case", sort = FALSE)
  rows$time_ratio <- round(rows$fit_seconds / rows$base_seconds, 3)
  rows$cpu_ratio <- round(rows$fit_cpu / rows$base_cpu, 3)
  rows$score_diff <- signif(rows$score - rows$base_score, 3)
  rows$base_seconds <- rows$base_cpu <- rows$base_score <- NULL
  cat("\nscore: test accuracy (class), test RMSE (regr), held-out Harrell's C (surv)\n")
  cat("time_ratio, cpu_ratio: fit elapsed / CPU seconds over base's; score_diff: score - base score\n")
  print(rows, row.names = FALSE)
}
