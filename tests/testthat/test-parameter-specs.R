# Each parameter's facts live in one spec (R/parameters.R); the help page
# ?svforest_parameters, the dials objects, caret's ranges and the foreign
# names are made from it. These tests read the spec and each product.

if (!nzchar(Sys.getenv("TZ"))) withr::local_envvar(TZ = "UTC", .local_envir = testthat::teardown_env())

ns <- asNamespace("svforest")
specs <- function() ns$svf_parameters
rd_flat <- function(rd) gsub("\\s+", " ", paste(utils::capture.output(tools::Rd2txt(rd)), collapse = " "))

# The items of the installed ?svforest_parameters: name -> plain text.
rd_items <- function(rd) {
  items <- list()
  walk <- function(x) {
    if (identical(attr(x, "Rd_tag"), "\\item") && length(x) == 2) {
      items[[paste(unlist(x[[1]]), collapse = "")]] <<- gsub("\\s+", " ", paste(unlist(x[[2]]), collapse = ""))
    } else if (is.list(x)) {
      for (e in x) walk(e)
    }
  }
  walk(rd)
  items
}

# The default sentence of an item ("Default: ... .").
default_sentence <- function(item) regmatches(item, regexpr("Default: .*?\\. (Read|Tuned|Not)", item, perl = TRUE))

# A value as the page writes it: R code.
code <- function(value) {
  if (length(value) == 1 && is.na(value)) return("NA")
  if (is.integer(value)) value <- as.numeric(value)
  paste(deparse(value), collapse = "")
}

test_that("the installed help pages are the ones the specs make", {
  db <- tools::Rd_db("svforest")
  skip_if(length(db) == 0, "the installed package has no help pages")
  made <- tools::parse_Rd(textConnection(ns$parameters_rd()))
  expect_identical(rd_flat(db[["svforest_parameters.Rd"]]), rd_flat(made))
  # ?svforest_dials: every dials function has an alias and its usage
  dials_rd <- paste(as.character(db[["svforest_dials.Rd"]]), collapse = "")
  for (fn in ns$dials_function_names()) expect_match(dials_rd, sprintf("\\alias{%s}", fn), fixed = TRUE)
  for (usage in ns$dials_usage()) expect_match(gsub("\\s+", " ", dials_rd), usage, fixed = TRUE)
  # in the source tree, man/ is what write_generated_docs() writes
  man <- test_path("..", "..", "man")
  skip_if_not(file.exists(file.path(man, "svforest_parameters.Rd")), "not run from the package source")
  # (as rendered text: roxygen's `@eval` of the same tags may lay the file out otherwise)
  source_rd <- tools::parse_Rd(file.path(man, "svforest_parameters.Rd"))
  expect_identical(rd_flat(source_rd), rd_flat(made), label = "man/svforest_parameters.Rd (run write_generated_docs())")
  out <- withr::local_tempdir()
  file.copy(file.path(man, "svforest_dials.Rd"), out)
  ns$write_generated_docs(out)
  expect_identical(readLines(file.path(out, "svforest_dials.Rd")), readLines(file.path(man, "svforest_dials.Rd")))
})

test_that("?svforest_parameters gives every method's default and every range of every parameter", {
  db <- tools::Rd_db("svforest")
  skip_if(length(db) == 0, "the installed package has no help pages")
  items <- rd_items(db[["svforest_parameters.Rd"]])
  expect_setequal(names(items), c(names(specs()), names(ns$svf_fit_options)))
  for (m in svforest_methods()$method) {
    outcomes <- if (is.null(ns$svf_method(m)$regression)) "classification" else c("classification", "regression")
    for (outcome in outcomes) {
      # the defaults a fit of this method resolves (1,000 and 10^6 rows:
      # a default that depends on the rows is described, not a number)
      small <- ns$resolve_parameters(m, list(), 1000L, outcome)
      large <- ns$resolve_parameters(m, list(), 1000000L, outcome)
      for (name in names(small)) {
        sentence <- default_sentence(items[[name]])
        expect_length(sentence, 1)
        if (grepl(' for "', sentence)) expect_match(sentence, sprintf("\"%s\"", m), fixed = TRUE, label = paste(m, name))
        if (identical(small[[name]], large[[name]])) {
          expect_match(sentence, code(small[[name]]), fixed = TRUE, label = paste(m, outcome, name))
        } else {
          expect_match(sentence, gsub("`", "", specs()[[name]]$default_doc), fixed = TRUE, label = name)
        }
      }
    }
  }
  for (name in names(specs())) {
    t <- specs()[[name]]$tune
    if (is.null(t)) {
      expect_match(items[[name]], "Not tuned", label = name)
    } else if (!is.null(t$lower)) {
      upper <- if (identical(t$upper, "predictors")) "the number of predictors" else code(t$upper)
      expect_match(items[[name]], sprintf("Tuned from %s to %s", code(t$lower), upper), fixed = TRUE, label = name)
    }
    for (alias in specs()[[name]]$alias) expect_match(items[[name]], alias, fixed = TRUE)
  }
  # the drifts found before the specs: the default's splitter and its
  # parameters are on the page, max_depth's default is each method's own
  for (name in c("mtry", "oblique_mtry", "n_oblique", "split_ridge", "oblique_choice", "tree_choice", "oblique_rows")) {
    expect_match(items[[name]], "Read by the hybrid splitter", fixed = TRUE, label = name)
  }
  expect_match(items$max_depth, "6 for \"rsvf\"; 9 for \"transform\"", fixed = TRUE)
  expect_match(items$factor_coding, "\"order\" for \"hybrid\" (a factor)", fixed = TRUE)
})

test_that("every parameter with a range or values has a dials object spanning it, registered with parsnip", {
  skip_if_not_installed("dials")
  skip_if_not_installed("parsnip")
  exported <- getNamespaceExports("svforest")
  tuned <- Filter(function(s) !is.null(s$tune), c(specs(), ns$svf_fit_options))
  # every parameter but cache_size (speed only) is tuned, and every one of
  # the default method's engine arguments
  expect_identical(setdiff(names(specs()), names(tuned)), "cache_size")
  expect_true(all(c(ns$svf_part("splitter", "hybrid")$parameters, "factor_coding", "ntree_max") %in% names(tuned)))
  args <- parsnip::get_model_env()$rand_forest_args
  args <- args[args$engine == "svforest", ]
  for (name in names(tuned)) {
    fn <- paste0("svf_", name)
    expect_true(fn %in% exported, label = fn)
    p <- get(fn, envir = ns)()
    t <- tuned[[name]]$tune
    expect_identical(names(p$label), name)
    if (is.null(t$lower)) {
      values <- if (!is.null(t$values)) t$values else ns$parameter_choices(tuned[[name]])
      expect_identical(p$values, values, label = fn)
    } else {
      to <- switch(if (is.null(t$trans)) "none" else t$trans, log10 = log10, log2 = log2, none = identity)
      expect_equal(as.numeric(p$range$lower), to(t$lower), label = fn)
      if (identical(t$upper, "predictors")) {
        expect_true(dials::has_unknowns(p), label = fn)
        expect_equal(dials::finalize(p, iris[, 1:4])$range$upper, 4, label = fn)
      } else {
        expect_equal(as.numeric(p$range$upper), to(t$upper), label = fn)
      }
    }
    if (name != "mtry") expect_identical(args$func[args$parsnip == name][[1]]$fun, fn, label = name)
  }
  # trees as dials' trees(): 1 to 2,000
  expect_identical(svf_trees()$range, dials::trees()$range)
})

test_that("caret tunes every numeric parameter over its spec's range, within what the data allow", {
  numeric <- names(Filter(function(s) !is.null(s$tune$lower), specs()))
  expect_setequal(ns$caret_tunable(), numeric)
  for (name in numeric) {
    t <- specs()[[name]]$tune
    r <- ns$caret_range(name, n = 1e6, p = 1000)
    expect_identical(r$lower, t$lower, label = name)
    expect_identical(r$upper, if (identical(t$upper, "predictors")) 1000 else t$upper, label = name)
    values <- ns$caret_values(ns$caret_range(name, n = 32, p = 10), 3)
    expect_true(all(values >= t$lower & values <= if (is.numeric(t$upper)) t$upper else 10), label = name)
  }
  # the default tunes mtry and min_node_size; on 32 rows and 10 predictors
  # the node size stays at a quarter of the rows (the specs' 40 would make
  # every tree one leaf) and mtry within the predictors
  g <- svforest_caret()$grid(mtcars[, -1], mtcars$mpg, len = 3)
  expect_setequal(names(g), c("mtry", "min_node_size"))
  expect_identical(sort(unique(g$mtry)), c(1, 3, 10))
  expect_identical(sort(unique(g$min_node_size)), c(2, 4, 8))
  expect_identical(max(svforest_caret()$grid(iris[, 1:4], iris$Species, len = 3)$min_node_size), 37)
  set.seed(2)
  random <- svforest_caret()$grid(mtcars[, -1], mtcars$mpg, len = 5, search = "random")
  expect_gt(nrow(random), 2L)
  expect_true(all(random$mtry <= 10 & random$min_node_size <= 8))
})

test_that("caret's default grid on mtcars gives no constant predictions", {
  skip_if_not_installed("caret")
  set.seed(11)
  tuned <- suppressWarnings(caret::train(mpg ~ ., data = mtcars, method = svforest_caret(ntree = 20)))
  expect_identical(nrow(tuned$results), 9L)
  expect_false(anyNA(tuned$results$Rsquared))
  expect_true(all(tuned$results$Rsquared > 0.5))
  expect_gt(stats::sd(predict(tuned, mtcars)), 1)
})

test_that("foreign names come from the specs, and the factor coding is described as it is", {
  aliases <- ns$parameter_aliases()
  for (name in names(specs())) for (a in specs()[[name]]$alias) expect_identical(aliases[[a]], name)
  expect_identical(aliases$na.action, "na_action")
  expect_error(svforest(Species ~ ., iris, ntree = 2, max.depth = 3), "`max.depth` is called `max_depth` here")
  expect_error(svforest(Species ~ ., iris, ntree = 2, sampsize = 0.5), "`sampsize` is called `sample_fraction`")
  expect_error(svforest(Species ~ ., iris, ntree = 2, weights = rep(1, 150)), "called `case_weights`")
  expect_error(svforest(Species ~ ., iris, ntree = 2, respect.unordered.factors = "order"), "factor_coding")
  expect_no_match(ns$foreign_argument_message("respect.unordered.factors"), "always")
})

test_that("tune_grid() runs over every engine argument of the default method", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  tune <- tune::tune
  spec <- parsnip::set_engine(
    parsnip::rand_forest(mtry = tune(), min_n = tune(), trees = 10, mode = "classification"), "svforest",
    num_threads = 1, oblique_mtry = tune(), n_oblique = tune(), split_ridge = tune(), oblique_rows = tune(),
    oblique_choice = tune(), tree_choice = tune(), factor_coding = tune(), ntree_max = tune(),
    sample_fraction = tune(), max_depth = tune())
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), Species ~ .)
  set.seed(3)
  folds <- rsample::vfold_cv(iris, v = 3, strata = Species)
  # every argument's dials object, found without a parameter set of our own
  # (tune finalizes the ranges up to the number of predictors); grid = n
  # draws a space-filling design, which needs n >= 12 points for 12 arguments
  ps <- hardhat::extract_parameter_set_dials(wf)
  expect_identical(nrow(ps), 12L)
  expect_identical(ps$object[[which(ps$id == "oblique_mtry")]]$label, svf_oblique_mtry()$label)
  set.seed(4)
  res <- tune::tune_grid(wf, resamples = folds, grid = 12, metrics = yardstick::metric_set(yardstick::accuracy))
  m <- tune::collect_metrics(res)
  expect_identical(nrow(m), 12L)
  expect_true(all(m$n == 3))
  expect_true(all(m$mean > 0.6))
  expect_true(all(m$mtry <= 4 & m$oblique_mtry <= 4))
  expect_setequal(names(m)[names(m) %in% names(specs())], c("mtry", "oblique_mtry", "n_oblique", "split_ridge",
    "oblique_rows", "oblique_choice", "tree_choice", "factor_coding", "sample_fraction", "max_depth"))
})
