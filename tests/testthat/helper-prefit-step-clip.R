# A test-only pre-fit step: every column of a dense design is clipped to the
# 10% and 90% quantiles of the trees' rows, kept in the design as `clip`,
# and new rows are clipped to the same bounds. Defined by this file alone;
# test-registries.R registers it with one call (and removes it again, so
# that the other tests fit without it).
clip_columns <- function(x, clip) t(pmin(pmax(t(x), clip$lower), clip$upper))

clip_step <- list(
  name = "clip",
  fit = function(ctx) {
    if (methods::is(ctx$x, "dgCMatrix")) return(ctx)
    clip <- list(lower = apply(ctx$x, 2, stats::quantile, 0.1, names = FALSE),
                 upper = apply(ctx$x, 2, stats::quantile, 0.9, names = FALSE))
    ctx$design$spec$clip <- clip
    ctx$x <- clip_columns(ctx$x, clip)
    ctx
  },
  replay = function(design, x) clip_columns(x, design$clip),
  check = function(state, design, fail) {
    p <- length(design$feature_names)
    if (!is.null(state) && !(is.double(state$lower) && is.double(state$upper) && length(state$lower) == p &&
                               length(state$upper) == p && all(state$lower <= state$upper))) {
      fail("'design$clip' is damaged")
    }
  },
  combine = function(states, differ) if (!identical(states[[1]], states[[2]])) differ("clipping of the predictors")
)
