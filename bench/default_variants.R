# Variants of the default forest against ranger-500, on the harness's
# classification (or regression) sets: how much a change of the default's
# design or settings moves its accuracy and fit time, before a full harness
# run.
#
#   Rscript bench/default_variants.R [data_dir] [--only=a,b] [--splits=4]
#       [--first_split=1] [--task=classification|regression]
#       [--variants=default,ntree300,...] [--threads=2] [--out=default_variants]
#
# Splits: the harness's re-splits (bench/datasets.R resplit()), at most
# --splits of them per set (default 4) from --first_split on. The harness
# scores splits 1 to 10: choose a setting on development splits
# (--first_split=101) and keep splits 1-10 for the final run. Every variant
# is svforest() with the seed 1 and the arguments below; ranger-500 runs on
# the same rows in the same process (missing values imputed as in the
# harness). Output: bench/results/<out>.csv (data set, split, variant,
# accuracy or RMSE, fit seconds, trees) and a summary per variant: mean
# accuracy difference to ranger in points (RMSE: mean change in percent),
# sets at least as accurate, worst set, and the median over sets of the fit
# time over ranger's.
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
  ridge_0.1 = function(p) list(split_ridge = 0.1),
  oblique_rows_1 = function(p) list(oblique_rows = 1),     # no hyperplane in a node of fewer rows than predictors
  oblique_rows_2 = function(p) list(oblique_rows = 2),
  oblique_rows_4 = function(p) list(oblique_rows = 4),
  ntree50 = function(p) list(ntree = 50L, ntree_max = 50L),
  ntree60 = function(p) list(ntree = 60L, ntree_max = 60L),
  ntree70 = function(p) list(ntree = 70L, ntree_max = 70L),
  subsample_632 = function(p) list(sampler = "subsample", sample_fraction = 0.632),  # rows drawn without replacement
  subsample_50 = function(p) list(sampler = "subsample", sample_fraction = 0.5),
  oblique_stop_1 = function(p) list(oblique_stop = 1L),   # no hyperplane below an axis cut
  oblique_stop_2 = function(p) list(oblique_stop = 2L),   # ... below two axis cuts in a row
  oblique_stop_1_none = function(p) list(oblique_stop = 1L, tree_choice = "none"),
  oblique_stop_2_none = function(p) list(oblique_stop = 2L, tree_choice = "none"),
  exact = function(p) list(max_bins = Inf),               # the exact search (issue 58)
  bins255 = function(p) list(max_bins = 255L),            # binned axis cuts, sampled hyperplanes
  bins1024 = function(p) list(max_bins = 1024L),
  bins4096 = function(p) list(max_bins = 4096L)
)

args <- bench_args()
for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
registry <- benchmark_registry(args$data_dir)
task <- if (length(args$value("task"))) args$value("task") else "classification"
stopifnot(task %in% c("classification", "regression"))
sets <- names(registry)[vapply(registry, function(r) r$task == task, TRUE)]
if (length(args$only)) sets <- intersect(args$only, sets)
max_splits <- if (length(args$value("splits"))) as.integer(args$value("splits")) else 4L
first_split <- if (length(args$value("first_split"))) as.integer(args$value("first_split")) else 1L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
if (length(args$value("variants"))) {
  bad <- setdiff(args$value("variants"), names(variants))
  if (length(bad)) stop("unknown variants: ", paste(bad, collapse = ", "), call. = FALSE)
  variants <- variants[args$value("variants")]
}
out_name <- if (length(args$value("out"))) args$value("out") else "default_variants"
suppressPackageStartupMessages(library(svforest))
stopifnot(requireNamespace("ranger", quietly = TRUE))
# accuracy for classes, RMSE for numbers
score <- function(pred, truth) {
  if (task == "regression") sqrt(mean((pred - truth)^2)) else mean(as.character(pred) == as.character(truth))
}
results <- list()
csv <- results_csv(out_name)
for (nm in sets) {
  base <- registry[[nm]]$load()
  base$test <- align_levels(base$train, base$test)
  n_splits <- min(max_splits, bench_n_splits(nrow(base$test), "auto"))
  for (split in first_split - 1L + seq_len(n_splits)) {
    s <- resplit(base, split)
    f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
    truth <- s$test[[s$outcome]]
    preds <- setdiff(names(s$train), s$outcome)
    imp <- impute_like(s$train[preds], s$test[preds], preds)
    row <- function(variant, value, fit_s, ntree) {
      data.frame(dataset = nm, split = split, variant = variant, value = value, fit_s = fit_s, ntree = ntree)
    }
    t0 <- proc.time()[["elapsed"]]
    rg <- ranger::ranger(x = imp$train, y = s$train[[s$outcome]], num.trees = 500, seed = 1, num.threads = threads)
    fit_s <- proc.time()[["elapsed"]] - t0
    results[[length(results) + 1L]] <- row("ranger", score(stats::predict(rg, imp$test)$predictions, truth), fit_s, 500L)
    for (v in names(variants)) {
      t0 <- proc.time()[["elapsed"]]
      fit <- do.call(svforest, c(list(f, data = s$train, seed = 1, num_threads = threads, verbose = FALSE),
                                 variants[[v]](length(preds))))
      fit_s <- proc.time()[["elapsed"]] - t0
      value <- score(predict(fit, s$test, num_threads = threads), truth)
      results[[length(results) + 1L]] <- row(v, value, fit_s, fit$ntree)
      say(sprintf("%-18s split %3d  %-18s %s %.4f  fit %6.2fs  %d trees\n", nm, split, v,
                  if (task == "regression") "rmse" else "accuracy", value, fit_s, fit$ntree))
    }
    utils::write.csv(do.call(rbind, results), csv, row.names = FALSE)
  }
}
res <- do.call(rbind, results)
agg <- stats::aggregate(cbind(value, fit_s) ~ dataset + variant, data = res, FUN = mean)
rng <- agg[agg$variant == "ranger", ]
rng_value <- stats::setNames(rng$value, rng$dataset)
rng_fit <- stats::setNames(rng$fit_s, rng$dataset)
say(sprintf("\n== %d %s sets, splits %d-%d (at most %d each): %s ranger-500 ==\n", length(rng_value), task,
            first_split, first_split + max_splits - 1L, max_splits,
            if (task == "regression") "RMSE change in percent against" else "points against"))
for (v in names(variants)) {
  a <- agg[agg$variant == v, ]
  d <- if (task == "regression") 100 * (a$value / rng_value[a$dataset] - 1) else 100 * (a$value - rng_value[a$dataset])
  better <- if (task == "regression") d <= 1e-9 else d >= -1e-9
  worst <- if (task == "regression") which.max(d) else which.min(d)
  say(sprintf("%-18s mean %+.2f  %s ranger on %d of %d  worst %+.2f (%s)  fit/ranger median %.2f max %.2f (%s)\n",
              v, mean(d), if (task == "regression") "<=" else ">=", sum(better), length(d), d[worst], a$dataset[worst],
              stats::median(a$fit_s / rng_fit[a$dataset]), max(a$fit_s / rng_fit[a$dataset]),
              a$dataset[which.max(a$fit_s / rng_fit[a$dataset])]))
}
say("\nresults: ", bench_relpath(csv), "\n")
