# How the trees of a forest make one answer for a row, and the out-of-bag
# results built on it. The rule itself lives in the engine
# (src/core/forest/Aggregation.h): predict() gets its classes from there, the
# fit's out-of-bag classes come from there, and combine() asks it again
# (.svf_decide_classes) for the merged tallies of its parts. A tally holds
# only what adds up exactly over trees in any grouping, so a forest combined
# from parts has the out-of-bag results of the forest grown whole:
# - classification: per row the vote counts (`oob_votes`), the class shares
#   summed on a grid of 2^-32 (`oob_prob_sum`, exact doubles up to 2^21 trees
#   a row), the number of out-of-bag trees (`oob_count`) and, for
#   `aggregation = "max_confidence"`, the confidence and class (1-based) of
#   the first most confident tree (`oob_confidence`, `oob_confident_class`);
#   for "vote" and "prob", the same three over the even-numbered trees
#   (`oob_even_votes`, `oob_even_prob_sum`, `oob_even_count`; forest-wide
#   tree index from 0), from which oob_class_results() corrects the error for
#   the size of each row's out-of-bag ensemble (oob_extrapolate());
# - regression: per row an exact sum of the trees' predictions on the
#   engine's outcome scale, a whole part (`oob_sum_whole`) plus a fraction in
#   units of 2^-40 (`oob_sum_fraction`), and `oob_count`.
# Everything else out-of-bag (`oob_predictions`, `oob_error`, `oob_prob`,
# `oob_brier`, `oob_logloss`, `oob_rsquared`, `oob_sum`) is derived from the
# tally by the families' oob_*_results() (R/oob-*.R), for a fit and for a combined forest alike.

# The grid of the fractional part of regression sums (as kFractionGrid).
oob_fraction_grid <- 2^40

# Tally of the even-numbered trees: optional (models of earlier versions lack
# it; their error is then the out-of-bag ensembles' own).
oob_even_names <- c("oob_even_votes", "oob_even_prob_sum", "oob_even_count")

# Every out-of-bag element a model may hold (combine() clears them all
# before setting the merged ones).
oob_element_names <- c("oob_error", "oob_error_curve", "oob_predictions", "oob_votes", "oob_prob_sum",
                       "oob_count", "oob_confidence", "oob_confident_class", "oob_prob", "oob_brier",
                       "oob_logloss", "oob_sum", "oob_sum_whole", "oob_sum_fraction", "oob_rsquared",
                       "oob_unavailable", "oob_error_ensemble", oob_even_names)

# The out-of-bag elements of a fit from the engine's results `oob` (NULL
# when the sampler leaves no row out). `y`: the training outcome (factor or
# numeric), `scaling`: the outcome's centre and scale (regression), `ntree`:
# the forest's trees (the size its out-of-bag error is carried to; the
# engine's error curve is absent for a forest grown in parts).
oob_results <- function(oob, y, outcome, aggregation, scaling, ntree) {
  if (is.null(oob)) {
    return(list(oob_error = NA_real_, oob_error_curve = NULL, oob_predictions = NULL))
  }
  svf_registry$families[[outcome]]$oob(oob, y, aggregation, scaling, ntree)  # R/family-*.R
}

# The tally of a model, or NULL when it does not hold a complete one
# (fitted without out-of-bag rows, or by a version that did not store it);
# `names`: its family's tally elements (R/oob-classification.R, R/oob-regression.R).
oob_tally <- function(object, names) {
  tally <- lapply(names, function(n) object[[n]])
  if (any(vapply(tally, is.null, TRUE))) return(NULL)
  even <- lapply(oob_even_names, function(n) object[[n]])
  if (!any(vapply(even, is.null, TRUE))) return(stats::setNames(c(tally, even), c(names, oob_even_names)))
  stats::setNames(tally, names)
}

# The tallies of parts of one forest, in tree order, merged: counts and
# sums add up (regression fractions with their carry, exactly), the most
# confident tree of an earlier part wins ties. Returns the tally, or a
# string saying why the parts cannot give the whole forest's results.
oob_merge_tallies <- function(parts, names) {
  tallies <- lapply(parts, oob_tally, names)
  has_even <- vapply(tallies, function(t) !is.null(t$oob_even_count), TRUE)
  if (!all(has_even)) tallies <- lapply(tallies, function(t) t[setdiff(names(t), oob_even_names)])
  if (any(vapply(tallies, is.null, TRUE))) {
    return(if (all(vapply(parts, function(p) identical(p$params$sampler, "all"), TRUE))) {
      "the sampler leaves no row out"
    } else {
      "a part holds no out-of-bag tally (fitted without out-of-bag rows, or saved by an older version of svforest)"
    })
  }
  shape <- function(t) lapply(t, function(v) c(class(v)[1], typeof(v), length(v), dim(v)))
  if (!all(vapply(tallies, function(t) identical(shape(t), shape(tallies[[1]])), TRUE))) {
    return("the parts' out-of-bag tallies do not match (a damaged model)")
  }
  out <- Reduce(oob_add_tally, tallies)
  if (!is.null(out$oob_prob_sum) && any(out$oob_count > 2^21)) {
    return("a row has more than 2^21 out-of-bag trees, beyond the exact sums of class shares")
  }
  out
}

# Tally `t` of the trees after those of tally `out` added to it: counts and
# sums add up (regression fractions with their carry, exactly), the most
# confident tree of `out` wins ties.
oob_add_tally <- function(out, t) {
  if (!is.null(out$oob_confidence)) {
    take <- t$oob_count > 0 & (out$oob_count == 0 | t$oob_confidence > out$oob_confidence)
    take[is.na(take)] <- FALSE
    out$oob_confidence[take] <- t$oob_confidence[take]
    out$oob_confident_class[take] <- t$oob_confident_class[take]
  }
  out$oob_count <- out$oob_count + t$oob_count
  if (!is.null(out$oob_votes)) {
    out$oob_votes <- out$oob_votes + t$oob_votes
    out$oob_prob_sum <- out$oob_prob_sum + t$oob_prob_sum
    if (!is.null(out$oob_even_count)) {
      out$oob_even_votes <- out$oob_even_votes + t$oob_even_votes
      out$oob_even_prob_sum <- out$oob_even_prob_sum + t$oob_even_prob_sum
      out$oob_even_count <- out$oob_even_count + t$oob_even_count
    }
  } else {
    frac <- out$oob_sum_fraction + t$oob_sum_fraction
    carry <- frac >= oob_fraction_grid
    out$oob_sum_fraction <- frac - carry * oob_fraction_grid
    out$oob_sum_whole <- out$oob_sum_whole + t$oob_sum_whole + carry
  }
  out
}

# The engine's names of a tally's elements (the `oob` of engine_fit(); its
# confident classes are 0-based, -1 for none, kept as they are here).
engine_tally_names <- c(oob_votes = "votes", oob_prob_sum = "shares", oob_count = "count",
                        oob_even_votes = "even_votes", oob_even_prob_sum = "even_shares", oob_even_count = "even_count",
                        oob_confidence = "confidence", oob_confident_class = "confident_class",
                        oob_sum_whole = "sum_whole", oob_sum_fraction = "sum_fraction")

# An engine tally under the model's names, and back.
model_tally <- function(oob) {
  present <- engine_tally_names[engine_tally_names %in% names(oob)]
  stats::setNames(oob[present], names(present))
}
engine_tally <- function(tally) stats::setNames(tally, engine_tally_names[names(tally)])

# combine(): the out-of-bag elements of the forest made of `parts` (in tree
# order) set in `out`. The error curve needs every tree's out-of-bag
# predictions, which are not stored: it is dropped.
combine_oob <- function(out, parts) model_family(out)$combine_oob(out, parts)  # R/family-*.R

# combine_oob() of the families whose tallies are votes or sums
# (classification and regression): `names` the family's tally elements,
# `results(tally, y)` its out-of-bag elements from the merged tally.
combine_tally_oob <- function(out, parts, names, results) {
  oob <- section_of(out, "oob")  # R/section-oob.R
  oob[oob_element_names] <- NULL
  out$oob <- new_oob_section(oob)
  tally <- oob_merge_tallies(parts, names)
  if (is.character(tally)) {
    out$oob_error <- NA_real_
    out$oob_unavailable <- paste("not available for the combined forest:", tally)
    return(out)
  }
  res <- results(tally, parts[[1]]$oob_y)
  for (name in names(res)) out[[name]] <- res[[name]]
  out
}
