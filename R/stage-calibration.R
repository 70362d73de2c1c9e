#' @include stages.R
NULL

# The post-fit stage (R/stages.R): svforest(..., calibrate = ) holds out a
# stratified share of the rows, grows the trees on the others and fits the
# calibration maps on the held-out rows into `calibration`, which
# predict(type = "prob") applies. A combined forest is not calibrated.
calibration_stage <- new_stage(
  name = "calibration",
  field = "calibration",
  args = c("calibrate", "calibration_fraction"),
  setup = function(args, y, outcome, seed) calibration_rows(args$calibrate, args$calibration_fraction, y, outcome, seed),
  run = function(model, settings, data) {
    prob <- .svf_predict(model$forest, design_rows(model$forest, data$held_x), data$num_threads, list())$prob
    fit_calibration(prob, as.integer(data$held_y), settings$method)
  },
  check = function(value, model) calibration_ok(value, length(model$levels)),
  print_line = function(x) {
    if (is.null(x$calibration)) return(NULL)
    paste0("  Probabilities:         ", sprintf("calibrated (%s, on %d held-out rows)", x$calibration$method,
                                                as.integer(x$calibration$rows)))
  },
  combine = function(out, parts) {
    if (any(vapply(parts, function(m) !is.null(m$calibration), TRUE))) {
      warning("The combined forest is not calibrated (its parts' calibrations do not apply to it); calibrate it with svforest_calibrate().",
              call. = FALSE)
      out$calibration <- NULL
    }
    out
  },
  predict_prob = function(prob, value) apply_calibration(prob, value)
)
