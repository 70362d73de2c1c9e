# Benchmark: prediction intervals and quantiles of svforest's default
# regression forest (`svforest()` with no method, `calibrate = "conformal"`:
# split-conformal quantiles normalised by the trees' spread) against ranger
# `quantreg = TRUE` (500 trees) and grf `quantile_forest` (2000 trees), in the
# same run on the same splits, 3 seeds.
#
# Usage (from the repository root):
#   Rscript bench/uncertainty_bench.R [data folder] [--only=friedman1,boston] [--threads=2]
#                                     [--seeds=3] [--no-grf] [--method=rsvf] [--args=name:value,...]
#                                     [--no-timing] [--out=uncertainty_bench]
# Data: Friedman 1 (mlbench, 2,000 training and 5,000 test rows, drawn per
# seed), BostonHousing (mlbench), airquality (complete cases), diamonds
# (ggplot2, 5,000 random rows, log price), wine quality red and white
# (../shared/data/winequality, quality as a number), concrete and ames
# (modeldata, log10 Sale_Price); each seed splits 2/3 : 1/3 at random.
# Predictors are the model matrix (factors as indicators) for all three.
# svforest is scored twice: calibrate = "conformal" (split: a quarter of
# the training rows held out) and calibrate = "cv" (cross-conformal).
# Reports per set and model (means over seeds): coverage of the nominal 90%
# interval (quantiles 0.05 and 0.95), its mean width, the mean pinball loss
# over the quantiles 0.05, 0.5 and 0.95, fit time; then the time of quantile
# and point predictions for 100,000 rows (Friedman 1).
# Peers used only here are installed by the script when missing: grf from
# CRAN into the first library of .libPaths() (compiles, a few minutes;
# --no-grf skips it), modeldata from Debian (r-cran-modeldata).
# Output: bench/results/uncertainty_bench.txt and .csv.
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))
a <- bench_args()
threads <- as.integer(if (length(a$value("threads"))) a$value("threads") else 2)
n_seeds <- as.integer(if (length(a$value("seeds"))) a$value("seeds") else 3)
method <- if (length(a$value("method"))) a$value("method") else NULL  # NULL: svforest's default
out_name <- if (length(a$value("out"))) a$value("out") else "uncertainty_bench"
extra <- list()
for (kv in a$value("args")) {  # --args=name:value,... extra svforest arguments (numbers or text)
  parts <- strsplit(kv, ":", fixed = TRUE)[[1]]
  v <- suppressWarnings(as.numeric(parts[2]))
  extra[[parts[1]]] <- if (is.na(v)) parts[2] else v
}
suppressPackageStartupMessages({ library(svforest); library(ranger) })
options(width = 200)

has_grf <- !a$flag("no-grf") && bench_need_cran("grf")
has_modeldata <- bench_need_package("modeldata")

taus <- c(0.05, 0.5, 0.95)
numeric_x <- function(df) {
  m <- stats::model.matrix(~ . - 1, df)
  colnames(m) <- make.names(colnames(m), unique = TRUE)
  m
}
# a frame (outcome column `outcome`) split 2/3 : 1/3 by seed
split_frame <- function(d, outcome, seed) {
  x <- numeric_x(d[, setdiff(names(d), outcome), drop = FALSE])
  y <- as.numeric(d[[outcome]])
  set.seed(seed)
  test <- sort(sample.int(nrow(d), round(nrow(d) / 3)))
  list(x = x[-test, , drop = FALSE], y = y[-test], xt = x[test, , drop = FALSE], yt = y[test])
}
modeldata_frame <- function(name) {
  if (!has_modeldata) stop("modeldata not available")
  e <- new.env()
  utils::data(list = name, package = "modeldata", envir = e)
  as.data.frame(e[[name]])
}
datasets <- list(
  friedman1 = function(seed) {
    set.seed(seed)
    tr <- mlbench::mlbench.friedman1(2000, 1)
    te <- mlbench::mlbench.friedman1(5000, 1)
    nm <- paste0("x", 1:10)
    list(x = `colnames<-`(tr$x, nm), y = tr$y, xt = `colnames<-`(te$x, nm), yt = te$y)
  },
  boston = function(seed) split_frame(mlbench_data("BostonHousing"), "medv", seed),
  airquality = function(seed) split_frame(stats::na.omit(datasets::airquality), "Ozone", seed),
  diamonds = function(seed) {
    if (!requireNamespace("ggplot2", quietly = TRUE)) stop("ggplot2 not available")
    d <- as.data.frame(ggplot2::diamonds)
    set.seed(100)  # the same 5,000 rows for every seed; the split varies
    d <- d[sample.int(nrow(d), 5000), ]
    for (v in c("cut", "color", "clarity")) d[[v]] <- factor(as.character(d[[v]]))  # no polynomial contrasts
    d$price <- log(d$price)
    split_frame(d, "price", seed)
  },
  wine_red = function(seed) wine("red", seed),
  wine_white = function(seed) wine("white", seed),
  concrete = function(seed) split_frame(modeldata_frame("concrete"), "compressive_strength", seed),
  ames = function(seed) {
    d <- modeldata_frame("ames")
    d$Sale_Price <- log10(d$Sale_Price)
    split_frame(d, "Sale_Price", seed)
  }
)
wine <- function(colour, seed) {
  d <- utils::read.csv(file.path(a$data_dir, "winequality", sprintf("winequality-%s.csv", colour)), sep = ";")
  split_frame(d, "quality", seed)
}
chosen <- if (length(a$only)) a$only else names(datasets)

pinball <- function(q, y) {
  mean(vapply(seq_along(taus), function(j) {
    u <- y - q[, j]
    mean(pmax(taus[j] * u, (taus[j] - 1) * u))
  }, 0))
}
sv_fit <- function(x, y, seed, calibrate = "conformal") {
  do.call(svforest, c(list(x, y, method = method, calibrate = calibrate, seed = seed, num_threads = threads,
                           verbose = FALSE), extra))
}
sv_quantiles <- function(m, x) predict(m, x, type = "quantiles", quantiles = taus, num_threads = threads)
models <- list(
  # split-conformal: a quarter of the training rows held out (exact guarantee)
  svforest = list(fit = sv_fit, quantiles = sv_quantiles),
  # cross-conformal: the forest on every row, five fold forests score them
  svforest_cv = list(fit = function(x, y, seed) sv_fit(x, y, seed, "cv"), quantiles = sv_quantiles),
  ranger_quantreg = list(
    fit = function(x, y, seed) ranger::ranger(x = x, y = y, num.trees = 500, quantreg = TRUE, seed = seed,
                                              num.threads = threads),
    quantiles = function(m, x) predict(m, x, type = "quantiles", quantiles = taus, num.threads = threads)$predictions)
)
if (has_grf) {
  models$grf_quantile <- list(
    fit = function(x, y, seed) grf::quantile_forest(x, y, quantiles = taus, seed = seed, num.threads = threads),
    quantiles = function(m, x) {
      q <- predict(m, x, quantiles = taus, num.threads = threads)
      if (is.list(q)) q$predictions else q
    })
}

say(sprintf("svforest %s, method %s, %d threads, %d seeds; %s\n", utils::packageVersion("svforest"),
            if (is.null(method)) sprintf("default (%s)", svforest:::default_method("regression")) else method,
            threads, n_seeds, format(Sys.time(), tz = "UTC", usetz = TRUE)))
rows <- list()
for (name in chosen) {
  for (seed in seq_len(n_seeds)) {
    d <- tryCatch(datasets[[name]](seed), error = function(e) { say(name, ": skipped (", conditionMessage(e), ")\n"); NULL })
    if (is.null(d)) break
    for (mname in names(models)) {
      m <- models[[mname]]
      fit_s <- system.time(model <- m$fit(d$x, d$y, seed))[["elapsed"]]
      pred_s <- system.time(q <- m$quantiles(model, d$xt))[["elapsed"]]
      q <- as.matrix(q)
      rows[[length(rows) + 1]] <- data.frame(
        dataset = name, seed = seed, model = mname, n_train = nrow(d$x), n_test = nrow(d$xt),
        coverage90 = mean(d$yt >= q[, 1] & d$yt <= q[, 3]), width90 = mean(q[, 3] - q[, 1]),
        pinball = pinball(q, d$yt), below05 = mean(d$yt < q[, 1]), above95 = mean(d$yt > q[, 3]),
        fit_s = fit_s, quantile_s = pred_s)
      r <- rows[[length(rows)]]
      say(sprintf("%-11s seed %d %-16s coverage %.3f width %8.3f pinball %8.4f fit %6.1fs\n", name, seed, mname,
                  r$coverage90, r$width90, r$pinball, fit_s))
    }
  }
}
out <- do.call(rbind, rows)
utils::write.csv(out, results_csv(out_name), row.names = FALSE)

agg <- aggregate(cbind(coverage90, width90, pinball, below05, above95, fit_s) ~ dataset + model, out, mean)
agg <- agg[order(match(agg$dataset, chosen), agg$model), ]
lines <- c(sprintf("svforest %s, method %s, %d threads, %d seeds, %s", utils::packageVersion("svforest"),
                   if (is.null(method)) sprintf("default (%s)", svforest:::default_method("regression")) else method,
                   threads, n_seeds, format(Sys.time(), tz = "UTC", usetz = TRUE)),
           if (length(extra)) paste("svforest arguments:", paste(names(extra), unlist(extra), sep = " = ", collapse = ", ")),
           "Means over seeds. coverage90: share of test rows inside [q0.05, q0.95]; pinball: mean over 0.05, 0.5, 0.95.",
           "", utils::capture.output(print(format(agg, digits = 4), row.names = FALSE)))

# targets: svforest coverage in [0.88, 0.93] on every set; pinball <= ranger's on >= 80% of sets
for (variant in c("svforest", "svforest_cv")) {
  sv <- agg[agg$model == variant, ]
  rg <- agg[agg$model == "ranger_quantreg", ]
  rg <- rg[match(sv$dataset, rg$dataset), ]
  ok_cov <- sv$coverage90 >= 0.88 & sv$coverage90 <= 0.93
  ok_pin <- sv$pinball <= rg$pinball
  lines <- c(lines, "", paste0(variant, ":"),
             sprintf("  coverage in [0.88, 0.93]: %d of %d sets (%s)", sum(ok_cov), length(ok_cov),
                     paste0(sv$dataset, " ", sprintf("%.3f", sv$coverage90), collapse = ", ")),
             sprintf("  pinball <= ranger quantreg: %d of %d sets (%.0f%%; ratios %s)", sum(ok_pin), length(ok_pin),
                     100 * mean(ok_pin), paste0(sv$dataset, " ", sprintf("%.2f", sv$pinball / rg$pinball), collapse = ", ")))
}

# time for 100,000 rows: quantiles against point predictions (svforest: median of 3)
if (!a$flag("no-timing")) {
  set.seed(1)
  tr <- mlbench::mlbench.friedman1(2000, 1)
  big <- mlbench::mlbench.friedman1(100000, 1)$x
  colnames(big) <- colnames(tr$x) <- paste0("x", 1:10)
  fit <- sv_fit(tr$x, tr$y, 1)
  med3 <- function(f) stats::median(vapply(1:3, function(i) system.time(f())[["elapsed"]], 0))
  point_s <- med3(function() predict(fit, big, num_threads = threads))
  quant_s <- med3(function() predict(fit, big, type = "quantiles", quantiles = taus, num_threads = threads))
  interval_s <- med3(function() predict(fit, big, type = "interval", level = 0.9, num_threads = threads))
  lines <- c(lines, "", sprintf("100,000 rows (Friedman 1, %d trees): point %.2fs, quantiles %.2fs (%.0f%% of point), interval %.2fs (%.0f%%)",
                                fit$ntree, point_s, quant_s, 100 * quant_s / point_s, interval_s, 100 * interval_s / point_s))
  # the peers once each (their quantiles take minutes)
  once <- function(f) system.time(f())[["elapsed"]]
  rf <- ranger::ranger(x = tr$x, y = tr$y, num.trees = 500, quantreg = TRUE, seed = 1, num.threads = threads)
  lines <- c(lines, sprintf("  ranger quantreg (500 trees): point %.2fs, quantiles %.2fs",
                            once(function() predict(rf, big, num.threads = threads)),
                            once(function() predict(rf, big, type = "quantiles", quantiles = taus, num.threads = threads))))
  if (has_grf) {
    gq <- grf::quantile_forest(tr$x, tr$y, quantiles = taus, seed = 1, num.threads = threads)
    lines <- c(lines, sprintf("  grf quantile_forest (2000 trees): quantiles %.2fs",
                              once(function() predict(gq, big, quantiles = taus, num.threads = threads))))
  }
}
say("\n", paste(lines, collapse = "\n"), "\n")
writeLines(lines, sub("\\.csv$", ".txt", results_csv(out_name)))
