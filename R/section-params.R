#' @include model.R
NULL

# The `params` section: the method preset and its resolved parameters.
new_params_section <- function(method, values) list(method = method, values = values)

check_params_section <- function(object, fail) {
  params <- section_of(object, "params")
  m <- params$method
  if (!is.character(m) || length(m) != 1 || is.na(m)) fail("'method' is damaged")
  if (!is.list(params$values) || !is.character(params$values$aggregation)) fail("'params' is damaged")
}
