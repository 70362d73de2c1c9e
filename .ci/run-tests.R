# Runs the test suite against the installed package and ends with the plain
# "N passed, N failed" line CI reads.
library(testthat)
library(svforest)
res <- as.data.frame(test_dir("tests/testthat", reporter = "summary", stop_on_failure = FALSE,
                              package = "svforest", load_package = "installed"))
failed <- sum(res$failed) + sum(res$error)
cat(sprintf("\n%d passed, %d failed, %d skipped\n", sum(res$nb) - sum(res$failed) - sum(res$skipped),
            failed, sum(res$skipped)))
if (failed > 0 || sum(res$nb) == 0) quit(status = 1)
