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
              parameters = c("min_leaf_size", "min_node_events", "tree_rival", "oblique_fit"))

# The engine parameters of a survival fit and their defaults, read from the
# parameter table (its survival defaults, R/parameters.R: the one place
# they are written; the reasons for each are there). `mtry` and
# `oblique_mtry` 0 are the engine's "automatic" (svforest()'s NA); `seed`
# is this internal entry's own.
survival_engine_defaults <- function() {
  own <- family_parameter_defaults("survival")
  preset <- apply_family_defaults(svf_method(survival_methods[1]), "survival")
  value <- function(name) parameter_default(name, preset, 0L, own)
  list(ntree = own$ntree, seed = 1, mtry = 0L, oblique_mtry = 0L, min_node_size = value("min_node_size"),
       min_leaf_size = value("min_leaf_size"), n_oblique = value("n_oblique"), split_ridge = value("split_ridge"),
       oblique_rows = value("oblique_rows"), oblique_choice = value("oblique_choice"),
       tree_choice = value("tree_choice"), sampler = value("sampler"), sample_fraction = value("sample_fraction"),
       max_depth = value("max_depth"), oblique_fit = value("oblique_fit"), min_node_events = value("min_node_events"),
       tree_rival = value("tree_rival"), oblique_stop = value("oblique_stop"), max_bins = value("max_bins"))
}

# The events a node needs to split when the fit gives no `min_node_events`:
# the square root of the training events (a log-rank statistic on a handful
# of events is noise; with rare events, nodes of many rows hold few).
survival_min_node_events <- function(status, weights = NULL) {
  # status 0 censored, else the event's cause (competing risks: any cause counts)
  events <- if (is.null(weights)) sum(status != 0L) else sum(weights[status != 0L])
  as.integer(ceiling(sqrt(events)))
}

# `params` over the defaults, each checked (a typo must not pass silently).
survival_engine_params <- function(params) {
  out <- survival_engine_defaults()
  if (!is.list(params)) stop("'params' must be a list", call. = FALSE)
  unknown <- setdiff(names(params), names(out))
  if (length(params) && (is.null(names(params)) || length(unknown)))
    stop("unknown survival engine parameter(s): ", paste(unknown, collapse = ", "), call. = FALSE)
  out[names(params)] <- params
  for (name in c("ntree", "mtry", "oblique_mtry", "min_node_size", "min_leaf_size", "n_oblique", "max_depth",
                 "min_node_events", "oblique_stop")) {
    v <- out[[name]]
    if (name %in% c("min_node_events", "oblique_stop") && identical(v, NA_integer_)) next
    if (!is.numeric(v) || length(v) != 1L || is.na(v) || v < 0 || v != round(v))
      stop("'", name, "' must be a whole number >= 0", call. = FALSE)
    out[[name]] <- as.integer(v)
  }
  if (out$ntree < 1L) stop("'ntree' must be at least 1", call. = FALSE)
  for (name in c("seed", "split_ridge", "oblique_rows", "sample_fraction")) {
    v <- out[[name]]
    if (!is.numeric(v) || length(v) != 1L || !is.finite(v) || v < 0)
      stop("'", name, "' must be a finite number >= 0", call. = FALSE)
    out[[name]] <- as.double(v)
  }
  if (!(out$sample_fraction > 0 && out$sample_fraction <= 1)) stop("'sample_fraction' must be in (0, 1]", call. = FALSE)
  for (name in c("oblique_choice", "tree_choice"))
    if (!out[[name]] %in% c("oob", "none")) stop("'", name, "' must be \"oob\" or \"none\"", call. = FALSE)
  if (!is.character(out$tree_rival) || length(out$tree_rival) != 1L || !out$tree_rival %in% c("both", "axis", "oblique"))
    stop("'tree_rival' must be \"both\", \"axis\" or \"oblique\"", call. = FALSE)
  if (!identical(out$oblique_fit, "ridge") && !identical(out$oblique_fit, "cox"))
    stop("'oblique_fit' must be \"ridge\" or \"cox\"", call. = FALSE)
  if (!out$sampler %in% c("bootstrap", "subsample"))
    stop("'sampler' must be \"bootstrap\" or \"subsample\" (out-of-bag rows are needed)", call. = FALSE)
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

# The engine parameters of a survival fit as the one fit entry (.svf_fit)
# reads them: the default method's splitter, whose criteria read the
# outcome through its unit, and Nelson-Aalen leaves (or a competing-risks
# forest's Aalen-Johansen leaves) on unscaled predictors.
survival_engine_call <- function(engine, leaf = "nelson_aalen") {
  c(engine, list(splitter = "hybrid", leaf = leaf, scale = FALSE))
}

# Fits a survival forest. Returns the trees, the time grid (the distinct
# training event times), and out of bag: each row's CHF on the grid (NA for
# rows no tree left out), its risk and the forest's Harrell's C.
survival_engine_fit <- function(x, time, status, weights = NULL, params = list(), num_threads = 1L) {
  y <- survival_engine_outcome(time, status, weights)
  x <- survival_engine_x(x, length(y$time))
  params <- survival_engine_params(params)
  if (is.na(params$min_node_events)) params$min_node_events <- survival_min_node_events(y$status, y$weights)
  res <- .svf_fit(engine_data(x), list(time = y$time, status = y$status), y$weights, 0L,
                  survival_engine_call(c(params, first_tree = 0)), NULL, NULL, as.integer(num_threads), FALSE)
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
# engine parameters (engine_parameters(): the default's regression
# parameters plus ntree, seed, first_tree). Returns what engine_fit() does:
# the forest (trees, event-time grid, predictor count) and the out-of-bag
# tally (each row's CHF summed over its scoring trees, and their number).
survival_forest_fit <- function(data, y, weights, params, num_threads) {
  event_forest_fit(data, list(time = as.double(survival_time(y)), status = as.integer(survival_status(y))), weights,
                   params, num_threads, "nelson_aalen")
}

# The engine fit of an outcome of event times (`outcome`: list(time,
# status) as .svf_fit reads it; a competing-risks outcome adds `causes`,
# status then each row's cause) with leaves `leaf`: survival's parameters,
# its node events and growth rule. A competing-risks forest holds its
# `num_causes` and its tally's `chf_sum` each cause's CIF sums (n x times
# x causes, flattened).
event_forest_fit <- function(data, outcome, weights, params, num_threads, leaf) {
  engine <- survival_engine_defaults()
  for (name in intersect(names(engine), names(params))) engine[[name]] <- params[[name]]
  engine$first_tree <- as.double(if (is.null(params$first_tree)) 0 else params$first_tree)
  engine$seed <- as.double(params$seed)
  engine$ntree <- as.integer(params$ntree)
  # weights reweight the draw (Sampler.h), a node's events are rows: counted unweighted
  if (is.na(engine$min_node_events)) engine$min_node_events <- survival_min_node_events(outcome$status)
  # growth by out-of-bag error (1 - Harrell's C), as for every outcome
  growth <- c("ntree_max", "ntree_gain", "ntree_gain_rows", "ntree_gain_z")
  if (!is.null(params$ntree_max)) engine[intersect(growth, names(params))] <- params[intersect(growth, names(params))]
  res <- .svf_fit(data, outcome, weights, 0L, survival_engine_call(engine, leaf), NULL, NULL, as.integer(num_threads),
                  FALSE)
  # the engine fits unscaled predictors; 1 / each column's range as the
  # forest's scale factor lets coefficient importance weigh hyperplane
  # weights per range of the predictor, as for the other forests
  spread <- survival_column_spread(data)
  forest <- list(trees = res$forest$trees, times = res$forest$times, num_features = res$forest$num_features,
                 num_classes = 0L, scale_center = double(length(spread)), scale_factor = ifelse(spread > 0, 1 / spread, 0))
  if (!is.null(res$forest$num_causes)) forest$num_causes <- res$forest$num_causes
  list(forest = forest,
       oob = list(chf_sum = res$oob$chf_sum, risk_sum = res$oob$risk_sum, count = res$oob$count,
                  error_curve = res$oob$error_curve),
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
