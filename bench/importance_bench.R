# Cost of permutation importance, printed as ratios (issue 17, "Done when"):
#   1. a default RSVT forest on letter (mlbench LetterRecognition, first
#      16,000 rows, 16 predictors): svforest_importance() on the training
#      rows (all rows: RSVT's trees see every row) vs the fit itself;
#   2. PSVM with 100 trees vs ranger with 500 trees and
#      importance = "permutation": for each, fit time with importance minus
#      fit time without, in the same process.
# Run: Rscript bench/importance_bench.R [--threads=2] [--reps=3]
# Uses the installed svforest; needs mlbench and ranger.
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))
suppressPackageStartupMessages(library(svforest))
args <- bench_args()
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
reps <- if (length(args$value("reps"))) as.integer(args$value("reps")) else 3L
letter <- mlbench_data("LetterRecognition")
train <- letter[1:16000, ]
x <- as.matrix(train[, -1])
y <- train$lettr
secs <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}
say(sprintf("letter: %d training rows, %d predictors, %d threads\n", nrow(x), ncol(x), threads))

# 1. RSVT
fit <- NULL
t_fit <- secs(fit <- svforest(x, y, method = "rsvt", seed = 1, num_threads = threads))
t_imp <- secs(imp <- svforest_importance(fit, x, y, num_threads = threads))
say(sprintf("RSVT (default, %d trees): fit %.2f s, permutation importance %.2f s, ratio importance/fit = %.3f\n",
            fit$ntree, t_fit, t_imp, t_imp / t_fit))
say("  top 5: ", paste(names(sort(imp, decreasing = TRUE))[1:5], collapse = ", "), "\n")

# 2. PSVM 100 trees vs ranger 500 trees. Each cost is the difference of two
# fit times, so it is noisy: the four fits run `reps` times, interleaved,
# and the medians are compared.
d <- data.frame(x, lettr = y)
runs <- replicate(reps, {
  t_psvm <- secs(svforest(x, y, method = "psvm", ntree = 100, seed = 1, num_threads = threads))
  t_psvm_imp <- secs(fp <- svforest(x, y, method = "psvm", ntree = 100, seed = 1, num_threads = threads,
                                    importance = "permutation"))
  t_rg <- secs(ranger::ranger(lettr ~ ., data = d, num.trees = 500, seed = 1, num.threads = threads))
  t_rg_imp <- secs(ranger::ranger(lettr ~ ., data = d, num.trees = 500, seed = 1, num.threads = threads,
                                  importance = "permutation"))
  c(psvm = t_psvm, psvm_imp = t_psvm_imp, rg = t_rg, rg_imp = t_rg_imp,
    ratio = (t_psvm_imp - t_psvm) / (t_rg_imp - t_rg))
})
med <- apply(runs, 1, stats::median)
c_psvm <- med[["psvm_imp"]] - med[["psvm"]]
c_rg <- med[["rg_imp"]] - med[["rg"]]
say(sprintf("PSVM 100 trees: fit %.2f s, with importance %.2f s, importance cost %.2f s (medians of %d)\n",
            med[["psvm"]], med[["psvm_imp"]], c_psvm, reps))
say(sprintf("ranger 500 trees: fit %.2f s, with importance %.2f s, importance cost %.2f s\n", med[["rg"]],
            med[["rg_imp"]], c_rg))
say(sprintf("ratio importance cost PSVM-100 / ranger-500 = %.3f (of the medians; per run: %s)%s\n", c_psvm / c_rg,
            paste(sprintf("%.2f", runs["ratio", ]), collapse = ", "), bench_loadavg()))
fp <- svforest(x, y, method = "psvm", ntree = 100, seed = 1, num_threads = threads, importance = "permutation")
say("  PSVM top 5: ", paste(names(sort(fp$variable_importance, decreasing = TRUE))[1:5], collapse = ", "), "\n")
