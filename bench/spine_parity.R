# Same seed, same forests and predictions before and after a refactor of the
# R side (issue #39, "spine"). Run once per library, then compare:
#   R_LIBS=<library of main>  Rscript bench/spine_parity.R save parity-before.rds
#   R_LIBS=<library of spine> Rscript bench/spine_parity.R save parity-after.rds
#   Rscript bench/spine_parity.R compare parity-before.rds parity-after.rds
# Each case fits on the same rows with the same seed (one thread) and keeps
# every prediction type of its outcome plus the out-of-bag figures; the
# comparison is identical(), value by value. Issue #48 (families) added the
# survival cases and the engine forest itself (`forest`); issue #58 the
# competing-risks cases and a weighted survival case; issue #61 larger
# regression cases (streamed conformal shifts). Event-time fits take
# `ntime = Inf` (every distinct event time, issue #61) where the installed
# build knows `ntime`, so a build with a time grid is compared with one
# without. Extra arguments after the file name (`name=value`, R values) go to
# the default method's cases, e.g. `max_bins=Inf` with a build that has it:
#   Rscript bench/spine_parity.R save parity-inf.rds max_bins=Inf
args <- commandArgs(trailingOnly = TRUE)

# The extra arguments of the default method's cases (see above).
parity_extra <- function() {
  extra <- args[-(1:2)]
  out <- lapply(extra, function(a) eval(parse(text = sub("^[^=]*=", "", a))))
  names(out) <- sub("=.*$", "", extra)
  out
}

# svforest() of a default-method case, with the extra arguments.
hy <- function(...) do.call(svforest::svforest, c(list(...), parity_extra()))

parity_data <- function() {
  set.seed(7)
  n <- 160
  x <- data.frame(a = rnorm(n), b = rnorm(n), c = runif(n),
                  f = factor(sample(c("u", "v", "w", "z"), n, TRUE)))
  x$a[sample(n, 8)] <- NA
  x$f[sample(n, 6)] <- NA
  cls <- factor(ifelse(x$b + (x$f %in% c("u", "v")) + rnorm(n, sd = 0.6) > 0.5, "yes", "no"))
  num <- 2 * x$b + x$c + (x$f %in% "w") + rnorm(n, sd = 0.4)
  list(x = x, cls = cls, num = num, new = x[seq(1, n, by = 4), ])
}

parity_cases <- function(d) {
  cc <- na.omit(data.frame(d$x, y = d$cls))
  iris_x <- iris[, 1:4]
  list(
    hybrid_class = function() hy(d$x, d$cls, seed = 3, num_threads = 1),
    hybrid_regr = function() hy(d$x, d$num, seed = 3, num_threads = 1),
    weighted_case = function() hy(d$x, d$cls, seed = 4, num_threads = 1, ntree = 20,
                                                   case_weights = rep(c(0, 1, 2, 1), length.out = nrow(d$x))),
    weighted_class = function() hy(d$x, d$cls, seed = 4, num_threads = 1, ntree = 20,
                                                    class_weights = c(no = 1, yes = 3)),
    regr_weighted = function() hy(d$x, d$num, seed = 4, num_threads = 1, ntree = 20,
                                                   case_weights = rep(c(1, 2), length.out = nrow(d$x))),
    cal_platt = function() hy(d$x, d$cls, seed = 5, num_threads = 1, ntree = 20, calibrate = "platt"),
    cal_temperature = function() hy(d$x, d$cls, seed = 5, num_threads = 1, ntree = 20,
                                                     calibrate = "temperature"),
    cal_isotonic = function() hy(d$x, d$cls, seed = 5, num_threads = 1, ntree = 20,
                                                  calibrate = "isotonic"),
    cal_none_regr = function() hy(d$x, d$num, seed = 5, num_threads = 1, ntree = 20, calibrate = "none"),
    cal_conformal = function() hy(d$x, d$num, seed = 5, num_threads = 1, ntree = 20,
                                                   calibrate = "conformal"),
    cal_cv = function() hy(d$x, d$num, seed = 5, num_threads = 1, ntree = 10, calibrate = "cv"),
    # issue #61: streamed conformal shifts on more rows than the engine's
    # sample of 16,384 (out-of-bag; held-out rows of the fit and of
    # svforest_calibrate()), and a count outcome (tied scores)
    regr_large = function() hy(parity_large(40000)$x, parity_large(40000)$y, seed = 11,
                                                num_threads = 1, ntree = 8),
    regr_count = function() hy(parity_large(3000, count = TRUE)$x, parity_large(3000, count = TRUE)$y,
                                                seed = 12, num_threads = 1, ntree = 30),
    cal_conformal_large = function() hy(parity_large(80000)$x, parity_large(80000)$y, seed = 13,
                                                         num_threads = 1, ntree = 4, calibrate = "conformal"),
    calibrate_held = function() {
      fit <- hy(d$x, d$num, seed = 14, num_threads = 1, ntree = 20)
      held <- parity_large(20000)
      held_x <- data.frame(a = held$x[, 1], b = held$x[, 2], c = held$x[, 3], f = factor(rep(c("u", "w"), 10000)))
      svforest::svforest_calibrate(fit, held_x, 2 * held_x$b + held_x$c + (held_x$f %in% "w") + held$x[, 4], num_threads = 1)
    },
    formula_factor = function() hy(y ~ ., data = cc, seed = 6, num_threads = 1, ntree = 20),
    rsvt = function() svforest::svforest(iris_x, iris$Species, method = "rsvt", seed = 8, num_threads = 1, ntree = 10),
    rsvf = function() svforest::svforest(iris_x, iris$Species, method = "rsvf", seed = 8, num_threads = 1, ntree = 10),
    psvm = function() svforest::svforest(iris_x, iris$Species, method = "psvm", seed = 8, num_threads = 1, ntree = 10),
    transform = function() svforest::svforest(iris_x, iris$Species, method = "transform", seed = 8, num_threads = 1,
                                              ntree = 10),
    tdsvm = function() svforest::svforest(iris_x, iris$Species, method = "tdsvm", seed = 8, num_threads = 1, ntree = 10),
    survival = function() event_fit(survival::Surv(time, status) ~ ., data = parity_survival_data(),
                                             seed = 9, num_threads = 1, ntree = 20),
    survival_knobs = function() event_fit(survival::Surv(time, status) ~ ., data = parity_survival_data(),
                                                   seed = 9, num_threads = 1, ntree = 10, min_node_size = 10,
                                                   sampler = "bootstrap"),
    survival_weighted = function() event_fit(survival::Surv(time, status) ~ ., data = parity_survival_data(),
                                             seed = 10, num_threads = 1, ntree = 20,
                                             case_weights = rep(c(1, 2, 0.5), length.out = nrow(parity_survival_data()))),
    competing = function() event_fit(survival::Surv(time, event) ~ ., data = parity_competing_data(),
                                              seed = 10, num_threads = 1, ntree = 20),
    competing_knobs = function() event_fit(survival::Surv(time, event) ~ ., data = parity_competing_data(),
                                                    seed = 10, num_threads = 1, ntree = 10, min_node_size = 10,
                                                    sampler = "bootstrap", oblique_stop = 2)
  )
}

# svforest() of an event-time outcome, with every event time.
event_fit <- function(...) do.call(svforest::svforest, c(list(...), event_time_grid(), parity_extra()))

# `ntime = Inf` where the installed build knows it (NULL: nothing).
event_time_grid <- function() {
  if ("ntime" %in% names(svforest:::svf_parameters)) list(ntime = Inf) else list()
}

# A competing-risks outcome: survival::pbc, status a factor whose first
# level is censoring (transplant, death), the rows without missing values.
parity_competing_data <- function() {
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "protime", "edema", "sex")])
  data.frame(time = pbc$time, event = factor(pbc$status, 0:2, c("censored", "transplant", "death")),
             pbc[, c("age", "bili", "albumin", "protime", "edema", "sex")])
}

# Rows for the larger regression cases: 5 uniform predictors and a
# Friedman-like outcome (or a count).
parity_large <- function(n, count = FALSE) {
  set.seed(n)
  x <- matrix(stats::runif(n * 5), n)
  y <- if (count) 1 + stats::rpois(n, exp(0.5 + 2 * x[, 1] * x[, 2]))
       else 10 * sin(pi * x[, 1] * x[, 2]) + 20 * (x[, 3] - 0.5)^2 + 10 * x[, 4] + 5 * x[, 5] + stats::rnorm(n)
  list(x = x, y = y)
}

# A right-censored outcome on the lung rows without missing values.
parity_survival_data <- function() {
  lung <- stats::na.omit(survival::lung)
  data.frame(time = lung$time, status = lung$status - 1L, lung[, c("age", "sex", "ph.ecog", "ph.karno", "wt.loss")])
}

parity_predictions <- function(fit, new) {
  p <- function(...) suppressWarnings(stats::predict(fit, new, num_threads = 1, ...))
  out <- list(oob_error = fit$oob_error, oob_predictions = fit$oob_predictions, ntree = fit$ntree,
              forest = unclass(fit$forest))
  if (identical(fit$type, "competing")) {
    times <- c(500, 1500, 3000)
    return(c(out, list(cif = p(type = "cif", times = times), chf = p(type = "chf", times = times),
                       survival = p(type = "survival", times = times), risk = p(type = "risk"),
                       cif_default = p(type = "cif"), leaf = p(type = "leaf"),
                       oob_concordance = fit$oob_concordance, oob_ibs = fit$oob_ibs,
                       oob = stats::predict(fit, type = "risk"),
                       oob_cif = stats::predict(fit, type = "cif", times = times))))
  }
  if (identical(fit$type, "survival")) {
    times <- c(100, 300, 600)
    return(c(out, list(survival = p(type = "survival", times = times), chf = p(type = "chf", times = times),
                       risk = p(type = "risk"), time = p(type = "time"), oob_ibs = fit$oob_ibs,
                       oob = p_oob(fit))))
  }
  out <- c(out, list(leaf = p(type = "leaf"), trees = p(type = "trees")))
  if (identical(fit$type, "regression")) {
    c(out, list(response = p(type = "response"), quantiles = p(type = "quantiles"),
                interval = p(type = "interval"), oob_rsquared = fit$oob_rsquared,
                quantiles_tails = p(type = "quantiles", quantiles = c(0.001, 0.01, 0.05, 0.3, 0.5, 0.77, 0.95, 0.999)),
                interval_80 = p(type = "interval", level = 0.8), calibration = fit$conformal$calibration,
                quantile_forest = fit$conformal$quantile_forest))
  } else {
    c(out, list(class = p(type = "class"), prob = p(type = "prob"), votes = p(type = "votes"),
                oob_prob = fit$oob_prob))
  }
}

# predict(fit) without newdata: the out-of-bag risk of the training rows.
p_oob <- function(fit) stats::predict(fit, type = "risk")

if (identical(args[1], "save")) {
  d <- parity_data()
  iris_new <- iris[seq(1, 150, by = 5), 1:4]
  cases <- parity_cases(d)
  res <- lapply(names(cases), function(name) {
    fit <- cases[[name]]()
    parity_predictions(fit, if (name %in% c("rsvt", "rsvf", "psvm", "transform", "tdsvm")) iris_new
                            else if (name == "formula_factor") na.omit(data.frame(d$x, y = d$cls))[1:40, ]
                            else if (startsWith(name, "survival")) parity_survival_data()[1:30, ]
                            else if (startsWith(name, "competing")) parity_competing_data()[1:30, ]
                            else if (name %in% c("regr_large", "regr_count", "cal_conformal_large"))
                              parity_large(2000, count = name == "regr_count")$x
                            else d$new)
  })
  names(res) <- names(cases)
  saveRDS(res, args[2])
  cat(sprintf("saved %d cases with svforest %s\n", length(res), utils::packageVersion("svforest")))
} else if (identical(args[1], "compare")) {
  # Compact trees of layout 2 (model format 5) store a value every leaf
  # shares once and may pack split kinds in 2 bits a node; written back in
  # layout 1 (a value per leaf, varint kinds) they compare with older builds'
  # trees, so what is compared is the tree, not its packing.
  as_layout1 <- function(t) {
    for (el in c("leaf_kind", "leaf_int_length", "leaf_real_length"))
      if (length(t[[el]]) < t$n_leaves) t[[el]] <- rep(t[[el]], t$n_leaves)  # (one byte: values below 64)
    if (length(t$split_kind) < t$n_nodes) {
      bits <- as.integer(rawToBits(t$split_kind))
      k <- bits[seq(1, 2 * t$n_nodes, 2)] + 2L * bits[seq(2, 2 * t$n_nodes, 2)] - 1L
      t$split_kind <- as.raw(ifelse(k < 0, 2L * abs(k) - 1L, 2L * k))  # zigzag varints of -1..2
    }
    t$layout <- 1L
    t
  }
  unpack <- function(x) {
    if (is.list(x) && identical(x$layout, 2L) && !is.null(x$n_leaves)) return(as_layout1(x))
    if (!is.list(x)) return(x)
    at <- attributes(x)
    x <- lapply(x, unpack)
    attributes(x) <- at
    x
  }
  before <- unpack(readRDS(args[2]))
  after <- unpack(readRDS(args[3]))
  same <- 0
  for (case in names(before)) for (what in names(before[[case]])) {
    ok <- identical(before[[case]][[what]], after[[case]][[what]])
    same <- same + ok
    if (!ok) cat(sprintf("DIFFERENT: %s %s\n", case, what))
  }
  total <- sum(lengths(before))
  cat(sprintf("%d cases, %d of %d values identical\n", length(before), same, total))
  if (same < total) quit(status = 1)
} else {
  stop("usage: spine_parity.R save FILE | compare BEFORE AFTER")
}
