# Progress and interrupts: verbose = TRUE prints progress with an estimate of
# the time left; by default (non-interactive here) nothing is printed; an
# interrupt stops a long fit promptly and leaves the session usable.

test_that("verbose = TRUE shows progress, the default does not outside interactive sessions", {
  d <- xor_linear(300, seed = 81)
  out <- capture.output(fit <- svforest(d$x, d$y, ntree = 20, seed = 1, num_threads = 1, verbose = TRUE))
  out <- paste(out, collapse = "\n")
  expect_match(out, "Growing trees: 20/20 (100%) in", fixed = TRUE)
  expect_match(out, "Growing trees: 8/20", fixed = TRUE)  # first batch: with the time left
  expect_match(out, "left", fixed = TRUE)
  expect_false(interactive())
  expect_identical(capture.output(fit <- svforest(d$x, d$y, ntree = 20, seed = 1, num_threads = 1)),
                   character())
  expect_error(svforest(d$x, d$y, verbose = NA), "verbose")
})

test_that("verbose = TRUE shows progress for survival and competing-risks fits too (their engine call is every outcome's)", {
  skip_if_not_installed("survival")
  lung <- stats::na.omit(survival::lung)
  out <- capture.output(loud <- svforest(survival::Surv(time, status) ~ age + sex + ph.karno, data = lung, ntree = 20,
                                         seed = 1, num_threads = 1, verbose = TRUE))
  expect_match(paste(out, collapse = "\n"), "Growing trees: 20/20 (100%) in", fixed = TRUE)
  quiet <- svforest(survival::Surv(time, status) ~ age + sex + ph.karno, data = lung, ntree = 20, seed = 1,
                    num_threads = 1)
  expect_identical(loud$forest, quiet$forest)
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin")])
  pbc$status <- factor(pbc$status, 0:2, c("censored", "transplant", "death"))
  out <- capture.output(svforest(survival::Surv(time, status) ~ ., data = pbc, ntree = 10, seed = 1, num_threads = 1,
                                 verbose = TRUE))
  expect_match(paste(out, collapse = "\n"), "Growing trees: 10/10 (100%) in", fixed = TRUE)
})

test_that("TD-SVM's search reports each stage with a time estimate, then the final fit", {
  d <- xor_linear(3000, seed = 82)
  args <- list(d$x, d$y, method = "tdsvm", seed = 1, num_threads = 1, sigma0 = 200, sigma_factor = 2,
               cost = c(1, 10), gamma = 1)
  out <- capture.output(loud <- do.call(svforest, c(args, verbose = TRUE)))
  out <- paste(out, collapse = "\n")
  stages <- length(unique(loud$tdsvm$curve$stage))
  expect_gte(stages, 2)
  # 3000 rows, 80% for the search's training part: sigma 200, 400, ..., 3200 (one leaf)
  expect_match(out, "TD-SVM search, stage 1 of at most 5 (sigma 200, 2 candidates): ", fixed = TRUE)
  for (s in seq_len(stages))
    expect_match(out, sprintf("TD-SVM search, stage %d of at most 5 \\(sigma %d, [0-9]+ candidates?\\): [0-9]+/[0-9]+ \\(100%%\\) in",
                              s, 200 * 2^(s - 1)))
  expect_match(out, "Fitting leaves: 1/1 (100%) in", fixed = TRUE)
  quiet <- do.call(svforest, args)
  expect_identical(loud$forest, quiet$forest)
  expect_identical(loud$tdsvm, quiet$tdsvm)
})

# Runs `fit_code` (which must take minutes) in a child R process, interrupts
# it 1.5 s in, and returns the child's report: how the fit ended, when, and
# whether the same session could fit and predict afterwards.
interrupt_child <- function(fit_code) {
  dir <- tempfile()
  dir.create(dir)
  child <- file.path(dir, "child.R")
  writeLines(c(
    "library(svforest)",
    "dir <- commandArgs(TRUE)[1]",
    "set.seed(1); n <- 20000",
    "x <- matrix(runif(n * 5), n, 5); y <- factor(ifelse(x[, 1] + x[, 2] > 1, 'a', 'b'))",
    "writeLines(as.character(Sys.getpid()), file.path(dir, 'pid.tmp'))",
    "file.rename(file.path(dir, 'pid.tmp'), file.path(dir, 'pid'))",
    paste0("res <- tryCatch({", fit_code, "; 'finished'},"),
    "                interrupt = function(e) 'interrupted')",
    "stopped <- as.numeric(Sys.time())",
    "ok <- tryCatch({fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 2)",
    "                mean(predict(fit, iris) == iris$Species) > 0.9}, error = function(e) FALSE)",
    "writeLines(c(res, format(stopped, digits = 15), ok), file.path(dir, 'result.tmp'))",
    "file.rename(file.path(dir, 'result.tmp'), file.path(dir, 'result'))"), child)
  system2(file.path(R.home("bin"), "Rscript"), c(shQuote(child), shQuote(dir)), wait = FALSE,
          stdout = FALSE, stderr = FALSE)
  wait_for <- function(f, seconds) {
    deadline <- Sys.time() + seconds
    while (!file.exists(f) && Sys.time() < deadline) Sys.sleep(0.05)
    file.exists(f)
  }
  expect_true(wait_for(file.path(dir, "pid"), 60))
  pid <- as.integer(readLines(file.path(dir, "pid")))
  Sys.sleep(1.5)  # inside the fit
  sent <- as.numeric(Sys.time())
  tools::pskill(pid, tools::SIGINT)
  if (!wait_for(file.path(dir, "result"), 60)) {
    tools::pskill(pid, tools::SIGKILL)
    fail("the interrupted process did not report back within 60 s")
    return(NULL)
  }
  res <- readLines(file.path(dir, "result"))
  list(how = res[1], seconds = as.numeric(res[2]) - sent, healthy = res[3])
}

test_that("an interrupt stops a long fit promptly and the R session stays healthy", {
  skip_on_os("windows")
  res <- interrupt_child("svforest(x, y, ntree = 5000, seed = 1, num_threads = 2)")
  expect_identical(res$how, "interrupted")
  expect_lt(res$seconds, 5)  # seconds from the signal to the end of the fit
  expect_identical(res$healthy, "TRUE")  # the same session fits and predicts afterwards
})

test_that("an interrupt stops TD-SVM's search between leaf fits", {
  skip_on_os("windows")
  # noisy classes, kernel leaves of 500 rows: a search of about 15 s
  res <- interrupt_child(paste("y2 <- factor(ifelse(x[, 1] + x[, 2] + 0.3 * rnorm(n) > 1, 'a', 'b'));",
                               "svforest(x, y2, method = 'tdsvm', sigma0 = 500, cost = 10^(0:4),",
                               "gamma = 10^(0:2), seed = 1, num_threads = 2)"))
  expect_identical(res$how, "interrupted")
  expect_lt(res$seconds, 5)
  expect_identical(res$healthy, "TRUE")
})
