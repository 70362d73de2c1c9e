# Variants of the default survival forest on the harness's survival sets,
# development splits only (101, 102, ...; the harness scores splits 1 to 10),
# as bench/default_variants.R does for classes and numbers: how much a change
# of a survival default moves Harrell's C and the integrated Brier score
# (scored as the harness scores them, bench/harness_survival.R), before the
# harness's scored run.
#   Rscript bench/survival_variants.R [--splits=4|auto] [--first_split=101] [--threads=2]
#       [--only=pbc,...] [--variants=default,events_half,...] [--big=N] [--out=survival_variants]
# Every variant is svforest() with seed 1 and its arguments (a function of
# the training rows: their design's predictor columns `p` and event count `e`).
# Output: bench/results/<out>.csv and, per variant, the mean over sets of
# (variant - default) of C and IBS, the sets where C is at least the
# default's, the worst set, and the fit time against the default's.
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
  source(file.path(here, "harness_survival.R"))
}, envir = globalenv())
suppressPackageStartupMessages({
  library(survival)
  library(svforest)
})

variants <- list(
  default = function(p, e) list(),
  # the survival defaults before issue #61's survival line (commit 63345e8)
  before = function(p, e) list(oblique_fit = "ridge", min_node_events = as.integer(ceiling(sqrt(e)))),
  events_half = function(p, e) list(min_node_events = as.integer(ceiling(sqrt(e) / 2))),
  events_10 = function(p, e) list(min_node_events = 10L),
  events_cap = function(p, e) list(min_node_events = as.integer(min(ceiling(sqrt(e)), 30L))),
  leaf5 = function(p, e) list(min_leaf_size = 5L, min_node_size = 10L),
  mtry_ceil = function(p, e) list(mtry = as.integer(ceiling(sqrt(p)))),
  oblique_cox = function(p, e) list(oblique_fit = "cox"),
  oblique_ridge = function(p, e) list(oblique_fit = "ridge"),
  n_oblique2 = function(p, e) list(n_oblique = 2L),
  ntree500 = function(p, e) list(ntree = 500L),
  oblique_mtry_p = function(p, e) list(oblique_mtry = max(2L, as.integer(ceiling(sqrt(p))))),
  rival_axis = function(p, e) list(tree_rival = "axis"),
  tree_choice_none = function(p, e) list(tree_choice = "none"),
  events_double = function(p, e) list(min_node_events = as.integer(ceiling(2 * sqrt(e)))),
  cox_mtry_ceil = function(p, e) list(oblique_fit = "cox", mtry = as.integer(ceiling(sqrt(p)))),
  cox_ntree500 = function(p, e) list(oblique_fit = "cox", ntree = 500L),
  cox_events_half = function(p, e) list(oblique_fit = "cox", min_node_events = as.integer(ceiling(sqrt(e) / 2))),
  cox_events_double = function(p, e) list(oblique_fit = "cox", min_node_events = as.integer(ceiling(2 * sqrt(e)))),
  # both settings given (whatever the build's defaults)
  ridge_sqrt = function(p, e) list(oblique_fit = "ridge", min_node_events = as.integer(ceiling(sqrt(e)))),
  ridge_half = function(p, e) list(oblique_fit = "ridge", min_node_events = as.integer(ceiling(sqrt(e) / 2))),
  ridge_double = function(p, e) list(oblique_fit = "ridge", min_node_events = as.integer(ceiling(2 * sqrt(e)))),
  cox_sqrt = function(p, e) list(oblique_fit = "cox", min_node_events = as.integer(ceiling(sqrt(e)))),
  cox_half = function(p, e) list(oblique_fit = "cox", min_node_events = as.integer(ceiling(sqrt(e) / 2))),
  cox_double = function(p, e) list(oblique_fit = "cox", min_node_events = as.integer(ceiling(2 * sqrt(e))))
)

opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), commandArgs(TRUE), value = TRUE)
  if (length(hit)) sub(sprintf("^--%s=", name), "", hit[1]) else default
}
first <- as.integer(opt("first_split", "101"))
# --splits=auto: as the harness, min(10, ceiling(1000 / test rows)) per set
splits_arg <- opt("splits", "4")
splits <- first - 1L + seq_len(if (splits_arg == "auto") 10L else as.integer(splits_arg))
threads <- as.integer(opt("threads", "2"))
only <- strsplit(opt("only", ""), ",")[[1]]
pick <- strsplit(opt("variants", paste(names(variants), collapse = ",")), ",")[[1]]
bad <- setdiff(pick, names(variants))
if (length(bad)) stop("unknown variants: ", paste(bad, collapse = ", "), call. = FALSE)
variants <- variants[unique(pick)]  # (the summary compares with "default" when it is among them)
csv <- results_csv(opt("out", "survival_variants"))
cat(sprintf("svforest %s, splits %s, variants %s\n", utils::packageVersion("svforest"),
            paste(splits, collapse = ","), paste(names(variants), collapse = ",")))

# --big=N adds the harness's two simulated sets' generators at N rows (other
# seeds than the harness's), for the regime of many events that the
# registry's sets (at most a few thousand events) do not reach
sets <- survival_sets()
big <- as.integer(opt("big", "0"))
if (big > 0) {
  sets[[sprintf("sim_linear_%d", big)]] <- function() survival_simulated(p = 10, beta = c(1, -0.7, 0.5), n = big, seed = 111L)
  sets[[sprintf("sim_wide_%d", big)]] <- function() survival_simulated(p = 200, beta = c(0.8, -0.8, 0.6, -0.6, 0.5),
                                                                      n = big, seed = 112L)
}
rows <- list()
for (set in names(sets)) {
  if (length(only) && !set %in% only) next
  d <- sets[[set]]()
  n_splits <- bench_n_splits(nrow(survival_split(d)$test), splits_arg)
  for (r in utils::head(splits, n_splits)) {
    s <- resplit(survival_split(d), r)
    # the design's predictor columns (factors may become indicator columns)
    p <- svforest(Surv(time, status) ~ ., data = s$train, seed = 1, ntree = 1L, num_threads = 1L,
                  verbose = FALSE)$forest$num_features
    e <- sum(s$train$status == 1)
    for (v in names(variants)) {
      t0 <- proc.time()
      fit <- do.call(svforest, c(list(Surv(time, status) ~ ., data = s$train, seed = 1, num_threads = threads,
                                      verbose = FALSE), variants[[v]](p, e)))
      spent <- proc.time() - t0
      pred <- list(surv = function(times) predict(fit, s$test, type = "survival", times = times, num_threads = threads),
                   risk = predict(fit, s$test, type = "risk", num_threads = threads))
      sc <- suppressWarnings(survival_scores(pred, s$train, s$test))
      rows[[length(rows) + 1L]] <- data.frame(dataset = set, split = r, variant = v, cindex = sc[["cindex"]],
                                              ibs = sc[["ibs"]], fit_s = spent[["elapsed"]],
                                              fit_cpu_s = spent[["user.self"]] + spent[["sys.self"]])
      cat(sprintf("%-16s split %d %-16s C %.4f  IBS %.5f  fit %6.2fs (cpu %6.2fs)\n", set, r, v, sc[["cindex"]],
                  sc[["ibs"]], spent[["elapsed"]], spent[["user.self"]] + spent[["sys.self"]]))
    }
    utils::write.csv(do.call(rbind, rows), csv, row.names = FALSE)
  }
}

res <- do.call(rbind, rows)
if (!"default" %in% res$variant) quit(save = "no")
agg <- stats::aggregate(cbind(cindex, ibs, fit_cpu_s) ~ dataset + variant, data = res, FUN = mean)
base <- agg[agg$variant == "default", ]
cat(sprintf("\n== %d survival sets, splits %d-%d (%s): each variant - default (mean over sets of the set means) ==\n",
            nrow(base), min(splits), max(splits), if (splits_arg == "auto") "auto, as the harness" else "each set"))
for (v in setdiff(names(variants), "default")) {
  a <- merge(agg[agg$variant == v, ], base, by = "dataset", suffixes = c("", ".d"))
  dc <- a$cindex - a$cindex.d
  di <- a$ibs - a$ibs.d
  cat(sprintf("%-16s C %+.4f (>= default on %d of %d, worst %+.4f %s)  IBS %+.5f (worst %+.5f %s)  cpu x%.2f\n", v,
              mean(dc), sum(dc >= -1e-12), length(dc), min(dc), a$dataset[which.min(dc)], mean(di), max(di),
              a$dataset[which.max(di)], stats::median(a$fit_cpu_s / a$fit_cpu_s.d)))
}
cat("\nresults: ", bench_relpath(csv), "\n", sep = "")
