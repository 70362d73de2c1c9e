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
  combine = equal_states("rank scaling of the predictors")
)
