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
# predict(), importance, explanations.

factor_coding_choices <- c("indicator", "order")

# The codes of the frame design's multi-level factors, ranked by the outcome
# `y` of the rows of design matrix `x` (indicator coded), and the design
# matrix with each such factor's indicator columns replaced by its coded
# column; list(spec, x, coded) where `coded` gives, per coded factor, the
# codes and the positions of its indicator columns in `x` (for
# factor_order_apply()). Factors that enter the formula other than as a term
# of their own (interactions) keep their indicators.
factor_order_fit <- function(spec, x, y) {
  coded <- list()
  cols <- colnames(x)
  factors <- attr(stored_terms(spec$terms), "factors")
  for (v in names(spec$contrasts)) {
    lev <- spec$xlevels[[v]]
    at <- match(paste0(v, lev), cols)
    if (anyNA(at) || !alone_in_terms(factors, v)) next
    code <- level_ranks(x[, at, drop = FALSE] > 0.5, y)
    coded[[v]] <- list(codes = code, at = at)
    spec$contrasts[[v]] <- matrix(code, ncol = 1L, dimnames = list(lev, ""))
  }
  if (!length(coded)) return(list(spec = spec, x = x, coded = coded))
  x <- factor_order_apply(x, coded)
  spec$feature_names <- colnames(x)
  list(spec = spec, x = x, coded = coded)
}

# Design matrix `x` (indicator coded, as at fit time) with each coded
# factor's indicator columns replaced by one column of its codes, at the
# place of its first level (where model.matrix() puts it).
factor_order_apply <- function(x, coded) {
  drop <- integer()
  for (v in names(coded)) {
    at <- coded[[v]]$at
    x[, at[1]] <- x[, at, drop = FALSE] %*% coded[[v]]$codes
    colnames(x)[at[1]] <- v
    drop <- c(drop, at[-1])
  }
  if (length(drop)) x <- x[, -drop, drop = FALSE]
  x
}

# Whether variable `v` of a terms' "factors" matrix enters one term only,
# the variable itself.
alone_in_terms <- function(factors, v) {
  if (is.null(factors) || !v %in% rownames(factors)) return(FALSE)
  terms_of_v <- colnames(factors)[factors[v, ] > 0]
  identical(terms_of_v, v)
}

# Ranks 1..L of the levels (columns of the 0/1 matrix `member`) in the order
# of their outcome score (see the header); ties keep the level order.
level_ranks <- function(member, y) {
  n_level <- colSums(member)
  if (is.factor(y)) {
    shares <- crossprod(member, outer(as.integer(y), seq_len(nlevels(y)), "==")) / pmax(n_level, 1)
    overall <- tabulate(y, nlevels(y)) / length(y)
    shares[n_level == 0, ] <- rep(overall, each = sum(n_level == 0))
    direction <- if (nlevels(y) == 2) c(0, 1) else first_component(shares, n_level)
    score <- drop(shares %*% direction)
  } else {
    score <- drop(crossprod(member, y)) / pmax(n_level, 1)
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
