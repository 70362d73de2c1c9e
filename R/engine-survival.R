# The engine's survival forests, reached from R (not exported): the thin entry
# that the survival outcome family (R/family-*.R) wires into svforest() and
# predict(). A fit grows the default method's trees on (time, status):
# log-rank axis cuts competing with a ridge hyperplane fitted to the node's
# martingale scores (kept where it also separates the node's choosing
# out-of-bag rows better), Nelson-Aalen leaves, and per tree the best on
# the choosing rows (Harrell's C) of that structure, an axis-only one and a
# fully oblique one (every hyperplane that wins in-bag kept), all grown on
# the tree's sample (`tree_rival = "axis"` or `"oblique"`: one rival).
# `oblique_fit = "cox"` takes the hyperplane from one Newton step of the Cox
# partial likelihood instead (aorsf's); the harness keeps the ridge fit
# (bench/results/survival_hyperplanes.txt).

# The engine's survival leaf kind, named as the engine names it (the
# outcome family chooses it; no other outcome can).
register_part("leaf", "nelson_aalen", outcomes = "survival", family_only = TRUE,
              parameters = c("min_leaf_size", "min_node_events", "tree_rival", "oblique_fit", "ntime"))

# The engine parameters of a survival fit and their defaults for the internal
# entry survival_engine_fit(): the parameters svforest() resolves for a
# survival outcome of `n` rows (the parameter table's survival defaults,
# R/parameters.R: the one place they are written), plus the forest's `ntree`
# and this entry's own `seed`. No list of names is written here: a parameter
# added to the table reaches this entry as it reaches svforest().
survival_engine_defaults <- function(n = 100L) {
  c(list(ntree = family_parameter_defaults("survival")$ntree, seed = 1),
    resolve_parameters(survival_methods[1], list(), n, "survival"))
}

# The events a node needs to split when the fit gives no `min_node_events`:
# the square root of the training events E (a log-rank statistic on a handful
# of events is noise; with rare events, nodes of many rows hold few); above
# `knee` events (a survival forest's 1,024) sqrt(knee) (E / knee)^(1/8):
# with many events the square root's nodes are too coarse (simulated sets
# of 20,000 rows, bench/results/survival_variants_large.txt: the (1/8)th
# power beat the square root and then the (1/4)th), while the registry's
# sets (at most about 1,100 events) chose the square root.
survival_min_node_events <- function(status, weights = NULL, knee = Inf) {
  # status 0 censored, else the event's cause (competing risks: any cause counts)
  events <- if (is.null(weights)) sum(status != 0L) else sum(weights[status != 0L])
  if (events > knee) return(as.integer(ceiling(sqrt(knee) * (events / knee)^0.125)))
  as.integer(ceiling(sqrt(events)))
}
survival_events_knee <- 1024

# The predictors a node draws when the fit gives no `mtry`: NA (the engine's
# floor(sqrt(p))) up to `knee` events, ceiling(sqrt(p)) above.
survival_mtry <- function(status, p, knee = Inf) {
  if (sum(status != 0L) > knee) as.integer(ceiling(sqrt(p))) else NA_integer_
}

# `params` over the defaults for `n` rows and `p` predictors, each checked
# (a typo must not pass silently). This internal entry takes the engine's
# own range (e.g. `split_ridge = 0`, `min_node_events = 0`, `"none"` for
# the out-of-bag choices): a value the parameter table's check refuses is
# checked by the type of its default: whole numbers >= 0 (or NA where the default is NA), finite
# numbers >= 0, single strings; then the choices the engine reads.
survival_engine_params <- function(params, n = 100L, p = 1L) {
  out <- survival_engine_defaults(n)
  out <- finish_parameters(out, p)
  if (!is.list(params)) stop("'params' must be a list", call. = FALSE)
  unknown <- setdiff(names(params), names(out))
  if (length(params) && (is.null(names(params)) || length(unknown)))
    stop("unknown survival engine parameter(s): ", paste(unknown, collapse = ", "), call. = FALSE)
  for (name in setdiff(names(params), "seed")) {
    v <- params[[name]]
    default <- out[[name]]
    # (the grid size has no wider engine range: its check is final)
    table <- if (is.null(svf_parameters[[name]])) NULL
             else if (name == "ntime") svf_parameters[[name]]$check(v)
             else tryCatch(svf_parameters[[name]]$check(v), error = function(e) NULL)
    if (!is.null(table)) {
      v <- table  # a value svforest() takes (e.g. `ntime = Inf`)
    } else if (is.integer(default)) {
      if (is.na(default) && length(v) == 1L && (is.logical(v) || is.numeric(v)) && is.na(v) && !is.nan(v)) {
        v <- NA_integer_
      } else if (!is.numeric(v) || length(v) != 1L || is.na(v) || v < 0 || v != round(v)) {
        stop("'", name, "' must be a whole number >= 0", call. = FALSE)
      }
      v <- as.integer(v)
    } else if (is.double(default)) {
      if (!is.numeric(v) || length(v) != 1L || !is.finite(v) || v < 0)
        stop("'", name, "' must be a finite number >= 0", call. = FALSE)
      v <- as.double(v)
    } else if (is.character(default)) {
      if (!is.character(v) || length(v) != 1L || is.na(v)) stop("'", name, "' must be a string", call. = FALSE)
    } else if (is.logical(default)) {
      if (!is.logical(v) || length(v) != 1L || is.na(v)) stop("'", name, "' must be TRUE or FALSE", call. = FALSE)
    }
    out[[name]] <- v
  }
  if (!is.null(params$seed)) {
    if (!is.numeric(params$seed) || length(params$seed) != 1L || !is.finite(params$seed) || params$seed < 0)
      stop("'seed' must be a finite number >= 0", call. = FALSE)
    out$seed <- as.double(params$seed)
  }
  if (out$ntree < 1L) stop("'ntree' must be at least 1", call. = FALSE)
  if (!(out$sample_fraction > 0 && out$sample_fraction <= 1)) stop("'sample_fraction' must be in (0, 1]", call. = FALSE)
  for (name in c("oblique_choice", "tree_choice"))
    if (!out[[name]] %in% c("oob", "none")) stop("'", name, "' must be \"oob\" or \"none\"", call. = FALSE)
  if (!out$tree_rival %in% c("both", "axis", "oblique"))
    stop("'tree_rival' must be \"both\", \"axis\" or \"oblique\"", call. = FALSE)
  if (!identical(out$oblique_fit, "ridge") && !identical(out$oblique_fit, "cox"))
    stop("'oblique_fit' must be \"ridge\" or \"cox\"", call. = FALSE)
  if (!out$sampler %in% c("bootstrap", "subsample"))
    stop("'sampler' must be \"bootstrap\" or \"subsample\" (out-of-bag rows are needed)", call. = FALSE)
  if (!identical(out$splitter, "hybrid") || !identical(out$leaf, "nelson_aalen"))
    stop("'splitter' and 'leaf' are the survival forest's own", call. = FALSE)
  out
}

# The predictors as a finite numeric matrix of `n` rows (NULL: any).
survival_engine_x <- function(x, n = NULL, p = NULL) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.matrix(x) || !is.numeric(x)) stop("'x' must be a numeric matrix", call. = FALSE)
  if (!all(is.finite(x))) stop("'x' must not hold missing or infinite values", call. = FALSE)
  if (!is.null(n) && nrow(x) != n) stop("'x' must have one row per time", call. = FALSE)
  if (!is.null(p) && ncol(x) != p) stop("'x' must have ", p, " columns, as in the fit", call. = FALSE)
  storage.mode(x) <- "double"
  x
}

# Checks of the outcome: times positive and finite, status 0/1 or logical,
# at least one event; weights NULL or positive and finite.
survival_engine_outcome <- function(time, status, weights) {
  if (!is.numeric(time) || !length(time) || !all(is.finite(time)) || any(time <= 0))
    stop("'time' must hold positive finite numbers", call. = FALSE)
  if (is.logical(status)) status <- as.integer(status)
  if (!is.numeric(status) || length(status) != length(time) || anyNA(status) || !all(status %in% c(0, 1)))
    stop("'status' must be 0/1 or logical, one per time, without missing values", call. = FALSE)
  if (!any(status == 1)) stop("the outcome must hold at least one event", call. = FALSE)
  if (!is.null(weights) && (!is.numeric(weights) || length(weights) != length(time) ||
                            !all(is.finite(weights)) || any(weights <= 0)))
    stop("'weights' must be positive finite numbers, one per row", call. = FALSE)
  list(time = as.double(time), status = as.integer(status),
       weights = if (is.null(weights)) NULL else as.double(weights))
}

# Fits a survival forest. Returns the trees, the time grid (the distinct
# training event times), and out of bag: each row's CHF on the grid (NA for
# rows no tree left out), its risk and the forest's Harrell's C.
survival_engine_fit <- function(x, time, status, weights = NULL, params = list(), num_threads = 1L) {
  y <- survival_engine_outcome(time, status, weights)
  x <- survival_engine_x(x, length(y$time))
  params <- survival_engine_params(params, length(y$time), ncol(x))
  if (is.na(params$min_node_events))
    params$min_node_events <- survival_min_node_events(y$status, y$weights, survival_events_knee)
  engine <- engine_parameters(params[setdiff(names(params), c("ntree", "seed"))], NULL, params$ntree, params$seed,
                              0L, 2)
  res <- event_forest_fit(engine_data(x), list(time = y$time, status = y$status), y$weights, engine,
                          as.integer(num_threads), FALSE, "nelson_aalen")
  oob_chf <- res$oob$chf_sum / res$oob$count
  oob_chf[res$oob$count == 0L, ] <- NA_real_
  oob_risk <- rowSums(oob_chf)
  structure(list(trees = res$forest$trees, times = res$forest$times, num_features = res$forest$num_features,
                 params = params, oob_chf = oob_chf, oob_risk = oob_risk,
                 oob_concordance = harrell_concordance(y$time, y$status, oob_risk)),
            class = "svf_survival_engine")
}

# Harrell's C of `risk` (higher: earlier event): among pairs whose earlier
# time is an event, the share the risk orders so (ties count 1/2); rows with
# NA risk are left out. The engine's count (outcome/SurvivalTable.h).
harrell_concordance <- function(time, status, risk) {
  keep <- !is.na(risk)
  .svf_harrell_c(as.double(time[keep]), as.integer(status[keep]), as.double(risk[keep]))
}

# The forest's CHF of engine data `data` on its event times (n x times).
survival_engine_chf <- function(forest, data, num_threads) {
  .svf_predict(forest, data, as.integer(num_threads), list())$chf
}

# The forest's cumulative hazard ("chf") or survival (exp(-CHF)) of the rows
# of `x` at `times` (a matrix, one column per time; default: the training
# event times), or their risk (the sum of the CHF over the training event
# times; higher: earlier event).
survival_engine_predict <- function(fit, x, times = NULL, type = c("chf", "survival", "risk"), num_threads = 1L) {
  if (!inherits(fit, "svf_survival_engine")) stop("'fit' must come from survival_engine_fit()", call. = FALSE)
  type <- match.arg(type)
  x <- survival_engine_x(x, p = fit$num_features)
  if (is.null(times)) times <- fit$times
  if (!is.numeric(times) || !length(times) || !all(is.finite(times)) || any(times < 0))
    stop("'times' must hold finite numbers >= 0", call. = FALSE)
  forest <- list(trees = fit$trees, times = fit$times, num_features = fit$num_features, num_classes = 0L,
                 scale_center = double(fit$num_features), scale_factor = rep(1, fit$num_features))
  grid <- survival_engine_chf(forest, engine_data(x), num_threads)
  if (type == "risk") return(rowSums(grid))
  # the step function: the CHF at the last grid time at or before each time
  chf <- cbind(0, grid)[, findInterval(times, fit$times) + 1L, drop = FALSE]
  colnames(chf) <- format(times)
  if (identical(type, "chf")) chf else exp(-chf)
}

# The survival family's engine call (engine_fit()'s role for a Surv outcome,
# R/family-survival.R): `data` the engine's view of the design (level-coded
# factors enter as their codes, ordered by level), `y` the checked Surv
# outcome, `weights` NULL or the rows' sampling weights, `params` the fit's
# engine parameters (engine_parameters()), `verbose` as for svforest().
# Returns what engine_fit() does: the forest (trees, event-time grid,
# predictor count) and the out-of-bag tally (each row's CHF summed over its
# scoring trees, and their number).
survival_forest_fit <- function(data, y, weights, params, num_threads, verbose) {
  outcome <- list(time = as.double(survival_time(y)), status = as.integer(survival_status(y)))
  # delayed entry (Surv(entry, exit, event)) and `id`'s subjects (R/step-subjects.R), when given
  if (survival_counting(y)) outcome$entry <- survival_entry(y)
  if (!is.null(attr(y, "subjects"))) outcome$subject <- attr(y, "subjects")
  event_forest_fit(data, outcome, weights, params, num_threads, verbose, "nelson_aalen")
}

# The engine fit of an outcome of event times (`outcome`: list(time,
# status) as .svf_fit reads it; a competing-risks outcome adds `causes`,
# status then each row's cause) with leaves `leaf`, through engine_fit()
# as every outcome: `params` are the fit's resolved engine parameters
# (engine_parameters()), passed on whole; an event-time fit adds only its
# own: the leaf, the default splitter, unscaled predictors and the node
# events when none are given. The tally's `chf_sum` is on the forest's
# curve grid (`times`, at most `ntime` event times; the tally carries them).
# A competing-risks forest holds its `num_causes` and its tally's `chf_sum`
# each cause's CIF sums (n x times x causes, flattened).
event_forest_fit <- function(data, outcome, weights, params, num_threads, verbose, leaf) {
  # weights reweight the draw (Sampler.h), a node's events are rows: counted unweighted;
  # competing risks keep the square root at any size (not searched at many events)
  if (is.na(params$min_node_events))
    params$min_node_events <- survival_min_node_events(outcome$status,
                                                       knee = if (leaf == "nelson_aalen") survival_events_knee else Inf)
  # and above the knee a survival forest draws ceiling(sqrt(p)) predictors, not floor (aorsf's; chosen
  # with the node rule on the same simulated sets)
  if (is.na(params$mtry)) params$mtry <- survival_mtry(outcome$status, if (is.null(data$ncol)) ncol(data$x) else data$ncol,
                                                       if (leaf == "nelson_aalen") survival_events_knee else Inf)
  # the default method's splitter, whose criteria read the outcome through
  # its unit, on unscaled predictors (log-rank cuts and hyperplanes on the
  # martingale scores do not need scaling)
  params$splitter <- "hybrid"
  params$leaf <- leaf
  params$scale <- FALSE
  res <- engine_fit(data, outcome, weights, 0L, params, list(data = NULL, y = NULL), as.integer(num_threads),
                    verbose)
  # the engine fits unscaled predictors; 1 / each column's range as the
  # forest's scale factor lets coefficient importance weigh hyperplane
  # weights per range of the predictor, as for the other forests
  spread <- survival_column_spread(data)
  forest <- list(trees = res$forest$trees, times = res$forest$times, num_features = res$forest$num_features,
                 num_classes = 0L, scale_center = double(length(spread)), scale_factor = ifelse(spread > 0, 1 / spread, 0))
  if (!is.null(res$forest$num_causes)) forest$num_causes <- res$forest$num_causes
  list(forest = forest,
       oob = list(chf_sum = res$oob$chf_sum, risk_sum = res$oob$risk_sum, count = res$oob$count,
                  error_curve = res$oob$error_curve, times = forest$times),
       oob_rows = NULL, selection = NULL, sigma = NULL, splitter_uses_oob = FALSE,
       oob_choosing_share = res$oob_choosing_share)
}

# Each column's range (max - min) of the engine data.
survival_column_spread <- function(data) {
  x <- if (identical(data$type, "sparse")) {
    Matrix::sparseMatrix(i = data$i + 1L, p = data$p, x = data$x, dims = c(data$nrow, data$ncol))
  } else {
    data$x
  }
  if (!nrow(x)) return(double(ncol(x)))
  as.double(apply(x, 2, function(col) diff(range(col))))
}
