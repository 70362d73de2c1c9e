# upgrade_model() (exported): saved models of formats 2 and 3 come back in
# the current format and predict exactly as when they were saved.

test_that("models saved in format 3 (commit 4542739) predict as saved, as they are and upgraded", {
  saved <- readRDS(test_path("fixtures", "model-format-3.rds"))  # fixtures/make-format-3.R
  expect_named(saved, c("default_classification", "default_regression", "rsvt"))
  expect_true("interval" %in% names(saved$default_regression$predictions))
  for (name in names(saved)) {
    case <- saved[[name]]
    old <- case$model
    expect_identical(old$format_version, 3L)
    new <- upgrade_model(old)
    expect_identical(new$format_version, svforest:::model_format_version)
    # rows with a missing value are filled in as in training, with a warning
    predict_quietly <- function(m, type) suppressWarnings(predict(m, case$newdata, type = type, num_threads = 1))
    for (type in names(case$predictions)) {
      expect_identical(predict_quietly(new, type), case$predictions[[type]], info = paste(name, type))
      expect_identical(predict_quietly(old, type), case$predictions[[type]],
                       info = paste(name, type, "as saved"))
    }
  }
  # the classifier was fitted with a missing value and predicts rows with one
  cls <- saved$default_classification
  expect_true(anyNA(cls$newdata$a))
  expect_true(is.factor(cls$newdata$g))
  expect_identical(cls$model$design$na_action, "impute")
})

test_that("models saved in format 2 upgrade to the current format and predict as saved", {
  saved <- readRDS(test_path("fixtures", "model-format-2.rds"))  # fixtures/make-format-2.R
  for (name in names(saved)) {
    case <- saved[[name]]
    new <- upgrade_model(case$model)
    expect_identical(new$format_version, svforest:::model_format_version)
    type <- if (new$type == "classification") "prob" else "response"
    expect_identical(predict(new, case$newdata, type = type, num_threads = 1), case$predictions, info = name)
    # the upgrade rewrites the trees: saved again it is smaller, and round-trips
    expect_lt(length(serialize(new, NULL)), length(serialize(case$model, NULL)))
    path <- tempfile(fileext = ".rds")
    saveRDS(new, path)
    expect_identical(readRDS(path), new)
    unlink(path)
  }
})

test_that("upgrade_model() of a current model returns it unchanged", {
  fit <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  expect_identical(upgrade_model(fit), fit)
})

test_that("upgrade_model() rejects what it cannot read, with a clear error", {
  old <- readRDS(test_path("fixtures", "model-format-1.rds"))  # svforest 0.1.0
  expect_error(upgrade_model(old), "model format 1L?, this version of svforest reads formats 2 to 5 \\(refit")
  expect_error(upgrade_model(list(format_version = 3L)), "does not inherit from class 'svforest'")
  expect_error(upgrade_model(iris), "does not inherit from class 'svforest'")
  saved <- readRDS(test_path("fixtures", "model-format-3.rds"))
  damaged <- saved$rsvt$model
  damaged$design$contrasts$g[1, 1] <- NA
  expect_error(upgrade_model(damaged), "'design\\$contrasts' of factor `g` holds NA or infinite")
  # a format-2 model is checked before its trees are rewritten
  damaged <- readRDS(test_path("fixtures", "model-format-2.rds"))$rsvt$model
  damaged$levels <- damaged$levels[1:2]
  expect_error(upgrade_model(damaged), "num_classes' does not match 'levels'")
})
