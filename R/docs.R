# Help pages on the topics of svforest() (its own page, ?svforest, is kept to
# usage, arguments, value and an example). Documentation only.

#' @eval parameters_roxygen()
#' @name svforest_parameters
NULL

# --- generated help: ?svforest_parameters, and the usage of ?svforest_dials --
# Both come from the parameter specs (R/parameters.R). roxygen reads them
# through `@eval`; without roxygen, write_generated_docs() writes the same
# pages into man/, and test-docs.R fails when the installed pages differ.

parameters_title <- "Engine parts and method parameters of svforest()"
parameters_description <- paste(
  "The parts (sampler, splitter, leaf model) and parameters that [svforest()] takes through `...`,",
  "matched by their exact names, with each one's default for every method whose parts read it,",
  "its tuning range (its dials object, see [svforest_dials], and [svforest_caret()]) and the names",
  "ranger, randomForest or scikit-learn give it (an error that names the svforest one).",
  "The method presets are on [svforest_methods()].")

# A default as R code: `2`, `c(0.25, 0.5)`, `"oob"`, `NA`.
default_code <- function(value) {
  if (length(value) == 1 && is.na(value)) return("`NA`")
  if (is.integer(value)) value <- as.numeric(value)
  sprintf("`%s`", paste(deparse(value), collapse = ""))
}

# "Default: `2` for "hybrid" (classes); `5` for ...": parameter `name`'s
# default for each method (and outcome) whose parts read it, as
# resolve_parameters() gives it.
parameter_default_doc <- function(name) {
  cases <- list()
  for (m in method_names()) {
    outcomes <- Filter(function(f) m %in% svf_registry$families[[f]]$methods(), package_family_names)  # R/zzz.R
    texts <- vapply(outcomes, function(outcome) method_default_doc(name, m, outcome), "")
    texts <- texts[!is.na(texts)]
    if (length(unique(texts)) == 1 && length(texts) == length(outcomes)) {
      cases[[texts[1]]] <- c(cases[[texts[1]]], sprintf("`\"%s\"`", m))
    } else {
      for (outcome in names(texts)) {
        where <- sprintf("`\"%s\"` (%s)", m, family_outcome_words(outcome))
        cases[[texts[[outcome]]]] <- c(cases[[texts[[outcome]]]], where)
      }
    }
  }
  if (!length(cases)) {
    return(sprintf("Default: %s.", default_code(parameter_default(name, list(defaults = list()), 1000L, list()))))
  }
  if (length(cases) == 1) return(sprintf("Default: %s.", names(cases)))
  sprintf("Default: %s.", paste(sprintf("%s for %s", names(cases), vapply(cases, paste, "", collapse = ", ")),
                                collapse = "; "))
}

# The default of parameter `name` for method `m` and an outcome, as code
# (NA when the method's parts do not read it): the spec's `default_doc`
# when it depends on the number of training rows.
method_default_doc <- function(name, m, outcome) {
  small <- resolve_parameters(m, list(), 1000L, outcome)
  if (!name %in% names(small)) return(NA_character_)
  large <- resolve_parameters(m, list(), 1000000L, outcome)[[name]]
  if (identical(small[[name]], large)) default_code(large) else svf_parameters[[name]]$default_doc
}

# How dials and caret tune a parameter or fit option (spec `spec`).
parameter_tuning_doc <- function(spec, name) {
  t <- spec$tune
  if (is.null(t)) return("Not tuned.")
  if (is.null(t$lower)) {
    values <- if (!is.null(t$values)) t$values else parameter_choices(spec)
    return(sprintf("Tuned over %s (`svf_%s()`).", paste(vapply(values, default_code, ""), collapse = ", "), name))
  }
  upper <- if (identical(t$upper, "predictors")) "the number of predictors" else default_code(t$upper)
  sprintf("Tuned from %s to %s%s (`svf_%s()`%s).", default_code(t$lower), upper,
          if (!is.null(t$trans)) sprintf(", on a %s scale", t$trans) else "", name,
          if (name %in% names(svf_parameters)) {
            paste0(", caret", if (isTRUE(t$rows)) ": at most a quarter of the training rows" else "")
          } else "")
}

# One \item of the page, in markdown: help, default, parts, tuning, aliases.
parameter_item <- function(name, spec, option = FALSE) {
  parts <- if (option) NULL
           else if (name %in% c(part_selectors, forest_parameters)) "Read by every fit."
           else sprintf("Read by %s.", parameter_owners(name))
  alias <- if (length(spec$alias)) {
    sprintf("Also known as %s (ranger's, randomForest's or scikit-learn's name: an error naming `%s`).",
            paste0("`", spec$alias, "`", collapse = ", "), name)
  }
  tuning <- if (!option || !is.null(spec$tune)) parameter_tuning_doc(spec, name)
  text <- c(spec$help, if (!option) parameter_default_doc(name) else family_defaults_doc(spec), parts, tuning, alias)
  sprintf("\\item{`%s`}{%s}", name, paste(text, collapse = " "))
}

# The page's roxygen tags (markdown), for `@eval` in the block above.
parameters_roxygen <- function() {
  c(paste("@title", parameters_title), paste("@description", parameters_description),
    "@section Engine parts and parameters (passed through `...`):", "\\describe{",
    mapply(parameter_item, names(svf_parameters), svf_parameters), "}",
    "@section Fit options (passed through `...`):", "\\describe{",
    mapply(parameter_item, names(svf_fit_options), svf_fit_options, MoreArgs = list(option = TRUE)), "}",
    "@seealso [svforest()], [svforest_methods()], [svforest_dials]")
}

# Markdown of the specs' help (code, [topic], [function()]) as Rd.
md_to_rd <- function(text) {
  text <- gsub("%", "\\\\%", text)
  text <- gsub("\\[([A-Za-z_.]+)\\(\\)\\]", "\\\\code{\\\\link[=\\1]{\\1()}}", text)
  text <- gsub("\\[([A-Za-z_.]+)\\]", "\\\\link{\\1}", text)
  gsub("`([^`]+)`", "\\\\code{\\1}", text)
}

# man/svforest_parameters.Rd as roxygen would write it from parameters_roxygen().
parameters_rd <- function() {
  tags <- md_to_rd(parameters_roxygen())
  tag_value <- function(tag) sub(paste0("^@", tag, " "), "", grep(paste0("^@", tag, " "), tags, value = TRUE))
  sections <- split(tags, cumsum(grepl("^@", tags)))
  section_rd <- unlist(lapply(sections, function(lines) {
    if (!startsWith(lines[1], "@section ")) return(NULL)
    c(sprintf("\\section{%s}{", sub(":$", "", sub("^@section ", "", lines[1]))), "", lines[-1], "}", "")
  }), use.names = FALSE)
  unname(c("% Generated by write_generated_docs() (R/docs.R) from the parameter specs in R/parameters.R: do not edit by hand",
    "\\name{svforest_parameters}", "\\alias{svforest_parameters}", sprintf("\\title{%s}", tag_value("title")),
    "\\description{", tag_value("description"), "}", section_rd,
    "\\seealso{", tag_value("seealso"), "}"))
}

# The dials functions svforest exports, and their usage lines.
dials_function_names <- function() unname(c("svf_trees", svf_dials))
dials_usage <- function() {
  vapply(dials_function_names(), function(fn) {
    call <- as.call(c(as.name(fn), formals(get(fn))))
    paste(deparse(call, width.cutoff = 500L), collapse = "")
  }, "", USE.NAMES = FALSE)
}

# roxygen tags of ?svforest_dials for the generated functions (`@eval`).
dials_rd_usage <- function() {
  generated <- setdiff(dials_function_names(), c("svf_trees", "svf_method_name"))
  c(paste("@aliases", paste(generated, collapse = " ")),
    sprintf("@rawNamespace export(%s)", paste(generated, collapse = ", ")),
    paste("@usage", paste(dials_usage(), collapse = "\n\n")))
}

# Writes man/svforest_parameters.Rd and the aliases and usage of
# man/svforest_dials.Rd (run from the package source after changing a spec:
# `Rscript -e 'pkgload::load_all(); write_generated_docs()'` or with the
# installed package, `svforest:::write_generated_docs()`).
write_generated_docs <- function(man = "man") {
  writeLines(parameters_rd(), file.path(man, "svforest_parameters.Rd"))
  path <- file.path(man, "svforest_dials.Rd")
  rd <- readLines(path)
  first_alias <- which(rd == "\\alias{svforest_dials}")
  title <- grep("^\\\\title\\{", rd)
  rd <- c(rd[seq_len(first_alias)], sprintf("\\alias{%s}", dials_function_names()), rd[title:length(rd)])
  usage <- which(rd == "\\usage{")
  usage_end <- usage + which(rd[-(1:usage)] == "}")[1]
  rd <- c(rd[seq_len(usage)], paste(dials_usage(), collapse = "\n\n"), rd[usage_end:length(rd)])
  writeLines(rd, path)
  invisible(c(file.path(man, "svforest_parameters.Rd"), path))
}
