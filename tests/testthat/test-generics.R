# R's generics and the habits of ranger and randomForest users: update(),
# nobs(), their argument names, importance from a formula model's data, and
# a regression summary that names its leaves' own parameter.

test_that("update() refits formula and x/y models", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  small <- update(fit, ntree = 2)
  expect_identical(small$ntree, 2L)
  expect_identical(small$forest$trees, fit$forest$trees[1:2])
  x <- iris[, 1:4]
  fx <- svforest(x, iris$Species, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(update(fx, ntree = 2)$forest$trees, fx$forest$trees[1:2])
  expect_identical(update(fx, method = "psvm", ntree = 2)$method, "psvm")
  # the call names the generic, so it works without svforest attached
  expect_identical(fit$call[[1]], quote(svforest::svforest))
  expect_identical(stats::getCall(fx)[[1]], quote(svforest::svforest))
})

test_that("nobs() counts the training rows", {
  fit <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(nobs(fit), 150L)
  w <- rep(1, 150)
  w[1:10] <- 0
  fw <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, case_weights = w)
  expect_identical(nobs(fw), 140L)
  cal <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, calibrate = "platt")
  expect_identical(nobs(cal), 150L)
})

test_that("ranger's and randomForest's argument names say what they are called here", {
  f <- function(...) svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1, ...)
  expect_error(f(num.trees = 5), "`num.trees` is called `ntree` here", fixed = TRUE)
  expect_error(f(num.threads = 2), "`num.threads` is called `num_threads` here", fixed = TRUE)
  expect_error(f(case.weights = rep(1, 150)), "`case.weights` is called `case_weights` here", fixed = TRUE)
  expect_error(f(classwt = c(setosa = 1, versicolor = 1, virginica = 1)), "`classwt` is called `class_weights`", fixed = TRUE)
  expect_error(f(sample.fraction = 0.5), "`sample.fraction` is called `sample_fraction`", fixed = TRUE)
  expect_error(f(probability = TRUE), "`probability` has no equivalent", fixed = TRUE)
  expect_error(f(replace = FALSE), "`replace` has no equivalent: the row sampling is `sampler`", fixed = TRUE)
  # node size and mtry: the method's own parameter, or no equivalent
  expect_error(f(min.node.size = 5), "`min.node.size` is called `min_node_size` here", fixed = TRUE)
  expect_error(f(min.node.size = 5, method = "rsvt"), "`min.node.size` is called `min_leaf_size` here", fixed = TRUE)
  expect_error(f(nodesize = 5, method = "psvm"), "`nodesize` is called `n_min` here", fixed = TRUE)
  expect_error(f(nodesize = 5, method = "transform"), "`nodesize` is called `min_node_size` here", fixed = TRUE)
  expect_error(f(mtry = 2, method = "psvm"), "`mtry` is called `m_max` here", fixed = TRUE)
  expect_error(f(mtry = 2, method = "rsvt"), "`mtry` has no equivalent for the random_axis splitter", fixed = TRUE)
  expect_identical(f(mtry = 2)$params$mtry, 2L)  # the default method draws mtry predictors, as ranger
  # the message is short: not the list of every parameter
  msg <- tryCatch(f(num.trees = 5), error = conditionMessage)
  expect_lt(nchar(msg), 100)
  # ranger's importance values
  expect_error(f(importance = "impurity"), "has no equivalent here.*permutation")
  expect_error(f(importance = TRUE), "has no equivalent here")
  # "coefficients" is offered where the forest holds coefficients (known
  # only once it grew: test-importance.R)
  expect_error(f(importance = "impurity"), "or \"coefficients\" where the forest holds hyperplane splits or linear leaves",
               fixed = TRUE)
  # x/y interface and svforest_caret() too
  expect_error(svforest(iris[, 1:4], iris$Species, num.trees = 5), "is called `ntree` here")
  expect_error(svforest_caret(num.trees = 5), "is called `ntree` here")
  # a real typo still lists the parameters
  expect_error(f(nonsense = 1), "Unknown argument `nonsense`")
})

test_that("svforest_importance(fit, data) takes the outcome from the data of a formula model", {
  fit <- svforest(Species ~ ., data = iris, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(svforest_importance(fit, iris, num_threads = 1),
                   svforest_importance(fit, iris[, 1:4], iris$Species, num_threads = 1))
  reg <- svforest(log(mpg) ~ ., data = mtcars, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(svforest_importance(reg, mtcars, num_threads = 1),
                   svforest_importance(reg, mtcars, log(mtcars$mpg), num_threads = 1))
  expect_error(svforest_importance(fit, iris[, 1:4]), "no outcome `Species`")
})

test_that("a regression summary names its leaves' own parameter and counts every model leaf", {
  set.seed(3)
  d <- data.frame(a = runif(300), b = runif(300))
  d$y <- d$a - 2 * d$b + rnorm(300, sd = 0.1)
  fit <- svforest(y ~ ., data = d, method = "rsvf", ntree = 5, seed = 1, num_threads = 1)  # ridge leaves
  s <- summary(fit)
  out <- capture.output(print(s))
  expect_false(any(grepl("Chosen C", out)))
  expect_true(any(grepl("Chosen lambda in ridge leaves", out)))
  n_leaves <- sum(s$leaves_per_tree)
  expect_identical(sum(s$cost), as.integer(round(n_leaves * s$svm_leaf_share)))
  expect_true(any(grepl(sprintf("(%d leaves)", sum(s$cost)), out, fixed = TRUE)))
  svr <- svforest(y ~ ., data = d, method = "rsvt", leaf = "linear_svr", ntree = 2, seed = 1, num_threads = 1)
  expect_true(any(grepl("Chosen C in SVR leaves", capture.output(print(summary(svr))))))
})
