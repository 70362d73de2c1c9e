#' Choose a method by cross-validation
#'
#' Fits every method in `methods` on `folds` cross-validation folds of the
#' training data, scores each on its held-out fold, and refits the method
#' with the best mean score on all the data. The test set is never touched:
#' use this instead of trying the methods on your test data. The folds are
#' stratified by class (classification) and drawn from `seed`; every fit uses
#' `seed` too, so the result is the same for any `num_threads` and any
#' [future::plan()].
#'
#' The score is the accuracy for classification and the root mean squared
#' error for regression. Arguments in `...` other than the data (e.g.
#' `ntree`, `na_action`, `case_weights`) go to every fit; a method parameter
#' that a method does not use is left out of its fits. Out-of-bag error is
#' not used because two presets ("rsvt", "psvm", "tdsvm": every tree sees
#' every row) have none.
#'
#' The fits of all (method, fold) pairs run as futures on the workers of the
#' current [future::plan()] when it has more than one worker and the
#' packages 'future' and 'future.apply' are installed; otherwise one after
#' another, each with `num_threads` threads.
#'
#' @param ... Arguments of [svforest()]: `x, y` or `formula, data`, and
#'   arguments for every fit.
#' @param methods Methods to compare; default every method for the outcome
#'   type ([svforest_methods()]).
#' @param folds Number of cross-validation folds (2 to 20).
#' @param repeats Number of times the cross-validation is repeated with new
#'   folds (1 to 20); on small data, repeats steady the choice.
#' @param seed Seed of the folds and of every fit; `NULL` draws one.
#' @param num_threads Threads per fit (default: as [svforest()]).
#' @param refit Refit the chosen method on all the data (`TRUE`) or only
#'   return the table.
#' @return An object of class `svforest_selection`: `table` (one row per
#'   method: mean and standard error of the fold scores, fit seconds),
#'   `scores` (methods x folds and repeats), `method` (the chosen one),
#'   `metric`, `folds`, `repeats`, `seed`, and `fit` (the refitted model, or `NULL`). `predict()` on it
#'   predicts with `fit`.
#' @seealso `vignette("five-methods", package = "svforest")` for where each
#'   method stands on public benchmarks.
#' @examples
#' sel <- svforest_select(Species ~ ., data = iris, methods = c("rsvt", "psvm"),
#'                        folds = 3, ntree = 5, seed = 1, num_threads = 1)
#' sel
#' head(predict(sel, iris))
#' @export
svforest_select <- function(..., methods = NULL, folds = 5L, repeats = 1L, seed = NULL, num_threads = NULL,
                            refit = TRUE) {
  args <- list(...)
  if ("method" %in% names(args)) stop("Give the methods to compare as `methods`, not `method`.", call. = FALSE)
  if ("validation" %in% names(args)) {
    stop("svforest_select() draws its own folds: leave out `validation`.", call. = FALSE)
  }
  data <- selection_data(args)
  y <- data$y
  family <- outcome_family(y)
  outcome <- family$name
  allowed <- family$methods()
  if (is.null(methods)) methods <- allowed
  if (!is.character(methods) || length(methods) == 0 || anyNA(methods) || anyDuplicated(methods)) {
    stop("`methods` must be distinct method names, e.g. c(\"rsvt\", \"psvm\").", call. = FALSE)
  }
  bad <- setdiff(methods, allowed)
  if (length(bad)) {
    stop(sprintf("Method%s %s cannot fit %s; choose among %s.", if (length(bad) > 1) "s" else "",
                 paste0("\"", bad, "\"", collapse = ", "), family$describe,
                 paste0("\"", allowed, "\"", collapse = ", ")), call. = FALSE)
  }
  folds <- check_count(folds, "folds", 2, 20)
  repeats <- check_count(repeats, "repeats", 1, 20)
  seed <- resolve_seed(seed)
  refit <- check_flag(refit, "refit")
  # repeat r draws its folds from seed + r - 1
  fold_id <- lapply(seq_len(repeats), function(r) selection_folds(y, folds, (seed + r - 1) %% .Machine$integer.max))

  jobs <- expand.grid(fold = seq_len(folds), rep = seq_len(repeats), method = methods, stringsAsFactors = FALSE)
  run_job <- function(j) {
    rows <- fold_id[[jobs$rep[j]]] != jobs$fold[j]
    fit_args <- method_arguments(args, jobs$method[j], outcome, length(y))
    fit_args <- c(selection_subset(data, rows), fit_args,
                  list(method = jobs$method[j], seed = seed, num_threads = num_threads))
    secs <- system.time(fit <- do.call(svforest, fit_args))[["elapsed"]]
    score <- family$holdout_score$score(fit, selection_subset(data, !rows, newdata = TRUE), y[!rows], num_threads)
    c(score = score, seconds = secs)
  }
  use_future <- requireNamespace("future", quietly = TRUE) && requireNamespace("future.apply", quietly = TRUE) &&
    future::nbrOfWorkers() > 1
  results <- if (use_future) {
    future.apply::future_lapply(seq_len(nrow(jobs)), run_job, future.seed = NULL,
                                future.packages = "svforest")
  } else {
    lapply(seq_len(nrow(jobs)), run_job)
  }
  results <- do.call(rbind, results)
  k <- folds * repeats
  fold_names <- if (repeats == 1) paste0("fold", seq_len(folds)) else
    paste0("rep", rep(seq_len(repeats), each = folds), ".fold", seq_len(folds))
  scores <- matrix(results[, "score"], length(methods), k, byrow = TRUE, dimnames = list(methods, fold_names))
  seconds <- rowSums(matrix(results[, "seconds"], length(methods), k, byrow = TRUE))
  metric <- family$holdout_score$metric
  lower <- identical(family$holdout_score$better, "lower")
  table <- data.frame(method = methods, mean = rowMeans(scores),
                      se = apply(scores, 1, stats::sd) / sqrt(k), fit_seconds = seconds,
                      row.names = NULL, stringsAsFactors = FALSE)
  names(table)[2:3] <- paste0(metric, c("", "_se"))
  # best mean score; ties go to the earlier method in `methods`
  best <- if (lower) which.min(table[[2]]) else which.max(table[[2]])
  table <- table[order(if (lower) table[[2]] else -table[[2]], seq_along(methods)), , drop = FALSE]
  rownames(table) <- NULL
  fit <- NULL
  if (refit) {
    fit <- do.call(svforest, c(selection_subset(data, rep(TRUE, length(y))),
                               method_arguments(args, methods[best], outcome, length(y)),
                               list(method = methods[best], seed = seed, num_threads = num_threads)))
  }
  structure(list(table = table, scores = scores, method = methods[best], metric = metric, folds = folds,
                 repeats = repeats, seed = seed, fit = fit), class = "svforest_selection")
}

# The data of a svforest() call: the outcome `y`, and how to subset it
# (formula and data frame, or x and y).
selection_data <- function(args) {
  if (length(args) >= 1 && inherits(args[[1]], "formula")) {
    formula <- args[[1]]
    frame <- if (!is.null(args$data)) args$data else if (length(args) >= 2 && unnamed_at(args, 2)) args[[2]]
    if (!is.data.frame(frame)) stop("With a formula, give the data as a data frame (`data`).", call. = FALSE)
    return(list(kind = "formula", formula = formula, frame = frame, y = future_outcome(args)))
  }
  x <- if (!is.null(args$x)) args$x else if (length(args) >= 1 && unnamed_at(args, 1)) args[[1]]
  y <- future_outcome(args)
  if (is.null(x) || is.null(y)) stop("Give the data as `x, y` or as `formula, data`.", call. = FALSE)
  if (NROW(x) != length(y)) {
    stop(sprintf("`x` has %d rows but `y` has %d values.", NROW(x), length(y)), call. = FALSE)
  }
  if (anyNA(y)) stop("`y` has missing values: svforest_select() needs every outcome.", call. = FALSE)
  list(kind = "xy", x = x, y = y)
}

unnamed_at <- function(args, i) is.null(names(args)) || names(args)[i] == ""

# The data arguments for the rows `keep` (as svforest() arguments, or as
# `newdata` for predict()).
selection_subset <- function(data, keep, newdata = FALSE) {
  if (data$kind == "formula") {
    frame <- data$frame[keep, , drop = FALSE]
    return(if (newdata) frame else list(data$formula, data = frame))
  }
  x <- data$x[keep, , drop = FALSE]
  if (newdata) x else list(x, data$y[keep])
}

# The arguments of `args` other than the data, less the method parameters
# that `method` does not use (a grid for one method must not stop another).
method_arguments <- function(args, method, outcome, n) {
  data_names <- c("x", "y", "data", "formula")
  unnamed <- if (is.null(names(args))) seq_along(args) else which(names(args) == "")
  args <- args[setdiff(seq_along(args), unnamed)]
  args <- args[setdiff(names(args), data_names)]
  owned <- names(svf_parameters)
  used <- names(resolve_parameters(method, list(), n, outcome))
  args[!(names(args) %in% setdiff(owned, used))]
}

# Fold of each row: stratified by class, or at random for a numeric outcome.
selection_folds <- function(y, folds, seed) {
  if (length(y) < 2 * folds) stop(sprintf("%d rows are too few for %d folds.", length(y), folds), call. = FALSE)
  groups <- if (is.factor(y)) split(seq_along(y), y, drop = TRUE) else list(seq_along(y))
  if (is.factor(y) && any(lengths(groups) < folds)) {
    warning(sprintf("Some classes have fewer rows than the %d folds; they are missing from some folds.", folds),
            call. = FALSE)
  }
  with_seed(seed, {
    id <- integer(length(y))
    offset <- 0L
    for (g in groups) {
      g <- g[sample.int(length(g))]
      id[g] <- (seq_along(g) + offset - 1L) %% folds + 1L
      offset <- offset + length(g)
    }
    id
  })
}

#' @export
print.svforest_selection <- function(x, digits = 4, ...) {
  reps <- if (isTRUE(x$repeats > 1)) sprintf(", %d repeats", x$repeats) else ""
  cat(sprintf("Method chosen by %d-fold cross-validation%s (%s): %s\n\n", x$folds, reps, x$metric, x$method))
  print(x$table, digits = digits, row.names = FALSE)
  if (is.null(x$fit)) cat("\n(not refitted: refit = FALSE)\n")
  invisible(x)
}

#' @export
predict.svforest_selection <- function(object, ...) {
  if (is.null(object$fit)) stop("This selection was made with `refit = FALSE`: it has no model.", call. = FALSE)
  stats::predict(object$fit, ...)
}
