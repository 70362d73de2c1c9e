#' @include model.R
NULL

# The `outcome` section: the outcome family (`type`), the fields the
# family's model_fields hook writes (R/family-*.R), and the outcome's
# expression of a formula fit (NULL for x/y).
new_outcome_section <- function(type, family_fields, expression = NULL) {
  c(list(type = type), family_fields, list(expression = expression))
}

# The family's own check reads the model through its names (R/family.R).
check_outcome_section <- function(object, fail) {
  family <- model_family(object)  # R/family.R
  if (is.null(family)) fail("'type' is damaged")
  family$check_model(object, fail)
  expression <- section_of(object, "outcome")$expression
  if (!is.null(expression) && !is.name(expression) && !is.call(expression)) fail("'outcome$expression' is damaged")
}
