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
#   tree index from 0), from which oob_from_tally() corrects the error for
#   the size of each row's out-of-bag ensemble (oob_extrapolate());
# - regression: per row an exact sum of the trees' predictions on the
#   engine's outcome scale, a whole part (`oob_sum_whole`) plus a fraction in
#   units of 2^-40 (`oob_sum_fraction`), and `oob_count`.
# Everything else out-of-bag (`oob_predictions`, `oob_error`, `oob_prob`,
# `oob_brier`, `oob_logloss`, `oob_rsquared`, `oob_sum`) is derived from the
# tally by oob_from_tally(), for a fit and for a combined forest alike.

# The grid of the fractional part of regression sums (as kFractionGrid).
oob_fraction_grid <- 2^40

# Tally of the even-numbered trees: optional (models of earlier versions lack
# it; their error is then the out-of-bag ensembles' own).
oob_even_names <- c("oob_even_votes", "oob_even_prob_sum", "oob_even_count")

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

# Tally plus everything derived from it. `y`: class codes from 1
# (classification) or the numeric outcome; `scaling`: list(center, scale);
# `n_trees`: the forest's trees, the ensemble size `oob_error` is for.
oob_from_tally <- function(tally, outcome, y, levels, aggregation, scaling = NULL, n_trees = NA) {
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
  ensemble_error <- if (any(has)) wrong / sum(has) else NA_real_
  c(tally, list(oob_error = oob_forest_error(tally, cls, y, aggregation, n_trees, ensemble_error),
                oob_error_ensemble = ensemble_error,
                oob_predictions = factor(levels[cls], levels = levels), oob_prob = prob,
                oob_brier = scores$brier, oob_logloss = scores$logloss, oob_y = y))
}

# The out-of-bag error of the forest of `n_trees` trees. A row's
# out-of-bag ensemble holds only its m scoring trees (about a fifth of the
# forest for the default): its votes are noisier than the forest's, and the
# error of a t-tree ensemble falls as err(t) = a + c / t (Lopes 2019). Each
# row's loss is read with all m trees and with each half (even- and
# odd-numbered trees, sizes e and o), which gives c; the row's loss for the
# forest is then its m-tree loss less c (1/m - 1/n_trees) (oob_extrapolate()).
# The rows' shifts are noisy, and where the forest's votes carry little
# beyond the training rows' class shares (pure noise) the t-tree error has
# not reached its 1/t regime at the halves' few trees, so their mean is
# shrunk by its reliability, mean^2 / (mean^2 + standard error^2): a shift
# the rows cannot tell from zero moves the error little.
# Without the even tally (max_confidence, earlier versions): `ensemble_error`.
oob_forest_error <- function(tally, cls, y, aggregation, n_trees, ensemble_error) {
  even_count <- tally$oob_even_count
  if (is.null(even_count) || !is.finite(n_trees) || is.na(ensemble_error)) return(ensemble_error)
  count <- tally$oob_count
  odd_count <- count - even_count
  decide <- function(votes, prob_sum, n) .svf_decide_classes(aggregation, votes, prob_sum, as.integer(n), NULL) + 1L
  even_cls <- decide(tally$oob_even_votes, tally$oob_even_prob_sum, even_count)
  odd_cls <- decide(tally$oob_votes - tally$oob_even_votes, tally$oob_prob_sum - tally$oob_even_prob_sum, odd_count)
  has <- count > 0
  loss <- as.numeric(cls[has] != y[has])
  half_loss <- (as.numeric(even_cls[has] != y[has]) + as.numeric(odd_cls[has] != y[has])) / 2
  shift <- oob_extrapolate(loss, half_loss, count[has], even_count[has], odd_count[has], n_trees) - loss
  if (length(shift) < 2) return(ensemble_error)
  mean_shift <- mean(shift)
  variance <- stats::var(shift) / length(shift)
  reliability <- if (mean_shift == 0) 0 else mean_shift^2 / (mean_shift^2 + variance)
  min(1, max(0, mean(loss) + reliability * mean_shift))
}

# Per row, the expected loss of an n_trees ensemble from its loss with m
# trees (`loss`) and the mean loss of two halves of e and o trees
# (`half_loss`), under loss(t) = a + c / t; rows without both halves keep
# their m-tree loss.
oob_extrapolate <- function(loss, half_loss, m, e, o, n_trees) {
  both <- e > 0 & o > 0
  inv_half <- (1 / pmax(e, 1) + 1 / pmax(o, 1)) / 2
  slope <- ifelse(rep_len(both, length(loss)), (half_loss - loss) / (inv_half - 1 / m), 0)
  loss - slope * pmax(0, 1 / m - 1 / n_trees)
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
oob_merge_tallies <- function(parts) {
  tallies <- lapply(parts, oob_tally)
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
# (classification and regression).
combine_tally_oob <- function(out, parts) {
  oob <- section_of(out, "oob")  # R/section-oob.R
  oob[oob_element_names] <- NULL
  out$oob <- new_oob_section(oob)
  tally <- oob_merge_tallies(parts)
  if (is.character(tally)) {
    out$oob_error <- NA_real_
    out$oob_unavailable <- paste("not available for the combined forest:", tally)
    return(out)
  }
  y <- parts[[1]]$oob_y
  scaling <- list(center = out$outcome_center, scale = out$outcome_scale)
  res <- oob_from_tally(tally, out$type, y, out$levels, out$params$aggregation, scaling,
                        n_trees = length(out$forest$trees))
  for (name in names(res)) out[[name]] <- res[[name]]
  out
}
