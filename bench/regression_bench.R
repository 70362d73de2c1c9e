# Benchmark: every regression preset of svforest against ranger (500 trees),
# grf's regression_forest and ll_regression_forest, a global linear model and
# an RBF SVR (e1071, small grid chosen on a validation split), all in the same
# process: test RMSE, fit and predict time, fit time as a ratio to ranger's.
#
# Usage (from the repository root):
#   Rscript bench/regression_bench.R [data folder] [--only=friedman1,boston] [--threads=2]
#                                    [--large] [--no-svr] [--no-grf]
# Data: mlbench.friedman1/2/3 (2,000 training rows, sd 1 / 125 / 0.1, 10,000
# test rows), BostonHousing (mlbench), concrete (modeldata; Debian
# r-cran-modeldata, installed here when missing), wine quality red and white
# (../shared/data/winequality); a seeded 2/3 : 1/3 split where no test set
# exists. --large adds friedman1 with 100,000 training rows. Peers used only
# here are installed by this script when missing: grf from CRAN (compiles,
# a few minutes; --no-grf skips it), modeldata from Debian.
# Output: a table and bench/results/regression_bench.csv.
source(file.path(local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}), "bench_common.R"))
a <- bench_args()
threads <- as.integer(if (length(a$value("threads"))) a$value("threads") else 2)
suppressPackageStartupMessages({ library(svforest); library(ranger) })

has_grf <- !a$flag("no-grf") && bench_need_cran("grf")
has_svr <- !a$flag("no-svr") && requireNamespace("e1071", quietly = TRUE)
has_modeldata <- bench_need_package("modeldata")

split_rows <- function(n, seed = 1) {
  set.seed(seed)
  test <- sort(sample.int(n, round(n / 3)))
  list(train = setdiff(seq_len(n), test), test = test)
}
numeric_x <- function(df) {
  m <- stats::model.matrix(~ . - 1, df)
  colnames(m) <- make.names(colnames(m), unique = TRUE)
  m
}
friedman <- function(which, n, sd, seed) {
  set.seed(seed)
  d <- switch(which, mlbench::mlbench.friedman1(n, sd), mlbench::mlbench.friedman2(n, sd),
              mlbench::mlbench.friedman3(n, sd))
  x <- d$x
  colnames(x) <- paste0("x", seq_len(ncol(x)))
  list(x = x, y = d$y)
}
datasets <- list(
  friedman1 = function() { tr <- friedman(1, 2000, 1, 1); te <- friedman(1, 10000, 1, 2); list(x = tr$x, y = tr$y, xt = te$x, yt = te$y) },
  friedman2 = function() { tr <- friedman(2, 2000, 125, 1); te <- friedman(2, 10000, 125, 2); list(x = tr$x, y = tr$y, xt = te$x, yt = te$y) },
  friedman3 = function() { tr <- friedman(3, 2000, 0.1, 1); te <- friedman(3, 10000, 0.1, 2); list(x = tr$x, y = tr$y, xt = te$x, yt = te$y) },
  boston = function() {
    d <- mlbench_data("BostonHousing")
    x <- numeric_x(d[, setdiff(names(d), "medv")])
    s <- split_rows(nrow(d))
    list(x = x[s$train, ], y = d$medv[s$train], xt = x[s$test, ], yt = d$medv[s$test])
  },
  concrete = function() {
    if (!has_modeldata) stop("modeldata not available")
    e <- new.env()
    utils::data("concrete", package = "modeldata", envir = e)
    d <- as.data.frame(e$concrete)
    x <- numeric_x(d[, setdiff(names(d), "compressive_strength")])
    s <- split_rows(nrow(d))
    list(x = x[s$train, ], y = d$compressive_strength[s$train], xt = x[s$test, ], yt = d$compressive_strength[s$test])
  },
  wine_red = function() wine("red"),
  wine_white = function() wine("white"),
  friedman1_100k = function() { tr <- friedman(1, 100000, 1, 1); te <- friedman(1, 20000, 1, 2); list(x = tr$x, y = tr$y, xt = te$x, yt = te$y) }
)
wine <- function(colour) {
  d <- utils::read.csv(file.path(a$data_dir, "winequality", sprintf("winequality-%s.csv", colour)), sep = ";")
  x <- as.matrix(d[, setdiff(names(d), "quality")])
  s <- split_rows(nrow(d))
  list(x = x[s$train, ], y = d$quality[s$train], xt = x[s$test, ], yt = d$quality[s$test])
}
chosen <- setdiff(names(datasets), "friedman1_100k")
if (a$flag("large")) chosen <- c(chosen, "friedman1_100k")
if (length(a$only)) chosen <- a$only

# RBF SVR (e1071), tuned as TD-SVM is: predictors min-max scaled on the
# training rows, the outcome standardised (tube epsilon 0.1 on that scale, as
# TD-SVM's leaves), cost x gamma chosen by validation RMSE on a subsample of
# at most `svr_tune_rows` training rows (80% fit, 20% scored), then ONE fit
# on all training rows with the chosen pair. Times: tuning, final fit.
# Above `svr_probe_rows` training rows the chosen pair is first timed on
# svr_probe_rows / 2 and svr_probe_rows random rows; the final fit's time on
# all rows is extrapolated from them (t ~ n^b, b from the two probes). If that
# exceeds --svr-budget minutes (default 25), the final fit uses the largest
# random subset (a multiple of 5,000 rows) whose extrapolated time fits the
# budget, and the table's fit time is tuning + the extrapolated full fit
# (column fit_extrapolated TRUE; the RMSE is the subset fit's).
svr_tune_rows <- 3000
svr_probe_rows <- 20000
svr_budget_s <- 60 * as.numeric(if (length(a$value("svr-budget"))) a$value("svr-budget") else 25)
svr_grid <- expand.grid(cost = 10^(0:2), gamma = c(0.25, 1, 4))  # gamma in units of 1 / p
svr_fit <- function(x, y, cost = NULL, gamma = NULL) {
  lo <- apply(x, 2, min); rg <- apply(x, 2, max) - lo; rg[rg == 0] <- 1
  sc <- function(z) sweep(sweep(z, 2, lo), 2, rg, "/")
  mu <- mean(y); s <- stats::sd(y); if (!is.finite(s) || s == 0) s <- 1
  xs <- sc(x); ys <- (y - mu) / s
  fit_rows <- function(rows) e1071::svm(xs[rows, , drop = FALSE], ys[rows], type = "eps-regression", cost = cost,
                                        gamma = gamma, epsilon = 0.1, scale = FALSE)
  tune_s <- 0
  if (is.null(cost)) {
    tune_s <- system.time({
      set.seed(1)
      sub <- if (nrow(x) > svr_tune_rows) sample.int(nrow(x), svr_tune_rows) else seq_len(nrow(x))
      v <- sub[seq_len(round(0.2 * length(sub)))]
      t <- setdiff(sub, v)
      e <- mapply(function(cost, gamma) {
        m <- e1071::svm(xs[t, , drop = FALSE], ys[t], type = "eps-regression", cost = cost, gamma = gamma / ncol(x),
                        epsilon = 0.1, scale = FALSE)
        sqrt(mean((predict(m, xs[v, , drop = FALSE]) - ys[v])^2))
      }, svr_grid$cost, svr_grid$gamma)
      cost <- svr_grid$cost[which.min(e)]
      gamma <- svr_grid$gamma[which.min(e)] / ncol(x)
    })[["elapsed"]]
  }
  n <- nrow(x)
  rows <- seq_len(n)
  probe <- ""
  full_s <- NA_real_
  if (n > svr_probe_rows) {
    set.seed(2)
    perm <- sample.int(n)
    sizes <- c(svr_probe_rows / 2, svr_probe_rows)
    probes <- list()
    pt <- vapply(sizes, function(k) system.time(probes[[as.character(k)]] <<- fit_rows(perm[seq_len(k)]))[["elapsed"]], 0)
    b <- log(pt[2] / pt[1]) / log(2)
    full_s <- pt[2] * (n / svr_probe_rows)^b
    probe <- sprintf("; probes %s rows: %s s (exponent %.2f), full fit on %d rows extrapolated %.0f s (quadratic: %.0f s)",
                     paste(sizes, collapse = "/"), paste(sprintf("%.1f", pt), collapse = "/"), b, n, full_s,
                     pt[2] * (n / svr_probe_rows)^2)
    say(sprintf("  rbf_svr: cost %g, gamma %.4g (tuning %.1f s)%s\n", cost, gamma, tune_s, probe))
    if (full_s > svr_budget_s) {
      m_rows <- min(n, max(svr_probe_rows, 5000 * floor(svr_probe_rows * (svr_budget_s / pt[2])^(1 / b) / 5000)))
      rows <- sort(perm[seq_len(m_rows)])
      probe <- sprintf("%s > budget %.0f s: final fit on a random %d rows", probe, svr_budget_s, m_rows)
    }
  }
  if (length(rows) == svr_probe_rows) {  # the larger probe is that fit
    m <- probes[[as.character(svr_probe_rows)]]
    final_s <- pt[2]
  } else {
    final_s <- system.time(m <- fit_rows(rows))[["elapsed"]]
  }
  list(predict = function(z) predict(m, sc(z)) * s + mu,
       info = sprintf("tuning %.2f s (%d pairs on %d rows), final fit %.2f s on %d rows: cost %g, gamma %.4g, %d SVs%s",
                      tune_s, nrow(svr_grid), min(nrow(x), svr_tune_rows), final_s, length(rows), cost, gamma,
                      m$tot.nSV, probe),
       final_s = final_s, tune_s = tune_s,
       # the SVR's fit time on all rows: measured, or tuning + extrapolated final fit
       fit_s = if (length(rows) < n) tune_s + full_s else NA_real_)
}
tdsvm_info <- function(f) {
  st <- svforest:::tdsvm_stages(f$tdsvm$curve)
  sprintf("%s; %d leaves; search %d + %d rows, stages: %s", svforest:::tdsvm_choice(f$tdsvm),
          svforest:::tree_n_leaves(f$forest$trees[[1]]), f$tdsvm$n_train, f$tdsvm$n_validation,
          paste(sprintf("sigma %d (%d leaves, %d tried) R2 %.4f", st$sigma, st$leaves, st$tried, st$accuracy),
                collapse = " | "))
}

models <- list(
  svforest_rsvf = function(x, y) { f <- svforest(x, y, method = "rsvf", seed = 1, num_threads = threads); function(z) predict(f, z, num_threads = threads) },
  svforest_rsvt = function(x, y) { f <- svforest(x, y, method = "rsvt", seed = 1, num_threads = threads); function(z) predict(f, z, num_threads = threads) },
  svforest_tdsvm = function(x, y) {
    f <- svforest(x, y, method = "tdsvm", seed = 1, num_threads = threads)
    structure(function(z) predict(f, z, num_threads = threads), info = tdsvm_info(f))
  },
  ranger_500 = function(x, y) { f <- ranger(x = x, y = y, num.trees = 500, num.threads = threads, seed = 1); function(z) predict(f, z, num.threads = threads)$predictions },
  grf_regression = if (has_grf) function(x, y) { f <- grf::regression_forest(x, y, num.threads = threads, seed = 1); function(z) predict(f, z)$predictions },
  grf_ll_regression = if (has_grf) function(x, y) { f <- grf::ll_regression_forest(x, y, num.threads = threads, seed = 1); function(z) predict(f, z)$predictions },
  linear_model = function(x, y) { f <- stats::lm.fit(cbind(1, x), y); w <- f$coefficients; w[is.na(w)] <- 0; function(z) drop(cbind(1, z) %*% w) },
  rbf_svr = if (has_svr) function(x, y) {
    f <- svr_fit(x, y)
    structure(f$predict, info = f$info, final_s = f$final_s, fit_s = f$fit_s)
  }
)
models <- Filter(Negate(is.null), models)
if (length(a$value("models"))) models <- models[intersect(a$value("models"), names(models))]

rows <- list()
for (name in chosen) {
  d <- datasets[[name]]()
  say(sprintf("\n== %s: %d training rows, %d predictors, %d test rows\n", name, nrow(d$x), ncol(d$x), nrow(d$xt)))
  ranger_time <- NA_real_
  for (m in names(models)) {
    if (m == "rbf_svr" && nrow(d$x) > 20000 && !a$flag("large")) next
    fit_time <- system.time(pred <- models[[m]](d$x, d$y))[["elapsed"]]
    pred_time <- system.time(p <- pred(d$xt))[["elapsed"]]
    err <- sqrt(mean((p - d$yt)^2))
    if (m == "ranger_500") ranger_time <- fit_time
    final_s <- if (is.null(attr(pred, "final_s"))) NA_real_ else attr(pred, "final_s")
    # a subset fit standing in for the full one: its extrapolated time
    extrapolated <- !is.null(attr(pred, "fit_s")) && !is.na(attr(pred, "fit_s"))
    if (extrapolated) fit_time <- attr(pred, "fit_s")
    rows[[length(rows) + 1]] <- data.frame(dataset = name, model = m, rmse = err, fit_s = fit_time,
                                           final_fit_s = final_s, fit_extrapolated = extrapolated,
                                           predict_s = pred_time)
    say(sprintf("%-18s RMSE %9.4f  fit %8.2f s  predict %6.2f s\n", m, err, fit_time, pred_time))
    if (!is.null(attr(pred, "info"))) say(sprintf("%-18s   %s\n", "", attr(pred, "info")))
  }
}
out <- do.call(rbind, rows)
ratio_to <- function(col, model) out[[col]] / ave(ifelse(out$model == model, out[[col]], NA), out$dataset,
                                                 FUN = function(v) if (all(is.na(v))) NA else max(v, na.rm = TRUE))
out$fit_vs_ranger <- ratio_to("fit_s", "ranger_500")
out$rmse_vs_ranger <- ratio_to("rmse", "ranger_500")
# against the RBF SVR: RMSE ratio, and how many times faster than the SVR's
# whole fit (tuning + final fit) each model's fit is
out$rmse_vs_svr <- ratio_to("rmse", "rbf_svr")
out$svr_fit_over_fit <- 1 / ratio_to("fit_s", "rbf_svr")
say("\n")
print(out, digits = 4, row.names = FALSE)
utils::write.csv(out, results_csv("regression_bench"), row.names = FALSE)
