# The registry of methods and engine parts: the one place that maps names to
# them. Each method file (R/method-*.R) registers its preset and the splitter
# it brings; the samplers and leaf models shared by methods are registered in
# R/parts.R. Files that register include this one (roxygen `@include`), so
# the Collate field loads it first. Nothing else in R/ names a method.

svf_registry <- new.env(parent = emptyenv())
svf_registry$methods <- list()
svf_registry$parts <- list(sampler = list(), splitter = list(), leaf = list())

# A method preset: its parts (sampler x splitter x leaf model), its
# aggregation and default number of trees (`ntree`; with `ntree_max` above
# it, more trees are grown while they lower the out-of-bag error, see
# tree_count()), and its own defaults for
# parameters of those parts (`defaults`; a default for a parameter that a fit
# does not use is ignored). `tune`: the parameters svforest_caret() tunes by
# default (NULL: its splitter's choice).
# `regression`: NULL for a classification-only method, else list(leaf, and
# optionally defaults and ntree_max) replacing the leaf and adding defaults
# for a numeric outcome.
register_method <- function(name, sampler, splitter, leaf, aggregation, ntree, ntree_max = ntree,
                            defaults = list(), tune = NULL, regression = NULL, family_defaults = FALSE) {
  svf_registry$methods[[name]] <- list(
    name = name, sampler = sampler, splitter = splitter, leaf = leaf, aggregation = aggregation,
    ntree = as.integer(ntree), ntree_max = as.integer(ntree_max), defaults = defaults, tune = tune,
    regression = regression, family_defaults = family_defaults)
  invisible(name)
}

# The preset of a method for an outcome family (its `preset` hook,
# R/family-*.R): a family the method does not fit is the hook's error.
outcome_preset <- function(preset, outcome) svf_registry$families[[outcome]]$preset(preset)

# Methods that fit a numeric outcome.
regression_methods <- function() {
  names(Filter(function(m) !is.null(m$regression), svf_registry$methods))
}

# An engine part of `type` "sampler", "splitter" or "leaf": the parameters it
# reads (names in svf_parameters), and optional hooks:
# - `tune`: parameters svforest_caret() tunes by default for this splitter;
# - `print_lines(x)`: lines print.svforest() adds for a model using the part;
# - `summary(object)`: a named list of values summary.svforest() adds;
# - `check(params, y, validation)`: checks of the data before the engine runs;
# - `uses_validation`: the part chooses its settings on validation data;
# - `node_size`: a splitter's parameter for the size of a node (parsnip's
#   `min_n`, ranger's `min.node.size`), `predictors`: its parameter for the
#   predictors a split draws (`mtry`); NULL when it has none (R/generics.R).
# `outcomes`: the outcome families the part handles (names of R/family-*.R);
# `family_only`: a part the family sets by itself, which users do not choose
# (the survival leaf).
register_part <- function(type, name, parameters = character(), tune = character(), print_lines = NULL,
                          summary = NULL, check = NULL, uses_validation = FALSE,
                          outcomes = "classification", node_size = NULL, predictors = NULL, family_only = FALSE) {
  stopifnot(type %in% names(svf_registry$parts))
  svf_registry$parts[[type]][[name]] <- list(
    type = type, name = name, parameters = parameters, tune = tune, print_lines = print_lines,
    summary = summary, check = check, uses_validation = uses_validation, outcomes = outcomes,
    node_size = node_size, predictors = predictors, family_only = family_only)
  invisible(name)
}

# Outcome family `family` fits with the parts that fit family `like` (a
# family that grows its trees on another's outcome kind, e.g. a 0/1
# outcome on regression's); remove = TRUE takes it off them again.
share_parts <- function(family, like, remove = FALSE) {
  for (type in names(svf_registry$parts)) for (name in names(svf_registry$parts[[type]])) {
    outcomes <- svf_registry$parts[[type]][[name]]$outcomes
    if (remove) outcomes <- setdiff(outcomes, family) else if (like %in% outcomes) outcomes <- union(outcomes, family)
    svf_registry$parts[[type]][[name]]$outcomes <- outcomes
  }
  invisible(family)
}

# Stops when a part of the fit does not handle its outcome type.
check_part_outcomes <- function(params, outcome) {
  for (part in used_parts(params)) {
    if (!outcome %in% part$outcomes) {
      fits <- names(Filter(function(p) outcome %in% p$outcomes, svf_registry$parts[[part$type]]))
      stop(sprintf("The \"%s\" %s is for %s only, and this outcome is %s (%s). %s %ss for %s: %s.",
                   part$name, part$type, paste(part$outcomes, collapse = " and "),
                   svf_registry$families[[outcome]]$describe, outcome,
                   tools::toTitleCase(outcome), part$type, outcome, paste0("\"", fits, "\"", collapse = ", ")),
           call. = FALSE)
    }
  }
  invisible(TRUE)
}

# Names of the registered methods.
method_names <- function() names(svf_registry$methods)

# The preset of method `name` (checked).
svf_method <- function(name) {
  name <- check_choice(name, "method", method_names())
  svf_registry$methods[[name]]
}

# Names of the registered parts of `type` a user may choose: not those an
# outcome family sets by itself (the survival leaf, R/engine-survival.R).
part_names <- function(type) {
  names(Filter(function(part) !part$family_only, svf_registry$parts[[type]]))
}

# Part `name` of `type`, NULL when there is none.
svf_part <- function(type, name) svf_registry$parts[[type]][[name]]

# The parts a parameter list uses (its sampler, splitter and leaf).
used_parts <- function(params) {
  Filter(Negate(is.null), lapply(c(sampler = "sampler", splitter = "splitter", leaf = "leaf"),
                                 function(type) svf_part(type, params[[type]])))
}

# The default method of svforest() (`method = NULL`) for an outcome type:
# "hybrid" for both (R/method-hybrid.R; see bench/harness.R).
default_method <- function(outcome = "classification") "hybrid"
