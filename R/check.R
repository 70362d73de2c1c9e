# Typed argument checks. Each stops with a message naming the argument and
# what it should be, before anything reaches C++.

check_count <- function(x, name, min = 1, max = .Machine$integer.max, allow_null = FALSE) {
  if (is.null(x) && allow_null) return(NULL)
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x != round(x) ||
      x < min || x > max) {
    stop(sprintf("`%s` must be a single whole number between %s and %s, not %s.",
                 name, format(min), format(max), describe(x)), call. = FALSE)
  }
  as.integer(x)
}

check_number <- function(x, name, min = -Inf, max = Inf, min_open = FALSE) {
  bad <- !is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) ||
    x < min || x > max || (min_open && x <= min)
  if (bad) {
    stop(sprintf("`%s` must be a single finite number %s %s%s, not %s.", name,
                 if (min_open) "greater than" else "at least", format(min),
                 if (is.finite(max)) paste0(" and at most ", format(max)) else "",
                 describe(x)), call. = FALSE)
  }
  as.double(x)
}

check_numbers <- function(x, name, min_open = 0) {
  if (!is.numeric(x) || length(x) < 1 || anyNA(x) || any(!is.finite(x)) || any(x <= min_open)) {
    stop(sprintf("`%s` must be a vector of finite numbers greater than %s, not %s.",
                 name, format(min_open), describe(x)), call. = FALSE)
  }
  as.double(x)
}

check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    stop(sprintf("`%s` must be TRUE or FALSE, not %s.", name, describe(x)), call. = FALSE)
  }
  x
}

check_choice <- function(x, name, choices) {
  if (!is.character(x) || length(x) != 1 || is.na(x) || !x %in% choices) {
    stop(sprintf("`%s` must be one of %s, not %s.", name,
                 paste0('"', choices, '"', collapse = ", "), describe(x)), call. = FALSE)
  }
  x
}

# Short description of a value for error messages.
describe <- function(x) {
  if (is.null(x)) return("NULL")
  if (inherits(x, "Surv")) return(sprintf("a Surv object of type \"%s\" (%d rows)", attr(x, "type"), NROW(x)))
  if (is.character(x) && length(x) == 1) return(sprintf('"%s"', x))
  if (is.atomic(x) && length(x) == 1) return(format(x))
  if (is.atomic(x)) return(sprintf("a %s vector of length %d", typeof(x), length(x)))
  sprintf("an object of class %s", paste(class(x), collapse = "/"))
}

#' Number of threads used when `num_threads = NULL`
#'
#' Resolves the thread count once, in R: the `svforest.num_threads` option,
#' else the `SVFOREST_NUM_THREADS` environment variable, else all cores. When
#' R CMD check limits cores (`_R_CHECK_LIMIT_CORES_`), at most 2 are used;
#' a set `OMP_THREAD_LIMIT` (as on CRAN's machines) is an upper bound too.
#' Asking for more threads than cores is allowed: they are reduced to the
#' number of cores.
#' @param num_threads `NULL` or a whole number >= 1.
#' @return An integer.
#' @keywords internal
#' @noRd
resolve_threads <- function(num_threads) {
  if (is.null(num_threads)) {
    num_threads <- getOption("svforest.num_threads")
    if (is.null(num_threads)) {
      env <- Sys.getenv("SVFOREST_NUM_THREADS", "")
      num_threads <- if (nzchar(env)) as.numeric(env) else RcppParallel::defaultNumThreads()
    }
    limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_", "")
    if (nzchar(limit) && !identical(toupper(limit), "FALSE")) num_threads <- min(num_threads, 2)
    omp <- suppressWarnings(as.numeric(Sys.getenv("OMP_THREAD_LIMIT", "")))
    if (!is.na(omp) && omp >= 1) num_threads <- min(num_threads, floor(omp))
  }
  check_count(num_threads, "num_threads", min = 1, max = 1024)
}

# Threads handed to the engine: TBB cannot run more workers than cores (it
# warns on stderr); the model does not depend on the thread count, so more
# threads than cores are reduced to the number of cores.
engine_threads <- function(num_threads) {
  as.integer(min(num_threads, machine_cores()))
}

# The machine's cores, counted once a session: on Linux detectCores() runs
# a shell pipeline, milliseconds that a small fit would pay each time.
machine_cores <- function() {
  if (is.null(svf_session$cores)) svf_session$cores <- max(1L, parallel::detectCores(logical = TRUE), na.rm = TRUE)
  svf_session$cores
}

# This package's version, read once a session (from its installed metadata).
svforest_version <- function() {
  if (is.null(svf_session$version)) svf_session$version <- as.character(utils::packageVersion("svforest"))
  svf_session$version
}
svf_session <- new.env(parent = emptyenv())

# Seed: NULL draws one from R's generator, so set.seed() makes fits repeatable.
resolve_seed <- function(seed) {
  if (is.null(seed)) return(sample.int(.Machine$integer.max, 1))
  check_count(seed, "seed", min = 0, max = .Machine$integer.max)
}

# ranger's and randomForest's predict() arguments, and what they are here.
predict_foreign_arguments <- c(
  data = "is called `newdata` here: predict(fit, newdata = ...)",
  num.threads = "is called `num_threads` here",
  predict.all = "is `type = \"trees\"` here (one column per tree)",
  nodes = "is `type = \"leaf\"` here (one column per tree)",
  # tidymodels', aorsf's names and a singular for the curves' time grid
  eval_time = "is called `times` here (survival and competing-risks forests)",
  pred_horizon = "is called `times` here (survival and competing-risks forests)",
  time = "is called `times` here (survival and competing-risks forests)"
)

# The prediction type each of those names stands for.
predict_foreign_types <- c(predict.all = "trees", nodes = "leaf")

# predict() takes no further arguments: a misspelt one must not be ignored,
# and another package's name for one of ours gets that name, unless the
# model has no such type (`.types`: the model's prediction types).
check_no_dots <- function(..., .types = NULL) {
  dots <- names(list(...))
  foreign <- intersect(dots, names(predict_foreign_arguments))
  if (length(foreign)) {
    type <- predict_foreign_types[foreign[1]]
    if (!is.null(.types) && !is.na(type) && !type %in% .types) {
      stop(sprintf("`%s` is `type = \"%s\"` for other forests; this forest has no such type (its types: %s).",
                   foreign[1], type, paste0("\"", .types, "\"", collapse = ", ")), call. = FALSE)
    }
    stop(sprintf("`%s` %s.", foreign[1], predict_foreign_arguments[[foreign[1]]]), call. = FALSE)
  }
  if (...length() > 0) {
    stop(sprintf("Unknown argument%s %s.", if (...length() > 1) "s" else "",
                 if (is.null(dots)) "(unnamed)" else paste0("`", dots, "`", collapse = ", ")),
         call. = FALSE)
  }
}
