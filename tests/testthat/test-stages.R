# Post-fit stages (R/stages.R): a stage defined in one place is run by the
# fit, printed, checked, combined and applied by predict() without any
# change to svforest(), predict(), check_model(), combine() or print().

# A stage for the test only: `sharpen = a` squares-and-renormalises the
# probabilities a times; it holds out no rows, refuses a regression forest
# in its own words and is kept by combine() when all parts agree.
sharpen_stage <- svforest:::new_stage(
  name = "sharpen",
  field = "sharpen",
  args = "sharpen",
  setup = function(args, y, outcome, seed) {
    if (is.null(args$sharpen)) return(NULL)
    if (outcome == "regression") stop("`sharpen` is for classification.", call. = FALSE)
    list(times = args$sharpen)
  },
  run = function(model, settings, data) list(times = settings$times, rows = nrow(data$x)),
  check = function(value, model) is.numeric(value$times) && length(value$times) == 1,
  print_line = function(x) if (!is.null(x$sharpen)) sprintf("  Sharpened:             %d times", x$sharpen$times),
  combine = function(out, parts) {
    same <- all(vapply(parts, function(p) identical(p$sharpen$times, parts[[1]]$sharpen$times), TRUE))
    if (!same) out$sharpen <- NULL
    out
  },
  predict_prob = function(prob, value) {
    for (i in seq_len(value$times)) prob <- prob^2 / rowSums(prob^2)
    prob
  }
)

with_stage <- function(stage, code) {
  ns <- asNamespace("svforest")
  old <- get("svf_stages", ns)
  unlockBinding("svf_stages", ns)
  assign("svf_stages", function() c(old(), list(stage)), ns)
  on.exit({
    assign("svf_stages", old, ns)
    lockBinding("svf_stages", ns)
  })
  force(code)
}

test_that("a new stage runs, prints, is checked, combined and applied by predict() from its own definition", {
  x <- as.matrix(iris[, 1:4])
  y <- iris$Species
  with_stage(sharpen_stage, {
    plain <- svforest(x, y, ntree = 4, seed = 1, num_threads = 1)
    fit <- svforest(x, y, ntree = 4, seed = 1, num_threads = 1, sharpen = 1L)
    expect_identical(fit$forest, plain$forest)
    expect_identical(fit$sharpen, list(times = 1L, rows = 150L))
    expect_null(fit$params$sharpen)  # a stage's argument is not a parameter
    p <- predict(plain, x, type = "prob")
    expect_equal(predict(fit, x, type = "prob"), p^2 / rowSums(p^2))
    expect_identical(predict(fit, x), predict(plain, x))
    expect_output(print(fit), "Sharpened: +1 times")
    bad <- fit
    bad$sharpen$times <- "a"
    expect_error(predict(bad, x), "'sharpen' is damaged")
    second <- svforest(x, y, ntree = 2, seed = 1, first_tree = 4, num_threads = 1, sharpen = 1L)
    expect_identical(combine(fit, second)$sharpen$times, 1L)
    other <- svforest(x, y, ntree = 2, seed = 1, first_tree = 4, num_threads = 1, sharpen = 2L)
    expect_null(combine(fit, other)$sharpen)
    expect_error(svforest(as.matrix(iris[, 2:4]), iris$Sepal.Length, ntree = 2, num_threads = 1, sharpen = 1L), "for classification")
  })
  # without the stage its argument is an unknown parameter again
  expect_error(svforest(x, y, ntree = 2, seed = 1, num_threads = 1, sharpen = 1L), "sharpen")
})

test_that("calibration and importance are stages of their own files, in the stage list", {
  names <- vapply(svforest:::svf_stages(), `[[`, "", "name")
  expect_identical(names, c("importance", "conformal", "calibration"))
  cal <- svforest:::svf_stages()[[3]]
  expect_identical(cal$field, "calibration")
  expect_identical(cal$args, c("calibrate", "calibration_fraction"))
  expect_true(is.function(cal$predict_prob) && is.function(cal$check) && is.function(cal$print_line))
})

test_that("two stages read one argument: `calibrate` goes to the regression intervals or the class probabilities", {
  y <- as.double(1:40)
  reg <- svforest:::stage_setup(list(calibrate = "conformal", calibration_fraction = 0.25, cost = 1), y, "regression", 1)
  expect_identical(reg$user, list(cost = 1))  # taken out after every stage read it
  expect_identical(reg$settings$conformal$method, "conformal")
  expect_length(reg$held$conformal, 10)
  expect_null(reg$settings$calibration)
  plain <- svforest:::stage_setup(list(), y, "regression", 1)
  expect_identical(plain$settings$conformal$method, "oob")  # the default: intervals calibrated out of bag
  expect_identical(svforest:::stage_setup(list(calibrate = "none"), y, "regression", 1)$settings$conformal$method, "none")
  expect_length(plain$held_all, 0)
  cls <- factor(rep(c("a", "b"), 20))
  platt <- svforest:::stage_setup(list(calibrate = "platt"), cls, "classification", 1)
  expect_length(platt$user, 0)
  expect_null(platt$settings$conformal)
  expect_identical(platt$settings$calibration$method, "platt")
  expect_length(platt$held$calibration, 10)
})
