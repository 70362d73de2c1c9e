# Variants of the default classification forest against ranger-500, on the
# harness's classification sets and splits: how much a change of the
# default's design or settings moves its accuracy, before a full harness run.
#
#   Rscript bench/default_variants.R [data_dir] [--only=a,b] [--splits=4]
#       [--variants=default,ntree300,...] [--threads=2] [--out=default_variants]
#
# Splits: the harness's (bench/datasets.R resplit()), at most --splits of
# them per set (default 4; the harness takes up to 10). Every variant is
# svforest() with the seed 1 and the arguments below; ranger-500 runs on the
# same rows in the same process (missing values imputed as in the harness).
# Output: bench/results/<out>.csv (data set, split, variant, accuracy, fit
# seconds, trees) and a summary per variant: mean accuracy difference to
# ranger in points, sets at least as accurate, worst set, total fit time.
local({  # the helpers and the registry, beside this script
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  for (helper in c("bench_common.R", "datasets.R"))
    source(file.path(if (length(script)) dirname(normalizePath(script[1])) else "bench", helper), local = globalenv())
})

# Each variant: a function of the number of predictor columns p giving
# svforest()'s arguments.
variants <- list(
  default = function(p) list(),
  ntree300 = function(p) list(ntree = 300L),               # fixed, without the growth rule
  no_tree_choice = function(p) list(tree_choice = "none"), # always the hybrid structure
  axis_only = function(p) list(n_oblique = 0L),            # a random forest's trees
  two_hyperplanes = function(p) list(n_oblique = 2L),
  inbag_hyperplanes = function(p) list(oblique_choice = "inbag"),
  wide_hyperplanes = function(p) list(oblique_mtry = max(2L, 4L * floor(sqrt(p)))),
  ridge_0.1 = function(p) list(split_ridge = 0.1)
)

args <- bench_args()
for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
registry <- benchmark_registry(args$data_dir)
sets <- names(registry)[vapply(registry, function(r) r$task == "classification", TRUE)]
if (length(args$only)) sets <- intersect(args$only, sets)
max_splits <- if (length(args$value("splits"))) as.integer(args$value("splits")) else 4L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
if (length(args$value("variants"))) {
  bad <- setdiff(args$value("variants"), names(variants))
  if (length(bad)) stop("unknown variants: ", paste(bad, collapse = ", "), call. = FALSE)
  variants <- variants[args$value("variants")]
}
out_name <- if (length(args$value("out"))) args$value("out") else "default_variants"
suppressPackageStartupMessages(library(svforest))
stopifnot(requireNamespace("ranger", quietly = TRUE))

results <- list()
csv <- results_csv(out_name)
for (nm in sets) {
  base <- registry[[nm]]$load()
  base$test <- align_levels(base$train, base$test)
  for (split in seq_len(min(max_splits, bench_n_splits(nrow(base$test), "auto")))) {
    s <- resplit(base, split)
    f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
    truth <- as.character(s$test[[s$outcome]])
    preds <- setdiff(names(s$train), s$outcome)
    imp <- impute_like(s$train[preds], s$test[preds], preds)
    rg <- ranger::ranger(x = imp$train, y = s$train[[s$outcome]], num.trees = 500, seed = 1, num.threads = threads)
    row <- function(variant, acc, fit_s, ntree) {
      data.frame(dataset = nm, split = split, variant = variant, accuracy = acc, fit_s = fit_s, ntree = ntree)
    }
    results[[length(results) + 1L]] <- row("ranger", mean(as.character(stats::predict(rg, imp$test)$predictions) == truth),
                                           NA_real_, 500L)
    for (v in names(variants)) {
      t0 <- proc.time()[["elapsed"]]
      fit <- do.call(svforest, c(list(f, data = s$train, seed = 1, num_threads = threads, verbose = FALSE),
                                 variants[[v]](length(preds))))
      fit_s <- proc.time()[["elapsed"]] - t0
      acc <- mean(as.character(predict(fit, s$test, num_threads = threads)) == truth)
      results[[length(results) + 1L]] <- row(v, acc, fit_s, fit$ntree)
      say(sprintf("%-18s split %2d  %-18s accuracy %.4f  fit %6.2fs  %d trees\n", nm, split, v, acc, fit_s, fit$ntree))
    }
    utils::write.csv(do.call(rbind, results), csv, row.names = FALSE)
  }
}
res <- do.call(rbind, results)
agg <- stats::aggregate(accuracy ~ dataset + variant, data = res, FUN = mean)
rng <- stats::setNames(agg$accuracy[agg$variant == "ranger"], agg$dataset[agg$variant == "ranger"])
say(sprintf("\n== %d classification sets, up to %d splits each: points against ranger-500 ==\n", length(rng), max_splits))
for (v in names(variants)) {
  a <- agg[agg$variant == v, ]
  d <- 100 * (a$accuracy - rng[a$dataset])
  say(sprintf("%-18s mean %+.2f  >= ranger on %d of %d  worst %+.2f (%s)  fit %.0fs\n", v, mean(d), sum(d >= -1e-9),
              length(d), min(d), a$dataset[which.min(d)], sum(res$fit_s[res$variant == v])))
}
say("\nresults: ", bench_relpath(csv), "\n")
