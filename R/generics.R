#' Number of observations of a support vector forest
#'
#' The training rows the fit used: the rows the trees were grown on plus,
#' for a calibrated model ([svforest()] with `calibrate`), the rows held out
#' to fit the calibration. Rows of case weight 0 are not counted (the fit
#' leaves them out).
#'
#' @param object A fitted [svforest()] model.
#' @param ... Not used.
#' @return An integer.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
#' nobs(fit)
#' @importFrom stats nobs
#' @export
nobs.svforest <- function(object, ...) {
  check_model(object)
  held <- if (!is.null(object$calibration) && !is.null(object$calibration$rows)) object$calibration$rows else 0L
  as.integer(object$num_rows + held)
}

# The call stored in a model: `svforest::svforest(...)` whatever method
# dispatch (or do.call()) ran, so that update() and getCall() re-evaluate it
# without svforest being attached.
model_call <- function(call) {
  call[[1]] <- quote(svforest::svforest)
  call
}

# Argument names of ranger, randomForest and scikit-learn that users type
# out of habit, with what they are called here (an argument name) or why
# there is none (a sentence). Checked before the "Unknown argument" error so
# that `num.trees = 500` says "`num.trees` is called `ntree` here". The
# foreign names of parameters and fit options are kept with them
# (`alias` in R/parameters.R); these are the others: svforest()'s own
# arguments, the splitter's node size and predictors per split (each
# splitter names its own), and names with no equivalent.
foreign_arguments <- function() {
  c(parameter_aliases(), other_foreign_arguments)
}

# alias -> parameter or fit option, from their specs.
parameter_aliases <- function() {
  specs <- c(svf_parameters, svf_fit_options)
  aliases <- lapply(specs, function(spec) as.character(spec$alias))
  targets <- rep(names(specs), lengths(aliases))
  stats::setNames(as.list(targets), unlist(aliases, use.names = FALSE))
}

other_foreign_arguments <- list(
  num.trees = "ntree", ntrees = "ntree", n_trees = "ntree", n_estimators = "ntree", trees = "ntree",
  num.threads = "num_threads", n_jobs = "num_threads", nthread = "num_threads", threads = "num_threads",
  replace = "has no equivalent: the row sampling is `sampler` (\"bootstrap\" draws with replacement, \"subsample\" without, \"all\" uses every row)",
  bootstrap = "has no equivalent: the row sampling is `sampler` (\"bootstrap\", \"subsample\" or \"all\")",
  min.node.size = "node_size", nodesize = "node_size", min.bucket = "node_size", min_samples_leaf = "node_size",
  min_samples_split = "node_size", min_n = "node_size",
  mtry = "predictors", max_features = "predictors", mtries = "predictors",
  probability = "has no equivalent: a classification forest always gives class probabilities (`predict(fit, newdata, type = \"prob\")`)",
  splitrule = "has no equivalent: the kind of split is the method's `splitter` (see `svforest_methods()`)",
  maxnodes = "has no equivalent: tree size is set by `max_depth` and the splitter's node size",
  keep.inbag = "has no equivalent: a tree's rows are drawn again from the model's seed when needed (`svforest_importance(oob = TRUE)`)",
  keep.forest = "has no equivalent: the forest is always kept",
  write.forest = "has no equivalent: the forest is always kept",
  oob.error = "has no equivalent: the out-of-bag error is computed whenever the `sampler` leaves rows out",
  oob_score = "has no equivalent: the out-of-bag error is computed whenever the `sampler` leaves rows out",
  xtest = "has no equivalent: predict new rows with `predict()`",
  ytest = "has no equivalent: predict new rows with `predict()`",
  localImp = "has no equivalent: per-row explanations are `predict(fit, newdata, type = \"local\")`",
  local.importance = "has no equivalent: per-row explanations are `predict(fit, newdata, type = \"local\")`",
  respect.unordered.factors = "has no equivalent: factor predictors are coded by `factor_coding` (\"order\": one column of the levels ranked by the outcome, the default method's for classes; \"indicator\": one 0/1 column per level)",
  dependent.variable.name = "has no equivalent: use the formula interface or `x` and `y`",
  num.random.splits = "has no equivalent: the random axis splitter (method \"rsvt\") draws one cut per split",
  regularization.factor = "has no equivalent", always.split.variables = "has no equivalent",
  split.select.weights = "has no equivalent", cutoff = "has no equivalent", strata = "has no equivalent",
  norm.votes = "has no equivalent", do.trace = "is called `verbose` here", random_state = "seed",
  criterion = "has no equivalent: the kind of split is the method's `splitter` (see `svforest_methods()`)"
)

# The message for foreign argument `name` under the parts of this fit
# (`params` holds at least the sampler, splitter and leaf): NULL when
# `name` is not a known foreign name.
foreign_argument_message <- function(name, params = NULL) {
  target <- foreign_arguments()[[name]]
  if (is.null(target)) return(NULL)
  if (identical(target, "node_size")) {
    own <- if (!is.null(params$splitter)) splitter_node_size(params$splitter)
    return(if (length(own)) sprintf("`%s` is called `%s` here (the %s splitter's node size).", name, own, params$splitter)
           else sprintf("`%s` has no equivalent for the %s splitter, which has no node size parameter.", name, params$splitter))
  }
  if (identical(target, "predictors")) {
    own <- if (!is.null(params$splitter)) splitter_predictors(params$splitter)
    return(if (length(own)) sprintf("`%s` is called `%s` here (the %s splitter's predictors per split).", name, own, params$splitter)
           else sprintf("`%s` has no equivalent for the %s splitter, which does not draw a number of predictors per split.",
                        name, params$splitter))
  }
  if (grepl(" ", target)) return(sprintf("`%s` %s.", name, target))
  sprintf("`%s` is called `%s` here.", name, target)
}

# The parameter of a splitter that sets the node size (parsnip's `min_n`,
# ranger's `min.node.size`): the part's registered `node_size`, else the
# first of the usual names among its parameters; character() when none.
splitter_node_size <- function(splitter) {
  part <- svf_part("splitter", splitter)
  if (is.null(part)) return(character())
  if (!is.null(part$node_size)) return(part$node_size)
  utils::head(intersect(c("min_leaf_size", "min_node_size", "n_min"), part$parameters), 1)
}

# The parameter of a splitter that sets how many predictors a split draws
# (parsnip's `mtry`): the part's registered `predictors`; character() when
# the splitter does not draw a number of predictors.
splitter_predictors <- function(splitter) {
  part <- svf_part("splitter", splitter)
  if (is.null(part) || is.null(part$predictors)) character() else part$predictors
}
