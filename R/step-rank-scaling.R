#' @include prefit-steps.R
NULL

# Pre-fit step: scale = "rank" (or "auto" on a dense design), the rank map
# of the rows the trees see (R/rank.R), kept as the design's `rank` and
# replayed on every later design matrix. "auto" keeps none when it ranks no
# column; level codes (the factor coding step's columns) are not ranked.
rank_scaling_step <- new_prefit_step(
  "rank_scaling",
  fit = function(ctx) {
    scale <- ctx$params$scale
    if (!(identical(scale, "rank") || (identical(scale, "auto") && !methods::is(ctx$x, "dgCMatrix")))) return(ctx)
    rank <- rank_fit(ctx$x, scale, skip = ctx$factors$cols)
    if (all(vapply(rank$columns, is.null, TRUE))) return(ctx)
    ctx$design$spec$rank <- rank
    ctx$x <- rank_apply(ctx$x, rank)
    ctx
  },
  state = function(model) model$design$rank,
  replay = function(design, x) rank_apply(x, design$rank),
  check = function(state, design, fail) {
    nm <- design$feature_names
    if (!is.null(state) && !rank_ok(state, if (is.null(nm)) NULL else length(nm))) fail("'design$rank' is damaged")
  },
  combine = equal_states("rank scaling of the predictors"),
  describe = function(map, design) {
    if (is.null(design$rank)) return(map)
    for (j in seq_len(nrow(map))) {
      col <- design$rank$columns[[j]]
      if (is.null(col)) next
      map$ranked[j] <- TRUE
      map$term[j] <- sprintf("rank(%s)", map$name[j])
      map$rank_map[[j]] <- col
    }
    map
  },
  # a step of its own: each ranked column's map as a CASE over the design's
  # values (read many times, so computed once before)
  sql = function(design, state) {
    design$layers <- c(design$layers, list(function(cols) {
      for (j in which(!vapply(state$columns, is.null, NA))) cols[j] <- sql_rank(cols[j], state$columns[[j]])
      cols
    }))
    design
  }
)

# The rank map of a column (rank_apply_column()) as a CASE on `e`:
# interpolated between knots, constant outside, NULL for NULL.
sql_rank <- function(e, col) {
  k <- col$knots
  f <- col$values
  m <- length(k)
  if (m == 1L) return(sprintf("CASE WHEN %s IS NULL THEN NULL ELSE %s END", e, sql_num(f[1])))
  i <- seq_len(m - 1L)
  num <- function(x) sql_inline(x, e)
  pieces <- sprintf("WHEN %s < %s THEN %s + ((%s - %s) / %s) * %s", e, num(k[i + 1L]), num(f[i]), e,
                    num(k[i]), num(k[i + 1L] - k[i]), num(f[i + 1L] - f[i]))
  sprintf("CASE WHEN %s < %s THEN %s %s WHEN %s IS NOT NULL THEN %s END", e, num(k[1]), sql_num(f[1]),
          paste(pieces, collapse = " "), e, sql_num(f[m]))
}
