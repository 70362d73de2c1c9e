# Every ```r block of the README runs on its own in a fresh R session (as a
# reader would paste it). Needs the source tree: skipped where the README is
# not next to the tests (e.g. R CMD check of a tarball).

# caret's dependencies ask the system for the time zone when TZ is unset,
# which warns in containers without systemd
if (!nzchar(Sys.getenv("TZ"))) withr::local_envvar(TZ = "UTC", .local_envir = testthat::teardown_env())

readme_blocks <- function(path) {
  lines <- readLines(path, warn = FALSE)
  starts <- grep("^```r\\s*$", lines)
  ends <- grep("^```\\s*$", lines)
  lapply(starts, function(s) {
    e <- min(ends[ends > s])
    lines[(s + 1):(e - 1)]
  })
}

test_that("every R code block of the README runs in a fresh R session", {
  readme <- testthat::test_path("../../README.md")
  skip_if_not(file.exists(readme), "README.md not found next to the tests")
  blocks <- readme_blocks(readme)
  expect_gte(length(blocks), 3)
  # blocks that use tidymodels, caret or future need them installed
  needs <- c(parsnip = "parsnip", caret = "caret", future = "future")
  dir <- withr::local_tempdir()
  for (i in seq_along(blocks)) {
    code <- blocks[[i]]
    used <- names(needs)[vapply(names(needs), function(p) any(grepl(paste0("\\b", p, "(::|\\))"), code)), TRUE)]
    missing <- used[!vapply(used, requireNamespace, TRUE, quietly = TRUE)]
    if (length(missing)) next
    f <- file.path(dir, sprintf("block%d.R", i))
    writeLines(c("options(warn = 1, svforest.num_threads = 2)", code), f)
    out <- withr::with_dir(dir, suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), shQuote(f),
                                                          stdout = TRUE, stderr = TRUE, env = "TZ=UTC")))
    status <- attr(out, "status")
    expect(is.null(status) || status == 0,
           sprintf("README block %d failed:\n%s", i, paste(utils::tail(out, 15), collapse = "\n")))
  }
  # the tidymodels block loads svforest itself
  tidy <- Filter(function(b) any(grepl("rand_forest", b)), blocks)
  expect_length(tidy, 1)
  expect_true(any(grepl("^library\\(svforest\\)", tidy[[1]])))
})
