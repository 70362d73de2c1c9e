# Method presets. A method is a combination of engine parts (sampler x
# splitter x leaf model x aggregation) plus default parameter values; the
# user may override any part or parameter through svforest(...).

svf_presets <- list(
  rsvt = list(
    sampler = "all", splitter = "random_axis", leaf = "linear_svm",
    aggregation = "vote", ntree = 10L
  ),
  psvm = list(
    sampler = "all", splitter = "psvm", leaf = "constant",
    aggregation = "vote", ntree = 100L
  ),
  transform = list(
    sampler = "subsample", splitter = "transform", leaf = "constant",
    aggregation = "prob", ntree = 20L,
    defaults = list(max_depth = 9L)
  ),
  tdsvm = list(
    sampler = "all", splitter = "cart", leaf = "kernel_svm",
    aggregation = "vote", ntree = 1L,
    defaults = list(cost = 10^(0:4))
  ),
  # RSVF: leaves and split scoring use C = 1 without CV (the paper's choice);
  # tree and candidate counts are cheap everyday values, see rsvf_paper_settings()
  rsvf = list(
    sampler = "bootstrap", splitter = "oob_svm", leaf = "linear_svm",
    aggregation = "vote", ntree = 20L,
    defaults = list(cost = 1, cv_folds = 1L, max_depth = 6L, min_leaf_size = 5L, balanced = "task")
  )
)

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
# the parameters whose default `NA` means "automatic" (m_max, transform_rank, dim_per_class,
# sigma): NA is the documented default value, so giving it is the default.
check_count_or_na <- function(x, name, min) {
  if ((is.logical(x) || is.numeric(x)) && length(x) == 1 && is.na(x) && !is.nan(x)) return(NA_integer_)
  check_count(x, name, min)
}

# Every tunable parameter: its default and its check. `n` (training rows) and
# `method` are available to defaults that depend on the data.
svf_parameters <- list(
  sampler = list(default = function(preset, n) preset$sampler,
                 check = function(x) check_choice(x, "sampler", c("all", "bootstrap", "subsample"))),
  sample_fraction = list(default = function(preset, n, args) if (identical(args$sampler, "subsample")) 0.632 else 1,
                         check = function(x) check_number(x, "sample_fraction", 0, 1, min_open = TRUE)),
  splitter = list(default = function(preset, n) preset$splitter,
                  check = function(x) check_choice(x, "splitter", c("random_axis", "psvm", "transform", "cart", "oob_svm"))),
  leaf = list(default = function(preset, n) preset$leaf,
              check = function(x) check_choice(x, "leaf", c("linear_svm", "constant", "kernel_svm"))),
  aggregation = list(default = function(preset, n) preset$aggregation,
                     check = function(x) check_choice(x, "aggregation", c("vote", "prob", "max_confidence"))),
  leaf_size_factor = list(default = function(preset, n) 1,
                          check = function(x) check_number(x, "leaf_size_factor", 0, min_open = TRUE)),
  min_leaf_size = list(default = function(preset, n, args)
                         preset_default(preset, "min_leaf_size", as.integer(ceiling(args$leaf_size_factor * sqrt(n)))),
                       check = function(x) check_count(x, "min_leaf_size", 1)),
  split_rule = list(default = function(preset, n) "admissible",
                    check = function(x) check_choice(x, "split_rule", c("admissible", "published"))),
  max_depth = list(default = function(preset, n) preset_default(preset, "max_depth", 0L),
                   check = function(x) check_count(x, "max_depth", 0, 10000)),
  nu = list(default = function(preset, n) 1000,
            check = function(x) check_number(x, "nu", 0, min_open = TRUE)),
  m_max = list(default = function(preset, n, args) NA_integer_,  # all predictors, set in fit_forest()
               check = function(x) check_count_or_na(x, "m_max", 1)),
  n_min = list(default = function(preset, n) 2L,
               check = function(x) check_count(x, "n_min", 0)),
  # transformation splits
  transform_rank = list(default = function(preset, n) NA_integer_,  # NA: square T
                        check = function(x) check_count_or_na(x, "transform_rank", 2)),
  subspace_dim = list(default = function(preset, n) 10L,
                      check = function(x) check_count(x, "subspace_dim", 1)),
  dim_per_class = list(default = function(preset, n) NA_integer_,  # NA: subspace_dim at every node
                       check = function(x) check_count_or_na(x, "dim_per_class", 1)),
  transform_iter = list(default = function(preset, n) 30L,
                        check = function(x) check_count(x, "transform_iter", 0, 10000)),
  transform_step = list(default = function(preset, n) 0.5,
                        check = function(x) check_number(x, "transform_step", 0, min_open = TRUE)),
  node_tries = list(default = function(preset, n) 1L,
                    check = function(x) check_count(x, "node_tries", 1, 1000)),
  min_node_size = list(default = function(preset, n) 5L,
                       check = function(x) check_count(x, "min_node_size", 2)),
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
  split_tolerance = list(default = function(preset, n) 0.1,
                         check = function(x) check_number(x, "split_tolerance", 0, min_open = TRUE)),
  scale = list(default = function(preset, n) TRUE,
               check = function(x) check_flag(x, "scale")),
  # tree decomposition (splitter "cart") and kernel SVM leaves
  sigma = list(default = function(preset, n) NA_integer_,  # NA: chosen by the search
               check = function(x) check_count_or_na(x, "sigma", 2)),
  sigma0 = list(default = function(preset, n) as.integer(min(1500, max(50, ceiling(n / 8)))),
                check = function(x) check_count(x, "sigma0", 2)),
  sigma_factor = list(default = function(preset, n) 4L,
                      check = function(x) check_count(x, "sigma_factor", 2, 1000)),
  gamma = list(default = function(preset, n) 10^(-1:2),
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

# Resolves the parameters of a fit: preset defaults, then user overrides, each
# checked; unknown names are an error (a typo must not be silently ignored).
resolve_parameters <- function(method, user, n) {
  preset <- svf_presets[[method]]
  unknown <- setdiff(names(user), names(svf_parameters))
  if (length(unknown) > 0 || (length(user) > 0 && is.null(names(user))) || any(names(user) == "")) {
    stop(sprintf("Unknown argument%s %s. Method parameters are: %s.",
                 if (length(unknown) > 1) "s" else "",
                 if (length(unknown)) paste0("`", unknown, "`", collapse = ", ") else "(unnamed)",
                 paste(names(svf_parameters), collapse = ", ")), call. = FALSE)
  }
  args <- list()
  for (name in names(svf_parameters)) {
    spec <- svf_parameters[[name]]
    value <- user[[name]]
    if (is.null(value)) {
      f <- spec$default
      value <- if ("args" %in% names(formals(f))) f(preset, n, args) else f(preset, n)
    }
    args[[name]] <- spec$check(value)
  }
  args
}

#' Methods available in svforest
#'
#' Lists the method presets with the engine parts each one combines.
#' @return A data frame with one row per method.
#' @examples
#' svforest_methods()
#' @export
svforest_methods <- function() {
  data.frame(
    method = names(svf_presets),
    sampler = vapply(svf_presets, `[[`, "", "sampler"),
    splitter = vapply(svf_presets, `[[`, "", "splitter"),
    leaf = vapply(svf_presets, `[[`, "", "leaf"),
    aggregation = vapply(svf_presets, `[[`, "", "aggregation"),
    default_ntree = vapply(svf_presets, function(p) p$ntree, 0L),
    row.names = NULL, stringsAsFactors = FALSE
  )
}
