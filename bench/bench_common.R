# Helpers shared by the bench scripts (sourced, not part of the package).

# The folder of the running bench script ("bench" when not run by Rscript).
bench_dir <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
})

# The scripts' command line: data folder (first positional argument, default
# ../shared/data), --only=a,b (character(0) if absent), --name flags and
# --name=value options.
bench_args <- function() {
  args <- commandArgs(trailingOnly = TRUE)
  value <- function(name) {
    v <- sub(paste0("^--", name, "="), "", grep(paste0("^--", name, "="), args, value = TRUE))
    if (length(v)) strsplit(v[1], ",")[[1]] else character()
  }
  pos <- args[!startsWith(args, "--")]
  list(data_dir = if (length(pos)) pos[1] else "../shared/data", only = value("only"),
       flag = function(name) paste0("--", name) %in% args, value = value)
}

# bench/results/<name>.csv (git-ignored); the folder is created.
results_csv <- function(name) {
  dir <- file.path(bench_dir, "results")
  dir.create(dir, showWarnings = FALSE, recursive = TRUE)
  file.path(dir, paste0(name, ".csv"))
}

say <- function(...) {
  cat(..., sep = "")
  flush(stdout())
}

# A dataset of the mlbench package, without attaching it.
mlbench_data <- function(name) {
  if (!requireNamespace("mlbench", quietly = TRUE)) stop("package mlbench not installed", call. = FALSE)
  env <- new.env()
  utils::data(list = name, package = "mlbench", envir = env)
  if (!exists(name, envir = env, inherits = FALSE)) stop("mlbench has no dataset ", name, call. = FALSE)
  get(name, envir = env)
}

# LIBSVM/svmlight text (gz files too) into list(x = dgCMatrix with columns
# f1..f<n_features>, y = integer labels).
read_libsvm <- function(path, n_features) {
  con <- gzfile(path, "r")
  lines <- readLines(con)
  close(con)
  tok <- strsplit(trimws(lines[nzchar(trimws(lines))]), "[[:space:]]+")
  nnz <- lengths(tok) - 1L
  pairs <- unlist(lapply(tok, `[`, -1L), use.names = FALSE)
  colon <- regexpr(":", pairs, fixed = TRUE)
  j <- as.integer(substr(pairs, 1L, colon - 1L))
  if (any(j > n_features)) stop("feature index above n_features in ", path, call. = FALSE)
  x <- Matrix::sparseMatrix(i = rep.int(seq_along(tok), nnz), j = j,
                            x = as.numeric(substr(pairs, colon + 1L, nchar(pairs))),
                            dims = c(length(tok), n_features),
                            dimnames = list(NULL, paste0("f", seq_len(n_features))))
  list(x = x, y = as.integer(as.numeric(vapply(tok, `[`, "", 1L))))
}
