# Time-to-event outcomes in the harness: the survival data sets of the
# registry, the peers' fits and predictions, the scores and their summary.
# Sourced by bench/harness.R (after bench_common.R, datasets.R and
# harness_table.R).
#
# The sets are in the registry (bench/datasets.R, survival_registry()).
#
# Scores, on the test rows of each split (one harness row each, `metric`):
# - cindex: Harrell's concordance of the method's risk score
#   (survival::concordance, higher risk = earlier event);
# - ibs: the integrated Brier score with inverse probability of censoring
#   weights (Graf et al. 1999), over the test event times up to their 75th
#   percentile, the censoring distribution the Kaplan-Meier of the test rows;
# - ipa: 1 - ibs / ibs of the training rows' Kaplan-Meier curve (the index of
#   prediction accuracy, Kattan and Gerds 2018).
# Peers: ranger (500 trees, log-rank splits), aorsf (500 trees), grf's
# survival_forest and survival::coxph, each with its own risk score (ranger:
# the sum of the cumulative hazard over its event times; aorsf: its
# mortality; grf: minus the area under the survival curve; coxph: the linear
# predictor). Method "svforest_engine" fits the engine's internal entry
# (survival_engine_fit(), its defaults) on the peers' numeric design
# (missing values filled, factors as indicator columns), for measuring the
# engine apart from svforest()'s design; "svforest_engine:cox" the same with
# the hyperplane from a Newton step of the Cox partial likelihood
# (oblique_fit = "cox") instead of the ridge fit of martingale scores.

# --- scores ---------------------------------------------------------------------

# Survival curves (rows x length(times)) of a step function known at
# `at` (sorted) with values `surv` (rows x length(at)), read at `times`.
step_at <- function(surv, at, times) {
  idx <- findInterval(times, at)
  out <- matrix(1, nrow(surv), length(times))
  has <- idx > 0
  out[, has] <- surv[, idx[has], drop = FALSE]
  out
}

# The evaluation grid of a test set: its event times up to their 75th
# percentile.
survival_grid <- function(time, status) {
  ev <- sort(unique(time[status == 1]))
  ev[ev <= stats::quantile(time[status == 1], 0.75)]
}

# Integrated Brier score (IPCW) of survival curves `surv` (rows x grid) on
# test rows (time, status).
integrated_brier <- function(surv, time, status, grid) {
  cens <- survival::survfit(survival::Surv(time, 1 - status) ~ 1)
  G <- function(t) {
    s <- stats::stepfun(cens$time, c(1, cens$surv))(t)
    pmax(s, 1e-8)
  }
  g_own <- G(time - 1e-10)  # G(T_i-)
  bs <- vapply(seq_along(grid), function(k) {
    t <- grid[k]
    died <- time <= t & status == 1
    alive <- time > t
    mean(ifelse(died, surv[, k]^2 / g_own, 0) + ifelse(alive, (1 - surv[, k])^2 / G(t), 0))
  }, 0)
  if (length(grid) < 2) return(bs[1])
  sum(diff(grid) * (utils::head(bs, -1) + utils::tail(bs, -1)) / 2) / (max(grid) - min(grid))
}

survival_scores <- function(pred, train, test) {
  grid <- survival_grid(test$time, test$status)
  km <- survival::survfit(survival::Surv(time, status) ~ 1, data = train)
  km_curve <- matrix(step_at(matrix(km$surv, 1), km$time, grid), nrow(test), length(grid), byrow = TRUE)
  ibs_km <- integrated_brier(km_curve, test$time, test$status, grid)
  ibs <- integrated_brier(pred$surv(grid), test$time, test$status, grid)
  c(cindex = survival::concordance(survival::Surv(test$time, test$status) ~ pred$risk, reverse = TRUE)$concordance,
    ibs = ibs, ipa = 1 - ibs / ibs_km)
}

# --- the methods --------------------------------------------------------------

# One survival method on one split: the harness's fields plus `scores`.
# `xtr`, `xte`, `xbig`: predictors with missing values filled (impute_like)
# for the peers; svforest gets the data as it is.
# The 10,000-row prediction (survival curves at the test grid) is timed once,
# on the first split (`time_big`; NA elsewhere): a survival forest's curves
# take seconds to minutes, and the splits' times would only repeat it.
run_survival_method <- function(method, s, seed, threads, big, timed, time_big = TRUE) {
  preds <- setdiff(names(s$train), s$outcome)
  imp <- impute_like(s$train[preds], rbind(s$test[preds], big[preds]), preds)
  xtr <- imp$train
  xte <- imp$test[seq_len(nrow(s$test)), , drop = FALSE]
  xbig <- imp$test[-seq_len(nrow(s$test)), , drop = FALSE]
  grid <- survival_grid(s$test$time, s$test$status)
  y <- survival::Surv(s$train$time, s$train$status)
  engine_params <- list(seed = seed)
  if (identical(method, "svforest_engine:cox")) {
    method <- "svforest_engine"
    engine_params$oblique_fit <- "cox"
  }
  fit_predict <- switch(method,
    svforest = list(
      fit = function() svforest::svforest(survival::Surv(time, status) ~ ., data = s$train, seed = seed,
                                          num_threads = threads, verbose = FALSE),
      predict = function(fit, x) {
        list(surv = function(times) predict(fit, x, type = "survival", times = times, num_threads = threads),
             risk = predict(fit, x, type = "risk", num_threads = threads))
      },
      newx = function(which) if (which == "test") s$test else big,
      oob = function(fit) NA_real_),
    # the engine's internal entry on the peers' numeric design (imputed,
    # factors as indicator columns), for measuring the engine alone
    svforest_engine = list(
      fit = function() svforest:::survival_engine_fit(survival_matrix(xtr, xtr), s$train$time, s$train$status,
                                                      params = engine_params, num_threads = threads),
      predict = function(fit, x) {
        # one pass: the CHF on the training event times gives both
        chf <- svforest:::survival_engine_predict(fit, survival_matrix(x, xtr), num_threads = threads)
        list(surv = function(times) step_at(exp(-chf), fit$times, times), risk = rowSums(chf))
      },
      oob = function(fit) fit$oob_concordance),
    ranger = list(
      fit = function() ranger::ranger(x = xtr, y = y, num.trees = 500, seed = seed, num.threads = threads,
                                      verbose = FALSE),
      predict = function(fit, x) {
        p <- stats::predict(fit, x, num.threads = threads, verbose = FALSE)
        list(surv = function(times) step_at(p$survival, p$unique.death.times, times), risk = rowSums(p$chf))
      },
      oob = function(fit) 1 - fit$prediction.error),
    aorsf = list(
      fit = function() aorsf::orsf(cbind(xtr, time = s$train$time, status = s$train$status), time + status ~ .,
                                   n_tree = 500, n_thread = threads, tree_seeds = seed),
      predict = function(fit, x) {
        list(surv = function(times) stats::predict(fit, x, pred_type = "surv", pred_horizon = times, n_thread = threads,
                                                   boundary_checks = FALSE),
             risk = as.numeric(stats::predict(fit, x, pred_type = "mort", n_thread = threads)))
      },
      oob = function(fit) NA_real_),
    grf = list(
      fit = function() grf::survival_forest(survival_matrix(xtr, xtr), s$train$time, s$train$status, seed = seed,
                                            num.threads = threads),
      predict = function(fit, x) {
        p <- stats::predict(fit, survival_matrix(x, xtr), num.threads = threads)
        at <- p$failure.times
        area <- drop(p$predictions %*% diff(c(0, at)))
        list(surv = function(times) step_at(p$predictions, at, times), risk = -area)
      },
      oob = function(fit) NA_real_),
    coxph = list(
      fit = function() survival::coxph(survival::Surv(time, status) ~ ., data = cbind(xtr, time = s$train$time,
                                                                                      status = s$train$status)),
      predict = function(fit, x) {
        sf <- survival::survfit(fit, newdata = x)
        list(surv = function(times) step_at(t(sf$surv), sf$time, times), risk = stats::predict(fit, x, type = "lp"))
      },
      oob = function(fit) NA_real_),
    stop("unknown survival method ", method))
  newx <- if (is.null(fit_predict$newx)) function(which) if (which == "test") xte else xbig else fit_predict$newx
  fit <- timed(fit_predict$fit())
  p <- timed(fit_predict$predict(fit$value, newx("test")))
  p10 <- if (time_big) timed(fit_predict$predict(fit$value, newx("big"))$surv(grid)) else list(seconds = NA_real_)
  list(scores = survival_scores(p$value, s$train, s$test), fit_s = fit$seconds, fit_cpu_s = fit$cpu,
       predict_s = p$seconds, predict10k_s = p10$seconds, model_mb = length(serialize(fit$value, NULL)) / 2^20,
       oob = fit_predict$oob(fit$value))
}

# grf takes a numeric matrix: indicator columns for factors, with the
# training rows' levels.
survival_matrix <- function(x, train) {
  all <- rbind(train, x)
  m <- stats::model.matrix(~ ., data = all)[, -1, drop = FALSE]
  m[-seq_len(nrow(train)), , drop = FALSE]
}

# --- summary ---------------------------------------------------------------------

summarise_survival <- function(res) {
  res <- res[res$task == "survival", , drop = FALSE]
  if (!nrow(res)) return(invisible())
  agg <- stats::aggregate(value ~ dataset + method + metric, data = res, FUN = mean)
  wide <- stats::reshape(agg, idvar = c("dataset", "metric"), timevar = "method", direction = "wide")
  names(wide) <- sub("^value[.]", "", names(wide))
  say("\n== survival: means over splits and seeds ==\n")
  for (metric in c("cindex", "ipa", "ibs")) {
    w <- wide[wide$metric == metric, setdiff(names(wide), "metric"), drop = FALSE]
    say(sprintf("-- %s\n", metric))
    print(w, digits = 4, row.names = FALSE)
    num <- w[, -1, drop = FALSE]
    say(sprintf("   mean: %s\n", paste(sprintf("%s %.4f", names(num), colMeans(num, na.rm = TRUE)), collapse = ", ")))
  }
  times <- stats::aggregate(cbind(fit_s, predict10k_s, model_mb) ~ dataset + method,
                            data = res[res$metric == "cindex", ], FUN = function(v) mean(v, na.rm = TRUE),
                            na.action = stats::na.pass)
  say("-- fit seconds, predict 10k curves seconds (first split), model MB (means)\n")
  print(times[order(times$dataset, times$method), ], digits = 3, row.names = FALSE)
  survival_versus_peers(wide, times)
}

# svforest's default against ranger and aorsf, as issue #40 measures it.
survival_versus_peers <- function(wide, times) {
  col <- function(metric, method) {
    w <- wide[wide$metric == metric, , drop = FALSE]
    if (!method %in% names(w)) return(NULL)
    stats::setNames(w[[method]], w$dataset)
  }
  ours <- col("cindex", "svforest")
  if (is.null(ours) || all(is.na(ours))) return(invisible())
  for (peer in c("ranger", "aorsf")) {
    theirs <- col("cindex", peer)
    if (is.null(theirs)) next
    d <- ours - theirs[names(ours)]
    say(sprintf("C >= %s on %d of %d sets (%.0f%%), worst %+.4f (%s); mean IPA svforest %.4f, %s %.4f\n", peer,
                sum(d >= -1e-12, na.rm = TRUE), sum(!is.na(d)), 100 * mean(d >= -1e-12, na.rm = TRUE),
                min(d, na.rm = TRUE), names(d)[which.min(d)], mean(col("ipa", "svforest"), na.rm = TRUE), peer,
                mean(col("ipa", peer), na.rm = TRUE)))
  }
  by <- function(method, v) {
    t <- times[times$method == method, ]
    stats::setNames(t[[v]], t$dataset)
  }
  if (!"ranger" %in% times$method) return(invisible())
  sets <- intersect(names(by("svforest", "fit_s")), names(by("ranger", "fit_s")))
  ratio <- function(v) by("svforest", v)[sets] / by("ranger", v)[sets]
  say(sprintf("fit time / ranger: median %.2f; predict 10k curves / ranger: max %.2f; model size / ranger: max %.2f (%s)\n",
              stats::median(ratio("fit_s"), na.rm = TRUE), max(ratio("predict10k_s"), na.rm = TRUE),
              max(ratio("model_mb"), na.rm = TRUE), sets[which.max(ratio("model_mb"))]))
}
