#' Grow one forest across the workers of a future plan
#'
#' Splits the trees of one forest into contiguous chunks, grows each chunk as
#' a future (on the workers of the current [future::plan()]: local R
#' sessions, a cluster of machines, or a batchtools scheduler), and
#' [combine()]s the parts. Tree `t` is always grown from the random stream
#' `(seed, t)`, whatever machine grows it, so the result equals
#' `svforest(..., seed = seed)` grown on one machine: same trees, same
#' predictions, same out-of-bag error (only the out-of-bag error curve is
#' dropped, see [combine()]).
#'
#' The workers need svforest installed (the same version). The training data
#' is sent to every worker that grows a chunk. The seed is drawn here, on the
#' calling process, when `seed` is `NULL`.
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
#' if (requireNamespace("future.apply", quietly = TRUE)) {
#'   future::plan(future::sequential)  # e.g. plan(multisession, workers = 4)
#'   fit <- svforest_future(Species ~ ., data = iris, ntree = 6, seed = 1, chunks = 3)
#'   whole <- svforest(Species ~ ., data = iris, ntree = 6, seed = 1, num_threads = 1)
#'   identical(predict(fit, iris, type = "prob"), predict(whole, iris, type = "prob"))
#' }
#' @export
svforest_future <- function(..., ntree = NULL, seed = NULL, chunks = NULL, num_threads = 1L) {
  if (!requireNamespace("future.apply", quietly = TRUE) || !requireNamespace("future", quietly = TRUE)) {
    stop("svforest_future() needs the packages 'future' and 'future.apply': install.packages(\"future.apply\").",
         call. = FALSE)
  }
  args <- list(...)
  if ("first_tree" %in% names(args)) {
    stop("`first_tree` is chosen by svforest_future(); give only `ntree`.", call. = FALSE)
  }
  # a formula would carry its whole environment (the caller's local variables)
  # to every worker; models keep only the global or package environment anyway
  args <- lapply(args, function(a) if (inherits(a, "formula")) light_terms(a) else a)
  outcome <- outcome_type(future_outcome(args))
  # a classification-only method with a numeric outcome stops here, before any worker starts
  preset <- outcome_preset(svf_method(if (is.null(args$method)) default_method(outcome) else args$method), outcome)
  trees <- tree_count(preset, ntree, args[["ntree_max"]])
  args[["ntree_max"]] <- NULL
  ntree <- trees$ntree
  seed <- resolve_seed(seed)
  num_threads <- check_count(num_threads, "num_threads", 1, 1024)
  if (is.null(chunks)) chunks <- future::nbrOfWorkers()
  chunks <- check_count(chunks, "chunks", 1)

  # trees first + 1 ... first + count, in contiguous chunks: chunk j grows
  # trees starts[j] + 1 ... starts[j] + sizes[j]
  grow_range <- function(first, count) {
    k <- min(chunks, count)
    sizes <- rep(count %/% k, k) + (seq_len(k) <= count %% k)
    starts <- first + cumsum(c(0L, sizes))[seq_len(k)]
    future.apply::future_lapply(seq_len(k), grow_part, args = args, seed = seed,
                                sizes = sizes, starts = starts, num_threads = num_threads,
                                future.packages = "svforest",
                                # svforest uses no R random numbers here (the seed is given);
                                # NULL also skips future's check, which packages loaded on
                                # a worker may trip
                                future.seed = NULL)
  }
  grow_part <- function(j, args, seed, sizes, starts, num_threads) {
    part <- do.call(svforest::svforest, c(args, list(ntree = sizes[j], seed = seed, first_tree = starts[j],
                                                      num_threads = num_threads, verbose = FALSE)))
    part$call <- NULL  # do.call() put the data itself in the call: don't send it back
    part
  }
  # svforest()'s growth rule (tree_count()), read at the same numbers of
  # trees: the forest is grown in rounds that end at every count T the rule
  # reads and at T / 2, and combined after each round for its out-of-bag error
  checks <- unique(c(seq(ntree, trees$ntree_max, by = ntree), trees$ntree_max))
  ends <- if (length(checks) > 1) sort(unique(c(checks, checks[-length(checks)] %/% 2)))
          else trees$ntree_max
  ends <- ends[ends >= 1]
  parts <- list()
  error <- c()
  losses <- list()
  grown <- 0L
  for (end in ends) {
    parts <- c(parts, grow_range(grown, end - grown))
    grown <- end
    out <- combine(parts)
    error[as.character(end)] <- out$oob_error
    losses[[as.character(end)]] <- oob_row_losses(out)
    half <- as.character(end %/% 2)
    if (end %in% checks && end < trees$ntree_max &&
        !(half %in% names(error) && trees_help(error[[half]], error[[as.character(end)]], sum(out$oob_count > 0),
                                               losses[[half]], losses[[as.character(end)]]))) break
  }
  out$call <- match.call()
  out
}

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
