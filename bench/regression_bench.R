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

install_if_missing <- function(pkg, debian = NULL) {
  if (requireNamespace(pkg, quietly = TRUE)) return(TRUE)
  if (!is.null(debian) && nzchar(Sys.which("apt-get"))) system(paste("apt-get install -y -qq", debian), ignore.stdout = TRUE)
  if (!requireNamespace(pkg, quietly = TRUE) && is.null(debian)) {
    try(utils::install.packages(pkg, repos = Sys.getenv("CRAN_MIRROR", "https://cloud.r-project.org"),
                                quiet = TRUE), silent = TRUE)
  }
  requireNamespace(pkg, quietly = TRUE)
}
has_grf <- !a$flag("no-grf") && install_if_missing("grf")
has_svr <- !a$flag("no-svr") && requireNamespace("e1071", quietly = TRUE)
has_modeldata <- install_if_missing("modeldata", debian = "r-cran-modeldata")

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

# RBF SVR (e1071): cost x gamma chosen on a 20% validation split, then refit
svr_fit <- function(x, y) {
  lo <- apply(x, 2, min); rg <- apply(x, 2, max) - lo; rg[rg == 0] <- 1
  sc <- function(z) sweep(sweep(z, 2, lo), 2, rg, "/")
  set.seed(1)
  v <- sample.int(nrow(x), round(0.2 * nrow(x)))
  best <- NULL
  for (cost in c(1, 10, 100)) for (gamma in c(0.1, 1) / ncol(x)) {
    m <- e1071::svm(sc(x[-v, ]), y[-v], type = "eps-regression", cost = cost, gamma = gamma, scale = FALSE)
    e <- sqrt(mean((predict(m, sc(x[v, ])) - y[v])^2))
    if (is.null(best) || e < best$e) best <- list(e = e, cost = cost, gamma = gamma)
  }
  m <- e1071::svm(sc(x), y, type = "eps-regression", cost = best$cost, gamma = best$gamma, scale = FALSE)
  list(predict = function(z) predict(m, sc(z)))
}

models <- list(
  svforest_rsvf = function(x, y) { f <- svforest(x, y, method = "rsvf", seed = 1, num_threads = threads); function(z) predict(f, z, num_threads = threads) },
  svforest_rsvt = function(x, y) { f <- svforest(x, y, method = "rsvt", seed = 1, num_threads = threads); function(z) predict(f, z, num_threads = threads) },
  svforest_tdsvm = function(x, y) { f <- svforest(x, y, method = "tdsvm", seed = 1, num_threads = threads); function(z) predict(f, z, num_threads = threads) },
  ranger_500 = function(x, y) { f <- ranger(x = x, y = y, num.trees = 500, num.threads = threads, seed = 1); function(z) predict(f, z, num.threads = threads)$predictions },
  grf_regression = if (has_grf) function(x, y) { f <- grf::regression_forest(x, y, num.threads = threads, seed = 1); function(z) predict(f, z)$predictions },
  grf_ll_regression = if (has_grf) function(x, y) { f <- grf::ll_regression_forest(x, y, num.threads = threads, seed = 1); function(z) predict(f, z)$predictions },
  linear_model = function(x, y) { f <- stats::lm.fit(cbind(1, x), y); w <- f$coefficients; w[is.na(w)] <- 0; function(z) drop(cbind(1, z) %*% w) },
  rbf_svr = if (has_svr) function(x, y) { f <- svr_fit(x, y); f$predict }
)
models <- Filter(Negate(is.null), models)

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
    rows[[length(rows) + 1]] <- data.frame(dataset = name, model = m, rmse = err, fit_s = fit_time, predict_s = pred_time)
    say(sprintf("%-18s RMSE %9.4f  fit %8.2f s  predict %6.2f s\n", m, err, fit_time, pred_time))
  }
}
out <- do.call(rbind, rows)
out$fit_vs_ranger <- out$fit_s / ave(ifelse(out$model == "ranger_500", out$fit_s, NA), out$dataset,
                                     FUN = function(v) max(v, na.rm = TRUE))
out$rmse_vs_ranger <- out$rmse / ave(ifelse(out$model == "ranger_500", out$rmse, NA), out$dataset,
                                     FUN = function(v) max(v, na.rm = TRUE))
say("\n")
print(out, digits = 4, row.names = FALSE)
utils::write.csv(out, results_csv("regression_bench"), row.names = FALSE)
