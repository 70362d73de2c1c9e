# Lists R files in R/ over 400 lines (a file a newcomer can read whole; a
# larger one is more than one concern: split it by prefix, e.g.
# `predict-*.R`, `stage-*.R`). Exit status 1 when any file is over the limit.
# Usage: Rscript .ci/check-r-files.R [R]
limit <- 400L
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "R"
files <- sort(list.files(dir, pattern = "[.][Rr]$", full.names = TRUE))
if (!length(files)) stop("no R files in ", dir, call. = FALSE)
lines <- vapply(files, function(f) length(readLines(f, warn = FALSE)), 0L)
over <- lines > limit
for (f in files[over]) cat(sprintf("%s: %d lines (limit %d)\n", f, lines[[f]], limit))
cat(sprintf("%d of %d R files over %d lines\n", sum(over), length(files), limit))
if (any(over)) quit(status = 1)
