# The forest as one SQL SELECT: the design (missing values, factor codes,
# rank maps) in a first step, the routing through the trees one level per
# step, the leaves' outputs summed, the parsnip-named predictions last.

#' A forest as an SQL query
#'
#' Writes one SQL `SELECT` statement that computes, inside a database, the
#' predictions [predict()] gives: for each row of `table`, the class
#' probabilities `.pred_<class>` and the class `.pred_class`, or the number
#' `.pred` for a numeric outcome (the names parsnip uses). The statement
#' holds the whole model: missing values filled in as the model fills them
#' (medians, the conditional means of numeric columns, the `"(missing)"` or
#' most frequent level, indicator columns), factor codes or indicators,
#' rank maps, axis cuts and hyperplanes, constant and linear leaves, and
#' the forest's aggregation. It uses only standard SQL (`WITH`, `CASE`,
#' `COALESCE`, `CAST`, arithmetic) and is tested in SQLite.
#'
#' @param object A fitted [svforest()] model.
#' @param table The table (or view) holding the predictors under the names
#'   the model was fitted with: a string, quoted as an identifier; wrap it in
#'   [I()] to insert it as it is (e.g. `I("schema.tab")`). Factor columns
#'   hold the levels as text, logical columns 0/1, missing values `NULL`.
#' @param id Optional name of a column of `table` to return first (the
#'   rows' key).
#' @param trees Optional tree numbers: the query averages these trees only
#'   (`NULL`: all).
#' @param materialize Whether the query's steps are written `AS
#'   MATERIALIZED` (SQLite 3.35 or later, PostgreSQL 12 or later), so that
#'   each is computed once; without it SQLite inlines them and repeats the
#'   design's expressions in every split (about ten times slower, and with
#'   rank maps or deep trees far slower and larger in memory). `FALSE` only
#'   for databases without that keyword.
#' @return A string: one `SELECT` statement. A row with a factor level the
#'   model did not see in training (where [predict()] gives an error), or a
#'   missing value in a model fitted with `na_action = "fail"`, gets `NULL`
#'   predictions.
#' @details Not every model can be written this way: kernel SVM leaves
#'   (`"tdsvm"`, `leaf = "kernel_svm"`), logistic leaves, transformation
#'   splits (`"transform"`), the `"max_confidence"` aggregation, calibrated
#'   probabilities, survival forests, and formulas whose terms are not plain
#'   columns (`log(x)`, interactions) give an error naming what cannot be
#'   expressed. Conditional-mean imputation is written one pattern of
#'   missing columns at a time, for models that impute at most 10 numeric
#'   columns jointly. Probabilities agree with [predict()] to about 1e-10
#'   (each tree's class shares are rounded to multiples of 2^-32, as the
#'   engine does to decide the class), classes exactly.
#' @seealso [svforest_tree()] for the same model as tables.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' sql <- svforest_sql(fit, "iris")
#' substr(sql, 1, 200)
#' if (requireNamespace("RSQLite", quietly = TRUE)) {
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   DBI::dbWriteTable(con, "iris", iris)
#'   head(DBI::dbGetQuery(con, sql))
#'   DBI::dbDisconnect(con)
#' }
#' @export
svforest_sql <- function(object, table, id = NULL, trees = NULL, materialize = TRUE) {
  check_model(object)
  table <- sql_table(table)
  if (!is.null(id) && (!is.character(id) || length(id) != 1 || is.na(id) || id == "")) {
    stop(sprintf("`id` must be a column name (a string) or NULL, not %s.", describe(id)), call. = FALSE)
  }
  n <- length(object$forest$trees)
  if (is.null(trees)) trees <- seq_len(n)
  if (!is.numeric(trees) || !length(trees) || anyNA(trees) || any(trees != round(trees)) || any(trees < 1 | trees > n)) {
    stop(sprintf("`trees` must be tree numbers from 1 to %d, not %s.", n, describe(trees)), call. = FALSE)
  }
  trees <- as.integer(trees)
  if (!is.logical(materialize) || length(materialize) != 1 || is.na(materialize)) {
    stop(sprintf("`materialize` must be TRUE or FALSE, not %s.", describe(materialize)), call. = FALSE)
  }
  sql_check_expressible(object, trees)
  map <- design_map(object)
  design <- sql_design_columns(object, map)
  key <- if (!is.null(id)) paste0(sql_ident(id), " AS ", sql_ident(id), ", ") else ""
  keep <- if (!is.null(id)) paste0(sql_ident(id), ", ") else ""
  cols <- sprintf("c%d", seq_len(nrow(map)))
  ok <- paste(sprintf("%s IS NOT NULL", cols), collapse = " AND ")
  ranked <- ifelse(map$ranked, vapply(seq_len(nrow(map)), function(j) {
    if (map$ranked[j]) sql_rank(cols[j], map$rank_map[[j]]) else ""
  }, ""), cols)
  # each step computed once: inlined, every use of a column would repeat its expression
  as <- if (materialize) "AS MATERIALIZED" else "AS"
  step1 <- sprintf("inputs %s (SELECT %s%s FROM %s),\ndesign %s (SELECT %s%s, CASE WHEN %s THEN 1 ELSE 0 END AS ok FROM inputs)",
                   as, key, paste(sprintf("%s AS %s", design, cols), collapse = ", "), table,
                   as, keep, paste(sprintf("%s AS %s", ranked, cols), collapse = ", "), ok)
  step2 <- sql_route_steps(object$forest, trees, cols, c(if (!is.null(id)) sql_ident(id), cols, "ok"), as)
  sums <- sql_sums(object, trees, cols)
  step3 <- sprintf("summed %s (SELECT %sok, %s FROM route%d)", as, keep,
                   paste(sprintf("%s AS %s", sums, names(sums)), collapse = ", "), attr(step2, "last"))
  sql <- sprintf("WITH %s,\n%s,\n%s\nSELECT %s%s FROM summed", step1, step2, step3, keep,
                 sql_outputs(object, length(trees)))
  sql
}

# The table as SQL: an identifier, or as given when wrapped in I().
sql_table <- function(table) {
  if (!is.character(table) || length(table) != 1 || is.na(table) || table == "") {
    stop(sprintf("`table` must be a table name (a string), not %s.", describe(table)), call. = FALSE)
  }
  if (inherits(table, c("AsIs", "SQL"))) as.character(table) else sql_ident(table)
}

sql_ident <- function(x) sprintf('"%s"', gsub('"', '""', x, fixed = TRUE))
sql_string <- function(x) sprintf("'%s'", gsub("'", "''", x, fixed = TRUE))

# A double as an SQL literal that reads back exactly, always a real (an
# integer literal would make SQLite divide integers).
sql_num <- function(x) {
  s <- sprintf("%.17g", x)
  plain <- !grepl("[.eEn]", s)
  s[plain] <- paste0(s[plain], ".0")
  ifelse(x < 0, paste0("(", s, ")"), s)
}

# An error naming what the model holds that SQL cannot express.
sql_check_expressible <- function(object, trees) {
  what <- sprintf("method \"%s\"", object$method)
  fail <- function(msg) stop(sprintf("svforest_sql() cannot express %s (%s).", msg, what), call. = FALSE)
  model_family(object)$tree_table$sql_check(object, fail)  # R/family-*.R
  for (stage in svf_stages()) {
    if (!is.null(stage$predict_prob) && !is.null(stage$field) && !is.null(object[[stage$field]])) {
      fail(sprintf("the model's `%s` stage (probabilities changed after the trees)", stage$field))
    }
  }
  ok_leaves <- c("class_counts", "constant", "mean", "linear_svm", "ridge", "linear_svr")
  for (t in trees) {
    tr <- checked_tree(object, t)
    split <- setdiff(stats::na.omit(tree_split_kinds(tr)), c("axis", "oblique"))
    if (length(split)) fail(sprintf("the \"%s\" splits of tree %d", split[1], t))
    leaf <- setdiff(tree_leaf_payload_kinds(tr), ok_leaves)
    if (length(leaf)) fail(sprintf("the \"%s\" leaves of tree %d", leaf[1], t))
  }
  spec <- object$design
  if (identical(spec$type, "frame")) {
    tt <- stored_terms(spec$terms)
    labels <- attr(tt, "term.labels")
    plain <- labels %in% all.vars(tt) & attr(tt, "order") == 1L
    if (!all(plain)) fail(sprintf("the formula term `%s` (only plain column names)", labels[!plain][1]))
    if (any(design_map(object)$type == "input")) fail("a design column of this formula")
  } else if (is.null(if (is.null(spec$input_ncol)) spec$feature_names else spec$input_names)) {
    fail("a model fitted on a matrix without column names")
  }
}

# The SQL of every design column, in the model's order: the raw column
# with its missing values filled and coded (rank maps come after).
sql_design_columns <- function(object, map) {
  spec <- object$design
  frame <- identical(spec$type, "frame")
  raw <- function(v) sql_ident(v)
  fills <- if (imputes(spec)) spec$impute$values else list()
  numeric_vars <- map$variable[map$type %in% c("numeric", "input")]
  filled <- sql_filled_numbers(numeric_vars, map, attr(map, "joint"), frame)
  vapply(seq_len(nrow(map)), function(j) {
    v <- map$variable[j]
    e <- switch(map$type[j],
      numeric = , input = filled[[v]],
      missing_indicator = sprintf("CASE WHEN %s IS NULL THEN 1.0 ELSE 0.0 END", raw(v)),
      logical = sprintf("CASE WHEN %s IS NULL THEN %s WHEN %s THEN 1.0 ELSE 0.0 END", raw(v),
                        if (is.na(map$fill[j])) "NULL" else sql_num(map$fill[j]), raw(v)),
      factor_code = sql_factor_code(object, NULL, v, sql_level(v, fills[[v]])),
      factor_level = sprintf("CASE WHEN %s IN (%s) THEN (CASE WHEN %s = %s THEN 1.0 ELSE 0.0 END) END",
                             sql_level(v, fills[[v]]), paste(sql_string(spec$xlevels[[v]]), collapse = ", "),
                             sql_level(v, fills[[v]]), sql_string(map$level[j])))
    e
  }, "")
}

# A factor's raw text with missing values replaced by the level that
# stands for them (none without imputation).
sql_level <- function(v, fill) {
  if (is.null(fill)) sql_ident(v) else sprintf("COALESCE(%s, %s)", sql_ident(v), sql_string(fill))
}

# The value tree `tree` reads for coded factor `variable` (NULL: the
# forest's coding): a CASE over the levels, NULL for a level unseen in
# training. The one place to change for per-tree codings.
sql_factor_code <- function(object, tree, variable, level_sql) {
  coding <- tree_factor_coding(object, tree, variable)
  sprintf("CASE %s %s END", level_sql,
          paste(sprintf("WHEN %s THEN %s", sql_string(names(coding)), sql_num(coding)), collapse = " "))
}

# Filled numeric inputs, named by variable: the medians, or with a joint
# imputation the conditional mean given each pattern of observed columns
# (then the median when no column is observed).
sql_filled_numbers <- function(vars, map, joint, frame) {
  median_of <- stats::setNames(map$fill[match(vars, map$variable)], vars)
  real <- function(v) sprintf("CAST(%s AS REAL)", sql_ident(v))
  out <- lapply(stats::setNames(vars, vars), function(v) {
    if (is.na(median_of[[v]])) real(v) else sprintf("COALESCE(%s, %s)", real(v), sql_num(median_of[[v]]))
  })
  if (is.null(joint)) return(out)
  cols <- if (frame) joint$columns else vars
  if (length(cols) > 10) {
    stop(sprintf("svforest_sql() writes the conditional-mean imputation one pattern of missing columns at a time; this model imputes %d numeric columns jointly (at most 10).",
                 length(cols)), call. = FALSE)
  }
  for (m in seq_along(cols)) {
    v <- cols[m]
    others <- setdiff(seq_along(cols), m)
    patterns <- sql_missing_patterns(length(others))
    cases <- vapply(seq_len(nrow(patterns)), function(r) {
      mis <- c(m, others[patterns[r, ]])
      obs <- setdiff(seq_along(cols), mis)
      beta <- solve(joint$cov[obs, obs, drop = FALSE], joint$cov[obs, m, drop = FALSE])
      when <- paste(c(sprintf("%s IS NULL", sql_ident(cols[others[patterns[r, ]]])),
                      sprintf("%s IS NOT NULL", sql_ident(cols[obs]))), collapse = " AND ")
      value <- paste(c(sql_num(joint$mean[m]),
                       sprintf("%s * (%s - %s)", sql_num(beta[, 1]), real(cols[obs]), sql_num(joint$mean[obs]))),
                     collapse = " + ")
      sprintf("WHEN %s THEN %s", when, value)
    }, "")
    out[[v]] <- sprintf("CASE WHEN %s IS NOT NULL THEN %s %s ELSE %s END", sql_ident(v), real(v),
                        paste(cases, collapse = " "), out[[v]])
  }
  out
}

# The patterns of k other columns that leave at least one observed: a
# logical matrix, one row per pattern (TRUE: missing).
sql_missing_patterns <- function(k) {
  if (k == 0) return(matrix(FALSE, 0, 0))
  grid <- as.matrix(expand.grid(rep(list(c(FALSE, TRUE)), k)))
  grid[rowSums(grid) < k, , drop = FALSE]
}

# The rank map of a column (rank_apply_column()) as a CASE.
sql_rank <- function(e, col) {
  k <- col$knots
  f <- col$values
  m <- length(k)
  if (m == 1L) return(sprintf("CASE WHEN %s IS NULL THEN NULL ELSE %s END", e, sql_num(f[1])))
  i <- seq_len(m - 1L)
  pieces <- sprintf("WHEN %s < %s THEN %s + ((%s - %s) / %s) * %s", e, sql_num(k[i + 1L]), sql_num(f[i]), e,
                    sql_num(k[i]), sql_num(k[i + 1L] - k[i]), sql_num(f[i + 1L] - f[i]))
  sprintf("CASE WHEN %s < %s THEN %s %s WHEN %s IS NOT NULL THEN %s END", e, sql_num(k[1]), sql_num(f[1]),
          paste(pieces, collapse = " "), e, sql_num(f[m]))
}

# The split conditions of `tr` on the design columns `cols`, one per node
# ("" at leaves), summed in the engine's order.
sql_split_conditions <- function(forest, tr, cols) {
  kinds <- tree_split_kinds(tr)
  cond <- character(length(kinds))
  axis <- tree_axis_splits(forest, tr)
  cond[axis$node] <- sprintf("%s <= %s", cols[axis$var + 1L], sql_num(axis$value))
  obl <- which(kinds %in% "oblique")
  if (length(obl)) {
    cond[obl] <- vapply(tree_oblique_splits(forest, tr, obl), function(s) {
      sprintf("(%s) <= %s", paste(sprintf("%s * %s", sql_num(s$weights), cols[s$vars + 1L]), collapse = " + "),
              sql_num(s$value))
    }, "")
  }
  cond
}

# Routing, one level of every tree per step (nested CASEs as deep as a
# tree overflow SQL parsers): step d holds n<t>, the node (from 1) each row
# has reached in tree t after d levels. `base`: the columns carried along.
# A character vector of steps route1, route2, ... (attribute "last").
# The columns as tree `tr` reads them: a coded factor's level CODE mapped
# to the tree's own level value (LevelValues.h; other codes: the overall value).
sql_tree_cols <- function(tr, cols) {
  fi <- tr$factor_int
  fr <- tr$factor_real
  if (!length(fi)) return(cols)
  off <- 0L
  for (f in seq(1L, length(fi) - 1L, by = 2L)) {
    j <- fi[f] + 1L
    L <- fi[f + 1L]
    vals <- fr[off + seq_len(L + 1L)]
    cols[j] <- sprintf("(CASE %s %s ELSE %s END)", cols[j],
                       paste(sprintf("WHEN %d THEN %s", seq_len(L), sql_num(vals[-1])), collapse = " "), sql_num(vals[1]))
    off <- off + L + 1L
  }
  cols
}

sql_route_steps <- function(forest, trees, cols, base, as) {
  info <- lapply(trees, function(t) {
    tr <- forest$trees[[t]]
    nodes <- tree_nodes(tr)
    depth <- integer(length(nodes$leaf_id))
    for (i in which(nodes$leaf_id < 0)) depth[nodes$left_child[i] + 1L] <- depth[nodes$right_child[i] + 1L] <- depth[i] + 1L
    list(nodes = nodes, depth = depth, cond = sql_split_conditions(forest, tr, sql_tree_cols(tr, cols)))
  })
  levels <- max(1L, max(vapply(info, function(x) max(x$depth), 0L)))
  steps <- vapply(seq_len(levels), function(d) {
    moves <- vapply(seq_along(info), function(t) {
      x <- info[[t]]
      at <- which(x$depth == d - 1L & x$nodes$leaf_id < 0)
      current <- if (d == 1L) "1" else sprintf("n%d", t)
      if (!length(at)) return(sprintf("%s AS n%d", current, t))
      sprintf("CASE %s %s ELSE %s END AS n%d", current,
              paste(sprintf("WHEN %d THEN (CASE WHEN %s THEN %d ELSE %d END)", at, x$cond[at],
                            x$nodes$left_child[at] + 1L, x$nodes$right_child[at] + 1L), collapse = " "), current, t)
    }, "")
    sprintf("route%d %s (SELECT %s, %s FROM %s)", d, as, paste(base, collapse = ", "), paste(moves, collapse = ", "),
            if (d == 1L) "design" else sprintf("route%d", d - 1L))
  }, "")
  structure(paste(steps, collapse = ",\n"), last = levels)
}
