# Probability quality with and without calibration (issue 19): every preset
# with its defaults, as fitted and with `calibrate = "platt"`, `"temperature"`
# and `"isotonic"` (a stratified quarter of the training rows held out for
# the calibration map), against ranger (500 trees, probability forest) in the
# same process. Test accuracy, Brier score and log-loss (lower is better).
#
# Usage (from the repository root):
#   Rscript bench/calibration_bench.R [data_dir] [--only=vehicle,spam] [--threads=2]
# Uses the installed svforest; needs ranger and mlbench.
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))
suppressPackageStartupMessages(library(svforest))
bench_need_package("ranger")
args <- bench_args()
data_dir <- args$data_dir
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
sets <- if (length(args$only)) strsplit(args$only, ",")[[1]] else
  c("vehicle", "segment", "pima", "satellite", "spam")
datasets <- classification_datasets(data_dir)

metrics <- function(prob, y) {
  prob <- prob[, levels(y), drop = FALSE]
  Y <- diag(nlevels(y))[as.integer(y), , drop = FALSE]
  p_true <- prob[cbind(seq_along(y), as.integer(y))]
  c(acc = mean(max.col(prob, ties.method = "first") == as.integer(y)),
    brier = mean(rowSums((prob - Y)^2)), logloss = -mean(log(pmax(p_true, 1e-15))))
}

rows <- list()
say(sprintf("%-10s %-10s %-9s %6s %6s %7s %7s\n", "dataset", "method", "calibrate", "acc", "brier", "logloss", "fit_s"))
for (set in sets) {
  s <- datasets[[set]]()
  xtr <- if (inherits(s$xtr, "Matrix")) as.matrix(s$xtr) else s$xtr
  xte <- if (inherits(s$xte, "Matrix")) as.matrix(s$xte) else s$xte
  ytr <- droplevels(factor(s$ytr))
  yte <- factor(s$yte, levels = levels(ytr))
  keep <- !is.na(yte)
  xte <- xte[keep, , drop = FALSE]
  yte <- yte[keep]
  report <- function(method, cal, prob, secs) {
    m <- metrics(prob, yte)
    rows[[length(rows) + 1]] <<- data.frame(dataset = set, method = method, calibrate = cal, t(m), fit_s = secs)
    say(sprintf("%-10s %-10s %-9s %6.4f %6.4f %7.4f %7.2f\n", set, method, cal, m[["acc"]], m[["brier"]],
                m[["logloss"]], secs))
  }
  t0 <- proc.time()[["elapsed"]]
  rf <- ranger::ranger(x = xtr, y = ytr, num.trees = 500, probability = TRUE, num.threads = threads, seed = 1)
  report("ranger", "-", stats::predict(rf, data = xte, num.threads = threads)$predictions,
         proc.time()[["elapsed"]] - t0)
  for (method in svforest_methods()$method) {
    for (cal in c("none", "platt", "temperature", "isotonic")) {
      t0 <- proc.time()[["elapsed"]]
      fit <- svforest(xtr, ytr, method = method, seed = 1, num_threads = threads, calibrate = cal)
      secs <- proc.time()[["elapsed"]] - t0
      report(method, cal, predict(fit, xte, type = "prob", num_threads = threads), secs)
    }
  }
}
res <- do.call(rbind, rows)
utils::write.csv(res, results_csv("calibration_bench"), row.names = FALSE)

# Mean over datasets of each row's difference to ranger.
rf <- res[res$method == "ranger", c("dataset", "acc", "brier", "logloss")]
sv <- merge(res[res$method != "ranger", ], rf, by = "dataset", suffixes = c("", ".rf"))
say("\nMean difference to ranger over datasets (acc in points; brier, logloss: lower is better):\n")
agg <- aggregate(cbind(d_acc = 100 * (acc - acc.rf), d_brier = brier - brier.rf, d_logloss = logloss - logloss.rf) ~
                   method + calibrate, data = sv, FUN = mean)
agg <- agg[order(agg$method, match(agg$calibrate, c("none", "platt", "temperature", "isotonic"))), ]
for (i in seq_len(nrow(agg))) {
  say(sprintf("  %-10s %-9s %6.1f %8.4f %9.4f\n", agg$method[i], agg$calibrate[i], agg$d_acc[i], agg$d_brier[i],
              agg$d_logloss[i]))
}
