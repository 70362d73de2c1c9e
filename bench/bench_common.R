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

# A path as printed by the benches: relative to the repository root (the
# folder above bench/, or above bench/archive/ for an archived script), so
# that results files carry no machine's paths.
bench_relpath <- function(path) {
  parts <- function(p) strsplit(normalizePath(p, mustWork = FALSE), "/", fixed = TRUE)[[1]]
  to <- parts(path)
  from <- parts(if (basename(bench_dir) == "archive") dirname(dirname(bench_dir)) else dirname(bench_dir))
  common <- 0L
  while (common < min(length(to), length(from)) && to[common + 1L] == from[common + 1L]) common <- common + 1L
  rel <- c(rep("..", length(from) - common), to[-seq_len(common)])
  if (length(rel)) paste(rel, collapse = "/") else "."
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

# --- shared by bench/accuracy_bench.R (and open to the other scripts) ----------

# Elapsed seconds of f(). Calls that finish in under `min_total` s are repeated
# (until min_total s in total, at most max_calls calls) and the mean is
# reported, so timings of small datasets are not just timer resolution.
bench_timed <- function(f, min_total = 0.25, max_calls = 20L) {
  invisible(gc(verbose = FALSE))
  t0 <- proc.time()[["elapsed"]]
  value <- f()
  total <- proc.time()[["elapsed"]] - t0
  calls <- 1L
  while (total < min_total && calls < max_calls) {
    t0 <- proc.time()[["elapsed"]]
    f()
    total <- total + proc.time()[["elapsed"]] - t0
    calls <- calls + 1L
  }
  list(value = value, seconds = total / calls)
}

# "  [load avg a b c]": other processes skew timings, so benches print it.
bench_loadavg <- function() {
  if (!file.exists("/proc/loadavg")) return("")
  paste0("  [load avg ", paste(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1:3], collapse = " "), "]")
}

# Makes a bench-only peer package available: TRUE if it loads, else tries the
# Debian binary (apt-get, with sudo when not root) and says what happened.
bench_need_package <- function(pkg, deb = paste0("r-cran-", tolower(pkg))) {
  if (requireNamespace(pkg, quietly = TRUE)) return(TRUE)
  if (nzchar(Sys.which("apt-get"))) {
    sudo <- if (identical(unname(Sys.info()[["effective_user"]]), "root")) "" else "sudo "
    say("installing ", deb, " (needed by this bench) ...\n")
    system(paste0(sudo, "env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ",
                  deb, " > /dev/null"))
  }
  ok <- requireNamespace(pkg, quietly = TRUE)
  if (!ok) say("package ", pkg, " is not available (install ", deb, "): its datasets are skipped\n")
  ok
}

# Makes a bench-only peer from CRAN available (grf, Cubist): TRUE if it
# loads, else installs it into the first library and tries again.
bench_need_cran <- function(pkg) {
  if (requireNamespace(pkg, quietly = TRUE)) return(TRUE)
  say("installing ", pkg, " from CRAN (needed by this bench) ...\n")
  try(utils::install.packages(pkg, lib = .libPaths()[1], quiet = TRUE,
                              repos = Sys.getenv("CRAN_MIRROR", "https://cloud.r-project.org")), silent = TRUE)
  requireNamespace(pkg, quietly = TRUE)
}

# A data frame as a numeric matrix with unique syntactic column names; factors
# with numeric labels keep their values, other factors become level codes.
bench_as_matrix <- function(df) {
  m <- as.matrix(as.data.frame(lapply(df, function(col) {
    if (is.factor(col)) {
      v <- suppressWarnings(as.numeric(as.character(col)))
      if (anyNA(v[!is.na(col)])) as.numeric(col) else v
    } else as.numeric(col)
  })))
  if (is.null(colnames(m)) || anyDuplicated(colnames(m))) colnames(m) <- paste0("x", seq_len(ncol(m)))
  colnames(m) <- make.names(colnames(m), unique = TRUE)
  m
}

# How many splits score a set with `n_test` test rows: "auto" gives
# min(10, ceiling(1000 / n_test)), so that about 1,000 test rows or more
# stand behind each figure; a number gives that many.
bench_n_splits <- function(n_test, arg = "auto") {
  if (!identical(arg, "auto")) return(max(1L, as.integer(arg)))
  as.integer(min(10, ceiling(1000 / n_test)))
}

# Stratified split, about `frac` of each class to training (at least one row),
# with its own seed; the caller's random state is left as it was.
bench_split_stratified <- function(x, y, frac = 2 / 3, seed = 2024L) {
  y <- droplevels(factor(y))
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  train <- sort(unlist(lapply(split(seq_along(y), y), function(idx) {
    idx[sample.int(length(idx), max(1L, round(frac * length(idx))))]
  }), use.names = FALSE))
  test <- setdiff(seq_along(y), train)
  list(xtr = x[train, , drop = FALSE], ytr = y[train], xte = x[test, , drop = FALSE], yte = y[test],
       split = sprintf("stratified %.2g/%.2g (seed %d)", frac, 1 - frac, seed))
}

# A given train/test split; y as factors over the levels of both parts.
bench_split_fixed <- function(xtr, ytr, xte, yte, split) {
  lev <- levels(droplevels(factor(c(as.character(ytr), as.character(yte)))))
  list(xtr = xtr, ytr = factor(as.character(ytr), levels = lev), xte = xte,
       yte = factor(as.character(yte), levels = lev), split = split)
}

# All-numeric delimited text without header (gz too) as a matrix.
bench_read_numeric <- function(path, sep = ",") {
  con <- gzfile(path, "r")
  first <- readLines(con, n = 1L)
  close(con)
  fields <- if (identical(sep, "")) strsplit(trimws(first), "[[:space:]]+")[[1]] else strsplit(first, sep, fixed = TRUE)[[1]]
  matrix(scan(path, what = double(), sep = sep, quiet = TRUE), ncol = length(fields), byrow = TRUE)
}

# The classification datasets of the benches: a named list of loaders, each
# returning list(xtr, ytr, xte, yte, split) with x a numeric matrix with column
# names (or a dgCMatrix when sparse = TRUE is set) and y a factor. Folders of
# `data_dir` are described by its README.md; the standard test split is used
# where one exists, else a stratified 2/3-1/3 split (seed 2024).
classification_datasets <- function(data_dir) {
  need_file <- function(...) {
    path <- file.path(data_dir, ...)
    if (!file.exists(path)) stop("file not found: ", path, call. = FALSE)
    path
  }
  strat <- bench_split_stratified
  fixed <- bench_split_fixed
  mlb <- function(name, class_col, drop = character()) {
    d <- mlbench_data(name)
    strat(bench_as_matrix(d[, setdiff(names(d), c(class_col, drop)), drop = FALSE]), d[[class_col]])
  }
  # sklearn CSVs: first line "n,p,class names...", then p features and a 0-based label.
  sk <- function(file) {
    hdr <- strsplit(readLines(need_file("sklearn", file), n = 1L), ",")[[1]]
    d <- as.matrix(utils::read.csv(need_file("sklearn", file), header = FALSE, skip = 1L))
    p <- ncol(d) - 1L
    x <- `colnames<-`(d[, 1:p, drop = FALSE], paste0("x", 1:p))
    y <- factor(hdr[-(1:2)][d[, p + 1L] + 1L], levels = hdr[-(1:2)])
    strat(x, y)
  }
  list(
    iris = function() sk("iris.csv"),
    wine = function() sk("wine_data.csv"),
    wdbc = function() sk("breast_cancer.csv"),
    digits = function() {
      d <- bench_read_numeric(need_file("sklearn", "digits.csv.gz"))
      strat(`colnames<-`(d[, 1:64], paste0("x", 1:64)), d[, 65])
    },
    sonar = function() mlb("Sonar", "Class"),
    glass = function() mlb("Glass", "Type"),
    ionosphere = function() mlb("Ionosphere", "Class"),
    pima = function() mlb("PimaIndiansDiabetes", "diabetes"),
    breastcancer = function() {
      d <- mlbench_data("BreastCancer")
      d <- d[stats::complete.cases(d), names(d) != "Id"]
      strat(bench_as_matrix(d[, names(d) != "Class"]), d$Class)
    },
    vehicle = function() mlb("Vehicle", "Class"),
    # V1 is the speaker (an identifier, not a feature).
    vowel = function() mlb("Vowel", "Class", drop = "V1"),
    dna = function() mlb("DNA", "Class"),
    satellite = function() {
      d <- mlbench_data("Satellite")
      # mlbench keeps the UCI order: rows 1..4435 = sat.trn, 4436..6435 = sat.tst.
      x <- bench_as_matrix(d[, names(d) != "classes"])
      tr <- 1:4435
      fixed(x[tr, ], d$classes[tr], x[-tr, ], d$classes[-tr], "UCI sat.trn/sat.tst (4435/2000)")
    },
    letter = function() {
      d <- mlbench_data("LetterRecognition")
      x <- bench_as_matrix(d[, names(d) != "lettr"])
      tr <- 1:16000
      fixed(x[tr, ], d$lettr[tr], x[-tr, ], d$lettr[-tr], "first 16000 / last 4000")
    },
    spam = function() {
      if (!bench_need_package("kernlab")) stop("package kernlab not installed", call. = FALSE)
      env <- new.env()
      utils::data(list = "spam", package = "kernlab", envir = env)
      d <- env$spam
      strat(bench_as_matrix(d[, names(d) != "type"]), d$type)
    },
    segment = function() {
      d <- utils::read.table(need_file("segment", "segment.dat"), header = FALSE, sep = "\t")
      strat(bench_as_matrix(d[, 1:19]), d[[20]])
    },
    cmc = function() {
      d <- utils::read.csv(need_file("cmc", "cmc.data"), header = FALSE)
      strat(bench_as_matrix(d[, 1:9]), d[[10]])
    },
    urban_land_cover = function() {
      tr <- utils::read.csv(need_file("urban_land_cover", "training.csv"), check.names = TRUE)
      te <- utils::read.csv(need_file("urban_land_cover", "testing.csv"), check.names = TRUE)
      fixed(bench_as_matrix(tr[, -1]), trimws(tr$class), bench_as_matrix(te[, -1]), trimws(te$class),
            "UCI training/testing (168/507)")
    },
    winequality_red = function() {
      d <- utils::read.csv(need_file("winequality", "winequality-red.csv"), sep = ";")
      strat(bench_as_matrix(d[, names(d) != "quality"]), d$quality)
    },
    winequality_white = function() {
      d <- utils::read.csv(need_file("winequality", "winequality-white.csv"), sep = ";")
      strat(bench_as_matrix(d[, names(d) != "quality"]), d$quality)
    },
    madelon = function() {
      rd <- function(f) bench_as_matrix(utils::read.table(need_file("madelon", f), header = FALSE))
      rl <- function(f) scan(need_file("madelon", f), quiet = TRUE)
      fixed(rd("madelon_train.data"), rl("madelon_train.labels"),
            rd("madelon_valid.data"), rl("madelon_valid.labels"), "UCI train/valid (2000/600)")
    },
    optdigits = function() {
      tr <- bench_read_numeric(need_file("optdigits", "optdigits.tra"))
      te <- bench_read_numeric(need_file("optdigits", "optdigits.tes"))
      nm <- function(m) `colnames<-`(m[, 1:64], paste0("x", 1:64))
      fixed(nm(tr), tr[, 65], nm(te), te[, 65], "UCI .tra/.tes (3823/1797)")
    },
    pendigits = function() {
      tr <- bench_read_numeric(need_file("pendigits", "pendigits.tra"))
      te <- bench_read_numeric(need_file("pendigits", "pendigits.tes"))
      nm <- function(m) `colnames<-`(m[, 1:16], paste0("x", 1:16))
      fixed(nm(tr), tr[, 17], nm(te), te[, 17], "UCI .tra/.tes (7494/3498)")
    },
    usps = function() {
      tr <- bench_read_numeric(need_file("usps", "zip.train.gz"), sep = "")
      te <- bench_read_numeric(need_file("usps", "zip.test.gz"), sep = "")
      nm <- function(m) `colnames<-`(m[, -1], paste0("x", 1:256))
      fixed(nm(tr), tr[, 1], nm(te), te[, 1], "ESL zip.train/zip.test (7291/2007)")
    },
    yaleb = function() {
      d <- bench_read_numeric(need_file("yaleb", "yaleb_32x32.csv.gz"))
      strat(`colnames<-`(d[, 1:1024], paste0("x", 1:1024)), d[, 1025])
    },
    isolet = function() {
      tr <- bench_read_numeric(need_file("isolet", "isolet_train.csv.gz"))
      te <- bench_read_numeric(need_file("isolet", "isolet_test.csv.gz"))
      nm <- function(m) `colnames<-`(m[, 1:617], paste0("f", 1:617))
      fixed(nm(tr), tr[, 618], nm(te), te[, 618], "isolet1-4 / isolet5 (6238/1559)")
    },
    a9a = function() {
      tr <- read_libsvm(need_file("a9a", "a9a"), 123L)
      te <- read_libsvm(need_file("a9a", "a9a.t"), 123L)
      s <- fixed(tr$x, tr$y, te$x, te$y, "LIBSVM a9a/a9a.t (32561/16281), sparse for svforest")
      s$sparse <- TRUE
      s
    },
    ijcnn1 = function() {
      tr <- read_libsvm(need_file("ijcnn1", "ijcnn1.gz"), 22L)
      te <- read_libsvm(need_file("ijcnn1", "ijcnn1.t.gz"), 22L)
      fixed(as.matrix(tr$x), tr$y, as.matrix(te$x), te$y, "LIBSVM ijcnn1/ijcnn1.t (49990/91701)")
    }
  )
}

# (the harnesses' timer: harness.R, harness_competing.R)
# Elapsed seconds, and CPU seconds of the process (all its threads): on a
# shared machine the CPU time is the steadier figure.
timed <- function(expr) {
  invisible(gc(verbose = FALSE))
  t0 <- proc.time()
  value <- force(expr)
  d <- proc.time() - t0
  list(value = value, seconds = d[["elapsed"]], cpu = d[["user.self"]] + d[["sys.self"]])
}
