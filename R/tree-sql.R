# The forest as one SQL SELECT: the design in a first few steps (the raw
# columns as numbers, then what each pre-fit step adds: missing values,
# factor codes, rank maps; R/step-*.R), then every tree as CASE
# expressions whose leaves hold the outputs (R/tree-sql-route.R,
# R/tree-sql-outputs.R), summed over the trees, and the parsnip-named
# predictions last.

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
#' the forest's aggregation. Each pre-fit step of the model writes its own
#' part (a step that cannot is named in an error). It uses standard SQL
#' (`WITH`, `CASE`, `COALESCE`, `CAST(... AS DOUBLE PRECISION)`,
#' arithmetic, numbers written with 17 significant digits, so they read
#' back exactly) and is tested in SQLite (3.35 or later) and PostgreSQL (12
#' or later); both give [predict()]'s values.
#'
#' Each tree is one `CASE` expression whose `ELSE` branches continue the
#' same `CASE` (`CASE WHEN a THEN x WHEN b THEN y ELSE z END`), so it nests
#' about log2(leaves) deep however deep the tree is: a row is routed
#' through a tree by about as many comparisons as the tree is deep, so
#' scoring time grows with rows, trees and depth. A tree too large for one
#' expression is cut into chunks, each starting with a binary search on the
#' node a row reached in the previous one. A classification forest routes
#' each row to its leaves first, then finds the class shares by a binary
#' search on the leaf.
#'
#' @param object A fitted [svforest()] model.
#' @param table The table (or view) holding the predictors under the names
#'   the model was fitted with: a string, quoted as an identifier; wrap it in
#'   [I()] to insert it as it is (e.g. `I("schema.tab")`). Every column name
#'   is quoted as an identifier (`"a b"`, `"_id"`, `"1x"`, `"select"` work;
#'   a quote in a name is doubled). Numeric columns may hold any number
#'   type (they are read as double precision), factor columns the levels as
#'   text, logical columns 0/1 (an integer column) or, in PostgreSQL, a
#'   boolean column; missing values are `NULL`.
#' @param id Optional name of a column of `table` to return first (the
#'   rows' key), under its own name: any name but those of the prediction
#'   columns (`.pred`, or `.pred_<class>` and `.pred_class`).
#' @param trees Optional tree numbers: the query averages these trees only
#'   (`NULL`: all).
#' @param materialize Whether the query's steps are written `AS
#'   MATERIALIZED` (SQLite 3.35 or later, PostgreSQL 12 or later), so that
#'   each is computed once. With `FALSE` the keyword is left out and each
#'   step is read a second time (`WHERE EXISTS (SELECT 1 FROM step)`), which
#'   makes SQLite and PostgreSQL (which inline a step read once) compute it
#'   once too: the statement and its cost stay linear in the forest's
#'   size. For databases without the keyword; a database that inlines
#'   every step regardless repeats the design's expressions in every split.
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
#'
#'   In PostgreSQL (11 or later, built with LLVM), turn JIT compilation off
#'   for the query: `SET jit = off` (or `SET LOCAL jit = off` in its
#'   transaction). A forest's statement is a few large expressions whose
#'   estimated cost passes `jit_inline_above_cost` and
#'   `jit_optimize_above_cost`, so PostgreSQL compiles them with LLVM
#'   first, which takes far longer than the query itself and gigabytes of
#'   memory (figures in the package's `bench/results/sql_speed*.txt`). A
#'   single `SELECT` cannot set this itself.
#' @seealso [svforest_tree()] for the same model as tables;
#'   [svforest_tidypredict] for tidypredict's expressions (through dbplyr).
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
  outputs <- sql_output_names(object)
  if (!is.null(id) && tolower(id) %in% tolower(outputs)) {
    stop(sprintf("`id` is \"%s\", a name of the statement's own columns (%s); rename the key column.", id,
                 paste(outputs, collapse = ", ")), call. = FALSE)
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
  sql_statement(object, table, id, trees, materialize)
}

# svforest_sql()'s statement, its arguments checked; `nesting`: the CASEs
# one expression may nest; `block`: the trees summed per step.
sql_statement <- function(object, table, id, trees, materialize, nesting = sql_nesting, block = sql_block_trees) {
  design <- sql_design(object)
  cols <- sprintf("c%d", seq_along(design$inputs))
  # the key travels under a name no step column takes (c<k>, n<k>, ok,
  # s<k>, v<k>) and gets its own back at the end
  key <- if (!is.null(id)) "svf_key"
  # Each step is computed once per row: written AS MATERIALIZED, or else
  # read twice (EXISTS), which makes SQLite and PostgreSQL materialize it
  # too. Inlined, a step's expression would be repeated at every use of
  # its columns (a design column in every split that reads it, a node
  # column in its binary search), growing with the forest exponentially.
  as <- if (materialize) "AS MATERIALIZED" else "AS"
  step <- function(name, select, from) {
    twice <- if (!materialize) sprintf(" WHERE EXISTS (SELECT 1 FROM %s)", from) else ""
    sprintf("%s %s (SELECT %s FROM %s%s)", name, as, paste(c(key, select), collapse = ", "), from, twice)
  }
  steps <- character()
  prefix <- sql_step_prefix(table)
  # the last step only adds `ok` (every design column known)
  layers <- c(list(design$inputs), lapply(design$layers, function(f) f(cols)), list(cols))
  from <- table
  for (i in seq_along(layers)) {
    name <- paste0(prefix, if (i == length(layers)) "design" else if (i == 1L) "inputs" else sprintf("d%d", i - 1L))
    select <- sprintf("%s AS %s", layers[[i]], cols)
    if (i == length(layers)) select <- c(select, sprintf("CASE WHEN %s THEN 1 ELSE 0 END AS ok",
                                                         paste(sprintf("%s IS NOT NULL", cols), collapse = " AND ")))
    if (i == 1L) select <- c(if (!is.null(id)) sprintf("%s AS %s", sql_ident(id), key), select)
    steps <- c(steps, if (i == 1L) sprintf("%s %s (SELECT %s FROM %s)", name, as, paste(select, collapse = ", "), from)
                      else step(name, select, from))
    from <- name
  }
  plans <- lapply(trees, function(t) sql_tree_plan(object, t, cols, nesting))
  # Several outputs per tree (class shares, votes): route each row to its
  # leaf once and find each output by a binary search on the leaf; one
  # output: the last chunk of a tree ends in it.
  to_leaf <- object$forest$num_classes > 0 &&
    all(vapply(plans, function(p) ceiling(log2(sum(p$leaf))) <= nesting, NA))
  tree_sums <- sql_sum_steps(object, plans, cols, step, to_leaf, prefix, block)
  sums <- tree_sums$sums
  summed <- paste0(prefix, "summed")
  steps <- c(steps, tree_sums$steps, step(summed, c("ok", sprintf("%s AS %s", sums, names(sums))), tree_sums$from))
  sprintf("WITH %s\nSELECT %s FROM %s%s", paste(steps, collapse = ",\n"),
          paste(c(if (!is.null(id)) sprintf("%s AS %s", key, sql_ident(id)), sql_outputs(object, length(trees))),
                collapse = ", "), summed,
          if (materialize) "" else sprintf(" WHERE EXISTS (SELECT 1 FROM %s)", summed))
}

# The steps' names (inputs, d1, ..., design, route1, ..., summed1, ...,
# summed) take a prefix when the table's text holds one of them: the WITH
# clause would read the step rather than the user's table (SQLite:
# "circular reference"). The prefix is one the text does not hold; names
# compare without case, as SQLite's do.
sql_step_prefix <- function(table) {
  if (!grepl("(^|[^[:alnum:]_])(inputs|design|summed[0-9]*|d[0-9]+|route[0-9]+)($|[^[:alnum:]_])", table,
             ignore.case = TRUE)) {
    return("")
  }
  k <- 0L
  while (grepl(sprintf("svf%d_", k), table, ignore.case = TRUE)) k <- k + 1L
  sprintf("svf%d_", k)
}

# The table as SQL: an identifier, or as given when wrapped in I().
sql_table <- function(table) {
  if (!is.character(table) || length(table) != 1 || is.na(table) || table == "") {
    stop(sprintf("`table` must be a table name (a string), not %s.", describe(table)), call. = FALSE)
  }
  if (inherits(table, c("AsIs", "SQL"))) as.character(table) else sql_ident(table)
}

# Any name as a quoted identifier (a quote doubled): safe for every name.
sql_ident <- function(x) sprintf('"%s"', gsub('"', '""', x, fixed = TRUE))
sql_string <- function(x) sprintf("'%s'", gsub("'", "''", x, fixed = TRUE))

# A double as an SQL literal that reads back exactly (17 significant
# digits), always with a decimal point or exponent: SQLite and PostgreSQL
# then read it as a double (PostgreSQL as numeric, exact, turned into double
# precision where it meets one), never an integer (which would make SQLite
# divide integers).
sql_num <- function(x) {
  if (any(!is.finite(x))) stop("Internal error: svforest_sql() met a value that is not finite.", call. = FALSE)
  s <- sprintf("%.17g", x)
  plain <- !grepl("[.eE]", s)
  s[plain] <- paste0(s[plain], ".0")
  negative <- x < 0
  s[negative] <- paste0("(", s[negative], ")")
  s
}

# A number where SQLite would factor it out of the query as a constant
# (operands of comparisons and arithmetic): SQLite looks each constant up
# in the list of those seen before, so a forest's thousands of thresholds
# would cost time quadratic in their number before any row is read. As an
# argument of COALESCE with a column (`ok`, or `col`) it is coded in place;
# its value is the number's.
sql_inline <- function(x, col = "ok") paste0("COALESCE(", sql_num(x), ", ", col, ")")

# A column of numbers as SQL reads it: standard double precision (REAL is
# single precision in PostgreSQL).
sql_double <- function(e) sprintf("CAST(%s AS DOUBLE PRECISION)", e)

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
    split <- tree_split_kinds(tr)
    split <- split[!is.na(split) & split != "axis" & split != "oblique"]
    if (length(split)) fail(sprintf("the \"%s\" splits of tree %d", split[1], t))
    leaf <- tree_leaf_payload_kinds(tr)
    leaf <- leaf[!leaf %in% ok_leaves]
    if (length(leaf)) fail(sprintf("the \"%s\" leaves of tree %d", leaf[1], t))
  }
  spec <- object$design
  if (identical(spec$type, "frame")) {
    tt <- stored_terms(spec$terms)
    labels <- attr(tt, "term.labels")
    plain <- vapply(labels, function(l) is.name(str2lang(l)), NA) & attr(tt, "order") == 1L
    if (!all(plain)) fail(sprintf("the formula term `%s` (only plain column names)", labels[!plain][1]))
    if (any(design_map(object)$type == "input")) fail("a design column of this formula")
  } else if (is.null(if (is.null(spec$input_ncol)) spec$feature_names else spec$input_names)) {
    fail("a model fitted on a matrix without column names")
  }
}

# The design as SQL, written by the pre-fit steps. A list: `inputs`, the SQL
# of each design column from the table's columns, and `layers`, functions of
# the previous step's column names giving the next step's columns (a step
# that maps the design matrix, as rank scaling does). It starts from the raw
# columns (`raw(v)`: a user column as the design reads it: a number, a 0/1
# logical, a factor's text) and the design columns that are a raw number;
# each step with state in the model then changes it through its `sql`
# function, or, without one, the model cannot be written as SQL.
sql_design <- function(object) {
  map <- design_map(object)
  types <- stats::setNames(map$type, map$variable)
  raw <- function(v) {
    switch(types[[v]],
           logical = sprintf("CASE WHEN %s IS NULL THEN NULL WHEN CAST(%s AS INTEGER) <> 0 THEN 1.0 ELSE 0.0 END",
                             sql_ident(v), sql_ident(v)),
           numeric = , input = sql_double(sql_ident(v)),
           sql_ident(v))
  }
  design <- list(object = object, map = map, raw = raw, inputs = rep(NA_character_, nrow(map)), layers = list())
  for (step in svf_prefit_steps()) {
    state <- step$state(object)
    if (is.null(state) || (is.list(state) && all(vapply(state, is.null, NA)))) next
    if (is.null(step$sql)) {
      stop(sprintf("svforest_sql() cannot express the pre-fit step \"%s\" (it says no SQL for itself).", step$name),
           call. = FALSE)
    }
    design <- step$sql(design, state)
  }
  todo <- is.na(design$inputs)
  design$inputs[todo] <- vapply(which(todo), function(j) sql_design_column(design, j), "")
  design
}

# A design column that no step wrote: a number, a logical, a factor level's
# indicator (NULL for a level unseen in training).
sql_design_column <- function(design, j) {
  map <- design$map
  v <- map$variable[j]
  switch(map$type[j],
    numeric = , input = , logical = design$raw(v),
    factor_level = {
      level <- design$raw(v)
      levels <- design$object$design$xlevels[[v]]
      sprintf("CASE WHEN %s IN (%s) THEN (CASE WHEN %s = %s THEN 1.0 ELSE 0.0 END) END", level,
              paste(sql_string(levels), collapse = ", "), level, sql_string(map$level[j]))
    },
    stop(sprintf("svforest_sql() cannot express the design column `%s` (%s).", map$name[j], map$type[j]),
         call. = FALSE))
}

# The split conditions of `tr` on the design columns `cols`, one per node
# ("" at leaves), summed in the engine's order: true for the node's THEN
# child (`then_left`: the left child, `<=`; else the right one, `>`).
sql_split_conditions <- function(forest, tr, cols, then_left, ok = "ok") {
  kinds <- tree_split_kinds(tr)
  lhs <- rhs <- character(length(kinds))
  axis <- which(kinds %in% "axis")
  if (length(axis)) {  # tree_axis_splits()'s fields, without its data frame (a statement reads many trees)
    field <- function(name) as.vector(unlist(tree_describe(forest, tr, "split", axis, name)))
    lhs[axis] <- cols[field("var") + 1L]
    rhs[axis] <- sql_inline(field("value"), ok)
  }
  obl <- which(kinds %in% "oblique")
  if (length(obl)) {
    s <- tree_oblique_splits(forest, tr, obl)
    weights <- lapply(s, `[[`, "weights")
    terms <- sprintf("%s * %s", sql_inline(unlist(weights), ok), cols[unlist(lapply(s, `[[`, "vars")) + 1L])
    of <- factor(rep(seq_along(s), lengths(weights)), levels = seq_along(s))
    lhs[obl] <- sprintf("(%s)", vapply(split(terms, of), paste, "", collapse = " + "))
    rhs[obl] <- sql_inline(vapply(s, `[[`, 0, "value"), ok)
  }
  split <- nzchar(lhs)
  cond <- character(length(lhs))
  cond[split] <- paste(lhs[split], c(">", "<=")[then_left[split] + 1L], rhs[split])
  cond
}

# How deep one expression nests CASEs: SQLite's parser stops at about 17
# (a leaf's output and the sum over trees nest a few levels more).
sql_nesting <- 12L

# A tree's shape: per node, its leaf number (from 0, negative at splits),
# whether it is a leaf, its children (from 1) and its depth.
tree_links <- function(tr) {
  nodes <- tree_nodes(tr)
  leaf <- nodes$leaf_id >= 0
  left <- nodes$left_child + 1L
  right <- nodes$right_child + 1L
  depth <- integer(length(leaf))
  for (i in which(!leaf)) depth[c(left[i], right[i])] <- depth[i] + 1L
  list(leaf_id = nodes$leaf_id, leaf = leaf, left = left, right = right, depth = depth)
}

# Tree `t` for SQL: its nodes (leaf flags, the order of sql_tree_order()),
# the condition of each split on the columns `cols`, and each node's
# outputs, a matrix of a row per node (for a leaf, K class shares or one
# value; votes too for "vote"). `ok`: the column sql_inline() codes numbers
# with.
sql_tree_plan <- function(object, t, cols, nesting, ok = "ok") {
  forest <- object$forest
  tr <- forest$trees[[t]]
  shape <- tree_links(tr)
  leaf <- shape$leaf
  outputs <- sql_leaf_outputs(object, tr, cols, ok)
  if (object$forest$num_classes > 0 && identical(object$params$aggregation, "vote")) {
    outputs <- rbind(outputs, sql_leaf_votes(forest, tr, outputs))
  }
  at <- matrix(NA_character_, length(leaf), nrow(outputs))
  at[leaf, ] <- t(outputs[, shape$leaf_id[leaf] + 1L, drop = FALSE])
  plan <- c(list(leaf = leaf, outputs = at), sql_tree_order(shape))
  plan$cond <- sql_split_conditions(forest, tr, sql_tree_columns(object, t, cols), plan$then_left, ok)
  plan$chunks <- sql_tree_chunks(plan, nesting)
  plan
}

# The design columns `cols` as tree `t` reads them: each pre-fit step's
# per-tree map (sql_tree), as a tree's own factor level values.
sql_tree_columns <- function(object, t, cols) {
  for (step in svf_prefit_steps()) if (!is.null(step$sql_tree)) cols <- step$sql_tree(object, t, cols)
  cols
}
