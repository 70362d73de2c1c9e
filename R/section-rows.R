#' @include model.R
NULL

# The `rows` section: the number of rows the trees were grown on, the class
# and case (sampling) weights, and which rows a zero case weight left out.
new_rows_section <- function(n, class_weights, sampling_weights, used) {
  list(n = n, class_weights = class_weights, sampling_weights = sampling_weights, used = used)
}

check_rows_section <- function(object, fail) {
  rows <- section_of(object, "rows")
  n <- rows$n
  if (!is.numeric(n) || length(n) != 1 || is.na(n) || n < 1) fail("'num_rows' is damaged")
  w <- rows$sampling_weights
  if (!is.null(w) && (!is.double(w) || anyNA(w) || any(!is.finite(w)) || any(w <= 0))) {
    fail("'sampling_weights' is damaged")
  }
  cw <- rows$class_weights
  if (!is.null(cw) && (!is.numeric(cw) || anyNA(cw) || any(cw < 0))) fail("'class_weights' is damaged")
  used <- rows$used
  if (!is.null(used) && (!is.logical(used) || anyNA(used) || sum(used) < n)) fail("'rows_used' is damaged")
}
