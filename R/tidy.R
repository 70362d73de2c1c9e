# The broom-style generics (generics::tidy(), generics::glance()) for a
# fitted forest: the tables of R/tree-table.R and the figures print() shows.

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance

#' A forest or one of its trees as a tidy table
#'
#' `tidy()` with `tree` gives that tree's nodes, one row each
#' ([svforest_tree()]); without it, how the forest's splits use each term
#' ([svforest_tree_summary()]). `glance()` gives the model in one row: its
#' size and its out-of-bag figures.
#'
#' @param x A fitted [svforest()] model.
#' @param tree `NULL` (the default) for the forest-level summary, or a tree
#'   (from 1).
#' @param ... Not used; anything given is an error.
#' @return `tidy()`: a tibble (a data frame when the tibble package is not
#'   installed) with the columns of [svforest_tree()] (with `tree`) or of
#'   [svforest_tree_summary()] (without). `glance()`: a one-row tibble (or
#'   data frame): `method`, `type` (`"classification"` or `"regression"`),
#'   `ntree`, `nobs` (training rows), `mean_leaves` (leaves per tree),
#'   `oob_error` (share of out-of-bag rows misclassified, or the out-of-bag
#'   mean squared error of a numeric outcome), `oob_rsquared` (numbers),
#'   `oob_brier` and `oob_logloss` (classes; `NA` otherwise), and
#'   `oob_optimistic` (`TRUE` when the rows that score the trees out of bag
#'   also chose their splits, as in `"rsvf"`: the figures are then no
#'   validation). A survival forest (`type` `"survival"`) adds
#'   `oob_concordance` (Harrell's C; its `oob_error` is 1 minus it) and
#'   `oob_ibs` (the integrated Brier score). The out-of-bag figures are `NA`
#'   when the sampler leaves no row out.
#' @seealso [svforest_tree()], [svforest_tree_summary()], [print.svforest()].
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' tidy(fit, tree = 2)[, c("node", "kind", "label", "n_inbag", "n_oob")]
#' tidy(fit)
#' glance(fit)
#' @method tidy svforest
#' @export
tidy.svforest <- function(x, tree = NULL, ...) {
  check_tidy_dots(...)
  out <- if (is.null(tree)) svforest_tree_summary(x) else svforest_tree(x, tree)
  as_tidy_table(out)
}

#' @rdname tidy.svforest
#' @method glance svforest
#' @export
glance.svforest <- function(x, ...) {
  check_tidy_dots(...)
  check_model(x)
  figure <- function(v) if (is.numeric(v) && length(v) == 1) as.double(v) else NA_real_
  leaves <- vapply(x$forest$trees, function(t) as.double(tree_n_leaves(t)), 0)
  out <- data.frame(method = x$method, type = x$type, ntree = length(x$forest$trees),
                    nobs = as.integer(x$num_rows), mean_leaves = mean(leaves),
                    oob_error = figure(x$oob_error), oob_rsquared = figure(x$oob_rsquared),
                    oob_brier = figure(x$oob_brier), oob_logloss = figure(x$oob_logloss),
                    oob_optimistic = isTRUE(x$oob_optimistic), stringsAsFactors = FALSE)
  own <- model_family(x)$glance(x)  # the family's own figures (survival: concordance, Brier score)
  if (length(own)) out <- cbind(out, as.data.frame(as.list(own)))
  as_tidy_table(out)
}

check_tidy_dots <- function(...) {
  if (...length()) {
    extra <- names(list(...))
    named <- if (is.null(extra)) "" else paste0(" (", paste0("`", extra[nzchar(extra)], "`", collapse = ", "), ")")
    stop(sprintf("Unused argument%s: give `tree` by name, or nothing.", named), call. = FALSE)
  }
}

# A tibble when the tibble package is there (attributes kept), else the data frame.
as_tidy_table <- function(df) {
  if (!requireNamespace("tibble", quietly = TRUE)) return(df)
  keep <- attributes(df)[setdiff(names(attributes(df)), c("names", "row.names", "class"))]
  out <- tibble::as_tibble(df)
  for (a in names(keep)) attr(out, a) <- keep[[a]]
  out
}
