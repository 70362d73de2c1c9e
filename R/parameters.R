# Parameters of the engine's parts: one definition (default and check) per
# parameter, shared by every part that reads it. Which part reads which
# parameter is registered with the part (R/parts.R, R/method-*.R).

# `balanced`: TRUE, FALSE or "task" (two-class tasks keep the task's class
# shares in every SVM, see class_factors(); more classes as TRUE).
check_balanced <- function(x) {
  if (identical(x, "task")) return(x)
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    stop(sprintf("`balanced` must be TRUE, FALSE or \"task\", not %s.", describe(x)), call. = FALSE)
  }
  x
}

# The engine's view of `balanced`: balancing on or off, and a cost factor per
# class applied on top of it in two-class SVMs. With "task" and two classes,
# factor 2 * share makes a balanced SVM weight each class by its task share
# over its share in the node, so every node's SVM sees the task's class
# proportions (its sign then aims at the error rate, which RSVF's split
# criterion counts, not at the balanced error rate).
class_factors <- function(balanced, y) {
  k <- nlevels(y)
  if (identical(balanced, "task") && k == 2) 2 * as.vector(table(y)) / length(y) else rep(1, k)
}

# A preset's own default for a parameter, else the general one.
preset_default <- function(preset, name, value) {
  if (!is.null(preset$defaults[[name]])) preset$defaults[[name]] else value
}

# A whole number, or a single NA (logical, integer or double; not NaN) for
# the parameters whose default `NA` means "automatic" or "none" (m_max, transform_rank,
# dim_per_class, sigma, sigma_max): NA is the documented default value (for
# classification), so giving it is the default.
check_count_or_na <- function(x, name, min) {
  if ((is.logical(x) || is.numeric(x)) && length(x) == 1 && is.na(x) && !is.nan(x)) return(NA_integer_)
  check_count(x, name, min)
}

# Every tunable parameter: its default and its check. `n` (training rows) and
# `method` are available to defaults that depend on the data.
svf_parameters <- list(
  sampler = list(default = function(preset, n) preset$sampler,
                 check = function(x) check_choice(x, "sampler", part_names("sampler"))),
  sample_fraction = list(default = function(preset, n, args) if (identical(args$sampler, "subsample")) 0.632 else 1,
                         check = function(x) check_number(x, "sample_fraction", 0, 1, min_open = TRUE)),
  splitter = list(default = function(preset, n) preset$splitter,
                  check = function(x) check_choice(x, "splitter", part_names("splitter"))),
  leaf = list(default = function(preset, n) preset$leaf,
              check = function(x) check_choice(x, "leaf", part_names("leaf"))),
  aggregation = list(default = function(preset, n) preset$aggregation,
                     check = function(x) check_choice(x, "aggregation", c("vote", "prob", "max_confidence"))),
  leaf_size_factor = list(default = function(preset, n) 1,
                          check = function(x) check_number(x, "leaf_size_factor", 0, min_open = TRUE)),
  min_leaf_size = list(default = function(preset, n, args)
                         preset_default(preset, "min_leaf_size",
                                        as.integer(ceiling((if (is.null(args$leaf_size_factor)) 1 else args$leaf_size_factor) * sqrt(n)))),
                       check = function(x) check_count(x, "min_leaf_size", 1)),
  split_rule = list(default = function(preset, n) "admissible",
                    check = function(x) check_choice(x, "split_rule", c("admissible", "published"))),
  max_depth = list(default = function(preset, n) preset_default(preset, "max_depth", 0L),
                   check = function(x) check_count(x, "max_depth", 0, 10000)),
  nu = list(default = function(preset, n) 1000,
            check = function(x) check_number(x, "nu", 0, min_open = TRUE)),
  m_max = list(default = function(preset, n, args) NA_integer_,  # all predictors
               check = function(x) check_count_or_na(x, "m_max", 1),
               finish = function(x, p) min(if (is.na(x)) p else x, p)),
  # beyond 100,000 rows the smallest overlay group grows with n, so that a
  # PSVM tree's size (and the model's memory) stops growing with the data
  n_min = list(default = function(preset, n) max(2L, as.integer(ceiling(n / 50000))),
               check = function(x) check_count(x, "n_min", 0)),
  # transformation splits
  transform_rank = list(default = function(preset, n) NA_integer_,  # NA: automatic (square up to 32 predictors)
                        check = function(x) check_count_or_na(x, "transform_rank", 2)),
  transform_center = list(default = function(preset, n) TRUE,  # FALSE: the paper's subspaces through the origin
                          check = function(x) check_flag(x, "transform_center")),
  subspace_dim = list(default = function(preset, n) 10L,
                      check = function(x) check_count(x, "subspace_dim", 1)),
  dim_per_class = list(default = function(preset, n) NA_integer_,  # NA: subspace_dim at every node
                       check = function(x) check_count_or_na(x, "dim_per_class", 1)),
  transform_choice = list(default = function(preset, n) "oob",  # "inbag": the paper's choice on the node's rows
                          check = function(x) check_choice(x, "transform_choice", c("oob", "inbag"))),
  transform_iter = list(default = function(preset, n) 30L,
                        check = function(x) check_count(x, "transform_iter", 0, 10000)),
  transform_step = list(default = function(preset, n) 0.5,
                        check = function(x) check_number(x, "transform_step", 0, min_open = TRUE)),
  # PSVM trees: the offset of the split plane ("gain": the cut along x'w of
  # largest information gain; "plane": the proximal SVM's own gamma)
  psvm_cut = list(default = function(preset, n) "gain",
                  check = function(x) check_choice(x, "psvm_cut", c("plane", "gain"))),
  node_tries = list(default = function(preset, n) 1L,
                    check = function(x) check_count(x, "node_tries", 1, 1000)),
  min_node_size = list(default = function(preset, n) preset_default(preset, "min_node_size", 5L),
                       check = function(x) check_count(x, "min_node_size", 2)),
  # the hybrid splitter (the default method): predictors drawn per node (NA:
  # sqrt(p), HybridSplitter.cpp), oblique candidates per node and
  # their ridge penalty (times the node's rows, on standardised predictors)
  mtry = list(default = function(preset, n) NA_integer_,
              check = function(x) check_count_or_na(x, "mtry", 1),
              finish = function(x, p) if (is.na(x)) x else min(x, p)),
  oblique_mtry = list(default = function(preset, n) NA_integer_,
                      check = function(x) check_count_or_na(x, "oblique_mtry", 2),
                      finish = function(x, p) if (is.na(x)) x else min(x, p)),
  n_oblique = list(default = function(preset, n) preset_default(preset, "n_oblique", 1L),
                   check = function(x) check_count(x, "n_oblique", 0, 100)),
  split_ridge = list(default = function(preset, n) preset_default(preset, "split_ridge", 0.01),
                     check = function(x) check_number(x, "split_ridge", 0, min_open = TRUE)),
  oblique_choice = list(default = function(preset, n) preset_default(preset, "oblique_choice", "oob"),
                        check = function(x) check_choice(x, "oblique_choice", c("inbag", "oob"))),
  tree_choice = list(default = function(preset, n) preset_default(preset, "tree_choice", "oob"),
                     check = function(x) check_choice(x, "tree_choice", c("oob", "none"))),
  oblique_rows = list(default = function(preset, n) preset_default(preset, "oblique_rows", 0),
                      check = function(x) check_number(x, "oblique_rows", 0)),
  cost = list(default = function(preset, n) preset_default(preset, "cost", c(0.25, 0.5, 1, 2, 4)),
              check = function(x) sort(unique(check_numbers(x, "cost")))),
  cv_folds = list(default = function(preset, n) preset_default(preset, "cv_folds", 3L),
                  check = function(x) check_count(x, "cv_folds", 1, 20)),
  min_class_rows = list(default = function(preset, n) 2L,
                        check = function(x) check_count(x, "min_class_rows", 2)),
  rare_classes = list(default = function(preset, n) "negative",
                      check = function(x) check_choice(x, "rare_classes", c("constant", "negative"))),
  balanced = list(default = function(preset, n) preset_default(preset, "balanced", TRUE),
                  check = function(x) check_balanced(x)),
  tolerance = list(default = function(preset, n) 0.01,
                   check = function(x) check_number(x, "tolerance", 0, min_open = TRUE)),
  cv_tolerance = list(default = function(preset, n) 0.1,
                      check = function(x) check_number(x, "cv_tolerance", 0, min_open = TRUE)),
  # RSVF's OOB-SVM splits (splitter "oob_svm")
  n_theta = list(default = function(preset, n) 8L,
                 check = function(x) check_count(x, "n_theta", 1, 1e5)),
  n_omega = list(default = function(preset, n) 1L,
                 check = function(x) check_count(x, "n_omega", 1, 1e5)),
  n_tau = list(default = function(preset, n) 4L,
               check = function(x) check_count(x, "n_tau", 1, 1e5)),
  proj_dim = list(default = function(preset, n) 1L,
                  check = function(x) check_count(x, "proj_dim", 1, 1e5)),
  delta_tau = list(default = function(preset, n) 0,
                   check = function(x) check_number(x, "delta_tau", 0, 1)),
  split_tolerance = list(default = function(preset, n) preset_default(preset, "split_tolerance", 0.1),
                         check = function(x) check_number(x, "split_tolerance", 0, min_open = TRUE)),
  screen_fraction = list(default = function(preset, n) preset_default(preset, "screen_fraction", 1),
                         check = function(x) check_number(x, "screen_fraction", 0, 1, min_open = TRUE)),
  screen_keep = list(default = function(preset, n) preset_default(preset, "screen_keep", 4L),
                     check = function(x) check_count(x, "screen_keep", 1, 1e5)),
  split_max_iter = list(default = function(preset, n) preset_default(preset, "split_max_iter", 100L),
                        check = function(x) check_count(x, "split_max_iter", 1, 1000)),
  # "minmax", "rank" or "none" (TRUE and FALSE: "minmax" and "none"); R/rank.R
  scale = list(default = function(preset, n) preset_default(preset, "scale", "minmax"),
               check = function(x) check_scale(x)),
  # "indicator" or "order": factor columns of a data frame; R/factor_coding.R
  factor_coding = list(default = function(preset, n) preset_default(preset, "factor_coding", "indicator"),
                       check = function(x) check_choice(x, "factor_coding", factor_coding_choices)),
  # tree decomposition (splitter "cart") and kernel SVM leaves
  sigma = list(default = function(preset, n) NA_integer_,  # NA: chosen by the search
               check = function(x) check_count_or_na(x, "sigma", 2)),
  # the preset's `sigma0` (default 1500, the paper's) caps n / 8
  sigma0 = list(default = function(preset, n) as.integer(min(preset_default(preset, "sigma0", 1500), max(50, ceiling(n / 8)))),
                check = function(x) check_count(x, "sigma0", 2)),
  # cap on the searched sigma (NA: none); regression's preset sets one
  sigma_max = list(default = function(preset, n) preset_default(preset, "sigma_max", NA_integer_),
                   check = function(x) check_count_or_na(x, "sigma_max", 2)),
  sigma_factor = list(default = function(preset, n) 4L,
                      check = function(x) check_count(x, "sigma_factor", 2, 1000)),
  # regression leaves: ridge penalty (grid, chosen by CV in the leaf) and
  # the SVRs' insensitive tube (on the standardised outcome)
  lambda = list(default = function(preset, n) preset_default(preset, "lambda", 10^(-3:1)),
                check = function(x) sort(unique(check_numbers(x, "lambda")))),
  epsilon = list(default = function(preset, n) preset_default(preset, "epsilon", 0.1),
                 check = function(x) check_number(x, "epsilon", 0)),
  gamma = list(default = function(preset, n) preset_default(preset, "gamma", 10^(-1:2)),
               check = function(x) sort(unique(check_numbers(x, "gamma")))),
  top_k = list(default = function(preset, n) 5L,
               check = function(x) check_count(x, "top_k", 1)),
  min_gain = list(default = function(preset, n) 0.5,
                  check = function(x) check_number(x, "min_gain", 0, 100)),
  validation_fraction = list(default = function(preset, n) 0.2,
                             check = function(x) check_number(x, "validation_fraction", 0, 0.9, min_open = TRUE)),
  multiclass = list(default = function(preset, n) "ovo",
                    check = function(x) check_choice(x, "multiclass", c("ovo", "ovr"))),
  svm_tolerance = list(default = function(preset, n) 0.001,
                       check = function(x) check_number(x, "svm_tolerance", 0, min_open = TRUE)),
  cache_size = list(default = function(preset, n) 100,
                    check = function(x) check_number(x, "cache_size", 1, 1e6))
)

# Parameters of the forest itself, used by every fit (besides `ntree`,
# `seed` and `first_tree`, which svforest() handles), and the parameters that
# choose the parts.
forest_parameters <- c("max_depth", "aggregation", "scale", "factor_coding")
part_selectors <- c("sampler", "splitter", "leaf")

# Names of the parameters a fit with these parts uses, in table order.
used_parameter_names <- function(parts) {
  used <- c(part_selectors, forest_parameters, unlist(lapply(parts, `[[`, "parameters")))
  intersect(names(svf_parameters), used)
}

# "the psvm splitter", "the oob_svm splitter and the linear_svm, logistic and
# kernel_svm leaves": the parts that read parameter `name`.
parameter_owners <- function(name) {
  owners <- character()
  for (type in names(svf_registry$parts)) {
    names_of_type <- Filter(function(part) name %in% svf_part(type, part)$parameters, part_names(type))
    if (length(names_of_type)) {
      listed <- if (length(names_of_type) == 1) names_of_type
                else paste(paste(utils::head(names_of_type, -1), collapse = ", "), "and", utils::tail(names_of_type, 1))
      plural <- c(sampler = "samplers", splitter = "splitters", leaf = "leaves")[[type]]
      owners <- c(owners, paste0(listed, " ", if (length(names_of_type) > 1) plural else type))
    }
  }
  paste("the", paste(owners, collapse = " and the "))
}

# The default of parameter `name` given the preset, the rows and the
# parameters resolved so far.
parameter_default <- function(name, preset, n, args) {
  f <- svf_parameters[[name]]$default
  if ("args" %in% names(formals(f))) f(preset, n, args) else f(preset, n)
}

# Resolves the parameters of a fit: the parts (user choice or preset), then
# the parameters of those parts only, each from the user or the preset's
# defaults, each checked. Unknown names are an error (a typo must not be
# silently ignored), and so is a known parameter of a part the fit does not
# use (it would have no effect). The result holds exactly the parameters of
# the fit's parts (and of the forest).
resolve_parameters <- function(method, user, n, outcome = "classification") {
  preset <- outcome_preset(svf_method(method), outcome)
  unknown <- setdiff(names(user), names(svf_parameters))
  # ranger's and randomForest's names (num.trees, min.node.size, ...): say
  # what they are called here (R/generics.R)
  for (name in intersect(unknown, names(foreign_arguments))) {
    selectors <- tryCatch(lapply(stats::setNames(nm = part_selectors), function(s)
      if (is.null(user[[s]])) parameter_default(s, preset, n, list()) else user[[s]]), error = function(e) NULL)
    stop(foreign_argument_message(name, selectors), call. = FALSE)
  }
  if (length(unknown) > 0 || (length(user) > 0 && is.null(names(user))) || any(names(user) == "")) {
    stop(sprintf("Unknown argument%s %s. Method parameters are: %s.",
                 if (length(unknown) > 1) "s" else "",
                 if (length(unknown)) paste0("`", unknown, "`", collapse = ", ") else "(unnamed)",
                 paste(names(svf_parameters), collapse = ", ")), call. = FALSE)
  }
  args <- list()
  for (name in part_selectors) {
    value <- if (is.null(user[[name]])) parameter_default(name, preset, n, args) else user[[name]]
    args[[name]] <- svf_parameters[[name]]$check(value)
  }
  check_part_outcomes(args, outcome)
  used <- used_parameter_names(used_parts(args))
  unused <- setdiff(names(user)[!vapply(user, is.null, TRUE)], used)  # NULL: the default
  if (length(unused)) {
    # ranger's name of a parameter of another splitter (`mtry` is the hybrid
    # splitter's): name this fit's own one
    own <- if (unused[1] %in% names(foreign_arguments)) foreign_argument_message(unused[1], args)
    if (!is.null(own) && !startsWith(own, sprintf("`%s` is called `%s`", unused[1], unused[1]))) stop(own, call. = FALSE)
    owners <- parameter_owners(unused[1])
    stop(sprintf("`%s` is a parameter of %s, %s (its parts: %s sampler, %s splitter, %s leaves).",
                 unused[1], owners, if (grepl(" and |, ", owners)) "none of which this fit uses" else "which this fit does not use",
                 args$sampler, args$splitter, args$leaf), call. = FALSE)
  }
  for (name in setdiff(used, part_selectors)) {
    value <- user[[name]]
    if (is.null(value)) value <- parameter_default(name, preset, n, args)
    args[[name]] <- svf_parameters[[name]]$check(value)
  }
  args[used]
}

# Parameters that depend on the data, set once the design is known (e.g.
# `m_max = NA`: all `p` predictor columns).
finish_parameters <- function(params, p) {
  for (name in names(params)) {
    finish <- svf_parameters[[name]]$finish
    if (!is.null(finish)) params[[name]] <- finish(params[[name]], p)
  }
  params
}

#' Methods available in svforest
#'
#' Lists the method presets with the engine parts each one combines.
#' @return A data frame with one row per method.
#' @examples
#' svforest_methods()
#' @export
svforest_methods <- function() {
  presets <- svf_registry$methods
  data.frame(
    method = names(presets),
    sampler = vapply(presets, `[[`, "", "sampler"),
    splitter = vapply(presets, `[[`, "", "splitter"),
    leaf = vapply(presets, `[[`, "", "leaf"),
    aggregation = vapply(presets, `[[`, "", "aggregation"),
    default_ntree = vapply(presets, function(p) p$ntree, 0L),
    row.names = NULL, stringsAsFactors = FALSE
  )
}
