# svforest_sql()'s outputs (R/tree-sql.R routes the rows): each tree's
# leaf values (class shares, votes or the regression value, linear leaves as
# their scores), their sums over the trees, and the final SELECT's class,
# probabilities or prediction.

# The sums over trees of each leaf output (named s1..sK, or s for a number)
# and, for the "vote" aggregation, of each class's votes (v1..vK): per tree,
# its last chunk from the node reached, with the outputs at the leaves.
sql_sums <- function(object, plans, node, to_leaf) {
  K <- object$forest$num_classes
  names <- if (K == 0) "s" else sprintf("s%d", seq_len(K))
  if (K > 0 && identical(object$params$aggregation, "vote")) names <- c(names, sprintf("v%d", seq_len(K)))
  deeper <- function(i) if (length(i)) stop("Internal error: a tree deeper than its SQL routing.") else character()
  per_output <- lapply(seq_along(names), function(o) {
    vapply(seq_along(plans), function(t) {
      p <- plans[[t]]
      last <- if (to_leaf) list(from = which(p$leaf), start = Inf, levels = 0L) else p$chunks[[length(p$chunks)]]
      sql_chunk(p, node[[t]], last, function(i) p$outputs[i, o], deeper)
    }, "")
  })
  stats::setNames(vapply(per_output, paste, "", collapse = " + "), names)
}

# Per tree, the SQL of each output of each leaf: a matrix of a column per
# leaf, K rows of class shares (rounded to the engine's grid of 2^-32; a
# linear leaf one-hot on its class) or one row of regression values on the
# engine's scale. Linear leaves score the scaled columns,
# (value - center) * factor.
sql_leaf_outputs <- function(object, tr, cols, ok = "ok") {
  forest <- object$forest
  K <- forest$num_classes
  p <- forest$num_features
  scaled <- sprintf("((%s - %s) * %s)", cols, sql_inline(forest$scale_center, ok), sql_inline(forest$scale_factor, ok))
  linear <- tree_linear_leaves(forest, tr)
  score <- function(w) {
    nz <- which(w[seq_len(p)] != 0)
    paste(c(sprintf("%s * %s", sql_inline(w[nz], ok), scaled[nz]), sql_inline(w[p + 1L], ok)), collapse = " + ")
  }
  if (K == 0) {
    means <- tree_leaf_values(forest, tr, "mean", NA_real_)
    constant <- vapply(linear, is.null, NA)
    out <- matrix(NA_character_, 1L, length(linear))
    out[1L, constant] <- sql_num(means[constant])
    for (l in which(!constant)) out[1L, l] <- sprintf("(%s)", score(linear[[l]]$coef[, 1]))
    return(out)
  }
  counts <- tree_leaf_counts(forest, tr)
  constant <- vapply(linear, is.null, NA)
  out <- matrix(NA_character_, K, length(linear))
  shares <- sweep(counts[, constant, drop = FALSE], 2, colSums(counts[, constant, drop = FALSE]), "/")
  out[, constant] <- sql_num(round(shares * 2^32) / 2^32)
  for (l in which(!constant)) {
    cls <- linear[[l]]$classes
    coef <- linear[[l]]$coef
    s <- vapply(seq_along(cls), function(o) if (length(cls) == 2L && o == 2L) "" else score(coef[, o]), "")
    pick <- if (length(cls) == 2L) {
      c(sprintf("CASE WHEN (%s) > 0 THEN 0.0 ELSE 1.0 END", s[1]), sprintf("CASE WHEN (%s) > 0 THEN 1.0 ELSE 0.0 END", s[1]))
    } else {
      # the first largest score wins, as in the engine
      vapply(seq_along(cls), function(o) {
        beats <- c(sprintf("(%s) > (%s)", s[o], s[seq_len(o - 1L)]), sprintf("(%s) >= (%s)", s[o], s[-seq_len(o)]))
        sprintf("CASE WHEN %s THEN 1.0 ELSE 0.0 END", paste(beats, collapse = " AND "))
      }, "")
    }
    out[, l] <- "0.0"
    out[cls, l] <- pick
  }
  out
}

# Each leaf's vote (one-hot), a matrix like the outputs': a linear leaf's
# class (its outputs), or the first largest class count of a constant leaf.
sql_leaf_votes <- function(forest, tr, outputs) {
  counts <- tree_leaf_counts(forest, tr)
  linear <- !vapply(tree_linear_leaves(forest, tr), is.null, TRUE)
  votes <- matrix("0.0", nrow(counts), ncol(counts))
  votes[cbind(max.col(t(counts), ties.method = "first"), seq_len(ncol(counts)))] <- "1.0"
  votes[, linear] <- outputs[, linear]
  votes
}

# The final columns' names: .pred_<class> and .pred_class, or .pred.
sql_output_names <- function(object) {
  if (object$forest$num_classes == 0) ".pred" else c(paste0(".pred_", object$levels), ".pred_class")
}

# The final columns, named by sql_output_names().
sql_outputs <- function(object, ntree) {
  K <- object$forest$num_classes
  names <- sql_ident(sql_output_names(object))
  if (K == 0) {
    return(sprintf("CASE WHEN ok = 1 THEN (s / %s) * %s + %s END AS %s", sql_num(ntree),
                   sql_num(object$outcome_scale), sql_num(object$outcome_center), names))
  }
  lev <- object$levels
  prob <- sprintf("CASE WHEN ok = 1 THEN s%d / %s END AS %s", seq_len(K), sql_num(ntree), names[seq_len(K)])
  vote <- identical(object$params$aggregation, "vote")
  # class k wins over an earlier class only when strictly better, over a later one when not worse
  better <- function(k, j, strict) {
    op <- if (strict) ">" else ">="
    if (!vote) return(sprintf("s%d %s s%d", k, op, j))
    sprintf("(v%d > v%d OR (v%d = v%d AND s%d %s s%d))", k, j, k, j, k, op, j)
  }
  wins <- vapply(seq_len(K - 1L), function(k) {
    paste(c(vapply(seq_len(k - 1L), function(j) better(k, j, TRUE), ""),
            vapply(setdiff(seq_len(K), seq_len(k)), function(j) better(k, j, FALSE), "")), collapse = " AND ")
  }, "")
  cls <- sprintf("CASE WHEN ok = 1 THEN (CASE %s ELSE %s END) END AS %s",
                 paste(sprintf("WHEN %s THEN %s", wins, sql_string(lev[-K])), collapse = " "),
                 sql_string(lev[K]), names[K + 1L])
  paste(c(prob, cls), collapse = ", ")
}
