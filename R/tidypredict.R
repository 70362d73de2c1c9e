# tidypredict support: tidypredict_fit() gives a forest as SQL that dbplyr
# inserts as it is (tidypredict_sql()) and R expressions of the data's
# columns that dplyr evaluates (tidypredict_to_column()), and
# tidypredict_test() compares the latter with predict(). The methods are
# registered in .onLoad() when tidypredict is installed (R/zzz.R), so it
# stays a suggestion.

#' A forest as tidypredict expressions
#'
#' With the tidypredict package installed, `tidypredict::tidypredict_fit()`
#' gives a fitted forest in tidypredict's form: a regression forest one
#' expression (the prediction), a classification forest a list of
#' expressions named by class (the class probabilities, tidypredict's form
#' for classes). Each is a quosure of `sql("...")` holding the forest as
#' one SQL expression of the data's columns, which dbplyr inserts as it is:
#' `tidypredict_sql()` and `dplyr::mutate()` on a database table take
#' seconds for a forest of 100 deep trees (dbplyr translating every split
#' and leaf as an R call took seconds a tree). On a data frame,
#' `tidypredict::tidypredict_to_column()` and `dplyr::mutate()` evaluate the
#' forest as R expressions instead (the quosure's `sql()` is svforest's,
#' which evaluates them; dplyr need not be attached), each tree a
#' `case_when()` of its splits in the SQL's order.
#' `tidypredict::tidypredict_test(model, df)` compares those values with
#' [predict()]'s on `df` (to 1e-9 by default: [predict()] adds the trees'
#' values exactly, the expressions in double precision). Rows with a factor
#' level unseen in training give `NA` (`NULL` in SQL).
#'
#' It covers forests whose trees split by axis cuts and hyperplanes and end
#' in constant leaves (the default `"hybrid"` method, also with axis cuts
#' alone (`n_oblique = 0`), or hyperplanes alone (`method = "psvm"` with
#' `aggregation = "prob"`)), for classification (with the `"prob"` aggregation) and
#' regression, with missing values filled by the median, level or most
#' frequent value, factor indicators and level codes. Other models give an
#' error naming what the expressions cannot hold: linear or kernel leaves,
#' transformation splits, the `"vote"` aggregation, rank-scaled columns and
#' the conditional-mean imputation ([svforest_sql()] writes these),
#' survival and competing-risks forests (neither form holds them), and
#' pre-fit steps other than the package's. The SQL is that of
#' [svforest_sql()] (standard SQL, numbers with 17 significant digits,
#' tested in SQLite and PostgreSQL) without its steps: each design column is
#' written where a split reads it, and each tree is one `CASE` nesting
#' about log2(leaves) deep (a tree of millions of leaves may nest deeper
#' than SQLite's parser reads; [svforest_sql()] cuts such trees into
#' chunks). Predictions agree with [predict()] to about 1e-12.
#'
#' @name svforest_tidypredict
#' @return `tidypredict_fit(model)`, for a fitted [svforest()] model: a quosure (regression) or a named list of quosures (classification), each `sql()` of one SQL expression.
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
  vars <- unique(design_map(model)$variable)
  # the R expressions and the SQL, each built once at its first use
  cache <- new.env(parent = emptyenv())
  K <- model$forest$num_classes
  out <- lapply(if (K == 0) 1L else seq_len(K), function(k) tp_output_call(model, k, vars, cache))
  if (K == 0) return(out[[1]])
  stats::setNames(out, model$levels)
}

# Output k of the forest (a class's probability, or the prediction): a
# quosure of `sql("<the forest as one SQL expression>")` (tp_sql()), whose
# environment binds `sql` to the forest's R expression (tp_expression()).
# dbplyr reads `sql()` as SQL to insert as it is (tidypredict_sql(), or
# mutate() of a database table), so it does not translate the forest's
# thousands of calls one by one (seconds a tree); dplyr's mutate() of a
# data frame (tidypredict_to_column()) finds svforest's `sql()` in the
# quosure's environment, which evaluates the R expression on the data's
# columns (whether dplyr is attached or not).
tp_output_call <- function(model, k, vars, cache) {
  env <- new.env(parent = baseenv())
  env$sql <- function(query) {
    mask <- parent.frame()  # the data mask: the data's columns
    columns <- lapply(stats::setNames(vars, vars), function(v) get(v, envir = mask))
    eval(tp_expression(model, k, cache), columns, tp_functions())
  }
  rlang::new_quosure(call("sql", tp_sql(model, k, cache)), env)
}

# The functions the R expressions call, whether dplyr is attached or not.
tp_functions <- function() {
  env <- new.env(parent = baseenv())
  env$case_when <- dplyr::case_when
  env$coalesce <- dplyr::coalesce
  env
}

# The R expression of output k: a case_when() for the rows whose design
# columns are all known, of the mean over the trees (tp_tree()), on the
# outcome's scale.
tp_expression <- function(model, k, cache) {
  key <- sprintf("r%d", k)
  if (!is.null(cache[[key]])) return(cache[[key]])
  forest <- model$forest
  map <- design_map(model)
  n <- length(forest$trees)
  columns <- lapply(seq_len(nrow(map)), function(j) tp_design_column(model, map, j))
  known <- tp_and(lapply(columns, function(e) call("!", call("is.na", e))))
  # summed in the trees' order, as predict() sums them
  mean <- call("/", Reduce(function(a, b) call("+", a, b), lapply(seq_len(n), function(t) tp_tree(model, t, map, columns)(k))),
               as.double(n))
  if (forest$num_classes == 0) mean <- call("+", call("*", mean, model$outcome_scale), model$outcome_center)
  cache[[key]] <- call("case_when", call("~", known, mean))
}

# The SQL of output k: every design column written from the table's
# columns where it is read (svforest_sql()'s design, R/tree-sql.R, without
# its steps), each tree one CASE that nests only in its THEN branches
# (sql_chunk()), the trees' outputs summed in the forest's order as
# predict() sums them, NULL where a design column is unknown. Numbers are
# coded as svforest_sql() codes them, with a column so that SQLite does not
# factor them out as constants (sql_inline()): the first column's
# known-ness, whatever its type.
tp_sql <- function(model, k, cache) {
  key <- sprintf("sql%d", k)
  if (!is.null(cache[[key]])) return(cache[[key]])
  design <- sql_design(model)
  cols <- sprintf("(%s)", design$inputs)
  for (layer in design$layers) cols <- sprintf("(%s)", layer(cols))
  ok <- sprintf("(CASE WHEN %s IS NULL THEN 0 ELSE 1 END)", sql_ident(design_map(model)$variable[1]))
  trees <- seq_along(model$forest$trees)
  deeper <- function(i) if (length(i)) stop("Internal error: a tree deeper than its SQL.") else character()
  sums <- vapply(trees, function(t) {
    plan <- sql_tree_plan(model, t, cols, Inf, ok)
    sql_chunk(plan, NULL, plan$chunks[[1]], function(i) plan$outputs[i, k], deeper)
  }, "")
  total <- sprintf("(%s) / %s", paste(sums, collapse = " + "), sql_num(length(trees)))
  if (model$forest$num_classes == 0) {
    total <- sprintf("(%s) * %s + %s", total, sql_num(model$outcome_scale), sql_num(model$outcome_center))
  }
  cache[[key]] <- sprintf("CASE WHEN %s THEN %s END", paste(sprintf("%s IS NOT NULL", cols), collapse = " AND "), total)
}

# tidypredict::tidypredict_test() of a forest: the R expressions on `df`
# against predict() (class probabilities of a classification forest), in
# tidypredict's result (printed by its print method). To 1e-9 by default:
# predict() adds the trees' values exactly, the expressions in double
# precision.
tidypredict_test_svforest <- function(model, df = NULL, threshold = 1e-9, include_intervals = FALSE, max_rows = NULL,
                                      xg_df = NULL) {
  check_model(model)
  if (is.null(df)) {
    stop("tidypredict_test() of an svforest model needs `df`: svforest models do not store their training data.",
         call. = FALSE)
  }
  if (!isFALSE(include_intervals)) {
    stop("tidypredict_test(): svforest's tidypredict expressions hold the predictions only, no intervals (`include_intervals = FALSE`).",
         call. = FALSE)
  }
  if (!is.null(max_rows)) df <- utils::head(df, max_rows)
  df <- as.data.frame(df)
  f <- tidypredict_fit_svforest(model)
  K <- model$forest$num_classes
  base <- if (K == 0) cbind(fit = stats::predict(model, df)) else stats::predict(model, df, type = "prob")
  te <- if (K == 0) list(f) else f
  te <- vapply(te, function(e) as.double(rlang::eval_tidy(e, df)), double(nrow(df)))
  te <- matrix(te, nrow(df))
  diff <- abs(base - te)
  over <- xor(is.na(base), is.na(te)) | (!is.na(diff) & diff > threshold)
  raw <- data.frame(rowid = seq_len(nrow(df)), fit = base[, 1], fit_te = te[, 1], fit_diff = base[, 1] - te[, 1],
                    fit_threshold = apply(over, 1, any))
  header <- paste0("tidypredict test results\nDifference threshold: ", threshold, "\n")
  alert <- any(over)
  message <- if (!alert) paste0(header, "\n All results are within the difference threshold")
             else paste0(header, "\nFitted records above the threshold: ", sum(apply(over, 1, any)),
                         "\n\nMax difference: ", max(diff, na.rm = TRUE))
  structure(list(model_call = model$call, raw_results = raw, message = message, alert = alert),
            class = c("tidypredict_test", "list"))
}

# An error naming what the expressions cannot hold.
tp_check_expressible <- function(model) {
  fail <- function(msg) {
    stop(sprintf("tidypredict_fit() cannot express %s (method \"%s\"); svforest_sql() may.", msg, model$method),
         call. = FALSE)
  }
  # what neither form can hold: the outcome's own check, said as tidypredict's
  model_family(model)$tree_table$sql_check(model, function(msg) {
    stop(sprintf("tidypredict_fit() cannot express %s (method \"%s\"), nor can svforest_sql(): they hold a classification forest's class probabilities or a regression forest's prediction.",
                 msg, model$method), call. = FALSE)
  })
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

# Tree t as a function of the output k: its expression, as the tree's SQL
# (sql_tree_order()): a case_when() whose clauses follow the chain of
# ELSE children, each clause's value the case_when() of its THEN child,
# so each condition is written once and the expression nests about
# log2(leaves) deep.
tp_tree <- function(model, t, map, columns) {
  forest <- model$forest
  tr <- forest$trees[[t]]
  shape <- tree_links(tr)
  leaf <- shape$leaf
  order <- sql_tree_order(shape)
  then <- ifelse(order$then_left, shape$left, shape$right)
  other <- ifelse(order$then_left, shape$right, shape$left)
  # a tree reading its own factor level values needs its own columns
  coded <- which(map$type == "factor_code")
  if (length(coded) && length(tr$factor_int)) columns[coded] <- lapply(coded, function(j) tp_design_column(model, map, j, t))
  cond <- tp_conditions(forest, tr, columns)
  then_cond <- function(i) if (order$then_left[i]) cond[[i]] else call("!", cond[[i]])
  values <- if (forest$num_classes == 0) {
    matrix(tree_leaf_values(forest, tr, "mean", NA_real_), nrow = 1)
  } else {
    counts <- tree_leaf_counts(forest, tr)
    round(sweep(counts, 2, colSums(counts), "/") * 2^32) / 2^32
  }
  function(k) {
    value <- function(i) values[k, shape$leaf_id[i] + 1L]
    node <- function(i) {
      if (leaf[i]) return(value(i))
      clauses <- list()
      while (!leaf[i]) {
        clauses[[length(clauses) + 1L]] <- call("~", then_cond(i), node(then[i]))
        i <- other[i]
      }
      as.call(c(list(as.name("case_when")), clauses, list(call("~", TRUE, value(i)))))
    }
    node(1L)
  }
}

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
