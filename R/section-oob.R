#' @include model.R
NULL

# The `oob` section: the out-of-bag elements the outcome family's oob hook
# writes (R/family-*.R, through oob_results()), each under its own name.
new_oob_section <- function(fields) fields

check_oob_section <- function(object, fail) {
  oob <- section_of(object, "oob")
  e <- oob$oob_error
  if (!is.null(e) && (!is.numeric(e) || length(e) != 1)) fail("'oob_error' is damaged")
  n <- section_of(object, "rows")$n
  p <- oob$oob_predictions
  if (!is.null(p) && !identical(NROW(p), as.integer(n))) fail("'oob_predictions' is damaged")
}
