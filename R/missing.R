# Missing predictor values (argument `na_action`), the pre-fit step of
# R/step-missing.R. With "impute" (the default) the design spec of the model
# stores, at fit time, what predict() needs to fill in missing values the
# same way:
#   spec$na_action  "impute" or "fail" (absent in older models: "fail")
#   spec$impute     list(values, indicators, indicator_names):
#     frame designs:  `values` a named list, one entry per column of the model
#                     frame: the median of a numeric column (0 when all its
#                     training values are missing; a vector for matrix
#                     columns), the level that stands for NA in a factor
#                     ("(missing)" when the factor had NA in training, else
#                     its most frequent level), the most frequent value of a
#                     logical column; `indicators` the numeric and logical
#                     columns that had NA in training (each gets a 0/1
#                     column `<column>_missing`);
#     matrix designs: `values` one median per input column, `indicators`
#                     the indices of the input columns that had NA.
#   and `joint` (NULL, or list(mean, cov[, columns])): the conditional-mean
#   imputation of the numeric columns (see joint_spec()), applied before the
#   medians, which then fill what it leaves.
# Everything is R-level: the engine sees complete data.

missing_level <- "(missing)"

check_na_action <- function(x) {
  if (is.null(x)) return("impute")
  check_choice(x, "na_action", c("impute", "fail"))
}

# The design of an older model (no `na_action`) or of a fit with
# na_action = "fail" does not impute: NA stays an error.
imputes <- function(spec) identical(spec$na_action, "impute") && is.list(spec$impute)

# The rows whose values give the imputation: those the fit uses (rows of
# case weight 0 are left out, so that the model is the one fitted without
# them). NULL (all rows) unless `case_weights` are valid and hold zeros;
# invalid weights are an error later (check_case_weights()).
na_rows <- function(user, n) {
  w <- user[["case_weights"]]
  if (!is.numeric(w) || length(w) != n || anyNA(w) || any(!is.finite(w)) || any(w < 0) || !any(w > 0)) return(NULL)
  if (all(w > 0)) NULL else which(w > 0)
}

# Names of indicator columns, unique among the other columns.
indicator_names <- function(base, taken) {
  if (!length(base)) return(character())
  nm <- make.unique(c(taken, paste0(base, "_missing")), sep = "_")
  nm[length(taken) + seq_along(base)]
}

# Median of the observed values, 0 when there are none.
observed_median <- function(v) {
  v <- v[!is.na(v)]
  if (!length(v)) 0 else stats::median(as.double(v))
}

most_frequent <- function(v) {
  if (is.factor(v)) {
    counts <- tabulate(as.integer(v), nlevels(v))
    if (!length(counts)) return(NA_character_)
    return(levels(v)[which.max(counts)])
  }
  sum(v %in% TRUE) > sum(v %in% FALSE)  # logical; ties: FALSE
}

# --- data frames (model frames) -----------------------------------------------

frame_na_spec <- function(mf) {
  # whole-frame passes, lists built at once: a data frame may have thousands
  # of columns
  cols <- as.list(mf)
  has_na <- vapply(cols, anyNA, NA)
  # the kind of each column; a column without attributes by its type alone
  bare <- vapply(lapply(cols, attributes), is.null, NA)
  kind <- ifelse(vapply(cols, is.logical, NA), "logical", ifelse(vapply(cols, is.numeric, NA), "numeric", "other"))
  kind[!bare & vapply(cols, is.factor, NA)] <- "factor"
  plain <- kind == "numeric" & !vapply(cols, is.matrix, NA)
  nums <- names(mf)[plain]
  num_matrix <- if (length(nums)) matrix(as.double(unlist(cols[plain], use.names = FALSE)), nrow = nrow(mf), ncol = length(nums))
  values <- vector("list", length(cols))
  # medians in C++, equal to observed_median()
  if (length(nums)) values[plain] <- as.list(.svf_column_medians(num_matrix))
  values[!plain] <- Map(function(col, k, na) {
    switch(k, factor = if (na) missing_level else most_frequent(col), logical = most_frequent(col),
           numeric = apply(col, 2, observed_median))
  }, cols[!plain], kind[!plain], has_na[!plain])
  names(values) <- names(mf)
  values <- values[kind != "other"]
  indicators <- names(mf)[kind %in% c("logical", "numeric") & has_na]
  # the plain numeric columns, jointly (joint_spec() needs some NA and at
  # most max_joint_columns columns)
  joint <- if (length(nums) >= 2 && length(nums) <= max_joint_columns && any(has_na[plain])) joint_spec(num_matrix)
  if (!is.null(joint)) joint$columns <- nums
  list(values = values, indicators = indicators, joint = joint)
}

# frame_na_spec() of a frame of plain numeric columns, from its matrix `x`
# (columns named `vars`): the same spec without a pass per column.
plain_na_spec <- function(x, vars) {
  has_na <- if (anyNA(x)) colSums(is.na(x)) > 0 else logical(ncol(x))
  joint <- if (ncol(x) <= max_joint_columns) joint_spec(x)
  if (!is.null(joint)) joint$columns <- vars
  list(values = stats::setNames(as.list(.svf_column_medians(x)), vars), indicators = vars[has_na], joint = joint)
}

# Fills the missing values of a model frame; returns the frame and the
# matrix of indicator columns (computed before filling).
frame_na_apply <- function(mf, na) {
  ind <- matrix(0, nrow(mf), length(na$indicators))
  for (k in seq_along(na$indicators)) {
    v <- na$indicators[k]
    if (v %in% names(mf)) {
      miss <- is.na(mf[[v]])
      ind[, k] <- as.double(if (is.matrix(miss)) rowSums(miss) > 0 else miss)
    }
  }
  j <- na$joint
  if (!is.null(j) && all(j$columns %in% names(mf))) {
    m <- as.matrix(as.data.frame(lapply(mf[j$columns], as.double)))
    if (anyNA(m)) {
      m <- joint_fill(m, j)
      for (k in seq_along(j$columns)) mf[[j$columns[k]]] <- m[, k]
    }
  }
  # only the columns with NA (a data frame may have thousands)
  for (v in intersect(names(na$values), names(mf)[vapply(mf, anyNA, NA)])) {
    col <- mf[[v]]
    value <- na$values[[v]]
    if (is.factor(col)) {
      lev <- levels(col)
      chr <- as.character(col)
      chr[is.na(chr)] <- value
      mf[[v]] <- factor(chr, levels = if (value %in% lev) lev else c(lev, value))
    } else if (is.matrix(col)) {
      miss <- which(is.na(col), arr.ind = TRUE)
      col[miss] <- value[miss[, 2]]
      mf[[v]] <- col
    } else if (is.logical(col) || is.numeric(col)) {
      col[is.na(col)] <- if (is.logical(col)) as.logical(value) else value
      mf[[v]] <- col
    }
  }
  list(mf = mf, indicators = ind)
}

# --- matrices and dgCMatrix ----------------------------------------------------

# Median of each column of a dgCMatrix over its observed values (stored
# non-NA values and the implicit zeros), without densifying.
sparse_column_medians <- function(x) {
  n <- nrow(x)
  col <- rep.int(seq_len(ncol(x)), diff(x@p))
  vapply(seq_len(ncol(x)), function(j) {
    v <- x@x[col == j]
    v <- v[!is.na(v)]
    neg <- sort(v[v < 0])
    pos <- sort(v[v > 0])
    zeros <- n - sum(is.na(x@x[col == j])) - length(neg) - length(pos)
    m <- length(neg) + zeros + length(pos)
    if (m == 0) return(0)
    kth <- function(k) {
      if (k <= length(neg)) neg[k] else if (k <= length(neg) + zeros) 0 else pos[k - length(neg) - zeros]
    }
    if (m %% 2 == 1) kth((m + 1) / 2) else (kth(m / 2) + kth(m / 2 + 1)) / 2
  }, 0)
}

matrix_na_spec <- function(x) {
  if (methods::is(x, "dgCMatrix")) {
    values <- sparse_column_medians(x)
    na_entry <- which(is.na(x@x))
    indicators <- sort(unique(findInterval(na_entry - 1, x@p, rightmost.closed = FALSE)))
  } else {
    # in C++: apply() and is.na(x) would each hold a copy of the data
    values <- .svf_column_medians(x)
    indicators <- if (anyNA(x)) which(vapply(seq_len(ncol(x)), function(j) anyNA(x[, j]), NA)) else integer()
    joint <- joint_spec(x)
  }
  list(values = as.double(values), indicators = as.integer(indicators),
       joint = if (!methods::is(x, "dgCMatrix")) joint)
}

# Fills the missing values of a matrix or dgCMatrix whose columns are the
# model's input columns and appends the indicator columns.
matrix_na_apply <- function(x, na, names) {
  k <- length(na$indicators)
  if (methods::is(x, "dgCMatrix")) {
    na_entry <- which(is.na(x@x))
    col <- findInterval(na_entry - 1, x@p, rightmost.closed = FALSE)
    keep <- col %in% na$indicators
    ind <- Matrix::sparseMatrix(i = x@i[na_entry[keep]] + 1L, j = match(col[keep], na$indicators), x = 1,
                                dims = c(nrow(x), k))
    x@x[na_entry] <- na$values[col]
    if (k) x <- as_dgc(cbind(x, as_dgc(ind)))
  } else if (!anyNA(x)) {
    # nothing to fill (the common case): no n x p temporaries
    if (k) x <- cbind(x, matrix(0, nrow(x), k))
  } else {
    miss <- is.na(x)
    ind <- miss[, na$indicators, drop = FALSE] * 1
    if (any(miss) && !is.null(na$joint)) {
      x <- joint_fill(x, na$joint)
      miss <- is.na(x)  # rows with nothing observed: the medians below
    }
    if (any(miss)) {
      where <- which(miss, arr.ind = TRUE)
      x[where] <- na$values[where[, 2]]
    }
    if (k) x <- cbind(x, ind)
  }
  if (!identical(colnames(x), names)) colnames(x) <- names
  x
}

# --- conditional means of numeric columns ---------------------------------------
# A missing numeric value is filled with its conditional mean given the row's
# observed numeric values, under a normal model whose mean and covariance are
# estimated on the training rows (pairwise-complete covariances, shrunk 10%
# toward their diagonal and made positive definite): correlated predictors
# then fill each other in, where a median would put every missing value at
# the centre. Used for up to `max_joint_columns` numeric columns (each
# missingness pattern costs a solve of the observed columns); beyond, and
# for a row with no observed numeric value, the medians are used.

max_joint_columns <- 100L

# list(mean, cov) of the numeric matrix m (columns with NA included), or NULL
# when it cannot be estimated (fewer than 2 columns, or a column with fewer
# than 2 observed values).
joint_spec <- function(m) {
  if (ncol(m) < 2 || ncol(m) > max_joint_columns || !anyNA(m)) return(NULL)
  if (any(colSums(!is.na(m)) < 2)) return(NULL)
  mu <- colMeans(m, na.rm = TRUE)
  S <- suppressWarnings(stats::cov(m, use = "pairwise.complete.obs"))
  S[is.na(S)] <- 0
  d <- pmax(diag(S), 0)
  S <- 0.9 * S + 0.1 * diag(d, length(d))
  e <- eigen(S, symmetric = TRUE)
  floor <- 1e-6 * max(1, max(e$values))
  S <- e$vectors %*% (pmax(e$values, floor) * t(e$vectors))
  if (any(!is.finite(mu)) || any(!is.finite(S))) return(NULL)
  list(mean = unname(mu), cov = unname(S))
}

# Fills the NA of numeric matrix m with conditional means (rows grouped by
# their pattern of missing columns); rows with nothing observed keep their NA.
joint_fill <- function(m, joint) {
  miss <- is.na(m)
  rows <- which(rowSums(miss) > 0 & rowSums(!miss) > 0)
  if (!length(rows)) return(m)
  key <- apply(miss[rows, , drop = FALSE], 1, function(r) paste(which(r), collapse = ","))
  for (group in split(rows, key)) {
    mis <- which(miss[group[1], ])
    obs <- which(!miss[group[1], ])
    dev <- t(m[group, obs, drop = FALSE]) - joint$mean[obs]
    beta <- solve(joint$cov[obs, obs, drop = FALSE], joint$cov[obs, mis, drop = FALSE])
    m[group, mis] <- t(joint$mean[mis] + t(beta) %*% dev)
  }
  m
}

joint_ok <- function(j, p) {
  is.null(j) || (is.list(j) && is.numeric(j$mean) && length(j$mean) == p && all(is.finite(j$mean)) &&
                   is.matrix(j$cov) && identical(dim(j$cov), c(p, p)) && all(is.finite(j$cov)))
}
