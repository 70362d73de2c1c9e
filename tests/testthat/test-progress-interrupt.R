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

test_that("an interrupt stops a long fit promptly and the R session stays healthy", {
  skip_on_os("windows")
  dir <- tempfile()
  dir.create(dir)
  child <- file.path(dir, "child.R")
  # the child process: a fit that takes minutes, interrupted by the parent
  writeLines(c(
    "library(svforest)",
    "dir <- commandArgs(TRUE)[1]",
    "set.seed(1); n <- 20000",
    "x <- matrix(runif(n * 5), n, 5); y <- factor(ifelse(x[, 1] + x[, 2] > 1, 'a', 'b'))",
    "writeLines(as.character(Sys.getpid()), file.path(dir, 'pid.tmp'))",
    "file.rename(file.path(dir, 'pid.tmp'), file.path(dir, 'pid'))",
    "res <- tryCatch({svforest(x, y, ntree = 5000, seed = 1, num_threads = 2); 'finished'},",
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
  }
  res <- readLines(file.path(dir, "result"))
  expect_identical(res[1], "interrupted")
  expect_lt(as.numeric(res[2]) - sent, 5)  # seconds from the signal to the end of the fit
  expect_identical(res[3], "TRUE")         # the same session fits and predicts afterwards
})
