# Predictor scaling `scale = "rank"` (the pre-fit step of
# R/step-rank-scaling.R): a monotone, nonlinear map of every design column
# to its empirical distribution function (ECDF) on the training rows,
# fitted once per model and applied in R to every design matrix the
# engine sees (training, validation, calibration and prediction rows,
# permutation importance, local explanations). The engine then min-max scales
# the ranks as it does raw values (so a 0/1 column stays exactly 0/1), which
# is why oblique splits stored in raw engine units work unchanged: their
# "raw" units are rank units.
#
# Per column, the knots are the sorted distinct training values (at most
# `rank_max_knots`, chosen evenly by rank beyond that) and the value of each
# knot is its mid-rank ECDF value, (number below + half the number equal) / n.
# A value between two knots is interpolated linearly, a value outside the
# training range gets the first or last knot's value. The map depends on the
# order of a column's values only: a strictly increasing transformation of a
# predictor (log, sqrt, ...) gives the same model.

rank_max_knots <- 1000L

# The scaling values a user may give, and their meaning; TRUE and FALSE are
# the values of versions before "rank" (they mean "minmax" and "none").
scale_choices <- c("minmax", "rank", "auto", "none")

# `scale = "auto"` ranks a column when the central 90% of its training
# values (5% to 95% quantile) spans less than this share of its range:
# a few extreme values would squeeze the others under min-max scaling.
rank_auto_spread <- 0.25

check_scale <- function(x) {
  if (is.logical(x) && length(x) == 1 && !is.na(x)) return(if (x) "minmax" else "none")
  if (!is.character(x) || length(x) != 1 || is.na(x) || !x %in% scale_choices) {
    stop(sprintf("`scale` must be one of %s (or TRUE for \"minmax\", FALSE for \"none\"), not %s.",
                 paste0('"', scale_choices, '"', collapse = ", "), describe(x)), call. = FALSE)
  }
  x
}

# Fits the rank map of the design matrix `x` (dense): a list with one
# element per column, each list(knots, values), both increasing doubles.
# Columns `skip` (level codes, R/factor-coding.R) are not ranked.
rank_fit <- function(x, scale = "rank", skip = integer()) {
  if (methods::is(x, "dgCMatrix")) {
    stop("`scale = \"rank\"` needs dense predictors: it would turn the zeros of a dgCMatrix into non-zero ranks. ",
         "Use `scale = \"minmax\"` (division by the largest absolute value, zeros stay zero) for sparse input, ",
         "or give a dense matrix.", call. = FALSE)
  }
  n <- nrow(x)
  list(columns = lapply(seq_len(ncol(x)), function(j) {
    if (j %in% skip) return(NULL)
    v <- x[, j]
    if (identical(scale, "auto") && !heavy_tailed(v)) return(NULL)
    rank_fit_column(v, n)
  }))
}

# TRUE when min-max scaling would squeeze most values of `v` together.
heavy_tailed <- function(v) {
  r <- range(v)
  if (!(r[2] > r[1])) return(FALSE)
  q <- stats::quantile(v, c(0.05, 0.95), names = FALSE)
  (q[2] - q[1]) < rank_auto_spread * (r[2] - r[1])
}

rank_fit_column <- function(v, n) {
  u <- sort(unique(v))
  counts <- tabulate(match(v, u), length(u))
  upto <- cumsum(counts)
  mid <- (upto - counts / 2) / n
  if (length(u) > rank_max_knots) {
    # knots at evenly spaced ranks (always the smallest and largest value)
    at <- unique(c(1L, findInterval(seq(0, n, length.out = rank_max_knots)[-c(1, rank_max_knots)], upto) + 1L,
                   length(u)))
    at <- at[at <= length(u)]
    u <- u[at]
    mid <- mid[at]
  }
  list(knots = as.double(u), values = as.double(mid))
}

# Applies a fitted rank map to the dense design matrix `x` (columns in the
# model's order).
rank_apply <- function(x, rank) {
  if (is.null(rank)) return(x)
  for (j in seq_len(ncol(x))) {
    if (!is.null(rank$columns[[j]])) x[, j] <- rank_apply_column(x[, j], rank$columns[[j]])
  }
  x
}

rank_apply_column <- function(v, col) {
  k <- col$knots
  f <- col$values
  m <- length(k)
  if (m == 1L) return(rep(f[1], length(v)))
  i <- findInterval(v, k, all.inside = TRUE)  # k[i] <= v < k[i + 1], i in 1..m-1
  t <- (v - k[i]) / (k[i + 1L] - k[i])
  t <- pmin(pmax(t, 0), 1)  # outside the training range: the end values
  out <- f[i] + t * (f[i + 1L] - f[i])
  out[t == 0] <- f[i][t == 0]  # a knot maps exactly to its value
  out[t == 1] <- f[i + 1L][t == 1]
  out
}

# The shapes predict() relies on (R/model-check.R).
rank_ok <- function(rank, p) {
  is.list(rank) && is.list(rank$columns) && (is.null(p) || length(rank$columns) == p) &&
    all(vapply(rank$columns, function(c) {
      is.null(c) || is.double(c$knots) && is.double(c$values) && length(c$knots) >= 1 &&
        length(c$knots) == length(c$values) && !anyNA(c$knots) && !anyNA(c$values) &&
        !is.unsorted(c$knots, strictly = TRUE)
    }, TRUE))
}
