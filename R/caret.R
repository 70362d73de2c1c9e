#' A caret model for support vector forests
#'
#' Returns a custom model list for `caret::train()`: use
#' `train(x, y, method = svforest_caret())`. Class probabilities are
#' available (`trainControl(classProbs = TRUE)`).
#'
#' The tuned parameters are numeric method parameters of [svforest()]; by
#' default `mtry` and `min_node_size` for the default method (`"hybrid"`),
#' else the one that governs tree size for the method's splitter:
#' `leaf_size_factor` for random axis splits (`"rsvt"`), `nu` for proximal
#' SVM splits (`"psvm"`), `max_depth` for OOB-SVM splits (`"rsvf"`),
#' `subspace_dim` for transformation splits (`"transform"`); nothing for
#' `"tdsvm"`, which tunes itself on validation data. A method whose preset
#' names `tune` parameters uses those. Every numeric parameter with a
#' tuning range in [svforest_parameters] can be tuned, over that range (the
#' one its dials object spans): the grid for `tuneLength = len` spreads `len`
#' values over it (on its log scale where it has one, else on a log scale
#' for a positive range), and random search draws from it. Ranges up to the
#' number of predictors (`mtry`) end at the data's, and node sizes
#' (`min_node_size`, `min_leaf_size`, `sigma`) at a quarter of the training
#' rows, so that no grid point makes every tree a single leaf. With
#' `tune = character()` nothing is tuned.
#'
#' Missing predictor values: `train(x, y)` passes them to [svforest()], which
#' imputes them (`na_action`), and `predict()` then gives one prediction per
#' row. With a formula, caret's own `na.action` applies first (`na.fail`
#' to fit, `na.omit` to predict): use `train(..., na.action = na.pass)` and
#' `predict(..., na.action = na.pass)` to keep rows with missing values.
#'
#' caret has no survival models: a `survival::Surv` outcome is an error
#' (fit survival forests with [svforest()], or in tidymodels with
#' [svforest_censored_engine]).
#'
#' @param method Method preset, see [svforest_methods()]; the default is
#'   svforest()'s, `"hybrid"`.
#' Arguments given to `train(...)` itself (e.g. `ntree = 20, cost = 1`,
#' `importance = "permutation"`) reach every fit too, overriding those of
#' `svforest_caret()`. `caret::varImp()` returns the forest's importance: the
#' one computed at fit time (`train(..., importance = "permutation")`), else
#' the coefficient importance of models with linear leaves or oblique
#' splits (see [svforest_importance()]). The final model's `call` refers to
#' the data by name and holds no copy of it.
#'
#' @param ... Fixed method parameters passed to every [svforest()] fit.
#' @param tune Names of the parameters to tune (see Details), or `NULL` for
#'   the method's default.
#' @param ntree Trees per fit (method default when `NULL`).
#' @param num_threads Threads per fit (default 1: safe when caret itself runs
#'   resamples in parallel).
#' @return A list in caret's custom model format.
#' @examples
#' if (requireNamespace("caret", quietly = TRUE)) {
#'   ctrl <- caret::trainControl(method = "cv", number = 3, classProbs = TRUE)
#'   set.seed(1)
#'   tuned <- caret::train(iris[, 1:4], iris$Species, method = svforest_caret(ntree = 3),
#'                         tuneLength = 2, trControl = ctrl)
#'   tuned$bestTune
#' }
#' @export
svforest_caret <- function(method = default_method(), ..., tune = NULL, ntree = NULL, num_threads = 1L) {
  svf_method(method)  # an unknown method is an error here, not in the first resample
  fixed <- list(...)
  if (is.null(tune)) tune <- default_tuned(method)
  if (!is.character(tune)) stop("`tune` must be a character vector of parameter names.", call. = FALSE)
  bad <- setdiff(tune, caret_tunable())
  if (length(bad)) {
    stop(sprintf("Cannot tune %s; tunable parameters are: %s.", paste0("`", bad, "`", collapse = ", "),
                 paste(caret_tunable(), collapse = ", ")), call. = FALSE)
  }
  if (any(tune %in% names(fixed))) stop("A parameter cannot be both tuned and fixed.", call. = FALSE)
  # early errors for typos, and for tuned or fixed parameters of parts the fits do not use
  used <- names(resolve_parameters(method, fixed, 100L))
  if (length(setdiff(tune, used))) resolve_parameters(method, c(fixed, stats::setNames(list(1), setdiff(tune, used)[1])), 100L)
  # NULL: the method's default count (and its growth rule, see svforest())
  if (!is.null(ntree)) ntree <- check_count(ntree, "ntree", 1, 1e6)
  num_threads <- check_count(num_threads, "num_threads", 1, 1024)

  parameters <- if (length(tune)) {
    data.frame(parameter = tune, class = "numeric", label = tune, stringsAsFactors = FALSE)
  } else {
    data.frame(parameter = "parameter", class = "character", label = "none", stringsAsFactors = FALSE)
  }

  grid <- caret_grid(tune)

  fit <- function(x, y, wts, param, lev, last, weights, classProbs, ...) {
    caret_check_outcome(y)
    tuned <- if (length(tune)) as.list(param[1, tune, drop = FALSE]) else list()
    for (p in names(tuned)) if (identical(svf_parameters[[p]]$tune$type, "integer")) tuned[[p]] <- as.integer(round(tuned[[p]]))
    # arguments of train(...) (ntree = 20, cost = 1, importance = ...) reach
    # the fit, overriding the fixed ones; a tuned parameter cannot be given
    dots <- list(...)
    if (any(names(dots) %in% tune)) {
      stop(sprintf("`%s` is tuned by svforest_caret(); give it in `tuneGrid`, or leave it out of `tune`.",
                   intersect(names(dots), tune)[1]), call. = FALSE)
    }
    args <- utils::modifyList(c(list(method = method, ntree = ntree, num_threads = num_threads, verbose = FALSE),
                                fixed), dots)
    args <- c(args, tuned)
    # caret's `weights` arrive as `wts`: case weights
    if (!missing(wts) && !is.null(wts)) args$case_weights <- wts
    # the data (and long vectors) go in as symbols, so the model's call holds
    # no copy of the training data
    env <- environment()
    big <- names(args)[lengths(args) > 20]
    for (name in big) assign(paste0(".arg_", name), args[[name]], envir = env)
    args[big] <- lapply(paste0(".arg_", big), as.name)
    eval(as.call(c(quote(svforest::svforest), list(x = quote(x), y = quote(y)), args)), env)
  }

  list(
    label = sprintf("Support vector forest (svforest, method \"%s\")", method),
    library = "svforest",
    type = c("Classification", "Regression"),
    parameters = parameters,
    grid = grid,
    fit = fit,
    predict = function(modelFit, newdata, preProc = NULL, submodels = NULL) {
      pred <- stats::predict(modelFit, newdata, num_threads = num_threads)  # classes, or numbers
      if (is.factor(pred)) as.character(pred) else pred
    },
    prob = function(modelFit, newdata, preProc = NULL, submodels = NULL) {
      as.data.frame(stats::predict(modelFit, newdata, type = "prob", num_threads = num_threads),
                    stringsAsFactors = FALSE)
    },
    sort = function(x) x,
    levels = function(x) x$levels,
    varImp = caret_importance,
    tags = c("Random Forest", "Support Vector Machines", "Ensemble Model"),
    loop = NULL
  )
}

# caret's grid function for the parameters `tune`: `len` values of each
# over its range on the data (caret_range()), all combinations, or `len`
# random draws (`search = "random"`).
caret_grid <- function(tune) {
  function(x, y, len = NULL, search = "grid") {
    caret_check_outcome(y)  # train() asks for the grid before any fit
    if (!length(tune)) return(data.frame(parameter = "none"))
    if (is.null(len)) len <- 3
    n <- if (is.null(x)) NULL else NROW(x)
    p <- if (is.null(x)) NULL else NCOL(x)
    values <- lapply(stats::setNames(nm = tune), function(name) caret_values(caret_range(name, n, p), len, search))
    g <- if (search == "grid") expand.grid(values, KEEP.OUT.ATTRS = FALSE) else as.data.frame(values)
    unique(g)
  }
}

# caret scores resamples by comparing predictions with the outcome, which
# a Surv outcome does not allow: a clear error before any fit instead of
# caret's failure after all of them.
caret_check_outcome <- function(y) {
  if (inherits(y, "Surv")) {
    stop("caret has no survival models: train() cannot score a `survival::Surv` outcome. Fit it with ",
         "svforest(), or through tidymodels: rand_forest(mode = \"censored regression\") |> ",
         "set_engine(\"svforest\").", call. = FALSE)
  }
  invisible(y)
}

# caret's varImp: the forest's own importance, the one stored at fit time
# (train(..., importance = "permutation") or "coefficients"), else the
# coefficient importance where the model has linear parts.
caret_importance <- function(object, ...) {
  imp <- object$variable_importance
  if (is.null(imp) && has_coefficient_parts(object)) imp <- coefficient_importance(object)
  if (is.null(imp)) {
    stop("This model holds no variable importance: train with `importance = \"permutation\"` (passed on to svforest()).",
         call. = FALSE)
  }
  if (is.matrix(imp)) imp <- imp[, "overall"]
  data.frame(Overall = as.numeric(imp), row.names = names(imp))
}

# The numeric parameters svforest_caret() can tune, with their ranges
# (`tune` of each parameter's spec in R/parameters.R; dials tunes the same).
caret_tunable <- function() {
  names(Filter(function(spec) !is.null(spec$tune$lower), svf_parameters))
}

# The range caret tunes `name` over on data with `n` rows and `p` predictor
# columns (NULL: unknown): the spec's, its upper end bounded by the
# predictors (`upper = "predictors"`) or, for a node size, by a quarter of
# the rows, so that no grid point makes every tree of a resample one leaf.
caret_range <- function(name, n = NULL, p = NULL) {
  r <- svf_parameters[[name]]$tune
  upper <- r$upper
  if (identical(upper, "predictors")) {
    if (is.null(p)) stop(sprintf("caret's range of `%s` needs the data (its upper end is the number of predictors).", name),
                         call. = FALSE)
    upper <- p
  }
  if (isTRUE(r$rows) && !is.null(n)) upper <- min(upper, floor(n / 4))
  upper <- max(upper, r$lower)
  list(lower = r$lower, upper = upper, integer = identical(r$type, "integer"), trans = r$trans)
}

# `len` values of a caret range: evenly spread on its `trans` scale (log
# without one when the range is positive, else linear), or drawn at random
# on that scale (`search = "random"`); whole numbers for integer parameters.
caret_values <- function(r, len, search = "grid") {
  scale <- if (!is.null(r$trans)) r$trans else if (r$lower > 0) "log" else "identity"
  to <- switch(scale, log10 = log10, log2 = log2, log = log, identity = identity)
  from <- switch(scale, log10 = function(v) 10^v, log2 = function(v) 2^v, log = exp, identity = identity)
  ends <- to(c(r$lower, r$upper))
  v <- if (search == "grid") seq(ends[1], ends[2], length.out = len) else stats::runif(len, ends[1], ends[2])
  v <- from(v)
  if (r$integer) v <- round(v)
  v <- signif(v, 3)
  if (search == "grid") unique(v) else v
}

# The parameters tuned by default: the preset's own choice when it names
# them, else its splitter's (registered with the splitter in R/method-*.R).
default_tuned <- function(method) {
  preset <- svf_method(method)
  if (!is.null(preset$tune)) return(preset$tune)
  svf_part("splitter", preset$splitter)$tune
}
