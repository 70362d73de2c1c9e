# Same seed, same survival and competing-risks forests on nodes large enough
# for the engine's large-node paths (issue #61: survival tables of nodes of
# 1,024 rows or more by a radix sort of the time indices; node tables and
# leaf curves over the node's own event times), which bench/spine_parity.R's
# 160-row cases never reach. Run once per library, then compare:
#   R_LIBS=<library of 21c6042> Rscript bench/event_parity_large.R save before.rds base [n] [ntree]
#   R_LIBS=<library of a branch> Rscript bench/event_parity_large.R save after.rds new [n] [ntree]
#   Rscript bench/event_parity_large.R compare before.rds after.rds
# "new": a build with `ntime` (fitted with ntime = Inf, every event time,
# max_bins = Inf, min_node_events the square root of the events and mtry
# floor(sqrt(p)), as 21c6042); n defaults to 8,000 rows of bench/memory_event.R's generator,
# ntree to 6; each case keeps the engine forest, the out-of-bag error and
# the risk of 500 new rows; the comparison is identical(), value by value.
args <- commandArgs(trailingOnly = TRUE)

event_generator <- function() {
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  src <- readLines(file.path(dirname(script), "memory_event.R"))
  env <- new.env()
  eval(parse(text = src[grep("^event_data <- function", src):(grep("^child <- function", src) - 1)]), env)
  env$event_data
}

if (identical(args[1], "save")) {
  suppressPackageStartupMessages(library(svforest))
  event_data <- event_generator()
  n <- if (length(args) >= 4) as.integer(args[4]) else 8000L
  ntree <- if (length(args) >= 5) as.integer(args[5]) else 6L
  out <- list()
  for (outcome in c("survival", "competing")) {
    d <- event_data(n, outcome)
    # and 21c6042's node events (the square root of the events) and mtry
    # (floor(sqrt(p))): above 1,024 events a survival forest's defaults
    # differ (issue #61)
    extra <- if (identical(args[3], "new"))
      list(ntime = Inf, max_bins = Inf, min_node_events = as.integer(ceiling(sqrt(sum(as.integer(d$status) !=
                                                                                     min(as.integer(d$status)))))),
           mtry = as.integer(floor(sqrt(ncol(d) - 2L))))
    fit <- do.call(svforest, c(list(survival::Surv(time, status) ~ ., data = d, seed = 2, num_threads = 2,
                                    ntree = ntree), extra))
    new <- event_data(500, outcome, seed = 9)
    out[[outcome]] <- list(forest = fit$forest, oob_error = fit$oob_error, risk = stats::predict(fit, new, type = "risk"))
  }
  saveRDS(out, args[2])
  cat(sprintf("saved %d cases of %d rows with svforest %s\n", length(out), n, utils::packageVersion("svforest")))
} else if (identical(args[1], "compare")) {
  a <- readRDS(args[2])
  b <- readRDS(args[3])
  same <- unlist(lapply(names(a), function(o) vapply(names(a[[o]]), function(k) identical(a[[o]][[k]], b[[o]][[k]]),
                                                     TRUE)))
  for (o in names(a)) for (k in names(a[[o]])) cat(sprintf("%-9s %-9s %s\n", o, k,
                                                            if (identical(a[[o]][[k]], b[[o]][[k]])) "identical" else "DIFFERENT"))
  cat(sprintf("%d of %d values identical\n", sum(same), length(same)))
} else {
  stop("usage: save <file> base|new [n] [ntree], or compare <before> <after>")
}
