# Factor coding `factor_coding`: how the levels of a factor (or character)
# predictor of a data frame reach the trees.
#
# "indicator" (the paper presets' and the numeric default's): one 0/1 column
# per level, as frame_design() builds them.
#
# "order" (the default for classes): one column per factor, each level
# replaced by its rank in an order of the levels by the outcome, computed on
# the rows the trees are grown on (so calibration rows held out by a stage
# do not shape it): the share of the second class with two classes, the
# first principal component of the levels' class shares (weighted by the
# levels' rows) with more (Coppersmith, Hong and Hosking 1999; ranger's
# respect.unordered.factors = "order"), the outcome's mean for a number.
# With two classes or a number, an axis cut on the coded column then finds
# the best split of the levels into two groups (Breiman et al. 1984, 9.4),
# and `mtry` draws a factor once rather than once per level, so a factor of
# many levels does not crowd the other predictors out of the draws. Levels
# without training rows rank as the outcome of all rows would. Ordered
# factors are ordered by the outcome too.
#
# The order is stored as the factor's contrast matrix (one column holding the
# codes), so model.matrix() builds the coded column for every later design:
# predict(), importance, explanations. A fit with this coding builds the
# factor as one column of level codes from the start (frame_design(),
# level_codes = TRUE): no n x L indicator matrix.

factor_coding_choices <- c("indicator", "order")

# The codes of the frame design's multi-level factors, ranked by the outcome
# `y` of the rows of design matrix `x`, and the design matrix with each such
# factor's column(s) replaced by its coded column; list(spec, x, coded)
# where `coded` gives, per coded factor, the codes and the positions of its
# columns in `x` (for factor_order_apply()). A factor's columns are found by
# their origin (spec$origin, R/design.R), never by their names: its level
# codes (a design built with level_codes = TRUE) or its indicator columns.
# Factors that enter the formula other than as a term of their own
# (interactions) keep their indicators.
factor_order_fit <- function(spec, x, y) {
  coded <- list()
  origin <- design_origin(spec, colnames(x))
  alone <- spec$predictors[alone_variables(stored_terms(spec$terms), term_variables(stored_terms(spec$terms), spec$predictors))]
  for (v in intersect(names(spec$contrasts), alone)) {
    lev <- spec$xlevels[[v]]
    at <- which(origin == match(v, spec$predictors))
    from_codes <- length(at) == 1 && ncol(spec$contrasts[[v]]) == 1
    if (!from_codes && length(at) != length(lev)) next
    level <- if (from_codes) as.integer(round(x[, at])) else max.col(x[, at, drop = FALSE] > 0.5, "first")
    code <- level_ranks(level, length(lev), y)
    coded[[v]] <- list(codes = code, at = at, from_codes = from_codes)
    spec$contrasts[[v]] <- matrix(code, ncol = 1L, dimnames = list(lev, ""))
  }
  if (!length(coded)) return(list(spec = spec, x = x, coded = coded))
  drop <- unlist(lapply(coded, function(cd) cd$at[-1]))
  if (length(drop)) spec$origin <- origin[-drop]
  x <- factor_order_apply(x, coded)
  spec$feature_names <- colnames(x)
  list(spec = spec, x = x, coded = coded)
}

# Design matrix `x` (as built at fit time) with each coded factor's level
# codes or indicator columns replaced by one column of its ranks, at the
# place of its first column (where model.matrix() puts it).
factor_order_apply <- function(x, coded) {
  drop <- integer()
  for (v in names(coded)) {
    at <- coded[[v]]$at
    codes <- coded[[v]]$codes
    x[, at[1]] <- if (isTRUE(coded[[v]]$from_codes)) codes[as.integer(round(x[, at]))]
                  else x[, at, drop = FALSE] %*% codes
    colnames(x)[at[1]] <- v
    drop <- c(drop, at[-1])
  }
  if (length(drop)) x <- x[, -drop, drop = FALSE]
  x
}

# Each design column's predictor (a position in spec$predictors, NA for
# interactions). Older models lack spec$origin: their columns are matched
# by name as they were built.
design_origin <- function(spec, cols = spec$feature_names) {
  if (!is.null(spec$origin)) return(spec$origin)
  owner <- rep(NA_integer_, length(cols))
  vars <- all.vars(stats::delete.response(stored_terms(spec$terms)))
  for (v in vars) {
    lev <- if (!is.null(spec$xlevels[[v]])) spec$xlevels[[v]] else "TRUE"
    owner[cols %in% c(v, paste0(v, lev))] <- match(v, vars)
  }
  owner
}

# Positions (in the frame's columns) of the variables that enter one term
# only, the variable itself; `term_var` from term_variables().
alone_variables <- function(terms, term_var) {
  factors <- attr(terms, "factors")
  if (!length(factors)) return(integer())
  in_terms <- rowSums(factors > 0)
  which(in_terms == 1 & seq_len(nrow(factors)) %in% term_var)
}

# Ranks 1..L of the levels (`level`: each row's level, 1..n_levels) in
# the order of their outcome score (see the header); ties keep the level order.
level_ranks <- function(level, n_levels, y) {
  n_level <- tabulate(level, n_levels)
  if (is.factor(y)) {
    counts <- matrix(tabulate(level + n_levels * (as.integer(y) - 1L), n_levels * nlevels(y)), n_levels)
    shares <- counts / pmax(n_level, 1)
    overall <- tabulate(y, nlevels(y)) / length(y)
    shares[n_level == 0, ] <- rep(overall, each = sum(n_level == 0))
    direction <- if (nlevels(y) == 2) c(0, 1) else first_component(shares, n_level)
    score <- drop(shares %*% direction)
  } else {
    score <- vapply(split(y, factor(level, seq_len(n_levels))), sum, 0) / pmax(n_level, 1)
    score[n_level == 0] <- mean(y)
  }
  ranks <- integer(length(score))
  ranks[order(score, seq_along(score))] <- seq_along(score)
  as.double(ranks)
}

# The first principal component of the rows of `shares` (levels x classes),
# weighted by the levels' rows; its sign fixed so that its largest entry in
# absolute value is positive (eigen() may return either sign).
first_component <- function(shares, weight) {
  w <- weight / sum(weight)
  centred <- sweep(shares, 2, colSums(shares * w))
  v <- eigen(crossprod(centred * sqrt(w)), symmetric = TRUE)$vectors[, 1]
  if (v[which.max(abs(v))] < 0) -v else v
}

# Whether a fit's design should hold its factors as level codes: the fit
# codes them by order (the given `factor_coding`, else the method's default
# for the outcome `y`). An invalid method or value is reported later, by
# the checks of the parameters.
design_level_codes <- function(method, user, y) {
  coding <- user[["factor_coding"]]
  if (is.null(coding)) {
    outcome <- outcome_type(y)
    preset <- tryCatch(outcome_preset(svf_method(if (is.null(method)) default_method(outcome) else method), outcome),
                       error = function(e) NULL)
    if (is.null(preset)) return(FALSE)
    coding <- preset_default(preset, "factor_coding", "indicator")
  }
  identical(coding, "order")
}
