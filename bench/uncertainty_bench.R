# Benchmark: prediction intervals and quantiles of svforest's default
# regression forest against ranger `quantreg = TRUE` (500 trees) and grf
# `quantile_forest` (2000 trees), in the same run on the same splits, on the
# regression sets of the harness registry (bench/datasets.R, 16 sets).
#
# Usage (from the repository root):
#   Rscript bench/uncertainty_bench.R [data folder] [--only=friedman1,boston] [--threads=2]
#                                     [--seeds=1,2,3] [--splits=auto|N] [--no-grf] [--method=rsvf] [--calibrate=default,cv]
#                                     [--args=name:value,...] [--no-timing] [--out=uncertainty_bench]
# svforest: svforest(y ~ ., train, seed = seed) with the default method and
# each `--calibrate` value (default: default,cv): quantiles of the forest's
# leaf-weighted training outcomes, each level shifted by a conformal shift
# (see ?predict.svforest): `default` passes no `calibrate` (the shift from
# out-of-bag rows), `cv` the cross-conformal shift from five fold forests,
# `conformal` the split version (a quarter of the rows held out), `none` the
# uncalibrated quantile forest. One value names the model "svforest",
# several "svforest_<value>"; with both default and cv the summary gives the
# default's width relative to cv's.
# Splits: seed 1 is the registry's own split (the harness's); seed s > 1
# pools the registry's training and test rows and draws a new split of the
# same sizes with set.seed(s) (Friedman sets: the registry's rows, pooled
# likewise). A set with few test rows cannot tell 90% coverage from 93% on
# one split (one row of airquality's 39 is 2.6 points), so with
# --splits=auto (the default, as in the harness) each seed scores
# min(10, ceiling(1000 / test rows)) splits: the seed's split above, then
# re-splits of the pooled rows of the same sizes drawn with
# set.seed(1000 * seed + r), r = 2, 3, ... Every model gets the same rows
# per split, and the seed as its own seed. Figures per seed are means over
# its splits; per set, means over seeds. svforest takes the data frames as they are (factors, missing
# values); ranger and grf get the training medians and most frequent levels
# in place of missing values and indicator columns (model.matrix) for
# factors, as in the harness. Test rows with a factor level unseen in
# training get NA in that column (then imputed for the peers).
# Reports per set and model (means over seeds): coverage of the nominal 90%
# interval (quantiles 0.05 and 0.95), its mean width, the mean pinball loss
# over the quantiles 0.05, 0.5 and 0.95, fit time; then the time of quantile
# and point predictions for 100,000 rows (Friedman 1).
# Peers used only here are installed by the script when missing (grf from
# CRAN; --no-grf skips it; modeldata from Debian).
# Output: bench/results/<out>.txt and .csv.
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
}, envir = globalenv())
a <- bench_args()
threads <- as.integer(if (length(a$value("threads"))) a$value("threads") else 2)
seeds <- if (length(a$value("seeds"))) as.integer(a$value("seeds")) else 1:3
n_seeds <- length(seeds)
method <- if (length(a$value("method"))) a$value("method") else NULL  # NULL: svforest's default
calibrate <- if (length(a$value("calibrate"))) a$value("calibrate") else c("default", "cv")
if (!all(calibrate %in% c("default", "oob", "cv", "conformal", "none"))) stop("--calibrate: default, oob, cv, conformal or none")
out_name <- if (length(a$value("out"))) a$value("out") else "uncertainty_bench"
splits_arg <- if (length(a$value("splits"))) a$value("splits") else "auto"
extra <- list()
for (kv in a$value("args")) {  # --args=name:value,... extra svforest arguments (numbers or text)
  parts <- strsplit(kv, ":", fixed = TRUE)[[1]]
  v <- suppressWarnings(as.numeric(parts[2]))
  extra[[parts[1]]] <- if (is.na(v)) parts[2] else v
}
suppressPackageStartupMessages({ library(svforest); library(ranger) })
options(width = 200)

has_grf <- !a$flag("no-grf") && bench_need_cran("grf")
bench_need_package("modeldata")
registry <- benchmark_registry(a$data_dir)
regression_sets <- names(registry)[vapply(registry, function(r) r$task == "regression", TRUE)]
chosen <- if (length(a$only)) intersect(a$only, regression_sets) else regression_sets
taus <- c(0.05, 0.5, 0.95)

# Split r of `seed`: the registry's for seed 1 and r = 1, else the pooled
# rows split anew with the same training size.
seed_split <- function(s, seed, r = 1L) {
  if (seed != 1 || r != 1) {
    all <- rbind(s$train, s$test)
    set.seed(if (r == 1) seed else 1000L * seed + r)
    tr <- sort(sample.int(nrow(all), nrow(s$train)))
    s$train <- all[tr, , drop = FALSE]
    s$test <- all[-tr, , drop = FALSE]
  }
  for (j in names(s$train)) if (is.factor(s$train[[j]])) {  # unseen test levels become NA
    s$train[[j]] <- droplevels(s$train[[j]])
    v <- as.character(s$test[[j]])
    v[!v %in% levels(s$train[[j]])] <- NA
    s$test[[j]] <- factor(v, levels = levels(s$train[[j]]))
  }
  s
}
# Numeric matrices for the peers: training medians / most frequent levels
# for missing values, indicator columns for factors.
peer_matrices <- function(s) {
  preds <- setdiff(names(s$train), s$outcome)
  tr <- s$train[preds]
  te <- s$test[preds]
  for (j in preds) {
    if (is.logical(tr[[j]])) { tr[[j]] <- as.numeric(tr[[j]]); te[[j]] <- as.numeric(te[[j]]) }
    fill <- if (is.factor(tr[[j]])) names(which.max(table(tr[[j]]))) else stats::median(tr[[j]], na.rm = TRUE)
    if (length(fill) == 0 || is.na(fill)) fill <- if (is.factor(tr[[j]])) levels(tr[[j]])[1] else 0
    tr[[j]][is.na(tr[[j]])] <- fill
    te[[j]][is.na(te[[j]])] <- fill
  }
  keep <- vapply(tr, function(v) !is.factor(v) || nlevels(v) > 1, TRUE)  # a constant factor has no contrasts
  m <- stats::model.matrix(~ ., rbind(tr[keep], te[keep]))[, -1, drop = FALSE]
  colnames(m) <- make.names(colnames(m), unique = TRUE)
  list(x = m[seq_len(nrow(tr)), , drop = FALSE], xt = m[-seq_len(nrow(tr)), , drop = FALSE])
}

pinball <- function(q, y) {
  mean(vapply(seq_along(taus), function(j) {
    u <- y - q[, j]
    mean(pmax(taus[j] * u, (taus[j] - 1) * u))
  }, 0))
}
sv_fit <- function(s, seed, cal = calibrate[1]) {
  f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
  do.call(svforest, c(list(f, data = s$train, method = method, calibrate = if (cal != "default") cal,
                           seed = seed, num_threads = threads, verbose = FALSE), extra))
}
sv_names <- if (length(calibrate) == 1) "svforest" else paste0("svforest_", calibrate)
models <- stats::setNames(lapply(calibrate, function(cal) list(
  fit = function(s, seed) sv_fit(s, seed, cal),
  quantiles = function(m, s) predict(m, s$test, type = "quantiles", quantiles = taus, num_threads = threads))), sv_names)
models <- c(models, list(
  ranger_quantreg = list(
    fit = function(s, seed) ranger::ranger(x = s$x, y = s$y, num.trees = 500, quantreg = TRUE, seed = seed,
                                           num.threads = threads),
    quantiles = function(m, s) predict(m, s$xt, type = "quantiles", quantiles = taus, num.threads = threads)$predictions)
))
if (has_grf) {
  models$grf_quantile <- list(
    fit = function(s, seed) grf::quantile_forest(s$x, s$y, quantiles = taus, seed = seed, num.threads = threads),
    quantiles = function(m, s) {
      q <- predict(m, s$xt, quantiles = taus, num.threads = threads)
      if (is.list(q)) q$predictions else q
    })
}

say(sprintf("svforest %s, method %s, %d threads, %d seeds; %s\n", utils::packageVersion("svforest"),
            if (is.null(method)) sprintf("default (%s)", svforest:::default_method("regression")) else method,
            threads, n_seeds, format(Sys.time(), tz = "UTC", usetz = TRUE)))
rows <- list()
merge_files <- a$value("merge")
if (length(merge_files)) {
  merged <- do.call(rbind, lapply(merge_files, utils::read.csv))
  if (is.null(merged$split)) merged$split <- 1L
  merged <- merged[!duplicated(merged[c("dataset", "seed", "split", "model")], fromLast = TRUE), ]
  merged <- merged[order(match(merged$dataset, regression_sets), merged$seed, merged$split, merged$model), ]
  chosen <- intersect(regression_sets, merged$dataset)
  seeds <- sort(unique(merged$seed))
  n_seeds <- length(seeds)
  rows <- split(merged, seq_len(nrow(merged)))
}
for (name in if (length(merge_files)) character() else chosen) {
  base <- tryCatch(registry[[name]]$load(), error = function(e) { say(name, ": skipped (", conditionMessage(e), ")\n"); NULL })
  if (is.null(base)) next
  for (seed in seeds) for (split in seq_len(bench_n_splits(nrow(base$test), splits_arg))) {
    d <- seed_split(base, seed, split)
    d$y <- d$train[[d$outcome]]
    d$yt <- d$test[[d$outcome]]
    d[c("x", "xt")] <- peer_matrices(d)
    for (mname in names(models)) {
      m <- models[[mname]]
      fit_s <- system.time(model <- m$fit(d, seed))[["elapsed"]]
      pred_s <- system.time(q <- m$quantiles(model, d))[["elapsed"]]
      q <- as.matrix(q)
      rows[[length(rows) + 1]] <- data.frame(
        dataset = name, seed = seed, split = split, model = mname, n_train = nrow(d$train), n_test = nrow(d$test),
        coverage90 = mean(d$yt >= q[, 1] & d$yt <= q[, 3]), width90 = mean(q[, 3] - q[, 1]),
        pinball = pinball(q, d$yt), below05 = mean(d$yt < q[, 1]), above95 = mean(d$yt > q[, 3]),
        fit_s = fit_s, quantile_s = pred_s)
      r <- rows[[length(rows)]]
      say(sprintf("%-18s seed %d split %2d %-16s coverage %.3f width %10.4g pinball %10.4g fit %6.1fs%s\n", name, seed, split, mname,
                  r$coverage90, r$width90, r$pinball, fit_s, bench_loadavg()))
    }
    utils::write.csv(do.call(rbind, rows), results_csv(out_name), row.names = FALSE)
  }
}
out <- do.call(rbind, rows)
utils::write.csv(out, results_csv(out_name), row.names = FALSE)

# per seed the mean over its splits, then the mean over seeds
per_seed <- aggregate(cbind(coverage90, width90, pinball, below05, above95, fit_s) ~ dataset + model + seed, out, mean)
agg <- aggregate(cbind(coverage90, width90, pinball, below05, above95, fit_s) ~ dataset + model, per_seed, mean)
n_split <- aggregate(split ~ dataset, out, max)
agg <- agg[order(match(agg$dataset, chosen), agg$model), ]
lines <- c(sprintf("svforest %s, method %s, calibrate %s, %d threads, seeds %s, %s", utils::packageVersion("svforest"),
                   if (is.null(method)) sprintf("default (%s)", svforest:::default_method("regression")) else method,
                   paste(calibrate, collapse = ", "), threads, paste(seeds, collapse = ","), format(Sys.time(), tz = "UTC", usetz = TRUE)),
           if (length(extra)) paste("svforest arguments:", paste(names(extra), unlist(extra), sep = " = ", collapse = ", ")),
           sprintf("Splits per seed (--splits=%s): %s", splits_arg, paste(n_split$dataset, n_split$split, collapse = ", ")),
           "Means over seeds (each the mean over its splits). coverage90: share of test rows inside [q0.05, q0.95]; pinball: mean over 0.05, 0.5, 0.95.",
           "", utils::capture.output(print(format(agg, digits = 4), row.names = FALSE)))

# coverage of every model per set, side by side
cov_wide <- stats::reshape(agg[c("dataset", "model", "coverage90")], idvar = "dataset", timevar = "model", direction = "wide")
names(cov_wide) <- sub("^coverage90\\.", "", names(cov_wide))
lines <- c(lines, "", "Coverage of the nominal 90% interval (mean over seeds):",
           utils::capture.output(print(format(cov_wide, digits = 3), row.names = FALSE)))

# targets per svforest model: coverage in [0.88, 0.93] on every set; pinball
# <= ranger's on >= 80% of sets; the default's width relative to cv's
rg <- agg[agg$model == "ranger_quantreg", ]
lines <- c(lines, "")
for (sv_name in intersect(sv_names, agg$model)) {
  sv <- agg[agg$model == sv_name, ]
  rgs <- rg[match(sv$dataset, rg$dataset), ]
  ok_cov <- sv$coverage90 >= 0.88 & sv$coverage90 <= 0.93
  ok_pin <- sv$pinball <= rgs$pinball
  lines <- c(lines,
             sprintf("%s coverage in [0.88, 0.93]: %d of %d sets (range %.3f to %.3f)", sv_name, sum(ok_cov), length(ok_cov),
                     min(sv$coverage90), max(sv$coverage90)),
             sprintf("%s pinball <= ranger quantreg: %d of %d sets (%.0f%%; ratios %s)", sv_name, sum(ok_pin), length(ok_pin),
                     100 * mean(ok_pin), paste0(sv$dataset, " ", sprintf("%.2f", sv$pinball / rgs$pinball), collapse = ", ")))
}
if (all(c("svforest_default", "svforest_cv") %in% agg$model)) {
  de <- agg[agg$model == "svforest_default", ]
  cv <- agg[agg$model == "svforest_cv", ]
  ratio <- de$width90 / cv$width90[match(de$dataset, cv$dataset)]
  lines <- c(lines, sprintf("svforest_default width / svforest_cv width: mean %.3f (range %.3f to %.3f; %s)", mean(ratio),
                            min(ratio), max(ratio), paste0(de$dataset, " ", sprintf("%.2f", ratio), collapse = ", ")))
}

# time for 100,000 rows: quantiles against point predictions (svforest: median of 3)
if (!a$flag("no-timing")) {
  set.seed(1)
  tr <- mlbench::mlbench.friedman1(2000, 1)
  big <- mlbench::mlbench.friedman1(100000, 1)$x
  colnames(big) <- colnames(tr$x) <- paste0("x", 1:10)
  big <- as.data.frame(big)
  fit <- sv_fit(list(train = data.frame(y = tr$y, tr$x), outcome = "y"), 1)
  med3 <- function(f) stats::median(vapply(1:3, function(i) system.time(f())[["elapsed"]], 0))
  point_s <- med3(function() predict(fit, big, num_threads = threads))
  quant_s <- med3(function() predict(fit, big, type = "quantiles", quantiles = taus, num_threads = threads))
  interval_s <- med3(function() predict(fit, big, type = "interval", level = 0.9, num_threads = threads))
  lines <- c(lines, "", sprintf("100,000 rows (Friedman 1, %d trees): point %.2fs, quantiles %.2fs (%.0f%% of point), interval %.2fs (%.0f%%)",
                                fit$ntree, point_s, quant_s, 100 * quant_s / point_s, interval_s, 100 * interval_s / point_s))
  # the peers once each (their quantiles take minutes)
  once <- function(f) system.time(f())[["elapsed"]]
  big <- as.matrix(big)
  rf <- ranger::ranger(x = tr$x, y = tr$y, num.trees = 500, quantreg = TRUE, seed = 1, num.threads = threads)
  lines <- c(lines, sprintf("  ranger quantreg (500 trees): point %.2fs, quantiles %.2fs",
                            once(function() predict(rf, big, num.threads = threads)),
                            once(function() predict(rf, big, type = "quantiles", quantiles = taus, num.threads = threads))))
  # (grf's quantile_forest took 148 s for these rows with 2000 trees in an earlier run; not timed here)
}
say("\n", paste(lines, collapse = "\n"), "\n")
writeLines(lines, sub("\\.csv$", ".txt", results_csv(out_name)))
