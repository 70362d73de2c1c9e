#' Grow one forest across the workers of a future plan
#'
#' Runs [svforest()] with its trees grown by the workers of the current
#' [future::plan()] (local R sessions, a cluster of machines, or a
#' batchtools scheduler): the trees are split into contiguous chunks, each
#' grown as a future, and their out-of-bag tallies merged. Everything else
#' (the design matrix, held-out rows, calibration, importance and the other
#' post-fit stages) runs once, on the calling process, on the assembled
#' forest, exactly as in [svforest()]. Tree `t` is always grown from the
#' random stream `(seed, t)`, whatever machine grows it, and a forest that
#' grows by its out-of-bag error (`ntree_max`, see [svforest_parameters])
#' asks the engine's rule at the same counts of trees, so the result equals
#' `svforest(..., seed = seed)`: same trees, same predictions, same
#' out-of-bag error and calibration (only the out-of-bag error curve, which
#' needs every tree's out-of-bag predictions in order, is left out).
#'
#' The workers need svforest installed (the same version). The training
#' design matrix travels once to each worker: the first futures carry it, and
#' a worker keeps it for the call's later futures (a forest that grows by its
#' out-of-bag error grows in rounds), so with `w` workers it is sent `w`
#' times (once more to a worker that lost it, e.g. a restarted one). A
#' worker keeps the last call's data until the next call replaces them.
#' Any future backend works: `multisession`, `cluster`, `future.mirai`'s
#' `mirai_multisession` or `mirai_cluster` keep the data in their
#' persistent workers; with a backend whose every future is a new R process
#' (`batchtools`), the first chunk of a later round finds no data and the
#' data then go with every chunk. The seed is drawn here, on the calling process, when `seed` is
#' `NULL`.
#'
#' @param ... Arguments of [svforest()]: `x, y` or `formula, data`, `method`
#'   and method parameters.
#' @param ntree Number of trees of the whole forest (method default when
#'   `NULL`; a forest that grows by its out-of-bag error, see `ntree_max` in
#'   [svforest_parameters], grows here in rounds, and the same trees as
#'   [svforest()] grows).
#' @param seed Seed of the whole forest; `NULL` draws one from R's generator.
#' @param chunks Number of parts (futures); default: the number of workers
#'   of the plan, at most `ntree`.
#' @param num_threads Threads used by each worker (default 1: one R worker
#'   per core).
#' @return An `svforest` model.
#' @seealso `vignette("scaling-out", package = "svforest")`; for a scheduler
#'   without futures, fit parts with `svforest(..., ntree = m, seed = s,
#'   first_tree = k)` yourself and [combine()] them.
#' @examples
#' if (requireNamespace("future", quietly = TRUE)) {
#'   future::plan(future::sequential)  # e.g. plan(multisession, workers = 4)
#'   fit <- svforest_future(Species ~ ., data = iris, ntree = 6, seed = 1, chunks = 3)
#'   whole <- svforest(Species ~ ., data = iris, ntree = 6, seed = 1, num_threads = 1)
#'   identical(predict(fit, iris, type = "prob"), predict(whole, iris, type = "prob"))
#' }
#' @export
svforest_future <- function(..., ntree = NULL, seed = NULL, chunks = NULL, num_threads = 1L) {
  if (!requireNamespace("future", quietly = TRUE)) {
    stop("svforest_future() needs the package 'future': install.packages(\"future\").", call. = FALSE)
  }
  args <- list(...)
  if ("first_tree" %in% names(args)) {
    stop("`first_tree` is chosen by svforest_future(); give only `ntree`.", call. = FALSE)
  }
  num_threads <- check_count(num_threads, "num_threads", 1, 1024)
  if (is.null(chunks)) chunks <- future::nbrOfWorkers()
  chunks <- check_count(chunks, "chunks", 1)
  # a family with its own engine call (R/family.R) grows and merges its trees so
  family <- tryCatch(outcome_family(future_outcome(args)), error = function(e) NULL)
  shipping <- future_shipping()
  # (in a sequential plan the calling process is the worker: forget its copy)
  on.exit(if (exists(shipping$token, envir = svf_worker_data, inherits = FALSE))
    rm(list = shipping$token, envir = svf_worker_data), add = TRUE)
  grow <- function(data, y, weights, num_classes, params, validation, threads, verbose) {
    grow_in_chunks(list(data = data, y = y, weights = weights, num_classes = num_classes, params = params,
                        validation = validation, engine = family$engine_fit, merge_oob = family$merge_oob),
                   chunks, num_threads, shipping)
  }
  out <- do.call(svforest, c(args, list(ntree = ntree, seed = seed, num_threads = num_threads,
                                        .grow_forest = grow)))
  out$call <- match.call()
  svf_future_last$data_copies <- c(sent = shipping$sent, received = shipping$received)
  out
}

# What the last svforest_future() call shipped (future_data_copies()).
svf_future_last <- new.env(parent = emptyenv())

# The copies of the training data the last svforest_future() call sent to
# its workers and that arrived there: c(sent =, received =).
future_data_copies <- function() svf_future_last$data_copies

# svforest()'s engine fit (engine_fit()) with the trees grown in `chunks`
# futures: the engine's growth loop (Forest.cpp, train_forest()) in rounds.
# A round ends at every count of trees T the growth rule reads and at T / 2;
# the rule (.svf_more_trees_help, TreeGrowth.h) reads the merged tallies
# there. `fit`: the arguments of engine_fit() but the threads.
grow_in_chunks <- function(fit, chunks, num_threads, shipping = future_shipping()) {
  params <- fit$params
  ntree <- params$ntree
  ntree_max <- max(ntree, params$ntree_max)
  rule <- list(gain = params$ntree_gain, gain_rows = params$ntree_gain_rows, z = params$ntree_gain_z)
  aggregation <- if (is.null(params$aggregation)) "vote" else params$aggregation
  # the counts whose tallies the rule compares with (GrowthSnapshots)
  halves <- if (ntree < ntree_max) seq(ntree, ntree_max - 1, by = ntree) %/% 2
  res <- NULL
  tallies <- list()
  target <- ntree
  repeat {
    grown <- grown_trees(res)
    for (end in sort(unique(c(halves[halves > grown & halves < target], target)))) {
      res <- merge_engine_fits(res, grow_trees(fit, grown_trees(res), end - grown_trees(res), chunks, num_threads,
                                                          shipping),
                               fit$merge_oob)
      if (end %in% halves) tallies[[as.character(end)]] <- res$oob
    }
    half <- target %/% 2
    if (target >= ntree_max || is.null(res$oob) || !(half %in% halves) ||
        !.svf_more_trees_help(tallies[[as.character(half)]], res$oob, fit$y, fit$num_classes, aggregation, rule)) break
    target <- min(target + ntree, ntree_max)
  }
  if (!is.null(res$oob)) res$oob$error_curve <- NULL  # needs every tree's out-of-bag predictions in order
  res
}

grown_trees <- function(res) if (is.null(res)) 0L else length(res$forest$trees)

# Trees first + 1 ... first + count of the forest of `fit`, in contiguous
# chunks, one future each: the engine fits in tree order. The training data
# travel once to each worker (`shipping`, future_shipping()): a future
# carries them only when no copy was sent yet in this round's first wave,
# or when its worker answers that it has none (then it runs again with
# them).
grow_trees <- function(fit, first, count, chunks, num_threads, shipping) {
  k <- min(chunks, count)
  sizes <- rep(count %/% k, k) + (seq_len(k) <= count %% k)
  starts <- first + cumsum(c(0L, sizes))[seq_len(k)]
  launch <- function(j, with_data) {
    payload <- if (with_data) fit[c("data", "y", "weights", "num_classes", "params", "validation", "engine")]
    if (with_data) shipping$sent <- shipping$sent + 1L
    future::future(quote(future_chunk(token, payload, size, start, threads)), substitute = FALSE,
                   globals = list(future_chunk = future_chunk, token = shipping$token, payload = payload,
                                  size = sizes[j], start = starts[j], threads = num_threads),
                   packages = "svforest", seed = NULL)
  }
  # the first wave: one copy per worker at most, the rest reuse them
  first_wave <- if (shipping$sent == 0L) seq_len(min(k, future::nbrOfWorkers())) else integer()
  futures <- lapply(seq_len(k), function(j) launch(j, !shipping$workers_keep || j %in% first_wave))
  parts <- lapply(seq_len(k), function(j) {
    part <- future::value(futures[[j]])
    if (inherits(part, "svf_need_data")) {
      shipping$workers_keep <- FALSE  # (one-shot workers: send the data with every later chunk)
      part <- future::value(launch(j, TRUE))
    }
    shipping$received <- shipping$received + isTRUE(attr(part, "received_data"))
    attr(part, "received_data") <- NULL
    part
  })
  Reduce(function(a, b) merge_engine_fits(a, b, fit$merge_oob), parts)
}

# The training data a worker keeps between the futures of one
# svforest_future() call (the last call's only), by the call's token.
svf_worker_data <- new.env(parent = emptyenv())

# One chunk of trees, on a worker: with `payload` (the engine's arguments)
# it keeps them for the call's later futures; without, it uses the kept ones,
# or answers that it has none.
future_chunk <- function(token, payload, size, start, threads) {
  if (!is.null(payload)) {
    rm(list = ls(svf_worker_data, all.names = TRUE), envir = svf_worker_data)
    assign(token, payload, envir = svf_worker_data)
  }
  fit <- get0(token, envir = svf_worker_data, inherits = FALSE)
  if (is.null(fit)) return(structure(list(), class = "svf_need_data"))
  fit$params[c("ntree", "first_tree", "ntree_max")] <- list(size, start, size)
  engine <- if (is.null(fit$engine)) engine_fit else fit$engine
  out <- engine(fit$data, fit$y, fit$weights, fit$num_classes, fit$params, fit$validation, threads, FALSE)
  attr(out, "received_data") <- !is.null(payload)
  out
}

# The copies of the training data one svforest_future() call sent (`sent`)
# and that arrived at a worker (`received`), and the call's token.
future_shipping <- function() {
  shipping <- new.env(parent = emptyenv())
  shipping$token <- basename(tempfile("svf"))
  shipping$sent <- 0L
  shipping$received <- 0L
  shipping$workers_keep <- TRUE
  shipping
}

# Two engine fits of consecutive trees of one forest as one: the trees in
# order, each tree's out-of-bag rows, and the tallies merged exactly
# (oob_add_tally(), or the family's `merge_oob`); the rest is the same in both.
merge_engine_fits <- function(a, b, merge_oob = NULL) {
  if (is.null(a)) return(b)
  a$forest$trees <- c(a$forest$trees, b$forest$trees)
  a$oob_rows <- c(a$oob_rows, b$oob_rows)
  if (!is.null(a$oob)) {
    a$oob <- if (!is.null(merge_oob)) merge_oob(a$oob, b$oob) else merge_engine_tallies(a$oob, b$oob)
  }
  a
}
# The engine tallies of votes or sums of consecutive trees (the families'
# `merge_oob`, classification and regression) added up.
merge_engine_tallies <- function(a, b) engine_tally(oob_add_tally(model_tally(a), model_tally(b)))

# The outcome among svforest()'s arguments (x/y or formula/data), for the
# default method.
future_outcome <- function(args) {
  if (!is.null(args$y)) return(args$y)
  if (length(args) >= 1 && inherits(args[[1]], "formula")) {
    data <- if (!is.null(args$data)) args$data else if (length(args) >= 2) args[[2]]
    if (!is.data.frame(data)) return(NULL)
    return(stats::model.response(stats::model.frame(args[[1]], data, na.action = stats::na.pass)))
  }
  if (length(args) >= 2 && (is.null(names(args)) || names(args)[2] == "")) args[[2]] else NULL
}
