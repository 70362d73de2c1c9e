# The parsnip engine per method: min_n and mtry mapped to each method's own
# parameters, dials objects for the engine arguments (tune_grid(grid = n)
# without a parameter set), sparse predictors and multi_predict() over trees.

# tune's dependencies ask the system for the time zone when TZ is unset,
# which warns in containers without systemd
if (!nzchar(Sys.getenv("TZ"))) withr::local_envvar(TZ = "UTC", .local_envir = testthat::teardown_env())

test_that("min_n is each method's node size, and fits for every method", {
  skip_if_not_installed("parsnip")
  own <- c(rsvt = "min_leaf_size", rsvf = "min_leaf_size", psvm = "n_min", transform = "min_node_size",
           tdsvm = "sigma")
  for (m in svforest_methods()$method) {
    spec <- parsnip::set_engine(parsnip::rand_forest(min_n = 10, trees = 2, mode = "classification"),
                                "svforest", method = m)
    fit <- parsnip::fit(spec, Species ~ ., data = iris)
    model <- parsnip::extract_fit_engine(fit)
    expect_identical(model$method, m)
    param <- svforest:::splitter_node_size(model$params$splitter)
    expect_length(param, 1)
    if (m %in% names(own)) expect_identical(param, own[[m]])
    expect_identical(model$params[[param]], 10L)
    expect_identical(nrow(predict(fit, iris[1:3, ], type = "prob")), 3L)
  }
})

test_that("mtry is honoured where the splitter draws predictors, else a warning", {
  skip_if_not_installed("parsnip")
  spec <- function(m) parsnip::set_engine(parsnip::rand_forest(mtry = 2, trees = 2, mode = "classification"),
                                          "svforest", method = m)
  psvm <- parsnip::extract_fit_engine(parsnip::fit(spec("psvm"), Species ~ ., data = iris))
  expect_identical(psvm$params$m_max, 2L)
  rsvf <- parsnip::extract_fit_engine(parsnip::fit(spec("rsvf"), Species ~ ., data = iris))
  expect_identical(rsvf$params$proj_dim, 2L)
  expect_warning(parsnip::fit(spec("rsvt"), Species ~ ., data = iris), "`mtry` is not used")
  expect_warning(parsnip::fit(spec("transform"), Species ~ ., data = iris), "`mtry` is not used")
})

test_that("every tunable engine argument has a dials object, and tune_grid(grid = n) runs over methods", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("yardstick")
  skip_if_not_installed("rsample")
  skip_if_not_installed("dials")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = tune::tune(), min_n = tune::tune(),
                                                   mode = "classification"),
                              "svforest", cost = tune::tune(), method = tune::tune())
  tun <- tune::tunable(spec)
  expect_true(all(c("trees", "min_n", "cost", "method") %in% tun$name))
  expect_false(any(vapply(tun$call_info[tun$name %in% c("cost", "method", "leaf_size_factor", "nu")], is.null, TRUE)))
  ps <- hardhat::extract_parameter_set_dials(spec)
  expect_false(any(dials::has_unknowns(ps$object)))
  expect_setequal(svf_method_name()$values, svforest_methods()$method)
  expect_s3_class(svf_cost(), "quant_param")
  expect_s3_class(svf_leaf_size_factor(), "quant_param")
  # every dials object makes values its svforest() argument accepts
  for (name in intersect(names(svforest:::svf_dials), names(svforest:::svf_parameters))) {
    p <- dials::finalize(get(svforest:::svf_dials[[name]])(), iris[, 1:4])
    v <- dials::value_seq(p, 3)
    for (value in as.list(v)) expect_no_error(svforest:::svf_parameters[[name]]$check(value))
  }

  # a grid of as many points as methods covers every method
  d <- iris[c(1:30, 51:80, 101:130), ]
  set.seed(4)
  folds <- rsample::vfold_cv(d, v = 2, strata = Species)
  wf <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), Species ~ .)
  n_methods <- nrow(svforest_methods())
  set.seed(5)
  # svf_trees() spans 1 to 2,000 trees, as dials' trees(): a test keeps forests small
  small <- stats::update(ps, trees = svf_trees(c(1L, 20L)))
  res <- suppressWarnings(tune::tune_grid(wf, resamples = folds, grid = max(5L, n_methods), param_info = small,
                                          metrics = yardstick::metric_set(yardstick::accuracy)))
  m <- tune::collect_metrics(res)
  expect_setequal(unique(m$method), svforest_methods()$method)
  expect_true(all(m$n == 2))
  expect_true(all(m$mean > 0.5))
})

test_that("sparse predictors go to svforest() as a dgCMatrix", {
  skip_if_not_installed("parsnip")
  x <- Matrix::Matrix(as.matrix(iris[, 1:4]), sparse = TRUE)
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 3, mode = "classification"), "svforest")
  fit <- parsnip::fit_xy(spec, x = x, y = iris$Species)
  model <- parsnip::extract_fit_engine(fit)
  direct <- svforest(x, iris$Species, ntree = 3, seed = model$seed, num_threads = 1)
  expect_identical(model$design$type, direct$design$type)
  expect_identical(model$forest, direct$forest)
  expect_equal(as.matrix(predict(fit, x[c(1, 51, 101), ], type = "prob")),
               predict(direct, x[c(1, 51, 101), ], type = "prob"), ignore_attr = TRUE)
})

test_that("multi_predict() predicts with the first k trees", {
  skip_if_not_installed("parsnip")
  spec <- parsnip::set_engine(parsnip::rand_forest(trees = 6, mode = "classification"), "svforest")
  set.seed(1)
  fit <- parsnip::fit(spec, Species ~ ., data = iris)
  model <- parsnip::extract_fit_engine(fit)
  new <- iris[c(1, 51, 101, 120), ]
  mp <- parsnip::multi_predict(fit, new, trees = c(2, 6), type = "prob")
  expect_identical(nrow(mp), 4L)
  first <- mp$.pred[[4]]
  expect_identical(first$trees, c(2L, 6L))
  # the first two trees are the forest ntree = 2 grows with the same seed
  two <- svforest(Species ~ ., data = iris, ntree = 2, seed = model$seed, num_threads = 1)
  expect_equal(unlist(first[1, -1]), predict(two, new[4, ], type = "prob")[1, ], ignore_attr = TRUE)
  expect_equal(unlist(first[2, -1]), predict(model, new[4, ], type = "prob")[1, ], ignore_attr = TRUE)
  cls <- parsnip::multi_predict(fit, new, trees = 2)
  expect_identical(cls$.pred[[1]]$.pred_class, predict(two, new[1, ]))
  reg <- parsnip::fit(parsnip::set_engine(parsnip::rand_forest(trees = 4, mode = "regression"), "svforest"),
                      mpg ~ ., data = mtcars)
  r <- parsnip::multi_predict(reg, mtcars[1:2, ], trees = 1:4)
  expect_identical(names(r$.pred[[1]]), c("trees", ".pred"))
  expect_equal(r$.pred[[1]]$.pred[4], predict(parsnip::extract_fit_engine(reg), mtcars[1, ]))
})
