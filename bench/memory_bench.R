# Benchmark: peak memory of svforest() and predict() relative to the input
# size, against ranger, on synthetic dense data (n rows x 20 predictors, three
# classes, the "XOR of linear problems" shape of the tests).
#
# Usage (from the repository root):
#   Rscript bench/memory_bench.R [--quick] [--only=fit|predict] [--predict-rows=N]
#
# Every case runs in a fresh Rscript. The case builds its data, runs gc(),
# resets the kernel's peak-RSS counter (writing 5 to /proc/self/clear_refs,
# Linux >= 4.0) and reads VmRSS; after the call it reads the peak VmHWM. The
# extra peak (VmHWM - VmRSS before) divided by the size of the input as a
# dense double matrix (n x p x 8 bytes) is the "multiple" reported.
#
# Cases:
#   fit      svforest(x, y) for every method of svforest_methods() (ntree = 4,
#            num_threads = 2), the formula interface on a data frame for
#            "rsvt", and ranger(x = x, y = y, num.trees = 100, num.threads = 2),
#            for n = 20,000 and 100,000 (--quick: 20,000 only).
#   predict  predict() of an "rsvt" model (fitted on 20,000 rows) on
#            --predict-rows new rows (default 10 million; --quick: 1 million),
#            type "class" and "prob", as a matrix and as a data frame, chunked
#            (the default) and in one pass (option svforest.predict_chunk_rows
#            set above n), and ranger's predict() on the same matrix.
#
# Output: a table and bench/results/memory_bench.csv.

args <- commandArgs(trailingOnly = TRUE)
case_arg <- sub("^--case=", "", grep("^--case=", args, value = TRUE))

P <- 20L

make_data <- function(n, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::runif(n * P, -1, 1), n, P, dimnames = list(NULL, paste0("x", seq_len(P))))
  q <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
  w <- c(1, -2, 2, -1)[q]
  score <- w * (x[, 1] - 0.3 * x[, 3]) + (2 - w) * x[, 2] + 0.5 * x[, 4]
  y <- factor(cut(score, c(-Inf, -0.5, 0.5, Inf), labels = c("a", "b", "c")))
  list(x = x, y = y)
}

status_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) # kB
}

# Runs fun() and returns its extra peak memory in MB over the RSS before it.
measure <- function(fun) {
  invisible(gc(full = TRUE))
  writeLines("5", "/proc/self/clear_refs")
  before <- status_kb("VmRSS")
  t0 <- proc.time()[["elapsed"]]
  res <- fun()
  elapsed <- proc.time()[["elapsed"]] - t0
  list(extra_mb = (status_kb("VmHWM") - before) / 1024, seconds = elapsed, result = res)
}

# --- one case, in its own process ---------------------------------------------------

run_case <- function(spec) {
  parts <- strsplit(spec, ":", fixed = TRUE)[[1]]
  what <- parts[1]
  tool <- parts[2]
  n <- as.numeric(parts[3])
  suppressPackageStartupMessages({
    library(svforest)
    library(ranger)
  })
  if (what == "fit") {
    d <- make_data(n)
    input_mb <- n * P * 8 / 2^20
    m <- switch(tool,
      ranger = measure(function() ranger::ranger(x = d$x, y = d$y, num.trees = 100, num.threads = 2, seed = 1)),
      formula = {
        df <- data.frame(d$x, y = d$y)
        rm(d)
        measure(function() svforest(y ~ ., data = df, method = "rsvt", ntree = 4, num_threads = 2, seed = 1))
      },
      measure(function() svforest(d$x, d$y, method = tool, ntree = 4, num_threads = 2, seed = 1)))
    model_mb <- as.numeric(utils::object.size(m$result)) / 2^20
  } else {
    train <- make_data(20000, seed = 2)
    chunked <- parts[4] == "chunked"
    type <- parts[5]
    as_frame <- parts[6] == "frame"
    fit <- if (tool == "ranger") {
      ranger::ranger(x = train$x, y = train$y, num.trees = 100, num.threads = 2, seed = 1)
    } else if (as_frame) {
      svforest(y ~ ., data = data.frame(train$x, y = train$y), ntree = 4, num_threads = 2, seed = 1)
    } else {
      svforest(train$x, train$y, ntree = 4, num_threads = 2, seed = 1)
    }
    newx <- make_data(n, seed = 3)$x
    if (as_frame) newx <- as.data.frame(newx)
    input_mb <- n * P * 8 / 2^20
    if (!chunked) options(svforest.predict_chunk_rows = n + 1)
    m <- if (tool == "ranger") {
      measure(function() predict(fit, newx, num.threads = 2)$predictions)
    } else {
      measure(function() predict(fit, newx, type = type, num_threads = 2))
    }
    model_mb <- NA
  }
  cat(sprintf("RESULT %s %.1f %.1f %.2f %.2f\n", spec, input_mb, m$extra_mb, m$seconds, model_mb))
}

if (length(case_arg)) {
  run_case(case_arg[1])
  quit(save = "no")
}

# --- driver -------------------------------------------------------------------------

quick <- "--quick" %in% args
only <- sub("^--only=", "", grep("^--only=", args, value = TRUE))
pred_rows <- sub("^--predict-rows=", "", grep("^--predict-rows=", args, value = TRUE))
pred_rows <- if (length(pred_rows)) as.numeric(pred_rows) else if (quick) 1e6 else 1e7

script <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) normalizePath(f[1]) else "bench/memory_bench.R"
})
results_dir <- file.path(dirname(script), "results")
dir.create(results_dir, showWarnings = FALSE, recursive = TRUE)

suppressPackageStartupMessages(library(svforest))
cases <- character()
if (!length(only) || only == "fit") {
  for (n in if (quick) 20000 else c(20000, 100000)) {
    cases <- c(cases, sprintf("fit:%s:%d", c(svforest_methods()$method, "formula", "ranger"), n))
  }
}
if (!length(only) || only == "predict") {
  cases <- c(cases,
             sprintf("predict:rsvt:%.0f:%s:%s:%s", pred_rows,
                     c("chunked", "one_pass", "chunked", "chunked", "one_pass", "chunked"),
                     c("class", "class", "prob", "class", "class", "prob"),
                     c("matrix", "matrix", "matrix", "frame", "frame", "frame")),
             sprintf("predict:ranger:%.0f:-:class:matrix", pred_rows))
}

rows <- list()
for (spec in cases) {
  out <- system2(file.path(R.home("bin"), "Rscript"), c(shQuote(script), paste0("--case=", spec)),
                 stdout = TRUE, stderr = TRUE)
  line <- grep("^RESULT ", out, value = TRUE)
  if (!length(line)) {
    cat(spec, "failed:\n", paste(utils::tail(out, 5), collapse = "\n"), "\n")
    next
  }
  f <- strsplit(line, " ")[[1]]
  p <- strsplit(f[2], ":")[[1]]
  rows[[length(rows) + 1]] <- data.frame(
    task = p[1], tool = p[2], rows = as.numeric(p[3]),
    variant = if (p[1] == "predict") paste(p[4], p[5], p[6]) else "",
    input_mb = as.numeric(f[3]), extra_peak_mb = as.numeric(f[4]),
    multiple = round(as.numeric(f[4]) / as.numeric(f[3]), 2),
    seconds = as.numeric(f[5]), model_mb = suppressWarnings(as.numeric(f[6])))
  r <- rows[[length(rows)]]
  cat(sprintf("%-8s %-8s %9.0f %-26s input %8.1f MB  extra peak %8.1f MB  x%6.2f  %7.1f s\n",
              r$task, r$tool, r$rows, r$variant, r$input_mb, r$extra_peak_mb, r$multiple, r$seconds))
  flush(stdout())
}
tab <- do.call(rbind, rows)
cat("\n")
print(tab, row.names = FALSE)
utils::write.csv(tab, file.path(results_dir, "memory_bench.csv"), row.names = FALSE)
