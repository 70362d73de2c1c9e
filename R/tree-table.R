# Looking inside a fitted forest: how a raw row becomes the values the trees
# read (the design map), every tree as a table of nodes, and a forest-level
# summary of the predictors the splits use. The trees are read through the
# accessors of R/tree-access.R only.

#' How a raw row reaches the trees
#'
#' The trees of a forest do not read the user's columns directly: the
#' design turns a row into numeric columns (factor codes or indicators,
#' missing values filled in, indicator columns of missingness, and with
#' `scale = "rank"` or `"auto"` a rank map of some columns). Splits compare
#' these values, in their own units (the user's units for a numeric
#' column; the level's code for a coded factor; the rank for a ranked
#' column). `svforest_design()` describes that map, or applies it.
#'
#' @param object A fitted [svforest()] model.
#' @param newdata Optional new data (as for [predict.svforest()]); when
#'   given, the result is the n x p matrix of the values the trees read,
#'   with columns named like the table's `terms`.
#' @return Without `newdata`, a data frame with one row per column the trees
#'   read: `column` (its position, from 1), `term` (the name splits and
#'   leaves use: the design column's name, `rank(<name>)` when the column is
#'   rank-transformed), `name` (the design column's name), `variable` (the
#'   user's column it comes from), `type` (`"numeric"`, `"logical"`,
#'   `"factor_code"` (one column per factor holding each level's code),
#'   `"factor_level"` (a 0/1 indicator of `level`), `"missing_indicator"` (1
#'   when `variable` is missing), or `"input"` for models fitted on a
#'   matrix), `level`, `fill` (the value a missing value takes when there is
#'   no joint imputation), `ranked` (logical), `scale_center` and
#'   `scale_factor` (the engine's min-max scaling used by leaf models:
#'   `(value - center) * factor`). The list column `coding` holds, for a
#'   `"factor_code"` column, its level-to-value map (see
#'   [svforest_factor_coding()]); the list column `rank_map` holds, for a
#'   ranked column, `knots` (raw values) and `values` (their ranks),
#'   interpolated linearly between knots and constant outside. Attribute
#'   `joint` holds the conditional-mean imputation of numeric columns (see
#'   [svforest_missing_values]) when the model has one.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' svforest_design(fit)
#' head(svforest_design(fit, iris))
#' @export
svforest_design <- function(object, newdata = NULL) {
  check_model(object)
  map <- design_map(object)
  if (is.null(newdata)) return(map)
  data <- new_engine_data(object, newdata)
  if (!identical(data$type, "dense")) {
    stop("svforest_design() gives the values of dense designs: give `newdata` as a dense matrix (as.matrix()).",
         call. = FALSE)
  }
  x <- as.matrix(data$x)
  colnames(x) <- map$term
  x
}

#' The level-to-value map of a coded factor
#'
#' With `factor_coding = "order"` (the default for classes) a factor
#' predictor reaches the trees as one column holding a code per level.
#' This gives the code of every level for tree `tree` (today every tree
#' shares the forest's coding).
#'
#' @param object A fitted [svforest()] model.
#' @param variable The factor's name, as in the data.
#' @param tree The tree (from 1).
#' @return A named numeric vector: names are the levels (including
#'   `"(missing)"` when missing values of the factor got a level of their
#'   own), values the codes the tree's splits compare.
#' @export
svforest_factor_coding <- function(object, variable, tree = 1L) {
  check_model(object)
  tree <- check_tree_index(object, tree)
  coded <- coded_factors(object$design)
  if (!is.character(variable) || length(variable) != 1 || !variable %in% names(coded)) {
    stop(sprintf("`variable` must name a coded factor of the model (%s), not %s.",
                 if (length(coded)) paste0('"', names(coded), '"', collapse = ", ") else "it has none",
                 describe(variable)), call. = FALSE)
  }
  tree_factor_coding(object, tree, variable)
}

# The one place that says which value tree `tree` reads for each level of
# coded factor `variable` (per-tree codings change only this function).
tree_factor_coding <- function(object, tree, variable) {
  codes <- coded_factors(object$design)[[variable]]
  # tree NULL: the forest-level design value, the level CODE 1..L
  if (is.null(tree)) return(codes)
  # per-tree coding (LevelValues.h): pairs (0-based column, L) in factor_int,
  # and per factor L + 1 values in factor_real, the overall value first;
  # models of the earlier global order have none and read the codes as they are
  fi <- object$forest$trees[[tree]]$factor_int
  if (!length(fi) || is.null(codes)) return(codes)
  col <- match(variable, object$design$feature_names) - 1L
  fr <- object$forest$trees[[tree]]$factor_real
  offset <- 0L
  for (f in seq(1L, length(fi) - 1L, by = 2L)) {
    levels <- fi[f + 1L]
    if (fi[f] == col) return(stats::setNames(fr[offset + 1L + codes], names(codes)))
    offset <- offset + levels + 1L
  }
  codes
}

# The coded factors of a frame design: a named list of level-to-code maps.
coded_factors <- function(spec) {
  out <- list()
  for (v in names(spec$contrasts)) {
    m <- spec$contrasts[[v]]
    if (ncol(m) == 1L && identical(colnames(m), "")) out[[v]] <- stats::setNames(as.double(m[, 1]), rownames(m))
  }
  out
}

# A valid tree number of `object`.
check_tree_index <- function(object, tree) {
  n <- length(object$forest$trees)
  if (!is.numeric(tree) || length(tree) != 1 || is.na(tree) || tree != round(tree) || tree < 1 || tree > n) {
    stop(sprintf("`tree` must be a whole number from 1 to %d (the forest's trees), not %s.", n, describe(tree)),
         call. = FALSE)
  }
  as.integer(tree)
}

# Tree `t` of `object`, checked by the engine: a damaged tree is an R error
# naming it.
checked_tree <- function(object, t) {
  tr <- object$forest$trees[[t]]
  tryCatch(tree_plain(object$forest, tr, t), error = function(e) {
    stop(sprintf("Tree %d of the model is damaged (%s).", t, conditionMessage(e)), call. = FALSE)
  })
  tr
}

# The design map (see svforest_design()): the design's own columns, then
# what each pre-fit step does to them (its `describe`, R/step-*.R).
design_map <- function(object) {
  spec <- object$design
  forest <- object$forest
  p <- forest$num_features
  names <- if (is.null(spec$feature_names)) paste0("x", seq_len(p)) else spec$feature_names
  map <- data.frame(column = seq_len(p), term = names, name = names, variable = names, type = "input",
                    level = NA_character_, fill = NA_real_, ranked = FALSE,
                    scale_center = forest$scale_center, scale_factor = forest$scale_factor,
                    stringsAsFactors = FALSE)
  map$coding <- vector("list", p)
  map$rank_map <- vector("list", p)
  if (identical(spec$type, "frame")) map <- frame_design_map(map, spec)
  for (step in svf_prefit_steps()) if (!is.null(step$describe)) map <- step$describe(map, spec)
  attr(map, "fill_level") <- NULL
  map
}

# The columns of a frame design, matched by the names model.matrix() gives
# (a term's label, backquoted when the name is not syntactic, then the
# level or TRUE); `variable` is the user's column name as it is.
frame_design_map <- function(map, spec) {
  labels <- frame_term_labels(spec)
  vars <- names(labels)
  classes <- frame_column_classes(spec, labels, vars, map$name)
  for (k in seq_along(labels)) {
    v <- vars[k]
    cls <- classes[[k]]
    if (v %in% names(spec$xlevels)) {  # a factor, or text read as one
      # (a factor held as one column of level codes: the factor coding step)
      for (lev in spec$xlevels[[v]]) {
        at <- match(paste0(labels[k], lev), map$name)
        if (!is.na(at)) map[at, c("type", "variable", "level")] <- list("factor_level", v, lev)
      }
    } else if (identical(cls, "logical")) {
      at <- match(paste0(labels[k], "TRUE"), map$name)
      if (!is.na(at)) map[at, c("type", "variable")] <- list("logical", v)
    } else if (identical(cls, "numeric")) {
      at <- match(labels[k], map$name)
      if (!is.na(at)) map[at, c("type", "variable")] <- list("numeric", v)
    }
  }
  map
}

# The terms' labels named by the user's columns they read (a label that is
# not one column: named as itself).
frame_term_labels <- function(spec) {
  labels <- attr(stored_terms(spec$terms), "term.labels")
  vars <- vapply(labels, function(l) {
    e <- str2lang(l)
    if (is.name(e)) as.character(e) else l
  }, "", USE.NAMES = FALSE)
  stats::setNames(labels, vars)
}

# The class of each term's column ("factor", "logical", "numeric" or
# another): from the terms, a plain frame's columns, or (the x/y interface
# keeps neither) the design's levels and column names.
frame_column_classes <- function(spec, labels, vars, names) {
  classes <- attr(stored_terms(spec$terms), "dataClasses")
  if (!is.null(classes)) {
    return(lapply(vars, function(v) if (v %in% names(classes)) classes[[v]] else "other"))
  }
  if (!is.null(spec$columns)) {
    # a plain frame (plain_frame_design()): numbers, and dates read as numbers
    return(lapply(vars, function(v) if (v %in% names(spec$dates)) "other" else "numeric"))
  }
  lapply(seq_along(vars), function(k) {
    if (vars[k] %in% names(spec$xlevels)) "factor"
    else if (paste0(labels[k], "TRUE") %in% names) "logical"
    else if (labels[k] %in% names) "numeric"
    else "other"
  })
}

#' One tree of a forest as a table
#'
#' Every node of tree `tree`, one row each, in the same form for every
#' method. A row starts at node 1 and goes to `left` when the split's
#' weighted sum of its `terms` is at most `threshold`, else to `right`,
#' until it reaches a leaf. The terms are the columns the trees read, on
#' the user's scale (see [svforest_design()]): a numeric predictor in its own
#' units, a coded factor by its levels' codes ([svforest_factor_coding()]),
#' an indicator column of a factor level or of missingness as 0/1, and a
#' rank-transformed column (`scale = "rank"` or `"auto"`) as its rank, named
#' `rank(<name>)`.
#'
#' @param object A fitted [svforest()] model.
#' @param tree The tree (from 1).
#' @return A data frame with one row per node: `node` (from 1), `parent`
#'   (`NA` at the root), `left` and `right` (children, `NA` at a leaf),
#'   `depth` (0 at the root), `kind` (`"leaf"`, `"axis"` (one term with
#'   weight 1), `"hyperplane"`, or a transformation forest's
#'   `"transform"`, `"affine_transform"`, `"projected_transform"`,
#'   `"projected_affine_transform"`, whose rules are not linear: their
#'   `terms` are `NULL` and `threshold` `NA`), `leaf` (a leaf's number, from
#'   1, the number [predict.svforest()] gives with `type = "leaf"`: its
#'   column `k` joins to this table of tree `k` by
#'   `tab[match(leaves[, k], tab$leaf), ]`; `NA` at split nodes), `terms` (list column: the
#'   split's weights named by term), `threshold`, `label` (the split as
#'   text: an axis cut on a ranked column in the raw units of the column; a
#'   hyperplane by its three largest terms, weight times the column's
#'   training range), `n_inbag` (training rows of the tree's
#'   sample that reached the node; a bootstrap row counts as often as it was
#'   drawn), `n_oob` (the tree's out-of-bag rows that reached the node,
#'   counted at fit time: all of them, the rows that chose splits or the
#'   tree's structure (`oblique_choice = "oob"`, `tree_choice = "oob"`) and
#'   the rows that scored it alike, each once; 0 at every node when the
#'   sampler uses every row, as `"rsvt"`, `"tdsvm"` and `sampler = "all"`
#'   do; `NA` for a model saved by a version that did not keep the counts),
#'   `prediction` (list column: the class shares of the
#'   node's training rows, named by class, or for a numeric outcome the
#'   mean of a constant leaf, and at a split node the mean of its rows when
#'   all its leaves are constant, else `NULL`; for a survival leaf its
#'   Nelson-Aalen survival at the quartiles of the training event times,
#'   named `"S(time)"` (its label: the middle one), for a competing-risks
#'   leaf each cause's Aalen-Johansen incidence there, named
#'   `"CIF cause(time)"` (its label: every cause's at the middle time), and
#'   `NULL` at split nodes), and for leaves `leaf_model`
#'   (`"constant"`, `"linear_svm"`, `"logistic"`, `"ridge"`,
#'   `"linear_svr"`, `"kernel_svm"`, `"kernel_svr"`, `"nelson_aalen"`,
#'   `"aalen_johansen"`), `coefficients` (list
#'   column, linear leaves: a matrix of weights per unit of each term, one
#'   column per output; attribute `classes` the classes the leaf chooses
#'   among) and `intercept` (list column, one value per output). A linear
#'   classification leaf with two classes has one output: a positive score
#'   `intercept + sum(coefficients * value)` picks the second of `classes`,
#'   else the first; with more, the output with the largest score wins (one
#'   column per class). A `"logistic"` leaf turns the scores into
#'   probabilities. A regression leaf's score is its prediction, in the
#'   outcome's units. Attribute `levels`: the classes.
#' @seealso [svforest_tree_summary()], [plot.svforest()] (`tree =`),
#'   [svforest_sql()].
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' tab <- svforest_tree(fit, 1)
#' tab[, c("node", "left", "right", "kind", "threshold", "label", "n_inbag")]
#' @export
svforest_tree <- function(object, tree = 1L) {
  check_model(object)
  tree <- check_tree_index(object, tree)
  forest <- object$forest
  tr <- checked_tree(object, tree)
  nodes <- tree_nodes(tr)
  n <- tree_n_nodes(tr)
  leaf <- nodes$leaf_id >= 0
  left <- ifelse(leaf, NA_integer_, nodes$left_child + 1L)
  right <- ifelse(leaf, NA_integer_, nodes$right_child + 1L)
  parent <- rep(NA_integer_, n)
  parent[left[!leaf]] <- which(!leaf)
  parent[right[!leaf]] <- which(!leaf)
  depth <- integer(n)
  for (i in which(!leaf)) depth[c(left[i], right[i])] <- depth[i] + 1L
  kind <- tree_split_kinds(tr)
  kind[leaf] <- "leaf"
  kind[kind %in% "oblique"] <- "hyperplane"
  map <- design_map(object)
  splits <- tree_split_terms(forest, tr, kind, map)
  out <- data.frame(node = seq_len(n), parent = parent, left = left, right = right, depth = depth, kind = kind,
                    leaf = ifelse(leaf, nodes$leaf_id + 1L, NA_integer_), stringsAsFactors = FALSE)
  out$terms <- splits$terms
  out$threshold <- splits$threshold
  out$label <- splits$label
  out$n_inbag <- as.integer(tree_node_rows(tr))
  oob <- tree_node_oob(tr)
  out$n_oob <- if (is.null(oob)) NA_integer_ else oob
  leaves <- tree_leaf_table(object, tr, map)
  at <- nodes$leaf_id[leaf] + 1L
  out$prediction <- node_predictions(object, tr, leaves$prediction, left, right, leaf)
  out$leaf_model <- NA_character_
  out$leaf_model[leaf] <- leaves$leaf_model[at]
  out$coefficients <- out$intercept <- vector("list", n)
  out$coefficients[leaf] <- leaves$coefficients[at]
  out$intercept[leaf] <- leaves$intercept[at]
  out$label[leaf] <- vapply(out$prediction[leaf], prediction_label, "", leaves = object$levels)
  attr(out, "levels") <- object$levels
  out
}

# Terms, threshold and label of every node (NULL, NA and "" at leaves).
tree_split_terms <- function(forest, tr, kind, map) {
  n <- length(kind)
  terms <- vector("list", n)
  threshold <- rep(NA_real_, n)
  label <- rep("", n)
  axis <- which(kind == "axis")
  if (length(axis)) {
    a <- tree_axis_splits(forest, tr)
    for (r in seq_along(axis)) {
      j <- a$var[r] + 1L
      terms[[axis[r]]] <- stats::setNames(1, map$term[j])
      threshold[axis[r]] <- a$value[r]
      label[axis[r]] <- axis_label(map, j, a$value[r])
    }
  }
  obl <- which(kind == "hyperplane")
  # a term's share of a hyperplane: its weight times the column's training range
  spread <- ifelse(map$scale_factor > 0, 1 / map$scale_factor, 0)
  if (length(obl)) {
    s <- tree_oblique_splits(forest, tr, obl)
    for (r in seq_along(obl)) {
      terms[[obl[r]]] <- stats::setNames(s[[r]]$weights, map$term[s[[r]]$vars + 1L])
      threshold[obl[r]] <- s[[r]]$value
      label[obl[r]] <- hyperplane_label(terms[[obl[r]]], s[[r]]$value, spread[s[[r]]$vars + 1L])
    }
  }
  other <- which(!kind %in% c("leaf", "axis", "hyperplane"))
  label[other] <- kind[other]
  list(terms = terms, threshold = threshold, label = label)
}

# "x3 <= 1.2"; a ranked column's cut in the column's raw units (the largest
# raw value whose rank is at most the cut).
axis_label <- function(map, j, value) {
  if (!map$ranked[j]) return(sprintf("%s <= %s", map$name[j], format_number(value)))
  raw <- rank_inverse(map$rank_map[[j]], value)
  if (is.infinite(raw)) return(sprintf("%s <= %s", map$term[j], format_number(value)))
  sprintf("%s <= %s", map$name[j], format_number(raw))
}

# The largest raw value whose rank (rank_apply_column()) is at most `r`:
# -Inf when no value is, Inf when every value is.
rank_inverse <- function(col, r) {
  k <- col$knots
  f <- col$values
  if (r < f[1]) return(-Inf)
  if (r >= f[length(f)]) return(Inf)
  i <- findInterval(r, f)
  k[i] + (r - f[i]) / (f[i + 1L] - f[i]) * (k[i + 1L] - k[i])
}

format_number <- function(x) as.character(signif(x, 3))

# "0.41 x1 - 1.3 x2 + ... <= 0.7": the `max_terms` terms whose weight
# times the column's range `spread` is largest.
hyperplane_label <- function(w, value, spread, max_terms = 3L) {
  top <- order(-abs(w * spread), seq_along(w))[seq_len(min(max_terms, length(w)))]
  top <- sort(top)
  parts <- sprintf("%s %s", formatC(abs(w[top]), digits = 2, format = "fg"), names(w)[top])
  signs <- ifelse(w[top] < 0, "- ", "+ ")
  text <- paste0(signs, parts, collapse = " ")
  text <- sub("^- ", "-", sub("^\\+ ", "", text))
  if (length(w) > length(top)) text <- paste(text, "+ ...")
  sprintf("%s <= %s", text, format_number(value))
}
