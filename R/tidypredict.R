# tidypredict support: tidypredict_fit() gives a forest as R expressions of
# the data's columns (and so tidypredict_sql(), through dbplyr, as SQL for
# any DBI backend). The methods are registered in .onLoad() when
# tidypredict is installed (R/zzz.R), so it stays a suggestion.

#' A forest as tidypredict expressions
#'
#' With the tidypredict package installed, `tidypredict::tidypredict_fit()`
#' gives a fitted forest as R expressions of the data's columns, which
#' dplyr evaluates and dbplyr translates to SQL (`tidypredict_sql()`, or
#' `dplyr::mutate()` on a database table). A regression forest gives one
#' expression (the prediction); a classification forest gives a list of
#' expressions named by class, the class probabilities (tidypredict's form
#' for classes). Each tree is one expression: nested `case_when()`s for its
#' first levels, below them one `case_when()` per subtree whose conditions
#' are the leaves' paths (SQLite's parser refuses CASEs nested much deeper).
#' Rows with a factor level unseen in training give `NA`.
#'
#' It covers forests whose trees split by axis cuts and hyperplanes and end
#' in constant leaves (the default `"hybrid"` method, also with axis cuts
#' alone (`n_oblique = 0`), or hyperplanes alone (`method = "psvm"` with
#' `aggregation = "prob"`)), for classification (with the `"prob"` aggregation) and
#' regression, with missing values filled by the median, level or most
#' frequent value, factor indicators and level codes. Other models give an
#' error naming what the expressions cannot hold: linear or kernel leaves,
#' transformation splits, the `"vote"` aggregation, rank-scaled columns and
#' the conditional-mean imputation (each would be repeated at every split
#' that reads the column; [svforest_sql()] writes them once), survival
#' forests, and pre-fit steps other than the package's. dbplyr writes
#' numbers with 15 significant digits, so probabilities agree with
#' [predict()] to about 1e-12 and a row within that distance of a split
#' may go the other way; [svforest_sql()] writes 17 and matches exactly.
#'
#' @name svforest_tidypredict
#' @return `tidypredict_fit(model)`, for a fitted [svforest()] model: a call (regression) or a named list of calls (classification).
#' @seealso [svforest_sql()], one SQL statement for the whole model, faster
#'   to run on many rows.
#' @examples
#' if (requireNamespace("tidypredict", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
#'   fit <- svforest(mpg ~ ., data = mtcars, ntree = 3, seed = 1, num_threads = 1)
#'   sql <- tidypredict::tidypredict_sql(fit, dbplyr::simulate_sqlite())
#'   substr(sql, 1, 200)
#' }
NULL

tidypredict_fit_svforest <- function(model, ...) {
  check_model(model)
  tp_check_expressible(model)
  map <- design_map(model)
  forest <- model$forest
  n <- length(forest$trees)
  columns <- lapply(seq_len(nrow(map)), function(j) tp_design_column(model, map, j))
  known <- tp_and(lapply(columns, function(e) call("!", call("is.na", e))))
  per_tree <- lapply(seq_len(n), function(t) tp_tree(model, t, map, columns))
  outputs <- if (forest$num_classes == 0) 1L else seq_len(forest$num_classes)
  out <- lapply(outputs, function(k) {
    mean <- call("/", tp_balanced(lapply(per_tree, function(tree) tree(k)), "+"), as.double(n))
    if (forest$num_classes == 0) mean <- call("+", call("*", mean, model$outcome_scale), model$outcome_center)
    call("case_when", call("~", known, mean))
  })
  if (forest$num_classes == 0) return(out[[1]])
  stats::setNames(out, model$levels)
}

# An error naming what the expressions cannot hold.
tp_check_expressible <- function(model) {
  fail <- function(msg) {
    stop(sprintf("tidypredict_fit() cannot express %s (method \"%s\"); svforest_sql() may.", msg, model$method),
         call. = FALSE)
  }
  sql_check_expressible(model, seq_along(model$forest$trees))
  if (model$forest$num_classes > 0 && !identical(model$params$aggregation, "prob")) {
    fail(sprintf("the \"%s\" aggregation", model$params$aggregation))
  }
  for (t in seq_along(model$forest$trees)) {
    leaf <- setdiff(tree_leaf_payload_kinds(model$forest$trees[[t]]), c("class_counts", "constant", "mean"))
    if (length(leaf)) fail(sprintf("the \"%s\" leaves of tree %d (only constant leaves)", leaf[1], t))
  }
  for (step in svf_prefit_steps()) {
    state <- step$state(model)
    if (is.null(state) || (is.list(state) && all(vapply(state, is.null, NA)))) next
    if (step$name %in% c("weights", "missing_values", "factor_coding")) next
    fail(sprintf("the pre-fit step \"%s\"%s", step$name,
                 if (step$name == "rank_scaling") " (rank-scaled columns)" else ""))
  }
  if (!is.null(attr(design_map(model), "joint"))) fail("the conditional-mean imputation of missing values")
}

# Column j of the design as an expression of the data's columns.
tp_design_column <- function(model, map, j, tree = NULL) {
  v <- as.name(map$variable[j])
  fill <- map$fill[j]
  filled <- function(e, value) if (is.na(value)) e else call("coalesce", e, value)
  level <- function() {
    value <- model$design$impute$values[[map$variable[j]]]
    if (imputes(model$design) && is.character(value)) call("coalesce", v, value) else v
  }
  switch(map$type[j],
    numeric = , input = filled(v, fill),
    logical = filled(call("as.numeric", v), fill),
    missing_indicator = call("case_when", call("~", call("is.na", v), 1), call("~", TRUE, 0)),
    factor_level = {
      lev <- level()
      call("case_when", call("~", call("==", lev, map$level[j]), 1),
           call("~", call("%in%", lev, model$design$xlevels[[map$variable[j]]]), 0))
    },
    factor_code = {
      codes <- tree_factor_coding(model, tree, map$variable[j])
      lev <- level()
      as.call(c(list(as.name("case_when")),
                Map(function(l, value) call("~", call("==", lev, l), value), names(codes), unname(codes))))
    })
}

# Tree t as a function of the output k: its expression.
tp_tree <- function(model, t, map, columns) {
  forest <- model$forest
  tr <- forest$trees[[t]]
  shape <- tree_links(tr)
  leaf <- shape$leaf
  left <- shape$left
  right <- shape$right
  # a tree reading its own factor level values needs its own columns
  coded <- which(map$type == "factor_code")
  if (length(coded) && length(tr$factor_int)) columns[coded] <- lapply(coded, function(j) tp_design_column(model, map, j, t))
  cond <- tp_conditions(forest, tr, columns)
  values <- if (forest$num_classes == 0) {
    matrix(tree_leaf_values(forest, tr, "mean", NA_real_), nrow = 1)
  } else {
    counts <- tree_leaf_counts(forest, tr)
    round(sweep(counts, 2, colSums(counts), "/") * 2^32) / 2^32
  }
  function(k) {
    value <- function(i) values[k, shape$leaf_id[i] + 1L]
    # the leaves below node i, each with the conditions of its path
    paths <- function(i, path) {
      if (leaf[i]) return(list(list(path = path, value = value(i))))
      c(paths(left[i], c(path, cond[i])), paths(right[i], c(path, list(call("!", cond[[i]])))))
    }
    node <- function(i, levels) {
      if (leaf[i]) return(value(i))
      if (levels == 0L) {
        p <- paths(i, list())
        last <- p[[length(p)]]
        return(as.call(c(list(as.name("case_when")),
                         lapply(p[-length(p)], function(x) call("~", tp_and(x$path), x$value)),
                         list(call("~", TRUE, last$value)))))
      }
      call("case_when", call("~", cond[[i]], node(left[i], levels - 1L)),
           call("~", TRUE, node(right[i], levels - 1L)))
    }
    node(1L, tp_levels)
  }
}

# Levels of a tree written as nested case_when()s: with the balanced sum
# over trees and dbplyr's parentheses, deeper nesting overflows SQLite's parser.
tp_levels <- 8L

# The split conditions of a tree on the design expressions (NULL at leaves).
tp_conditions <- function(forest, tr, columns) {
  kinds <- tree_split_kinds(tr)
  cond <- vector("list", length(kinds))
  axis <- tree_axis_splits(forest, tr)
  for (r in seq_len(nrow(axis))) cond[[axis$node[r]]] <- call("<=", columns[[axis$var[r] + 1L]], axis$value[r])
  obl <- which(kinds %in% "oblique")
  if (length(obl)) {
    s <- tree_oblique_splits(forest, tr, obl)
    for (r in seq_along(obl)) {
      terms <- Map(function(w, j) call("*", w, columns[[j + 1L]]), s[[r]]$weights, s[[r]]$vars)
      cond[[obl[r]]] <- call("<=", tp_balanced(terms, "+"), s[[r]]$value)
    }
  }
  cond
}

# Expressions joined by `op` as a balanced tree (shallow parentheses).
tp_balanced <- function(x, op) {
  if (length(x) == 1L) return(x[[1]])
  half <- length(x) %/% 2L
  call(op, tp_balanced(x[seq_len(half)], op), tp_balanced(x[-seq_len(half)], op))
}

tp_and <- function(x) if (length(x)) tp_balanced(x, "&") else TRUE
