# Characterization: predictions recorded before the engine's renovation (see
# fixtures/make-characterization.R) must be reproduced exactly.
test_that("every method reproduces its recorded predictions", {
  path <- test_path("fixtures", "characterization.rds")
  skip_if_not(file.exists(path), "no characterization fixtures")
  source(test_path("fixtures", "characterization-cases.R"), local = TRUE)
  recorded <- readRDS(path)
  cases <- characterization_cases()
  expect_identical(length(recorded), length(cases))
  for (k in seq_along(cases)) {
    fit <- do.call(svforest, cases[[k]]$args)
    now <- record_predictions(fit, cases[[k]]$newdata)
    for (what in names(recorded[[k]])) {
      expect_identical(now[[what]], recorded[[k]][[what]],
                       label = paste(cases[[k]]$name, what))
    }
  }
})

test_that("the default method reproduces its recorded fits (factors, missing values, regression, weights)", {
  path <- test_path("fixtures", "characterization-default.rds")
  source(test_path("fixtures", "characterization-cases.R"), local = TRUE)
  recorded <- readRDS(path)
  cases <- default_characterization_cases()
  expect_identical(length(recorded), length(cases))
  for (k in seq_along(cases)) {
    fit <- do.call(svforest, cases[[k]]$args)
    # the first case's new rows have missing values: a warning says they are filled in
    now <- suppressWarnings(record_default(fit, cases[[k]]$newdata))
    expect_identical(names(now), names(recorded[[k]]), label = cases[[k]]$name)
    for (what in names(recorded[[k]])) {
      expect_identical(now[[what]], recorded[[k]][[what]], label = paste(cases[[k]]$name, what))
    }
  }
  # the recorded trees are the default's: axis cuts and hyperplanes both
  kinds <- unlist(lapply(recorded, function(r) r$tree1$kind))
  expect_true(all(c("axis", "hyperplane", "leaf") %in% kinds))
})

test_that("a model saved in the previous format gives an error naming both versions", {
  old <- readRDS(test_path("fixtures", "model-format-1.rds"))  # svforest 0.1.0, format 1
  expect_identical(old$format_version, 1L)
  expect_error(predict(old, datasets::iris), "model format 1L?, this version of svforest reads formats 2 to 5")
  expect_error(print(old), "model format 1")
})
