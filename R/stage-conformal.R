#' @include stages.R
NULL

# The post-fit stage (R/stages.R) of every regression fit: `conformal` holds
# whether out-of-bag rows chose splits or trees, the quantile forest (the
# leaves of the training rows, quantile_forest()), and the calibration: by
# default from out-of-bag rows (fit_conformal_oob(); none when the sampler
# leaves no row out), of svforest(..., calibrate = "conformal") (held-out
# rows) or calibrate = "cv" (five fold forests; no row held out), none for
# calibrate = "none"; svforest_calibrate() can replace it. It shares `calibrate` and `calibration_fraction` with the class
# probability calibration (R/calibration.R), which leaves these two values
# to it.
conformal_stage <- new_stage(
  name = "conformal",
  field = "conformal",
  args = c("calibrate", "calibration_fraction"),
  setup = function(args, y, outcome, seed) {
    if (!identical(svf_registry$families[[outcome]]$calibration_stage, "conformal")) return(NULL)
    if (isTRUE(args$calibrate %in% c("conformal", "cv"))) {
      conformal_rows(args$calibrate, args$calibration_fraction, length(y), seed)
    } else if (is.null(args$calibrate) || identical(args$calibrate, "oob")) {
      if (!is.null(args$calibration_fraction)) {
        stop("`calibration_fraction` is for `calibrate = \"conformal\"`; the default calibration scores out-of-bag rows.", call. = FALSE)
      }
      list(method = "oob")
    } else {
      list(method = "none")  # "none", or a value R/calibration.R refuses
    }
  },
  run = function(model, settings, data) {
    model$conformal <- list(splitter_uses_oob = isTRUE(data$splitter_uses_oob),
                            quantile_forest = quantile_forest(model$forest, data$x, data$y, data$num_threads,
                                                              data$training_leaves),
                            calibration = NULL)
    cal <- switch(settings$method,
      conformal = fit_conformal(model, design_rows(model$forest, data$held_x), data$held_y, data$num_threads),
      cv = fit_conformal_cv(model, data$x, data$y, settings$folds, data$fit_rows, data$num_threads),
      oob = fit_conformal_oob(model, model$conformal$quantile_forest, data$oob_rows, data$num_threads),
      NULL
    )
    model$conformal["calibration"] <- list(cal)
    model$conformal
  },
  check = function(value, model) {
    is.list(value) && is.logical(value$splitter_uses_oob) && length(value$splitter_uses_oob) == 1 &&
      !is.na(value$splitter_uses_oob) &&
      (is.null(value$quantile_forest) || quantile_forest_ok(value$quantile_forest, model)) &&
      # an earlier version's calibration (residual scores) leaves the model
      # usable; predict() asks for a new calibration when intervals are wanted
      (is.null(value$calibration) || conformal_calibration_ok(value$calibration) || !is.null(value$calibration$scores))
  },
  print_line = function(x) {
    cal <- x$conformal$calibration
    if (is.null(cal)) return(NULL)
    source <- switch(cal$method, cv = "five fold forests", oob = "out-of-bag rows", "held-out rows")
    paste0("  Intervals:             ", sprintf("conformal (%s, %d rows)%s", source, as.integer(cal$rows),
                                                if (cal$method == "oob" && !isFALSE(x$conformal$splitter_uses_oob))
                                                  "; optimistic: out-of-bag rows chose splits or trees" else ""))
  },
  combine = function(out, parts) {
    # parts grown on the same rows (one forest grown in parts) keep a quantile
    # forest: their training leaves side by side, in the trees' order; a
    # part's calibration describes that part's trees (predict() refuses it,
    # naming the remedy)
    if (!is.null(out$conformal)) {
      out$conformal$splitter_uses_oob <- any(vapply(parts, function(m) !isFALSE(m$conformal$splitter_uses_oob), TRUE))
      qfs <- lapply(parts, function(m) m$conformal$quantile_forest)
      same <- all(vapply(qfs, function(q) !is.null(q) && identical(q$y, qfs[[1]]$y), TRUE))
      out$conformal["quantile_forest"] <- list(if (same) pack_quantile_forest(do.call(cbind, lapply(qfs, qf_leaves)), qfs[[1]]$y))
    }
    out
  }
)
