# Benchmark: missing predictor values. On a few classification datasets,
# 10% and 30% of the predictor values (training and test) are set to NA,
# missing completely at random (seeded); every svforest preset is fitted with
# its defaults (na_action = "impute", the default) and compared with ranger.
#
# Usage (from the repository root):
#   Rscript bench/missing_bench.R [data_dir] [--only=wdbc,vehicle] [--rates=0.1,0.3]
#       [--methods=rsvt,psvm] [--threads=2] [--no-install]
#
# ranger: 500 trees, seed 1. ranger's own handling of missing values
# (na.action = "na.learn") exists from ranger 0.16.0, which the script
# installs when missing (--no-install: it does not); with an older ranger
# (the version is printed at the start) ranger gets the data median-imputed:
# every column's training median fills its NA in training and test data (no
# indicators). With ranger >= 0.16.0 it gets the NA data and
# na.action = "na.learn".
#
# Printed: test accuracy per dataset, rate and method, and the difference to
# ranger in percentage points (positive: svforest better).

args0 <- commandArgs(FALSE)
args0_flag <- function(name) paste0("--", name) %in% commandArgs(TRUE)
here <- dirname(normalizePath(sub("^--file=", "", grep("^--file=", args0, value = TRUE)[1])))
source(file.path(here, "bench_common.R"))
suppressPackageStartupMessages(library(svforest))
# ranger's na.action = "na.learn" needs ranger >= 0.16.0 (Debian's may be
# older): this bench then installs a current ranger from CRAN into a library
# of its own (tools::R_user_dir("svforest", "cache")/bench-lib), used only here.
bench_lib <- file.path(tools::R_user_dir("svforest", "cache"), "bench-lib")
ranger_at <- function(lib) {
  v <- tryCatch(utils::packageVersion("ranger", lib.loc = lib), error = function(e) NULL)
  !is.null(v) && v >= "0.16.0"
}
if (!ranger_at(.libPaths()) && !ranger_at(bench_lib) && !args0_flag("no-install")) {
  dir.create(bench_lib, recursive = TRUE, showWarnings = FALSE)
  say("installing ranger >= 0.16.0 from CRAN into ", bench_lib, " (for na.action = \"na.learn\") ...\n")
  try(utils::install.packages("ranger", lib = bench_lib, quiet = TRUE,
                              repos = Sys.getenv("CRAN_MIRROR", "https://cloud.r-project.org")), silent = TRUE)
}
if (ranger_at(bench_lib) && !ranger_at(.libPaths())) .libPaths(c(bench_lib, .libPaths()))
if (!requireNamespace("ranger", quietly = TRUE)) stop("package ranger is needed")

args <- bench_args()
only <- if (length(args$only)) args$only else c("wdbc", "vehicle", "pima")
rates <- if (length(args$value("rates"))) as.numeric(args$value("rates")) else c(0.1, 0.3)
methods <- if (length(args$value("methods"))) args$value("methods") else svforest_methods()$method
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 2L
na_learn <- utils::packageVersion("ranger") >= "0.16.0"

say(sprintf("svforest %s, ranger %s: ranger %s\n", utils::packageVersion("svforest"),
            utils::packageVersion("ranger"),
            if (na_learn) "with na.action = \"na.learn\"" else
              "has no na.action = \"na.learn\" (added in 0.16.0): it gets median-imputed data"))
say(sprintf("threads %d, seed 1; NA injected MCAR into the predictors of training and test data (seed 100 + dataset index)\n\n",
            threads))

inject <- function(x, rate, seed) {
  set.seed(seed)
  x[stats::runif(length(x)) < rate] <- NA
  x
}

median_impute <- function(xtr, xte) {
  med <- apply(xtr, 2, stats::median, na.rm = TRUE)
  med[is.na(med)] <- 0
  fill <- function(x) {
    w <- which(is.na(x), arr.ind = TRUE)
    x[w] <- med[w[, 2]]
    x
  }
  list(xtr = fill(xtr), xte = fill(xte))
}

datasets <- classification_datasets(args$data_dir)
rows <- list()
for (k in seq_along(only)) {
  name <- only[k]
  d <- datasets[[name]]()
  xtr0 <- as.matrix(d$xtr)
  xte0 <- as.matrix(d$xte)
  say(sprintf("%s: %d train / %d test rows, %d predictors, %d classes (%s)\n", name, nrow(xtr0), nrow(xte0),
              ncol(xtr0), nlevels(d$ytr), d$split))
  for (rate in c(0, rates)) {
    xtr <- if (rate > 0) inject(xtr0, rate, 100 + k) else xtr0
    xte <- if (rate > 0) inject(xte0, rate, 200 + k) else xte0
    t0 <- proc.time()[[3]]
    if (na_learn || rate == 0) {
      # na.action only when ranger knows it (older versions warn "Unused arguments")
      rf <- do.call(ranger::ranger, c(list(x = xtr, y = d$ytr, num.trees = 500, seed = 1, num.threads = threads),
                                      if (na_learn) list(na.action = "na.learn")))
      pr <- predict(rf, xte, num.threads = threads)$predictions
    } else {
      imp <- median_impute(xtr, xte)
      rf <- ranger::ranger(x = imp$xtr, y = d$ytr, num.trees = 500, seed = 1, num.threads = threads)
      pr <- predict(rf, imp$xte, num.threads = threads)$predictions
    }
    ref <- mean(as.character(pr) == as.character(d$yte))
    rows[[length(rows) + 1]] <- data.frame(dataset = name, na_rate = rate, method = "ranger",
                                           accuracy = ref, vs_ranger = 0, seconds = proc.time()[[3]] - t0)
    for (m in methods) {
      t0 <- proc.time()[[3]]
      acc <- tryCatch({
        fit <- svforest(xtr, d$ytr, method = m, seed = 1, num_threads = threads, verbose = FALSE)
        p <- predict(fit, xte, num_threads = threads)
        if (anyNA(p)) stop("NA predictions")
        mean(as.character(p) == as.character(d$yte))
      }, error = function(e) {
        say("  ", m, " failed: ", conditionMessage(e), "\n")
        NA_real_
      })
      rows[[length(rows) + 1]] <- data.frame(dataset = name, na_rate = rate, method = m, accuracy = acc,
                                             vs_ranger = 100 * (acc - ref), seconds = proc.time()[[3]] - t0)
    }
    cur <- do.call(rbind, rows)
    cur <- cur[cur$dataset == name & cur$na_rate == rate, ]
    say(sprintf("  NA %3.0f%%: %s\n", 100 * rate,
                paste(sprintf("%s %.3f", cur$method, cur$accuracy), collapse = ", ")))
  }
}

res <- do.call(rbind, rows)
say("\nTest accuracy; vs_ranger = (accuracy - ranger's) in percentage points; seconds = fit + predict\n")
res$accuracy <- sprintf("%.3f", res$accuracy)
res$vs_ranger <- sprintf("%+.1f", res$vs_ranger)
res$seconds <- sprintf("%.1f", res$seconds)
print(res, row.names = FALSE)

say("\nAccuracy by method and NA rate (mean over datasets), difference to ranger in points:\n")
num <- do.call(rbind, rows)
agg <- stats::aggregate(cbind(accuracy, vs_ranger) ~ method + na_rate, data = num, FUN = mean)
agg <- agg[order(agg$na_rate, agg$method), ]
agg$accuracy <- sprintf("%.3f", agg$accuracy)
agg$vs_ranger <- sprintf("%+.1f", agg$vs_ranger)
print(agg, row.names = FALSE)
