# A test-only prediction type for classifiers: each row's margin, the
# largest class probability minus the second largest. Registered by this
# file alone.
svforest:::register_prediction_type("margin", "classification", function(object, newdata, args, num_threads) {
  prob <- svforest:::predict_chunked(object, newdata, "prob", num_threads)
  apply(prob, 1, function(p) -diff(sort(p, decreasing = TRUE)[1:2]))
})
