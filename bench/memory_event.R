# Peak memory and time of survival and competing-risks forests on large data
# (issue #61): 20 numeric predictors, continuous event times (every time
# distinct), the default fit and then predicting 20,000 held-out rows, each
# in its own child process under /usr/bin/time -v (peak RSS, elapsed), on 2
# threads, one process at a time. The build before the time grid (21c6042)
# runs at 10,000 and 20,000 rows for comparison when its library is given.
#   SVF_BASE_LIB=<library of 21c6042> Rscript bench/memory_event.R [--sizes=20000,200000]
#       [--base_sizes=10000,20000] [--outcomes=survival,competing] [--ntree=default|30]
#       [--aorsf_sizes=20000]
# A child: Rscript bench/memory_event.R child <outcome> <n> <stage> <model file> <ntree|default>
# (stage "fit" saves the model, "predict" reads it and scores the held-out rows:
# survival Harrell's C of the risk, competing risks Wolbers' C of cause 1;
# stage "aorsf": aorsf-500 (survival) fitted on the same rows and scored on
# the same held-out rows in one process; --aorsf_sizes=none skips it; aorsf
# is installed from CRAN when missing). Each line gives the child's elapsed
# time and its CPU seconds (user + system, all threads: on a shared machine
# the elapsed time follows the load, the CPU time the work).
args <- commandArgs(trailingOnly = TRUE)
held_out <- 20000
threads <- 2

event_data <- function(n, outcome, seed = 61) {
  set.seed(seed)
  p <- 20
  x <- matrix(rnorm(n * p), n, dimnames = list(NULL, sprintf("x%02d", seq_len(p))))
  lp <- 0.8 * x[, 1] - 0.6 * x[, 2] + 0.5 * x[, 3] * x[, 4] + 0.4 * pmax(x[, 5], 0)
  censor <- rexp(n, 0.25)
  if (outcome == "survival") {
    event <- rexp(n, 0.3 * exp(lp))
    return(data.frame(x, time = pmin(event, censor), status = as.integer(event <= censor)))
  }
  one <- rexp(n, 0.2 * exp(lp))
  two <- rexp(n, 0.2 * exp(-0.7 * x[, 6] + 0.5 * x[, 2]))
  time <- pmin(one, two, censor)
  cause <- ifelse(time == censor, 0L, ifelse(time == one, 1L, 2L))
  data.frame(x, time = time, status = factor(cause, 0:2, c("censored", "one", "two")))
}

child <- function(outcome, n, stage, file, ntree = NULL) {
  suppressPackageStartupMessages(library(svforest))
  all <- event_data(n + held_out, outcome)
  train <- all[seq_len(n), ]
  test <- all[n + seq_len(held_out), ]
  if (stage == "aorsf") {
    start <- proc.time()[["elapsed"]]
    fit <- aorsf::orsf(train, time + status ~ ., n_tree = 500, n_thread = threads, tree_seeds = 1L)
    fit_seconds <- proc.time()[["elapsed"]] - start
    risk <- as.numeric(stats::predict(fit, test, pred_type = "mort", n_thread = threads))
    c_index <- survival::concordance(survival::Surv(time, status) ~ risk, data = test, reverse = TRUE)$concordance
    cat(sprintf("RESULT fit seconds %.1f trees 500 predict seconds %.1f held_out_C %.4f\n", fit_seconds,
                proc.time()[["elapsed"]] - start - fit_seconds, c_index))
    return(invisible())
  }
  if (stage == "fit") {
    start <- proc.time()[["elapsed"]]
    fit <- svforest::svforest(survival::Surv(time, status) ~ ., data = train, seed = 1, num_threads = threads,
                              ntree = ntree)
    cat(sprintf("RESULT fit seconds %.1f trees %d grid %d oob_C %s\n", proc.time()[["elapsed"]] - start,
                length(fit$forest$trees), length(fit$forest$times), paste(format(1 - fit$oob_error, digits = 4))))
    saveRDS(fit, file)
    cat(sprintf("RESULT model_bytes %.0f\n", file.size(file)))
  } else {
    fit <- readRDS(file)
    start <- proc.time()[["elapsed"]]
    if (outcome == "survival") {
      risk <- stats::predict(fit, test, type = "risk", num_threads = threads)
      curves <- stats::predict(fit, test, type = "survival", num_threads = threads)
      c_index <- survival::concordance(survival::Surv(time, status) ~ risk, data = test,
                                       reverse = TRUE)$concordance
    } else {
      risk <- stats::predict(fit, test, type = "risk", num_threads = threads)[, 1]
      curves <- stats::predict(fit, test, type = "cif", num_threads = threads)
      # Wolbers' C of cause 1: rows of the other cause moved past every time
      t <- ifelse(as.integer(test$status) == 3L, 2 * max(test$time) + 1, test$time)
      c_index <- survival::concordance(survival::Surv(t, as.integer(test$status) == 2L) ~ risk,
                                       reverse = TRUE)$concordance
    }
    cat(sprintf("RESULT predict seconds %.1f rows %d curve_columns %d held_out_C %.4f\n",
                proc.time()[["elapsed"]] - start, nrow(test), dim(curves)[2], c_index))
  }
}

# One child under /usr/bin/time -v with library `lib` (NULL: this session's).
run_child <- function(outcome, n, stage, file, lib = NULL, ntree = "default") {
  env <- if (is.null(lib)) character() else paste0("R_LIBS=", lib)
  script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)))
  out <- suppressWarnings(system2("/usr/bin/time", c("-v", file.path(R.home("bin"), "Rscript"), script, "child",
                                                     outcome, n, stage, file, ntree), env = env, stdout = TRUE, stderr = TRUE))
  rss <- as.numeric(sub(".*: ", "", grep("Maximum resident set size", out, value = TRUE)))
  elapsed <- sub(".*\\): ", "", grep("Elapsed \\(wall clock\\)", out, value = TRUE))
  cpu <- sum(as.numeric(sub(".*: ", "", grep("(User|System) time \\(seconds\\)", out, value = TRUE))))
  result <- sub("^RESULT ", "", grep("^RESULT", out, value = TRUE))
  status <- if (length(grep("Exit status: 0", out))) "ok" else paste(utils::tail(out[!grepl("^\t", out)], 3), collapse = " | ")
  cat(sprintf("%-9s %-7s trees=%-7s n=%-7d %-8s peak RSS %7.0f MB  elapsed %s  cpu %.0f s  %s  [%s]\n", outcome,
              if (stage == "aorsf") "aorsf" else if (is.null(lib)) "new" else "21c6042", ntree, n, stage, rss / 1024,
              elapsed, cpu, paste(result, collapse = "; "), status))
}

if (identical(args[1], "child")) {
  child(args[2], as.integer(args[3]), args[4], args[5], if (identical(args[6], "default")) NULL else as.integer(args[6]))
} else {
  opt <- function(name, default) {
    hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
    if (length(hit)) strsplit(sub(sprintf("^--%s=", name), "", hit[1]), ",")[[1]] else default
  }
  sizes <- suppressWarnings(as.integer(opt("sizes", c("20000", "200000"))))
  sizes <- sizes[!is.na(sizes)]  # --sizes=none: the 21c6042 build alone
  base_sizes <- as.integer(opt("base_sizes", c("10000", "20000")))
  outcomes <- opt("outcomes", c("survival", "competing"))
  ntree <- opt("ntree", "default")  # "default": the survival forest's own (300)
  aorsf_sizes <- suppressWarnings(as.integer(opt("aorsf_sizes", "20000")))
  aorsf_sizes <- aorsf_sizes[!is.na(aorsf_sizes)]
  base <- Sys.getenv("SVF_BASE_LIB")
  cat(sprintf("svforest %s, %d threads, %d held-out rows, %s\n", utils::packageVersion("svforest"), threads,
              held_out, format(Sys.time(), "%Y-%m-%d")))
  one <- function(outcome, n, lib = NULL) {
    file <- tempfile(fileext = ".rds")
    run_child(outcome, n, "fit", file, lib, ntree)
    if (file.exists(file)) run_child(outcome, n, "predict", file, lib, ntree)
    unlink(file)
  }
  # this build first (the large fits one at a time), then the 21c6042 build
  for (outcome in outcomes) for (n in sizes) one(outcome, n)
  if (nzchar(base)) for (outcome in outcomes) for (n in base_sizes) one(outcome, n, base)
  if (length(aorsf_sizes) && "survival" %in% outcomes) {
    source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))), "bench_common.R"))
    if (bench_need_cran("aorsf")) for (n in aorsf_sizes) run_child("survival", n, "aorsf", "none", NULL, "500")
  }
}
