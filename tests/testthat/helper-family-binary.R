# A test-only outcome family: a 0/1 outcome (class "svf_test_binary")
# fitted by the regression engine on 0/1 and predicted as probabilities,
# or on the logit scale. Registered by this file alone (no package edit).
test_binary <- function(x) structure(as.double(x), class = "svf_test_binary")

svforest:::register_family(
  "test_binary",
  detects = function(y) inherits(y, "svf_test_binary"),
  check = function(y, n) {
    y <- unclass(y)
    if (length(y) != n || anyNA(y) || !all(y %in% c(0, 1))) stop("`y` must be 0 or 1, one per row.", call. = FALSE)
    as.double(y)
  },
  scaling = function(y) svforest:::outcome_scaling(y),
  engine_y = function(y, scaling) (y - scaling$center) / scaling$scale,
  num_classes = function(y) 0L,
  validation_outcome = function(y, scaling) scaling,
  model_fields = function(y, scaling) list(outcome_center = scaling$center, outcome_scale = scaling$scale),
  oob = function(oob, y, aggregation, scaling, ntree) {
    svforest:::svf_registry$families$regression$oob(oob, y, aggregation, scaling, ntree)
  },
  check_model = function(object, fail) svforest:::svf_registry$families$regression$check_model(object, fail),
  print_outcome = function(x) "  Outcome:               0/1 (probability of 1)",
  combining = function(x) "average",
  oob_text = function(x) sprintf("Brier %.4f", x$oob_error),
  default_type = "prob",
  engine_outcome = "regression"
)

test_binary_prob <- function(object, newdata, num_threads) {
  p <- svforest:::predict_chunked(object, newdata, "response", num_threads)
  pmin(pmax(p, 0), 1)
}

svforest:::register_prediction_type("prob", "test_binary", function(object, newdata, args, num_threads) {
  test_binary_prob(object, newdata, num_threads)
})
svforest:::register_prediction_type("logit", "test_binary", function(object, newdata, args, num_threads) {
  stats::qlogis(pmin(pmax(test_binary_prob(object, newdata, num_threads), 0.001), 0.999))
})
