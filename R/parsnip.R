#' The "svforest" engine for parsnip's rand_forest()
#'
#' When parsnip is installed, svforest registers the engine `"svforest"` for
#' [parsnip::rand_forest()] in modes `"classification"` and `"regression"` (whether parsnip is
#' loaded before or after svforest), so support vector forests work with
#' workflows, tune and the rest of tidymodels. Survival forests have mode
#' `"censored regression"` ([svforest_censored_engine]) and prediction
#' intervals and quantiles mode `"quantile regression"`
#' ([svforest_quantile_engine]).
#'
#' Main arguments: `trees` is `ntree`. `min_n` is each method's own node
#' size parameter, the one its splitter reads (registered with the splitter,
#' see [svforest_methods()]): `min_node_size` for `"hybrid"`, the default
#' (nodes with fewer rows are not split, as ranger's `min.node.size`;
#' default 2 for classes, 5 for numbers), `min_leaf_size` for `"rsvt"` and `"rsvf"`
#' (fewest rows a leaf may hold, as `min_n` is the terminal node size of
#' parsnip's randomForest engine), `n_min` for `"psvm"` (fewest rows of each
#' overlay group for a split), `min_node_size` for `"transform"` (nodes with
#' fewer rows are leaves) and `sigma` for `"tdsvm"` (nodes with fewer rows
#' are leaves; giving it skips the method's search of `sigma`). `mtry` is
#' the number of predictors a split draws where the splitter draws them:
#' `mtry` for `"hybrid"` (predictors drawn per node for its axis cuts, as
#' ranger's `mtry`; its hyperplanes use `oblique_mtry`, by default twice as
#' many), `m_max` for `"psvm"` (at most `mtry` predictors per proximal SVM) and
#' `proj_dim` for `"rsvf"` (predictors per random projection); for splitters
#' that do not draw a number of predictors (`"rsvt"` draws one, the others
#' use all) `mtry` is not used, with a warning. Engine arguments given for a
#' method whose parts do not read them (e.g. `cost` when tuning `method` over
#' `"psvm"`, whose leaves have no SVM) are left out with a warning, so that
#' a grid over `method` and method parameters runs.
#' The method and all other parameters of [svforest()] are engine arguments:
#' `set_engine("svforest", method = "psvm", nu = 100)`. Each tunable engine
#' argument has a dials parameter object ([svforest_dials], e.g.
#' [svf_cost()]) registered with parsnip, so `tune()` on `cost`, `method`,
#' `leaf_size_factor`, ... works with `tune_grid(grid = n)` without a
#' parameter set of your own.
#'
#' `multi_predict(fit, new_data, trees = c(5, 10))` predicts with the
#' first `trees` trees of the forest (the forest of the first `k` trees is
#' the one `ntree = k` would grow with the same seed). Sparse predictors
#' (`Matrix::dgCMatrix`, e.g. from `fit_xy()` or a recipe with sparse
#' output) are passed to [svforest()] as they are.
#'
#' As for the ranger engine, the defaults are safe under parallel tuning:
#' `num_threads = 1` and a `seed` drawn from R's random generator (so
#' `set.seed()` makes fits repeatable); both can be set as engine arguments.
#' Case weights (`fit(..., case_weights = )` with hardhat's
#' `importance_weights()` or `frequency_weights()`) become `case_weights` of
#' [svforest()].
#' Predictions: `type = "class"` and `type = "prob"` (classification),
#' `type = "numeric"` (regression). The default method is `"hybrid"` in
#' both modes, as for [svforest()].
#'
#' Missing predictor values: `fit_xy()` passes them to [svforest()], which
#' imputes them (`na_action`); `fit()` with a formula leaves out incomplete
#' rows itself (parsnip's model frame). Either way `predict()` gives one
#' row per row of `new_data`, rows with missing values imputed.
#' @name svforest_engine
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE)) {
#'   spec <- parsnip::set_engine(parsnip::rand_forest(trees = 5, mode = "classification"),
#'                               "svforest", method = "rsvt")
#'   fit <- parsnip::fit(spec, Species ~ ., data = iris)
#'   predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' }
NULL

# Registers the engine in parsnip's model environment; does nothing when it
# is already there (e.g. svforest reloaded).
register_parsnip_engine <- function(...) {
  if (!requireNamespace("parsnip", quietly = TRUE)) return(invisible(FALSE))
  current <- parsnip::get_model_env()$rand_forest
  if (!is.null(current) && "svforest" %in% current$engine) return(invisible(FALSE))

  for (mode in c("classification", "regression")) {
    parsnip::set_model_engine("rand_forest", mode = mode, eng = "svforest")
    parsnip::set_dependency("rand_forest", eng = "svforest", pkg = "svforest", mode = mode)
    parsnip::set_fit(
      model = "rand_forest", eng = "svforest", mode = mode,
      value = list(
        interface = "data.frame",
        # parsnip's case weights arrive as `case_weights`
        protect = c("x", "y", "weights"),
        data = c(x = "x", y = "y", weights = "case_weights"),
        func = c(pkg = "svforest", fun = "svforest_parsnip_fit"),
        defaults = list(num_threads = 1L, seed = quote(sample.int(10^5, 1)), verbose = FALSE)
      )
    )
    parsnip::set_encoding(
      model = "rand_forest", eng = "svforest", mode = mode,
      options = list(predictor_indicators = "none", compute_intercept = FALSE,
                     remove_intercept = FALSE, allow_sparse_x = TRUE)
    )
  }

  # main arguments: translated per method by svforest_parsnip_fit()
  parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = "trees", original = "ntree",
                         func = list(pkg = "svforest", fun = "svf_trees"), has_submodel = FALSE)
  parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = "min_n", original = "min_n",
                         func = list(pkg = "dials", fun = "min_n"), has_submodel = FALSE)
  parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = "mtry", original = "mtry",
                         func = list(pkg = "dials", fun = "mtry"), has_submodel = FALSE)
  # engine arguments with a dials object: tunable() lists them
  for (name in setdiff(names(svf_dials), "mtry")) {  # mtry: the main argument
    parsnip::set_model_arg(model = "rand_forest", eng = "svforest", parsnip = name, original = name,
                           func = list(pkg = "svforest", fun = svf_dials[[name]]), has_submodel = FALSE)
  }

  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "classification", type = "class",
    value = list(
      pre = NULL, post = NULL, func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "class")
    )
  )
  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "classification", type = "prob",
    value = list(
      pre = NULL,
      post = function(result, object) as.data.frame(result, stringsAsFactors = FALSE),
      func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "prob")
    )
  )
  parsnip::set_pred(
    model = "rand_forest", eng = "svforest", mode = "regression", type = "numeric",
    value = list(
      pre = NULL, post = NULL, func = c(fun = "predict"),
      args = list(object = quote(object$fit), newdata = quote(new_data), type = "response")
    )
  )
  register_parsnip_uncertainty()  # R/parsnip-quantile.R
  register_parsnip_censored()  # R/parsnip-censored.R
  invisible(TRUE)
}

#' Fit function of the parsnip engine
#'
#' Called by parsnip for `rand_forest() |> set_engine("svforest")`: maps
#' `min_n` and `mtry` to the method's own parameters and leaves out engine
#' arguments the method does not read (see [svforest_engine]), then calls
#' [svforest()]. Not meant to be called directly.
#' @param x,y Predictors and outcome.
#' @param ... Arguments of [svforest()].
#' @param min_n,mtry parsnip's main arguments.
#' @return An [svforest()] model.
#' @keywords internal
#' @export
svforest_parsnip_fit <- function(x, y, ..., min_n = NULL, mtry = NULL) {
  args <- list(...)
  # fit_xy() turns a dgCMatrix into a data frame of sparse vectors, and
  # predict() turns such new data back into a dgCMatrix: fit on the matrix
  if (is.data.frame(x) && requireNamespace("sparsevctrs", quietly = TRUE) &&
      sparsevctrs::has_sparse_elements(x)) {
    x <- sparsevctrs::coerce_to_sparse_matrix(x)
  }
  args <- parsnip_method_args(args, outcome_type(y), NROW(x), NCOL(x), min_n, mtry)
  call_svforest(list(x = x, y = y), args)
}

# svforest() on `inputs` (x and y, or formula and data) with arguments
# `args`; the data and long vectors go in as symbols, so the model's call
# stays small.
call_svforest <- function(inputs, args) {
  env <- new.env(parent = environment())
  for (name in names(inputs)) assign(name, inputs[[name]], envir = env)
  big <- names(args)[lengths(args) > 20]
  for (name in big) assign(paste0(".arg_", name), args[[name]], envir = env)
  args[big] <- lapply(paste0(".arg_", big), as.name)
  symbols <- lapply(stats::setNames(nm = names(inputs)), as.name)
  eval(as.call(c(quote(svforest::svforest), symbols, args)), env)
}

# The arguments of svforest() from the engine's: parsnip's `min_n` and
# `mtry` as the method's own parameters (`p` predictors: mtry's upper end),
# and method parameters of parts the fit does not use left out, with a
# warning (`n` rows; `outcome` the outcome family's name).
parsnip_method_args <- function(args, outcome, n, p, min_n = NULL, mtry = NULL) {
  preset <- svf_method(if (is.null(args$method)) default_method(outcome) else args$method)
  splitter <- if (!is.null(args$splitter)) args$splitter else preset$splitter
  if (!is.null(min_n)) {
    own <- splitter_node_size(splitter)
    if (length(own)) {
      args[[own]] <- min_n
    } else {
      warning(sprintf("`min_n` is not used: the %s splitter (method \"%s\") has no node size parameter.",
                      splitter, preset$name), call. = FALSE)
    }
  }
  if (!is.null(mtry)) {
    own <- splitter_predictors(splitter)
    if (length(own)) {
      args[[own]] <- min(as.integer(mtry), p)
    } else {
      warning(sprintf("`mtry` is not used: the %s splitter (method \"%s\") does not draw a number of predictors per split.",
                      splitter, preset$name), call. = FALSE)
    }
  }
  # method parameters of parts this fit does not use (a grid over `method`
  # and `cost` gives cost to methods without SVM leaves): left out
  known <- intersect(names(args), names(svf_parameters))
  if (length(known)) {
    selectors <- args[intersect(part_selectors, names(args))]
    parts <- tryCatch(names(resolve_parameters(preset$name, selectors, max(2L, n), outcome)),
                      error = function(e) NULL)
    unused <- if (!is.null(parts)) setdiff(known, parts) else character()
    if (length(unused)) {
      warning(sprintf("Method \"%s\" does not use %s: left out.", preset$name,
                      paste0("`", unused, "`", collapse = ", ")), call. = FALSE)
      args[unused] <- NULL
    }
  }
  args
}

# The first k trees of a model: the forest that `ntree = k` grows with the
# same seed (out-of-bag elements, which belong to the whole forest, dropped).
first_trees <- function(object, k) {
  k <- check_count(k, "trees", 1, length(object$forest$trees))
  object <- model_sectioned(object)  # R/model.R
  object$forest$trees <- object$forest$trees[seq_len(k)]
  object$oob <- new_oob_section(list(oob_error = NA_real_))
  object$variable_importance <- NULL
  object
}

# parsnip's multi_predict() over the number of trees: one tibble per row of
# new_data with a row per value of `trees`. Censored regression: types
# "time", "linear_pred" and "survival" (with `eval_time`: `.pred` holds a
# row per tree count and evaluation time).
#' @rawNamespace S3method(parsnip::multi_predict, "_svforest")
multi_predict._svforest <- function(object, new_data, type = NULL, trees = NULL, eval_time = NULL, ...) {
  model <- object$fit
  if (is.null(trees)) trees <- model$ntree
  trees <- sort(unique(as.integer(trees)))
  mode <- object$spec$mode
  types <- switch(mode, classification = c("class", "prob"), `censored regression` = c("time", "linear_pred", "survival"),  # not an outcome: parsnip's modes
                  "numeric")
  if (is.null(type)) type <- types[1]
  type <- check_choice(type, "type", types)
  if (type == "survival" && (!is.numeric(eval_time) || !length(eval_time))) {  # not an outcome: a prediction type
    stop("`eval_time` (numbers) is needed for type = \"survival\".", call. = FALSE)
  }
  n <- nrow(new_data)
  preds <- lapply(trees, function(k) {
    out <- first_trees_predictions(first_trees(model, k), new_data, type, eval_time)
    out$trees <- rep(k, nrow(out))
    out$.row <- rep(seq_len(n), each = nrow(out) / n)
    out
  })
  res <- do.call(rbind, preds)
  res <- res[order(res$.row, res$trees), ]  # stable: eval_time keeps its order
  rows <- res$.row
  res <- res[c("trees", setdiff(names(res), c("trees", ".row")))]
  tibble::tibble(.pred = unname(split(res, rows)))
}

# The predictions of type `type` of forest `sub` in parsnip's columns;
# survival: one row per row of new_data and time of `eval_time`.
first_trees_predictions <- function(sub, new_data, type, eval_time) {
  switch(type,
    class = tibble::tibble(.pred_class = stats::predict(sub, new_data, type = "class")),
    prob = {
      p <- stats::predict(sub, new_data, type = "prob")
      tibble::as_tibble(stats::setNames(as.data.frame(p), paste0(".pred_", colnames(p))))
    },
    numeric = tibble::tibble(.pred = stats::predict(sub, new_data, type = "response")),
    time = tibble::tibble(.pred_time = unname(stats::predict(sub, new_data, type = "time"))),
    # increasing with survival time, as predict(type = "linear_pred")
    linear_pred = tibble::tibble(.pred_linear_pred = -unname(stats::predict(sub, new_data, type = "risk"))),
    survival = {
      s <- stats::predict(sub, new_data, type = "survival", times = eval_time)
      tibble::tibble(.eval_time = rep(eval_time, times = nrow(s)), .pred_survival = as.vector(t(s)))
    })
}

# --- dials parameter objects ------------------------------------------------------

svf_log10 <- function() scales::transform_log10()
svf_log2 <- function() scales::transform_log2()
svf_quant <- function(name, label, type, range, trans = NULL, finalize = NULL) {
  dials::new_quant_param(type = type, range = range, inclusive = c(TRUE, TRUE), trans = trans,
                         label = stats::setNames(label, name), finalize = finalize)
}
svf_qual <- function(name, label, values) {
  type <- if (is.logical(values)) "logical" else "character"
  dials::new_qual_param(type = type, values = values, label = stats::setNames(label, name))
}

# Parameters and fit options with a dials object: those with a `tune` spec
# (R/parameters.R), each tuned by `svf_<name>()`.
dials_specs <- function() {
  Filter(function(spec) !is.null(spec$tune), c(svf_parameters, svf_fit_options))
}

# The dials object function of spec `name`, made from its `tune`: a range
# (`range` on the `trans` scale; `upper = "predictors"`: unknown until
# finalized with the data, as dials' mtry()) or its values (the spec's
# choices, read when called, so the registered parts are all listed).
dials_function <- function(name) {
  spec <- c(svf_parameters, svf_fit_options)[[name]]
  t <- spec$tune
  if (is.null(t$lower)) {
    values <- if (!is.null(t$values)) t$values else spec$choices
    f <- eval(bquote(function(values = .(values)) svf_qual(.(name), .(t$label), values)))
  } else {
    to <- switch(if (is.null(t$trans)) "none" else t$trans, log10 = log10, log2 = log2, none = identity)
    by_data <- identical(t$upper, "predictors")
    ends <- to(c(t$lower, if (by_data) NA else t$upper))
    if (identical(t$type, "integer") && is.null(t$trans)) ends <- as.integer(ends)
    range <- if (by_data) call("c", ends[1], quote(dials::unknown())) else ends
    trans <- if (is.null(t$trans)) NULL else call(paste0("svf_", t$trans))
    finalize <- if (by_data) quote(dials::get_p)
    f <- eval(bquote(function(range = .(range), trans = .(trans))
      svf_quant(.(name), .(t$label), .(t$type), range, trans, .(finalize))))
  }
  environment(f) <- topenv()
  f
}

#' dials parameter objects for the svforest engine
#'
#' Parameter objects (package dials) for the engine arguments of
#' `rand_forest() |> set_engine("svforest", ...)`, registered with parsnip
#' so that `tune()` on them works with `tune_grid(grid = n)` and
#' `extract_parameter_set_dials()` without a parameter set of your own. Each
#' is named after the [svforest()] argument it tunes (`svf_method_name()`
#' tunes `method`, `svf_trees()` the engine's `trees`, 1 to 2,000 as dials'
#' `trees()`); every parameter of [svforest_parameters] has one (but
#' `cache_size`, which changes speed only), spanning the range given there.
#' Ranges are on the transformed scale where there is a `trans` (log10 for
#' `cost`, `nu`, `lambda`, `gamma`: `range = c(-2, 3)` is 0.01 to 1000).
#' Ranges up to the number of predictors (`oblique_mtry`, `m_max`,
#' `proj_dim`) are finalized with the data, as dials' `mtry()`. The
#' qualitative ones list every registered value ([svforest_methods()], the
#' engine parts); for regression choose among the methods that fit a numeric
#' outcome, e.g. `svf_method_name(values = c("rsvt", "rsvf", "tdsvm"))`.
#' `ntree_max` must be at least `trees`.
#'
#' @param range Two numbers: the range (on the `trans` scale).
#' @param trans A `scales` transformation, or `NULL`.
#' @param values Possible values.
#' @return A dials `param` object.
#' @name svforest_dials
#' @eval dials_rd_usage()
#' @examples
#' if (requireNamespace("dials", quietly = TRUE)) {
#'   svf_cost()
#'   svf_method_name()
#'   svf_oblique_mtry()
#' }
NULL

#' @rdname svforest_dials
#' @export
svf_trees <- function(range = c(1L, 2000L), trans = NULL) svf_quant("trees", "# Trees", "integer", range, trans)
#' @rdname svforest_dials
#' @export
svf_method_name <- function(values = method_names()) svf_qual("method", "Method", values)

# svf_cost(), svf_oblique_mtry(), ...: one per parameter with a tuning
# range or values (exported in NAMESPACE; roxygen's tags from dials_rd_usage())
for (name in names(dials_specs())) assign(paste0("svf_", name), dials_function(name))

# Engine arguments with a dials object: name -> function (tunable() lists
# them). `mtry` is parsnip's main argument, with dials' own mtry().
svf_dials <- c(method = "svf_method_name",
               stats::setNames(paste0("svf_", names(dials_specs())), names(dials_specs())))
