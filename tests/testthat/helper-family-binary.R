# A test-only outcome family: a 0/1 outcome (class "svf_test_binary")
# fitted by the regression engine on 0/1 and predicted as probabilities,
# or on the logit scale. Registered by this file alone (no package edit).
test_binary <- function(x) structure(as.double(x), class = "svf_test_binary")

# (it takes the regression family's hooks where it has nothing of its own)
local({
  family <- svforest:::svf_registry$families$regression
  family[c("name", "priority", "detects", "check", "print_outcome", "oob_text", "default_type", "describe")] <- list(
    "test_binary", 10,
    function(y) inherits(y, "svf_test_binary"),
    function(y, n) {
      y <- unclass(y)
      if (length(y) != n || anyNA(y) || !all(y %in% c(0, 1))) stop("`y` must be 0 or 1, one per row.", call. = FALSE)
      as.double(y)
    },
    function(x) "  Outcome:               0/1 (probability of 1)",
    function(x) sprintf("Brier %.4f", x$oob_error),
    "prob", "a 0/1 outcome")
  do.call(svforest:::register_family, family)
})
# it grows regression forests: a test that fits it takes the regression
# parts for it (and gives them back, so that no other test's messages name it)
use_test_binary_parts <- function(env = parent.frame()) {
  svforest:::share_parts("test_binary", "regression")
  withr::defer(svforest:::share_parts("test_binary", remove = TRUE), envir = env)
}

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
