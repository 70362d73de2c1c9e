# Issue 48: symmetric outcome families, one parameter source, sections as
# the model's interface.

families <- function() svforest:::svf_registry$families
package_families <- c("classification", "regression", "survival", "competing")

test_that("every family registers the same hooks, none left empty", {
  hooks <- svforest:::family_hooks
  for (name in package_families) {
    f <- families()[[name]]
    expect_identical(names(f), hooks, info = name)
    expect_false(any(vapply(f, is.null, TRUE)), info = name)
  }
  # the hooks that are functions are functions in every family, the others values
  kinds <- function(f) vapply(f, is.function, TRUE)
  expect_identical(kinds(families()$regression), kinds(families()$classification))
  expect_identical(kinds(families()$survival), kinds(families()$classification))
  expect_identical(kinds(families()$competing), kinds(families()$classification))
  # a family that leaves a hook out, or brings one of its own, is refused
  reg <- families()$regression
  reg$name <- "test_incomplete"
  expect_error(do.call(svforest:::register_family, reg[-3]), "missing: detects")
  expect_error(do.call(svforest:::register_family, c(reg, list(own_hook = 1))), "unknown: own_hook")
  expect_null(families()$test_incomplete)
  # no family fits as another (the survival family is asked as itself)
  expect_false(any(vapply(families(), function(f) "engine_outcome" %in% names(f), TRUE)))
})

test_that("detection follows the families' priority, not the order they were registered in", {
  registry <- svforest:::svf_registry
  saved <- registry$families
  withr::defer(registry$families <- saved)
  # register the most general family again, last: it is still asked last
  do.call(svforest:::register_family, saved$classification)
  expect_identical(svforest:::outcome_family(survival::Surv(c(1, 2), c(1, 0)))$name, "survival")
  # a multi-state Surv (an event factor) is a Surv too: competing risks are asked first
  mstate <- survival::Surv(c(1, 2, 3), factor(c("censored", "a", "b"), c("censored", "a", "b")))
  expect_identical(svforest:::outcome_family(mstate)$name, "competing")
  expect_identical(svforest:::outcome_family(c(1.5, 2))$name, "regression")
  expect_identical(svforest:::outcome_family(factor(c("a", "b")))$name, "classification")
  prio <- vapply(registry$families, `[[`, 0, "priority")
  expect_false(is.unsorted(rev(prio)))
})

test_that("the parameter table holds each family's defaults, and fits resolve them", {
  table_default <- function(name, family) svforest:::family_parameter_defaults(family)[[name]]
  expect_identical(lapply(package_families, function(f) table_default("min_node_size", f)), list(2L, 5L, 20L, NULL))
  n <- 300L
  for (family in package_families) {
    resolved <- svforest:::resolve_parameters("hybrid", list(), n, family)
    own <- svforest:::family_parameter_defaults(family)
    for (name in intersect(names(own), names(resolved))) {
      expect_identical(resolved[[name]], own[[name]], info = paste(family, name))
    }
  }
  surv <- svforest:::resolve_parameters("hybrid", list(), n, "survival")
  expect_identical(surv$leaf, "nelson_aalen")
  expect_identical(surv$sampler, "subsample")
  expect_identical(surv$sample_fraction, 0.632)
  expect_true(all(c("min_node_events", "tree_rival", "oblique_fit", "min_leaf_size") %in% names(surv)))
  expect_identical(svforest:::outcome_preset(svforest:::svf_method("hybrid"), "survival")$ntree, 300L)
  # competing risks take survival's defaults and knobs, with their own leaf
  # and a hyperplane per cause besides the all-cause one
  cr <- svforest:::resolve_parameters("hybrid", list(), n, "competing")
  own <- c("leaf", "n_oblique")
  expect_identical(cr[setdiff(names(surv), own)], surv[setdiff(names(surv), own)])
  expect_identical(cr$leaf, "aalen_johansen")
  expect_identical(cr$n_oblique, 3L)
  expect_identical(svforest:::outcome_preset(svforest:::svf_method("hybrid"), "competing")$ntree, 300L)
})

test_that("each default is written in one place: the table", {
  own <- svforest:::family_parameter_defaults("survival")
  # the survival engine's defaults are the table's
  engine <- svforest:::survival_engine_defaults()
  expect_identical(engine$ntree, own$ntree)
  for (name in c("min_node_size", "min_leaf_size", "sampler", "min_node_events", "tree_rival", "oblique_fit")) {
    expect_identical(engine[[name]], svforest:::resolve_parameters("hybrid", list(), 100L, "survival")[[name]],
                     info = name)
  }
  # and its source writes none of them
  src <- paste(deparse(body(svforest:::survival_engine_defaults)), collapse = " ")
  expect_false(grepl("min_node_size = [0-9]|min_leaf_size = [0-9]|\"subsample\"|\"both\"|\"ridge\"|= 300", src))
  # a method that takes the family defaults sets none of those parameters itself
  for (m in svforest:::method_names()) {
    preset <- svforest:::svf_method(m)
    if (!isTRUE(preset$family_defaults)) next
    for (family in package_families) {
      given <- c(names(preset$defaults), names(preset$regression$defaults))
      expect_length(intersect(given, names(svforest:::family_parameter_defaults(family))), 0)
    }
  }
  # the package's R sources write a family default nowhere but the table
  src_dir <- file.path("..", "..", "R")
  skip_if_not(dir.exists(src_dir), "package sources not available")
  code <- unlist(lapply(setdiff(list.files(src_dir, "[.]R$", full.names = TRUE),
                                file.path(src_dir, "parameters.R")), function(f) {
    lines <- readLines(f)
    lines[!grepl("^\\s*#", lines)]
  }))
  for (name in c("min_node_size", "min_leaf_size", "min_node_events", "tree_rival", "oblique_fit")) {
    hits <- grep(sprintf("\\b%s\\s*=\\s*(-?[0-9]|\"|NA)", name), code, value = TRUE)
    hits <- hits[!grepl("register_method\\(\"rsvf\"|defaults = list\\(cost = 1", hits)]  # rsvf's own method default
    expect_length(hits, 0)
  }
})

test_that("every survival knob is documented with its survival default and tunable", {
  rd <- gsub("\\\\code\\{([^}]*)\\}", "\\1", paste(svforest:::parameters_rd(), collapse = " "))
  for (name in c("min_node_events", "tree_rival", "oblique_fit", "min_leaf_size", "min_node_size")) {
    expect_match(rd, name, fixed = TRUE)
  }
  expect_match(rd, "20 for \"hybrid\" \\(a survival outcome\\)")
  expect_match(rd, "10 for \"hybrid\" \\(a survival outcome\\)")
  expect_match(rd, "Default for a survival outcome: 300")
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not("censored regression" %in% parsnip::get_model_env()$rand_forest_modes,
              "parsnip has no censored regression mode")
  spec <- parsnip::set_engine(parsnip::rand_forest(mode = "censored regression"), "svforest")
  tun <- tune::tunable(spec)
  expect_true(all(c("min_node_events", "tree_rival", "oblique_fit", "min_leaf_size", "min_n") %in% tun$name))
})

test_that("the survival knobs reach the engine from svforest()", {
  d <- survival::lung[complete.cases(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")]),
                      c("time", "status", "age", "sex", "ph.ecog")]
  fit <- function(...) svforest(survival::Surv(time, status) ~ ., data = d, ntree = 4, seed = 1, num_threads = 1, ...)
  base <- fit()
  expect_identical(base$params$min_node_events, NA_integer_)
  expect_identical(base$params$tree_rival, "both")
  deep <- fit(min_node_events = 1L, min_leaf_size = 1L, min_node_size = 2L)
  expect_gt(mean(svforest:::tree_n_leaves(deep$forest$trees[[1]])), 0)
  expect_false(identical(base$forest$trees, deep$forest$trees))
  expect_false(identical(base$forest$trees, fit(tree_rival = "axis")$forest$trees))
  expect_error(fit(tree_rival = "none"), "`tree_rival` must be one of")
  expect_error(fit(min_node_events = 0), "min_node_events")
  # a survival knob is a parameter of the survival leaf, not of a classifier
  expect_error(svforest(Species ~ ., iris, ntree = 2, tree_rival = "axis"), "nelson_aalen and aalen_johansen leaves")
})

test_that("fit$forest, fit$outcome and fit$params each mean one thing; unknown names cannot be assigned", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(fit$forest, model_section(fit, "forest")$engine)
  expect_identical(fit$outcome, model_section(fit, "outcome")$expression)
  expect_identical(fit$params, model_section(fit, "params")$values)
  expect_identical(fit[["forest"]], fit$forest)
  expect_identical(fit$tdsvm, model_section(fit, "forest")$selection)
  expect_error(fit$calibraton <- 1, "`calibraton` is not a field of an svforest model")
  expect_error(fit[["oob_eror"]] <- 1, "`oob_eror` is not a field")
  # known names are written where they are read
  fit$calibration <- NULL
  fit$oob_error <- 0.25
  expect_identical(model_section(fit, "oob")$oob_error, 0.25)
})
