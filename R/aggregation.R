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
# - regression: per row an exact sum of the trees' predictions on the
#   engine's outcome scale, a whole part (`oob_sum_whole`) plus a fraction in
#   units of 2^-40 (`oob_sum_fraction`), and `oob_count`.
# Everything else out-of-bag (`oob_predictions`, `oob_error`, `oob_prob`,
# `oob_brier`, `oob_logloss`, `oob_rsquared`, `oob_sum`) is derived from the
# tally by oob_from_tally(), for a fit and for a combined forest alike.

# The grid of the fractional part of regression sums (as kFractionGrid).
oob_fraction_grid <- 2^40

# Tally elements of a model of `outcome` type (max_confidence adds two).
oob_tally_names <- function(outcome, aggregation = NULL) {
  if (identical(outcome, "regression")) return(c("oob_sum_whole", "oob_sum_fraction", "oob_count"))
  c("oob_votes", "oob_prob_sum", "oob_count",
    if (identical(aggregation, "max_confidence")) c("oob_confidence", "oob_confident_class"))
}

# Every out-of-bag element a model may hold (combine() clears them all
# before setting the merged ones).
oob_element_names <- c("oob_error", "oob_error_curve", "oob_predictions", "oob_votes", "oob_prob_sum",
                       "oob_count", "oob_confidence", "oob_confident_class", "oob_prob", "oob_brier",
                       "oob_logloss", "oob_sum", "oob_sum_whole", "oob_sum_fraction", "oob_rsquared",
                       "oob_unavailable")

# The out-of-bag elements of a fit from the engine's results `oob` (NULL
# when the sampler leaves no row out). `y`: the training outcome (factor or
# numeric), `scaling`: the outcome's centre and scale (regression).
oob_results <- function(oob, y, outcome, aggregation, scaling) {
  if (is.null(oob)) {
    return(list(oob_error = NA_real_, oob_error_curve = NULL, oob_predictions = NULL))
  }
  svf_registry$families[[outcome]]$oob(oob, y, aggregation, scaling)  # R/family-*.R
}

# Tally plus everything derived from it. `y`: class codes from 1
# (classification) or the numeric outcome; `scaling`: list(center, scale).
oob_from_tally <- function(tally, outcome, y, levels, aggregation, scaling = NULL) {
  count <- tally$oob_count
  has <- count > 0
  if (outcome == "regression") {
    # the same operations as ExactSum::value(), so C++ and R agree
    sum <- tally$oob_sum_whole + tally$oob_sum_fraction / oob_fraction_grid
    pred <- ifelse(has, sum / pmax(count, 1L), NA_real_) * scaling$scale + scaling$center
    mse <- if (any(has)) mean((pred[has] - y[has])^2) else NA_real_
    return(c(tally, list(oob_error = mse, oob_rsquared = oob_rsquared(mse, y[has]), oob_predictions = pred,
                         oob_sum = sum, oob_y = y)))
  }
  confident <- if (identical(aggregation, "max_confidence")) tally$oob_confident_class - 1L
  cls <- .svf_decide_classes(aggregation, tally$oob_votes, tally$oob_prob_sum, as.integer(count), confident) + 1L
  wrong <- sum(cls[has] != y[has])
  prob <- tally$oob_prob_sum / ifelse(has, count, NA_real_)
  colnames(prob) <- levels
  scores <- oob_probability_scores(prob[has, , drop = FALSE], y[has])
  c(tally, list(oob_error = if (any(has)) wrong / sum(has) else NA_real_,
                oob_predictions = factor(levels[cls], levels = levels), oob_prob = prob,
                oob_brier = scores$brier, oob_logloss = scores$logloss, oob_y = y))
}

# Brier score (the squared distance of the probability vector to the
# one-hot class, summed over classes, averaged over rows: 0 is perfect, 2 the
# worst) and log-loss (mean of -log p(class), p clamped at 1e-15 so that a
# class given probability 0 costs about 34.5, not infinity) of probabilities
# `prob` (rows x classes) for class codes `y` (from 1). NA without rows.
oob_probability_scores <- function(prob, y) {
  if (length(y) == 0) return(list(brier = NA_real_, logloss = NA_real_))
  hit <- matrix(0, nrow(prob), ncol(prob))
  hit[cbind(seq_along(y), y)] <- 1
  p_true <- prob[cbind(seq_along(y), y)]
  list(brier = mean(rowSums((prob - hit)^2)), logloss = mean(-log(pmax(p_true, 1e-15))))
}

# The tally of a model, or NULL when it does not hold a complete one
# (fitted without out-of-bag rows, or by a version that did not store it).
oob_tally <- function(object) {
  names <- oob_tally_names(object$type, object$params$aggregation)
  tally <- object[names]
  if (any(vapply(tally, is.null, TRUE))) return(NULL)
  stats::setNames(tally, names)
}

# The tallies of parts of one forest, in tree order, merged: counts and
# sums add up (regression fractions with their carry, exactly), the most
# confident tree of an earlier part wins ties. Returns the tally, or a
# string saying why the parts cannot give the whole forest's results.
oob_merge_tallies <- function(parts) {
  tallies <- lapply(parts, oob_tally)
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
  out <- tallies[[1]]
  for (t in tallies[-1]) {
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
    } else {
      frac <- out$oob_sum_fraction + t$oob_sum_fraction
      carry <- frac >= oob_fraction_grid
      out$oob_sum_fraction <- frac - carry * oob_fraction_grid
      out$oob_sum_whole <- out$oob_sum_whole + t$oob_sum_whole + carry
    }
  }
  if (!is.null(out$oob_prob_sum) && any(out$oob_count > 2^21)) {
    return("a row has more than 2^21 out-of-bag trees, beyond the exact sums of class shares")
  }
  out
}

# combine(): the out-of-bag elements of the forest made of `parts` (in tree
# order) set in `out`. The error curve needs every tree's out-of-bag
# predictions, which are not stored: it is dropped.
combine_oob <- function(out, parts) {
  out[intersect(oob_element_names, names(out))] <- NULL
  tally <- oob_merge_tallies(parts)
  if (is.character(tally)) {
    out$oob_error <- NA_real_
    out$oob_unavailable <- paste("not available for the combined forest:", tally)
    return(out)
  }
  y <- parts[[1]]$oob_y
  scaling <- list(center = out$outcome_center, scale = out$outcome_scale)
  res <- oob_from_tally(tally, out$type, y, out$levels, out$params$aggregation, scaling)
  for (name in names(res)) out[[name]] <- res[[name]]
  out
}
