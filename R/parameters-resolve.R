# Resolving a fit's parameters from the table (R/parameters.R): the
# outcome family's and the method's defaults, the parts a fit uses, the
# user's values checked.

# The defaults the table gives an outcome family (its specs' `family`), for
# the methods that take them (register_method(family_defaults = TRUE)).
family_parameter_defaults <- function(family) {
  specs <- c(svf_parameter_table, svf_fit_options)
  values <- lapply(specs, function(spec) spec$family[[family]])
  values[!vapply(values, is.null, TRUE)]
}

# "a factor", "numeric", "a survival outcome": an outcome family in a help page.
family_outcome_words <- function(family) sub(" \\(.*\\)$", "", svf_registry$families[[family]]$describe)

# A fit option's defaults by outcome family, for ?svforest_parameters (NULL: none).
family_defaults_doc <- function(spec) {
  if (!length(spec$family)) return(NULL)
  sprintf("Default for %s: %s.", paste(vapply(names(spec$family), family_outcome_words, ""), collapse = ", "),
          paste(vapply(spec$family, default_code, ""), collapse = ", "))  # R/docs.R
}

# A method's preset with the table's defaults of outcome family `family`
# when the method takes them (the family's `preset` hook, R/family-*.R).
apply_family_defaults <- function(preset, family) {
  if (!isTRUE(preset$family_defaults)) return(preset)
  own <- family_parameter_defaults(family)
  if (!is.null(own$ntree)) preset$ntree <- preset$ntree_max <- as.integer(own$ntree)
  own$ntree <- NULL
  preset$defaults <- utils::modifyList(preset$defaults, own)
  preset
}

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
    names_of_type <- Filter(function(part) name %in% svf_part(type, part)$parameters, names(svf_registry$parts[[type]]))
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
  for (name in intersect(unknown, names(foreign_arguments()))) {
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
    # (a default may be a part the outcome family sets itself, which users cannot choose)
    args[[name]] <- if (is.null(user[[name]])) parameter_default(name, preset, n, args)
                    else svf_parameters[[name]]$check(user[[name]])
  }
  check_part_outcomes(args, outcome)
  used <- used_parameter_names(used_parts(args))
  unused <- setdiff(names(user)[!vapply(user, is.null, TRUE)], used)  # NULL: the default
  if (length(unused)) {
    # ranger's name of a parameter of another splitter (`mtry` is the hybrid
    # splitter's): name this fit's own one
    own <- if (unused[1] %in% names(foreign_arguments())) foreign_argument_message(unused[1], args)
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
