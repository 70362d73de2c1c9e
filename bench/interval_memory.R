# Benchmark (issue #61): peak memory of a default regression fit with its
# intervals (the quantile forest and the out-of-bag conformal calibration),
# and of a default classification fit, on n x 20 rows, each fit in its own
# process under /usr/bin/time -v, for one or two builds in the same run.
#
# Usage (from the repository root):
#   Rscript bench/interval_memory.R --libs=after=LIB[,before=LIB] [--rows=100000,200000]
#       [--ntree=default,25] [--outcomes=regression,classification] [--threads=2] [--test-rows=20000]
#       [--max-bins=default|255]
#
# --max-bins=255 passes max_bins = 255 to svforest() (the default is every
# distinct value): the same code paths and tree sizes, a faster split search,
# for measuring memory at 1,000,000 rows in less time.
#
# The stages' own peaks (engine_peak, qforest_peak, conformal_peak: the
# process's RSS high-water mark over each, reset before it through
# /proc/self/clear_refs, Linux) show which stage sets the peak. fit_cpu,
# engine_cpu, qforest_cpu, conformal_cpu: the same spans' CPU seconds (user +
# system, every thread of the process), the figures to read on a loaded
# machine.
#
# Data: the scale bench's quadrant score (bench/scale_bench.R) on 20 uniform
# predictors: regression its score plus noise (sd 0.25), classification its
# sign with 5% of labels flipped. Reported per case: the child's peak RSS
# ("Maximum resident set size") and elapsed time, the seconds of the engine
# fit, of the quantile forest (quantile_forest()) and of the conformal
# calibration (fit_conformal_oob()), the model's size, and for regression the
# coverage of predict(type = "interval", level = 0.9) on --test-rows new rows.
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  v <- sub(paste0("^--", name, "="), "", grep(paste0("^--", name, "="), args, value = TRUE))
  if (length(v)) v[1] else default
}

make_rows <- function(n, outcome, seed) {
  set.seed(seed)
  x <- matrix(stats::runif(n * 20), n, 20, dimnames = list(NULL, paste0("x", 1:20))) * 2 - 1
  w <- c(1, -2, 2, -1)[1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)]
  score <- w * x[, 1] + (2 - w) * x[, 2] + 0.5 * x[, 3] - 0.5 * x[, 4]
  y <- if (outcome == "regression") score + stats::rnorm(n, sd = 0.25)
       else factor(ifelse(xor(score > 0, stats::runif(n) < 0.05), "pos", "neg"), levels = c("neg", "pos"))
  list(x = x, y = y)
}

# One case in this process: prints "key=value" lines the parent reads.
run_case <- function(spec) {
  parts <- strsplit(spec, ":", fixed = TRUE)[[1]]
  outcome <- parts[1]
  n <- as.numeric(parts[2])
  ntree <- if (parts[3] == "default") NULL else as.integer(parts[3])
  threads <- as.integer(parts[4])
  test_rows <- as.numeric(parts[5])
  max_bins <- if (length(parts) < 6 || parts[6] == "default") list() else list(max_bins = as.numeric(parts[6]))
  suppressPackageStartupMessages(library(svforest))
  ns <- asNamespace("svforest")
  seconds <- list()
  cpu <- list()  # user + system seconds of all the process's threads
  cpu_now <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
  peaks <- list()
  hwm <- function() as.numeric(gsub("[^0-9]", "", grep("^VmHWM:", readLines("/proc/self/status"), value = TRUE))) / 1024
  seen <- 0  # the process's peak so far (a stage's reset below lowers the kernel's)
  for (f in c("fit_engine", "quantile_forest", "fit_conformal_oob")) {
    if (!exists(f, ns, inherits = FALSE)) next
    local({
      inner <- get(f, ns)
      name <- f
      timed <- function(...) {
        # the stage's own peak RSS: the kernel's high-water mark reset to
        # the current RSS before it (Linux /proc/self/clear_refs)
        seen <<- max(seen, hwm())
        writeLines("5", "/proc/self/clear_refs")
        t0 <- proc.time()[["elapsed"]]
        c0 <- cpu_now()
        on.exit({
          seconds[[name]] <<- c(seconds[[name]], proc.time()[["elapsed"]] - t0)
          cpu[[name]] <<- c(cpu[[name]], cpu_now() - c0)
          peaks[[name]] <<- max(peaks[[name]], hwm())
          seen <<- max(seen, hwm())
        })
        inner(...)
      }
      unlockBinding(name, ns)
      assign(name, timed, ns)
    })
  }
  d <- make_rows(n, outcome, 1)
  invisible(gc())  # the rows' temporaries gone: the process holds the data alone
  t0 <- proc.time()[["elapsed"]]
  c0 <- cpu_now()
  # (named arguments, not do.call(): the model's call would hold the data)
  m <- if (length(max_bins)) svforest(d$x, d$y, ntree = ntree, seed = 1, num_threads = threads, max_bins = max_bins$max_bins)
       else svforest(d$x, d$y, ntree = ntree, seed = 1, num_threads = threads)
  fit_s <- proc.time()[["elapsed"]] - t0
  fit_cpu <- cpu_now() - c0
  rm(d)
  out <- c(fit_s = fit_s, vapply(seconds, sum, 0), fit_cpu = fit_cpu,
           stats::setNames(vapply(cpu, sum, 0), paste0(names(cpu), "_cpu")), stats::setNames(vapply(peaks, max, 0), paste0(names(peaks), "_mb")),
           model_mb = as.numeric(utils::object.size(m)) / 2^20, trees = m$ntree)
  te <- make_rows(test_rows, outcome, 2)
  # the prediction's own peak, as a stage's above
  seen <- max(seen, hwm())
  writeLines("5", "/proc/self/clear_refs")
  t0 <- proc.time()[["elapsed"]]
  if (outcome == "regression") {
    iv <- predict(m, te$x, type = "interval", level = 0.9, num_threads = threads)
    out <- c(out, coverage90 = mean(te$y >= iv[, "lower"] & te$y <= iv[, "upper"]),
             width90 = mean(iv[, "upper"] - iv[, "lower"]))
  } else {
    out <- c(out, accuracy = mean(predict(m, te$x, num_threads = threads) == te$y))
  }
  out <- c(out, predict_s = proc.time()[["elapsed"]] - t0, predict_mb = hwm())
  out <- c(out, peak_seen_mb = max(seen, hwm()))
  cat(sprintf("%s=%.6g\n", names(out), out), sep = "")
}

case_arg <- opt("case", "")
if (nzchar(case_arg)) {
  run_case(case_arg)
  quit(save = "no")
}

libs <- strsplit(strsplit(opt("libs", ""), ",")[[1]], "=", fixed = TRUE)
if (!length(libs)) stop("give --libs=label=library[,label=library]")
rows <- as.numeric(strsplit(opt("rows", "100000,200000"), ",")[[1]])
ntrees <- strsplit(opt("ntree", "default"), ",")[[1]]
outcomes <- strsplit(opt("outcomes", "regression,classification"), ",")[[1]]
threads <- opt("threads", "2")
test_rows <- opt("test-rows", "20000")
max_bins <- opt("max-bins", "default")
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))

options(width = 250)
results <- list()
for (outcome in outcomes) for (n in rows) for (nt in ntrees) for (lib in libs) {
  spec <- paste(outcome, format(n, scientific = FALSE), nt, threads, test_rows, max_bins, sep = ":")
  log <- tempfile()
  status <- system2("/usr/bin/time", c("-v", file.path(R.home("bin"), "Rscript"), script, paste0("--case=", spec)),
                    stdout = log, stderr = log, env = paste0("R_LIBS=", lib[2]))
  lines <- readLines(log)
  kv <- grep("^[a-z_0-9]+=", lines, value = TRUE)
  vals <- stats::setNames(as.numeric(sub(".*=", "", kv)), sub("=.*", "", kv))
  # /usr/bin/time's figure, or the case's own when a stage's reset of the
  # high-water mark hid an earlier peak from it
  peak <- max(as.numeric(sub(".*: ", "", grep("Maximum resident set size", lines, value = TRUE))) / 1024,
              vals["peak_seen_mb"], na.rm = TRUE)
  elapsed <- sub(".*: ", "", grep("Elapsed \\(wall clock\\)", lines, value = TRUE))
  row <- data.frame(build = lib[1], outcome = outcome, rows = n, ntree = nt, status = status,
                    peak_mb = round(peak), elapsed = elapsed,
                    fit_s = round(vals["fit_s"]), engine_s = round(vals["fit_engine"]),
                    qforest_s = round(vals["quantile_forest"]), conformal_s = round(vals["fit_conformal_oob"]),
                    engine_peak = round(vals["fit_engine_mb"]), qforest_peak = round(vals["quantile_forest_mb"]),
                    conformal_peak = round(vals["fit_conformal_oob_mb"]),
                    # CPU seconds (user + system, all threads): what a loaded machine's elapsed ones hide
                    fit_cpu = round(vals["fit_cpu"]), engine_cpu = round(vals["fit_engine_cpu"]),
                    qforest_cpu = round(vals["quantile_forest_cpu"]), conformal_cpu = round(vals["fit_conformal_oob_cpu"]), predict_s = round(vals["predict_s"]),
                    predict_peak = round(vals["predict_mb"]), model_mb = round(vals["model_mb"]), trees = vals["trees"],
                    coverage90 = round(vals["coverage90"], 4), width90 = round(vals["width90"], 3),
                    accuracy = round(vals["accuracy"], 4), row.names = NULL)
  if (status != 0) cat(tail(lines, 5), sep = "\n")
  print(row, row.names = FALSE)
  results[[length(results) + 1]] <- row
}
cat("\n")
print(do.call(rbind, results), row.names = FALSE)
