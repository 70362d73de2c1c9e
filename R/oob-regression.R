# The out-of-bag results of a regression forest (its family's `oob` and
# `combine_oob`, R/family-regression.R) from its tally of exact sums
# (R/aggregation.R).

# The tally elements of a regression model.
oob_regression_tally_names <- c("oob_sum_whole", "oob_sum_fraction", "oob_count")

# Tally plus everything derived from it. `y`: the numeric outcome;
# `scaling`: list(center, scale) of the outcome as the engine saw it.
oob_regression_results <- function(tally, y, scaling) {
  count <- tally$oob_count
  has <- count > 0
  # the same operations as ExactSum::value(), so C++ and R agree
  sum <- tally$oob_sum_whole + tally$oob_sum_fraction / oob_fraction_grid
  pred <- ifelse(has, sum / pmax(count, 1L), NA_real_) * scaling$scale + scaling$center
  mse <- if (any(has)) mean((pred[has] - y[has])^2) else NA_real_
  c(tally, list(oob_error = mse, oob_rsquared = oob_rsquared(mse, y[has]), oob_predictions = pred,
                oob_sum = sum, oob_y = y))
}

# 1 - MSE / variance of the outcome (NA without rows or variance).
oob_rsquared <- function(mse, y) {
  v <- if (length(y) > 1) mean((y - mean(y))^2) else NA_real_
  if (is.na(v) || !(v > 0)) NA_real_ else 1 - mse / v
}
