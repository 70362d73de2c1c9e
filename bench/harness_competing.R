# Competing risks in the harness (issue 49): five data sets with two causes,
# svforest against the cause-specific Cox model, Fine-Gray regression and
# randomForestSRC on the same random halves, one results table.
#
#   Rscript bench/harness_competing.R [--only=mgus2_cr,...] [--methods=svforest,csc,fgr,rfsrc]
#       [--splits=10] [--method_splits=rfsrc:3,fgr:5] [--seeds=1] [--threads=1] [--out=name] [--list]
#   (more methods, timed only: svforest_surv and ranger_surv, single-event
#   survival forests on the same rows with any cause as the event)
#
# Sets (cause 1 first, then cause 2; 0 is censoring):
# - mgus2_cr: survival::mgus2, plasma-cell malignancy (progression) vs death
#   before it; time to the first of them;
# - pbc_cr: survival::pbc, transplant vs death (all 418 rows);
# - melanoma_cr: riskRegression::Melanoma, melanoma death vs other death;
# - sim_cr_linear: 1,000 rows, 10 predictors; each cause's hazard is
#   Weibull with a log hazard linear in three predictors (one shared);
# - sim_cr_wide: the same with 200 predictors of which 5 matter.
# Each set: 10 random halves (--splits), stratified by event (seed = split).
#
# Methods: "svforest" (svforest() with its defaults on the data as it is;
# skipped with a message until svforest() accepts a competing-risks
# outcome, found by a tiny fit), "csc" (riskRegression::CSC, a Cox model per
# cause; risks in the exponential form, product.limit = FALSE), "fgr"
# (riskRegression::FGR, Fine-Gray, one fit per cause: its fit time is the
# sum), "rfsrc" (randomForestSRC::rfsrc with its defaults, installed from
# CRAN when missing). --method_splits=rfsrc:3 runs a method on the first
# splits only (a slow peer; its defaults stay). The peers get missing values
# filled with the training medians and most frequent levels (impute_like()).
#
# Scores per cause k (metric names end in _c<k>), on the test rows, with the
# horizons h25, h50, h75 the 25/50/75% quantiles of the test event times (any
# cause):
# - cindex: Wolbers' concordance (a pair is comparable when the first row
#   has event k and the second outlives it or had the other cause first;
#   no censoring weights), the risk the CIF of cause k at h75;
# - auc25/auc50/auc75 and auc (their mean): time-dependent AUC (IPCW,
#   riskRegression::Score(), Kaplan-Meier censoring model);
# - brier25/brier50/brier75: the IPCW Brier score of the CIF of cause k;
# - ibs: the integrated Brier score (trapezoid over up to 30 test event
#   times up to h75, divided by their range).
# Each row also holds the fit and test prediction times, and the model size.
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
  source(file.path(here, "datasets.R"))
  source(file.path(here, "harness_table.R"))
}, envir = globalenv())

# --- data sets -------------------------------------------------------------------

# A data frame of predictors plus time and event (0 censored, 1, 2).
competing_frame <- function(d, time, event, drop = character()) {
  d <- as.data.frame(d)
  out <- d[, setdiff(names(d), c(time, event, drop)), drop = FALSE]
  for (j in names(out)) if (is.character(out[[j]])) out[[j]] <- factor(out[[j]])
  out$time <- as.numeric(d[[time]])
  out$event <- as.integer(d[[event]])
  out[is.finite(out$time) & out$time > 0 & !is.na(out$event), , drop = FALSE]
}

# Two Weibull cause-specific hazards, each log-linear in its own predictors.
competing_simulated <- function(p, beta1, beta2, n, seed) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  x <- matrix(stats::rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  lp <- function(beta) drop(x %*% c(beta, rep(0, p - length(beta))))
  t1 <- (-log(stats::runif(n)) / exp(lp(beta1)))^(1 / 1.5) * 10
  t2 <- (-log(stats::runif(n)) / exp(lp(beta2)))^(1 / 1.2) * 14
  first <- pmin(t1, t2)
  censor <- stats::runif(n, 0, stats::quantile(first, 0.9) * 1.6)
  d <- as.data.frame(x)
  d$time <- pmax(pmin(first, censor), 1e-3)
  d$event <- ifelse(first > censor, 0L, ifelse(t1 <= t2, 1L, 2L))
  d
}

competing_sets <- function() {
  list(
    mgus2_cr = function() {
      d <- survival::mgus2
      d$etime <- ifelse(d$pstat == 1, d$ptime, d$futime)
      d$ev <- ifelse(d$pstat == 1, 1L, 2L * d$death)
      competing_frame(d, "etime", "ev", drop = c("id", "ptime", "pstat", "futime", "death"))
    },
    pbc_cr = function() {
      d <- survival::pbc
      d$ev <- c(0L, 1L, 2L)[d$status + 1L]  # status: 0 censored, 1 transplant, 2 death
      competing_frame(d, "time", "ev", drop = c("id", "status"))
    },
    melanoma_cr = function() {
      env <- new.env()
      utils::data("Melanoma", package = "riskRegression", envir = env)
      competing_frame(env$Melanoma, "time", "status", drop = "event")  # status: 1 melanoma, 2 other death
    },
    sim_cr_linear = function() competing_simulated(10, c(1, -0.7, 0.5), c(0.6, 0, 0, 0.8), 1000L, 21L),
    sim_cr_wide = function() competing_simulated(200, c(0.8, -0.8, 0.6), c(0, 0, 0.6, -0.6, 0.5), 1000L, 22L)
  )
}

# Random halves stratified by event, seed = split.
competing_split <- function(d, split) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(2024L + split)
  test <- unlist(lapply(split(seq_len(nrow(d)), d$event), function(i) i[sample.int(length(i), floor(length(i) / 2))]),
                 use.names = FALSE)
  train <- d[-test, , drop = FALSE]
  list(train = train, test = align_levels(train, d[test, , drop = FALSE]))
}

# --- scores -------------------------------------------------------------------

# Wolbers' concordance of risk scores for cause k (ties in risk count 1/2).
wolbers_cindex <- function(risk, time, event, k) {
  num <- den <- 0
  for (i in which(event == k)) {
    j <- time > time[i] | (time <= time[i] & event != k & event != 0 & seq_along(time) != i)
    den <- den + sum(j)
    num <- num + sum(risk[i] > risk[j]) + 0.5 * sum(risk[i] == risk[j])
  }
  num / den
}

# The scores of one cause: `cif(times)` gives the CIF of cause k (test rows
# x times).
competing_scores <- function(cif, test, k) {
  ev <- test$time[test$event != 0]
  h <- unname(stats::quantile(ev, c(0.25, 0.5, 0.75), type = 1))
  grid <- sort(unique(ev[ev <= h[3]]))
  if (length(grid) > 30) grid <- unique(stats::quantile(grid, seq(0, 1, length.out = 30), type = 1))
  all_times <- sort(unique(c(h, grid)))
  risk <- cif(all_times)
  # a fresh frame: Score() turns its data into a data.table in place, which
  # breaks later users of the test rows (FGR's predictions)
  outcome <- data.frame(time = test$time, event = test$event)
  score <- function(times, metrics) {
    riskRegression::Score(list(m = risk[, match(times, all_times), drop = FALSE]),
                          formula = Hist(time, event) ~ 1, data = outcome, times = times, cause = k,
                          metrics = metrics, null.model = FALSE, se.fit = FALSE, cens.model = "km")
  }
  s3 <- score(h, c("auc", "brier"))
  auc <- s3$AUC$score$AUC
  brier <- s3$Brier$score$Brier
  bg <- score(grid, "brier")$Brier$score$Brier
  ibs <- if (length(grid) < 2) bg[1]
         else sum(diff(grid) * (utils::head(bg, -1) + utils::tail(bg, -1)) / 2) / (max(grid) - min(grid))
  out <- c(cindex = wolbers_cindex(risk[, match(h[3], all_times)], test$time, test$event, k),
           auc25 = auc[1], auc50 = auc[2], auc75 = auc[3], auc = mean(auc),
           brier25 = brier[1], brier50 = brier[2], brier75 = brier[3], ibs = ibs)
  stats::setNames(out, paste0(names(out), "_c", k))
}

# --- the methods -----------------------------------------------------------------

# Whether svforest() fits a competing-risks outcome (a tiny fit).
svforest_competing_ready <- function() {
  tiny <- data.frame(x = seq_len(40) / 40, time = rep(1:20, 2),
                     event = factor(rep(c("censored", "a", "b", "a"), 10), levels = c("censored", "a", "b")))
  ok <- tryCatch({
    fit <- svforest::svforest(survival::Surv(time, event) ~ x, data = tiny, ntree = 2, seed = 1, num_threads = 1,
                              verbose = FALSE)
    p <- predict(fit, tiny, type = "cif", cause = "a", times = c(2, 5))
    is.matrix(p) && all(dim(p) == c(40, 2))
  }, error = function(e) conditionMessage(e))
  ok
}

# One method on one split: list(cif = function(times, k), fit_s, fit_cpu_s,
# predict_s, model_mb).
run_competing_method <- function(method, s, seed, threads, timed) {
  preds <- setdiff(names(s$train), c("time", "event"))
  imp <- impute_like(s$train[preds], s$test[preds], preds)
  tr <- cbind(imp$train, time = s$train$time, event = s$train$event)
  te <- imp$test
  fit_predict <- switch(method,
    svforest = list(
      fit = function() {
        d <- s$train
        d$event <- factor(d$event, levels = 0:2, labels = c("censored", "cause1", "cause2"))
        svforest::svforest(survival::Surv(time, event) ~ ., data = d, seed = seed, num_threads = threads,
                           verbose = FALSE)
      },
      predict = function(fit) {
        function(times, k) predict(fit, s$test, type = "cif", cause = paste0("cause", k), times = times,
                                   num_threads = threads)
      }),
    csc = list(
      fit = function() riskRegression::CSC(Hist(time, event) ~ ., data = tr),
      predict = function(fit) {
        # product.limit = FALSE (the exponential form): riskRegression's own advice
        # when a cause's Cox fit diverges (pbc's few transplants) and the
        # product-limit risks leave [0, 1]
        function(times, k) riskRegression::predictRisk(fit, newdata = te, times = times, cause = k,
                                                       product.limit = FALSE)
      }),
    fgr = list(
      fit = function() {
        # FGR reads no "~ ."
        f <- stats::reformulate(paste0("`", preds, "`"), response = quote(Hist(time, event)))
        lapply(1:2, function(k) riskRegression::FGR(f, data = tr, cause = k))
      },
      predict = function(fit) {
        function(times, k) riskRegression::predictRisk(fit[[k]], newdata = te, times = times, cause = k)
      }),
    rfsrc = list(
      fit = function() {
        options(rf.cores = threads, mc.cores = threads)
        randomForestSRC::rfsrc(survival::Surv(time, event) ~ ., data = tr, seed = -seed)
      },
      predict = function(fit) {
        p <- stats::predict(fit, te)
        function(times, k) {
          idx <- findInterval(times, p$time.interest)
          out <- matrix(0, nrow(te), length(times))
          out[, idx > 0] <- p$cif[, idx[idx > 0], k]
          out
        }
      }),
    # timing only (no scores): single-event survival forests on the same rows,
    # any cause an event, for the fit-time bars of issue 49
    svforest_surv = list(
      fit = function() {
        d <- s$train
        d$status <- as.integer(d$event != 0L)
        d$event <- NULL
        svforest::svforest(survival::Surv(time, status) ~ ., data = d, seed = seed, num_threads = threads,
                           verbose = FALSE)
      },
      predict = function(fit) NULL),
    ranger_surv = list(
      fit = function() {
        d <- tr
        d$status <- as.integer(d$event != 0L)
        d$event <- NULL
        ranger::ranger(survival::Surv(time, status) ~ ., data = d, num.trees = 500, seed = seed,
                       num.threads = threads)
      },
      predict = function(fit) NULL),
    stop("unknown competing-risks method ", method))
  fit <- timed(fit_predict$fit())
  # the predictions of both causes at the scores' times are the timed part
  model_mb <- length(serialize(fit$value, NULL)) / 2^20
  if (is.null(fit_predict$predict(fit$value))) {
    return(list(cif = NULL, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = NA_real_, model_mb = model_mb))
  }
  p <- timed({
    pr <- fit_predict$predict(fit$value)
    h <- stats::quantile(s$test$time[s$test$event != 0], c(0.25, 0.5, 0.75), type = 1)
    invisible(lapply(1:2, function(k) pr(h, k)))
    pr
  })
  list(cif = p$value, fit_s = fit$seconds, fit_cpu_s = fit$cpu, predict_s = p$seconds, model_mb = model_mb)
}

# --- summary ---------------------------------------------------------------------

summarise_competing <- function(res) {
  agg <- stats::aggregate(value ~ dataset + method + metric, data = res, FUN = mean)
  wide <- stats::reshape(agg, idvar = c("dataset", "metric"), timevar = "method", direction = "wide")
  names(wide) <- sub("^value[.]", "", names(wide))
  say("\n== competing risks: means over splits ==\n")
  for (metric in c("cindex_c1", "auc_c1", "ibs_c1", "cindex_c2", "auc_c2", "ibs_c2")) {
    w <- wide[wide$metric == metric, setdiff(names(wide), "metric"), drop = FALSE]
    say(sprintf("-- %s\n", metric))
    print(w, digits = 4, row.names = FALSE)
  }
  one <- res[res$metric == "cindex_c1", ]
  times <- stats::aggregate(cbind(split, fit_s, fit_cpu_s, predict_s, model_mb) ~ dataset + method, data = one,
                            FUN = function(v) mean(v, na.rm = TRUE), na.action = stats::na.pass)
  times$split <- stats::aggregate(split ~ dataset + method, data = one, FUN = length)$split
  names(times)[names(times) == "split"] <- "splits"
  say("-- splits run; fit seconds (elapsed, CPU), prediction seconds, model MB (means)\n")
  print(times[order(times$dataset, times$method), ], digits = 3, row.names = FALSE)
  fit_ratios(times)
}

# svforest's fit time against the single-event survival forests on the same
# rows (svforest's and ranger-500's) and the competing-risks peers: per set,
# and the median over sets of the per-set mean fit times.
fit_ratios <- function(times) {
  fit <- stats::xtabs(fit_s ~ dataset + method, data = times)
  if (!"svforest" %in% colnames(fit)) return(invisible())
  say("-- fit time of svforest (competing risks) / each method's, per set\n")
  others <- setdiff(colnames(fit), "svforest")
  ratio <- fit[, "svforest"] / fit[, others, drop = FALSE]
  print(round(unclass(ratio), 2))
  say("median over sets of the per-set ratios: ",
      paste(sprintf("%s %.2f", others, apply(ratio, 2, stats::median)), collapse = ", "), "\n")
  say("median fit seconds over sets: ",
      paste(sprintf("%s %.3f", colnames(fit), apply(fit, 2, stats::median)), collapse = ", "), "\n")
}

# --- the run ---------------------------------------------------------------------

args <- bench_args()
sets <- competing_sets()
if (args$flag("list")) {
  for (nm in names(sets)) say(nm, "\n")
  quit(save = "no")
}
if (length(args$only)) sets <- sets[intersect(args$only, names(sets))]
seeds <- if (length(args$value("seeds"))) as.integer(args$value("seeds")) else 1L
threads <- if (length(args$value("threads"))) as.integer(args$value("threads")) else 1L
splits <- if (length(args$value("splits"))) as.integer(args$value("splits")) else 10L
method_splits <- local({
  v <- strsplit(args$value("method_splits"), ":", fixed = TRUE)
  stats::setNames(as.integer(vapply(v, `[`, "", 2L)), vapply(v, `[`, "", 1L))
})
methods <- if (length(args$value("methods"))) args$value("methods") else
  c("svforest", "csc", "fgr", "rfsrc", "svforest_surv", "ranger_surv")
# the rows of a timing-only method: its scores are NA
timing_only_scores <- c(cindex_c1 = NA_real_, auc_c1 = NA_real_, ibs_c1 = NA_real_)
out_name <- args$value("out")
side_csv <- if (length(out_name)) results_csv(out_name[1]) else NULL

for (pkg in c("riskRegression", "cmprsk", "prodlim")) {
  if (!bench_need_package(pkg)) stop("the competing-risks harness needs ", pkg, call. = FALSE)
}
# riskRegression reads Hist() in formulas by name
suppressPackageStartupMessages({
  library(survival)
  library(prodlim)
  library(riskRegression)
})
if ("rfsrc" %in% methods && !bench_need_cran("randomForestSRC")) {
  say("rfsrc skipped: randomForestSRC does not install here\n")
  methods <- setdiff(methods, "rfsrc")
}
if ("svforest" %in% methods) {
  ready <- svforest_competing_ready()
  if (!isTRUE(ready)) {
    say("svforest skipped: svforest() does not fit a competing-risks outcome yet (tiny fit: ",
        if (is.character(ready)) ready else "no CIF matrix from predict(type = \"cif\")", ")\n")
    methods <- setdiff(methods, "svforest")
  }
}
commit <- tryCatch(suppressWarnings(system2("git", c("-C", dirname(bench_dir), "rev-parse", "--short", "HEAD"),
                                            stdout = TRUE, stderr = FALSE)),
                   error = function(e) character())
commit <- if (length(commit) == 1L && grepl("^[0-9a-f]+$", commit)) commit else "unknown"

# a global `split` would mask base::split inside riskRegression's data.table code
results <- list()
for (nm in names(sets)) {
  d <- sets[[nm]]()
  for (split_no in seq_len(splits)) {
    s <- competing_split(d, split_no)
    for (seed in seeds) for (method in methods) {
      if (method %in% names(method_splits) && split_no > method_splits[[method]]) next
      r <- tryCatch({
        r <- run_competing_method(method, s, seed, threads, timed)
        r$scores <- if (is.null(r$cif)) timing_only_scores else
          unlist(lapply(1:2, function(k) competing_scores(function(times) r$cif(times, k), s$test, k)))
        r
      }, error = function(e) {
        say(sprintf("%-14s %-9s split %2d failed: %s\n", nm, method, split_no, conditionMessage(e)))
        NULL
      })
      if (is.null(r)) next
      row <- data.frame(commit = commit, dataset = nm, task = "competing", n_train = nrow(s$train),
                        n_test = nrow(s$test), p = ncol(s$train) - 2L, method = method, seed = seed, split = split_no,
                        metric = names(r$scores), value = unname(r$scores), fit_s = r$fit_s, fit_cpu_s = r$fit_cpu_s,
                        predict_s = r$predict_s, predict10k_s = NA_real_, model_mb = r$model_mb, oob = NA_real_,
                        stringsAsFactors = FALSE)
      results[[length(results) + 1L]] <- row
      harness_table_add(row)
      say(sprintf("%-14s %-9s seed %d split %2d  C1 %.4f  AUC1 %.4f  IBS1 %.4f  fit %6.2fs%s\n", nm, method, seed,
                  split_no, r$scores[["cindex_c1"]], r$scores[["auc_c1"]], r$scores[["ibs_c1"]], r$fit_s,
                  bench_loadavg()))
      if (length(side_csv)) utils::write.csv(do.call(rbind, results), side_csv, row.names = FALSE)
    }
  }
}
if (!length(results)) quit(save = "no")
summarise_competing(do.call(rbind, results))
say("\nresults: ", bench_relpath(harness_table_path()), " (task competing, commit ", commit, ")",
    if (length(side_csv)) paste0(" and ", bench_relpath(side_csv)), "\n")
