# The out-of-bag results of a classification forest (its family's `oob`
# and `combine_oob`, R/family-classification.R) from its tally of votes and
# class shares (R/aggregation.R).

# The tally elements of a classification model (max_confidence adds two).
oob_class_tally_names <- function(aggregation) {
  c("oob_votes", "oob_prob_sum", "oob_count",
    if (identical(aggregation, "max_confidence")) c("oob_confidence", "oob_confident_class"))
}

# Tally plus everything derived from it. `y`: class codes from 1; `n_trees`:
# the forest's trees, the ensemble size `oob_error` is for.
oob_class_results <- function(tally, y, levels, aggregation, n_trees = NA) {
  count <- tally$oob_count
  has <- count > 0
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

