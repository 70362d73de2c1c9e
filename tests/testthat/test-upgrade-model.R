# Models saved by earlier versions predict identically, as they are and
# after upgrade_model() (fixtures/make-format-2.R, make-format-3.R).

test_that("saved format-2 and format-3 models predict identically, before and after upgrade_model()", {
  for (file in c("model-format-2.rds", "model-format-3.rds")) {
    saved <- readRDS(test_path("fixtures", file))
    for (case in names(saved)) {
      old <- saved[[case]]
      new <- upgrade_model(old$model)
      expect_identical(new$format_version, svforest:::model_format_version, info = case)
      expected <- if (is.list(old$predictions)) old$predictions
                  else stats::setNames(list(old$predictions), if (old$model$type == "classification") "prob" else "response")
      for (type in names(expected)) {
        expect_identical(predict(old$model, old$newdata, type = type, num_threads = 1), expected[[type]],
                         info = paste(file, case, type))
        expect_identical(predict(new, old$newdata, type = type, num_threads = 1), expected[[type]],
                         info = paste(file, case, type))
      }
      if (!is.null(old$oob_error)) expect_identical(new$oob_error, old$oob_error, info = case)
    }
  }
})

test_that("upgrade_model() refuses what is not a model", {
  expect_error(upgrade_model(list(a = 1)), "not a usable svforest model")
})
