# The fitted model in named sections (model formats 4 and 5, ?svforest_model): at
# most 10 top-level names, each section checked by its own check, and every
# name of the flat formats 2 and 3 reading the same value.

sections <- c("outcome", "design", "rows", "params", "forest", "provenance", "oob", "stages")
cls_fit <- svforest(Species ~ ., data = iris, ntree = 6, seed = 1, num_threads = 1)
reg_fit <- svforest(mpg ~ ., data = mtcars, ntree = 6, seed = 1, num_threads = 1)

test_that("a default classification and regression fit has at most 10 top-level names, the sections", {
  for (fit in list(cls_fit, reg_fit, svforest(Species ~ ., data = iris, seed = 2, num_threads = 1))) {
    expect_identical(names(fit), sections)
    expect_lte(length(names(fit)), 10)
    expect_identical(fit$format_version, 5L)
  }
  # the flat format's 36 names are gone from the top level; no field is named after a method
  expect_false(any(c("tdsvm", "ntree", "oob_error", "levels", "feature_means") %in% names(cls_fit)))
  expect_identical(names(model_section(reg_fit, "stages")), "conformal")
})

test_that("every name of the flat formats reads the same value after upgrade_model()", {
  for (file in c("model-format-2.rds", "model-format-3.rds")) {
    saved <- readRDS(test_path("fixtures", file))
    for (case in names(saved)) {
      old <- saved[[case]]$model
      new <- upgrade_model(old)
      expect_identical(names(new), sections, info = case)
      for (name in setdiff(names(unclass(old)), c("format_version", "forest"))) {
        expect_identical(new[[name]], old[[name]], info = paste(file, case, name))
        expect_identical(eval(call("$", new, name)), old[[name]], info = paste(file, case, name))
      }
      expect_identical(new$forest$num_classes, old$forest$num_classes)
      expect_identical(new$ntree, length(old$forest$trees))
      # a flat model read in sections, trees as saved
      expect_identical(model_section(old, "rows")$n, old$num_rows)
      expect_identical(model_section(old, "forest")$engine, old$forest)
    }
  }
  # format 3 trees (compact layout 1) are rewritten in layout 2: the same trees
  old <- readRDS(test_path("fixtures", "model-format-3.rds"))$rsvt$model
  up <- upgrade_model(old)$forest
  expect_identical(up[names(up) != "trees"], old$forest[names(old$forest) != "trees"])
  expect_true(all(vapply(up$trees, function(t) identical(t$layout, 2L), TRUE)))
  for (t in seq_along(up$trees)) {
    expect_identical(tree_plain(up, up$trees[[t]]), tree_plain(old$forest, old$forest$trees[[t]]))
  }
})

test_that("the mapping table places every legacy name in a section, and ntree is derived", {
  paths <- svforest:::model_legacy_paths
  expect_true(all(vapply(paths, function(p) p[1] %in% sections, TRUE)))
  fit <- cls_fit
  expect_identical(fit$ntree, 6L)
  expect_identical(fit$forest, model_section(fit, "forest")$engine)
  expect_identical(fit$params, model_section(fit, "params")$values)
  expect_identical(fit$method, "hybrid")
  expect_identical(fit$num_rows, 150L)
  expect_identical(fit$oob_prob, model_section(fit, "oob")$oob_prob)
  expect_identical(fit$outcome, quote(Species))
  expect_identical(fit$type, "classification")
  expect_identical(reg_fit$outcome_scale, model_section(reg_fit, "outcome")$outcome_scale)
  expect_identical(reg_fit$conformal, model_section(reg_fit, "stages")$conformal)
  # names are written where they are read; a derived one cannot be set
  fit$oob_error <- 0.5
  expect_identical(model_section(fit, "oob")$oob_error, 0.5)
  fit$forest$trees <- fit$forest$trees[1:2]
  expect_identical(fit$ntree, 2L)
  expect_error(fit$ntree <- 9L, "`ntree` is derived")
  expect_error(model_section(fit, "trees"), "`section` must be one of")
})

test_that("a new family's and a new stage's fields land in the sections and read by their own names", {
  reg <- svforest:::svf_registry$families$regression
  fields <- reg
  fields$name <- "test_fields"
  fields$priority <- 11  # asked before regression (its outcome is numeric too)
  fields$fields <- list(outcome = "outcome_range", oob = "oob_spread", stages = character())
  fields$detects <- function(y) inherits(y, "svf_test_fields")
  fields$check <- function(y, n) as.double(unclass(y))
  fields$model_fields <- function(y, scaling) c(reg$model_fields(y, scaling), list(outcome_range = range(y)))
  fields$oob <- function(...) c(reg$oob(...), list(oob_spread = 1.5))
  do.call(svforest:::register_family, fields)
  registry <- svforest:::svf_registry
  withr::defer(registry$families$test_fields <- NULL)
  svforest:::share_parts("test_fields", "regression")
  withr::defer(svforest:::share_parts("test_fields", remove = TRUE))
  svforest:::register_stage(name = "rows_count", field = "rows_count", args = character(),
                            setup = function(args, y, outcome, seed) list(),
                            run = function(model, settings, data) nrow(data$x))
  withr::defer(svforest:::remove_stage("rows_count"))
  y <- structure(mtcars$mpg, class = "svf_test_fields")
  fit <- svforest(mtcars[, -1], y, ntree = 4, seed = 1, num_threads = 1, method = "rsvf")
  expect_identical(names(fit), sections)
  expect_identical(fit$type, "test_fields")
  expect_identical(fit$outcome_range, range(mtcars$mpg))
  expect_identical(model_section(fit, "outcome")$outcome_range, range(mtcars$mpg))
  expect_identical(fit$oob_spread, 1.5)
  expect_identical(model_section(fit, "oob")$oob_spread, 1.5)
  expect_identical(fit$rows_count, 32L)
  expect_identical(model_section(fit, "stages")$rows_count, 32L)
})

test_that("each damaged section gets an error naming the section", {
  damage <- function(fit, section, field, value) {
    s <- model_section(fit, section)
    s[field] <- list(value)
    fit[[section]] <- s
    fit
  }
  err <- function(section) sprintf("not a usable svforest model: .*\\(section '%s'\\)", section)
  pred <- function(m) predict(m, iris[1:3, ], num_threads = 1)
  expect_error(pred(damage(cls_fit, "outcome", "type", "survival-ish")), err("outcome"))
  expect_error(pred(damage(cls_fit, "outcome", "levels", c("a", "b"))), err("outcome"))
  expect_error(pred(damage(cls_fit, "outcome", "expression", 3)), err("outcome"))
  expect_error(pred(damage(cls_fit, "design", "type", "table")), err("design"))
  expect_error(pred(damage(cls_fit, "rows", "n", -1)), err("rows"))
  expect_error(pred(damage(cls_fit, "rows", "sampling_weights", c(1, NA))), err("rows"))
  expect_error(pred(damage(cls_fit, "rows", "used", c(TRUE, FALSE))), err("rows"))
  expect_error(pred(damage(cls_fit, "params", "method", 3)), err("params"))
  expect_error(pred(damage(cls_fit, "params", "values", list())), err("params"))
  expect_error(pred(damage(cls_fit, "forest", "engine", NULL)), err("forest"))
  expect_error(pred(damage(cls_fit, "forest", "feature_means", "x")), err("forest"))
  expect_error(pred(damage(cls_fit, "provenance", "seed", "1")), err("provenance"))
  expect_error(pred(damage(cls_fit, "provenance", "first_tree", -2)), err("provenance"))
  expect_error(pred(damage(cls_fit, "oob", "oob_error", c(1, 2))), err("oob"))
  expect_error(pred(damage(cls_fit, "oob", "oob_predictions", factor("a"))), err("oob"))
  expect_error(pred(damage(reg_fit, "stages", "conformal", list(level = "x"))), err("stages"))
  m <- cls_fit
  m[["stages"]] <- NULL
  expect_error(pred(m), "section 'stages' is missing")
  # undamaged, each section passes
  expect_silent(svforest:::check_model(cls_fit))
  expect_silent(svforest:::check_model(reg_fit))
})

test_that("a sectioned model round-trips through saveRDS() and predicts the same", {
  fit <- svforest(mtcars[, -1], mtcars$mpg, ntree = 4, seed = 3, num_threads = 1)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  back <- readRDS(path)
  unlink(path)
  expect_identical(back, fit)
  expect_identical(predict(back, mtcars, num_threads = 1), predict(fit, mtcars, num_threads = 1))
  expect_identical(upgrade_model(fit), fit)
})
