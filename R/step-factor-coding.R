#' @include prefit-steps.R
NULL

# Pre-fit step: factors held as level codes (R/factor-coding.R). The design
# gives a factor of many levels one column of codes 1..L (its contrast,
# chosen while the design matrix is built); each tree then codes the levels
# by its own in-bag rows, so the engine is given those columns. New rows
# get the same contrasts from the design: nothing to replay on the matrix.
factor_coding_step <- new_prefit_step(
  "factor_coding",
  fit = function(ctx) {
    ctx$factors <- level_code_columns(ctx$design$spec, ctx$params$factor_coding)
    ctx
  },
  state = function(model) model$design$contrasts,
  # the contrasts and the terms that order the design columns (R/check-design.R)
  check = function(state, design, fail) check_design_codings(design, fail),
  combine = equal_states("factor coding (contrasts)"),
  # the coded factors' columns, their level-to-code maps, and the code of
  # the level a missing value takes (the missing values step's fill_level)
  describe = function(map, design) {
    coded <- coded_factors(design)
    fill <- attr(map, "fill_level")
    labels <- if (length(coded)) frame_term_labels(design)
    for (v in names(coded)) {
      at <- match(unname(labels[v]), map$name)
      if (is.na(at)) next
      map[at, c("type", "variable")] <- list("factor_code", v)
      map$coding[[at]] <- coded[[v]]
      if (!is.null(fill[[v]])) map$fill[at] <- coded[[v]][[fill[[v]]]]
    }
    map
  },
  # a coded factor's column: the level's code (NULL for a level unseen in
  # training)
  sql = function(design, state) {
    for (j in which(design$map$type == "factor_code")) {
      codes <- design$map$coding[[j]]
      design$inputs[j] <- sprintf("CASE %s %s END", design$raw(design$map$variable[j]),
                                  paste(sprintf("WHEN %s THEN %s", sql_string(names(codes)), sql_num(codes)),
                                        collapse = " "))
    }
    design
  },
  # each tree reads a level's code as its own level value (LevelValues.h):
  # pairs (0-based column, L) in factor_int, and per factor L + 1 values in
  # factor_real, the overall value (for other codes) first
  sql_tree = function(object, tree, cols) {
    tr <- object$forest$trees[[tree]]
    fi <- tr$factor_int
    fr <- tr$factor_real
    if (!length(fi)) return(cols)
    off <- 0L
    for (f in seq(1L, length(fi) - 1L, by = 2L)) {
      j <- fi[f] + 1L
      L <- fi[f + 1L]
      vals <- fr[off + seq_len(L + 1L)]
      cols[j] <- sprintf("(CASE %s %s ELSE %s END)", cols[j],
                         paste(sprintf("WHEN %d THEN %s", seq_len(L), sql_num(vals[-1])), collapse = " "),
                         sql_num(vals[1]))
      off <- off + L + 1L
    }
    cols
  }
)
