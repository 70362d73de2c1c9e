# Design matrices of new data at predict() time: the same columns, levels,
# pre-fit steps and checks as the training design (R/design.R), rebuilt
# from what the model stores.

# A factor, character or logical column `col` of new data as a factor with
# the training levels of predictor `v` (missing values imputed when the model
# imputes); a level the training data did not have is an error. A factor is
# recoded through its levels, not its values: the same result as
# factor(as.character(col), levels = training levels), without a string per row.
training_levels <- function(col, v, spec) {
  lv <- spec$xlevels[[v]]
  fill <- if (imputes(spec)) spec$impute$values[[v]]
  if (is.factor(col)) {
    present <- levels(col)[tabulate(col, nlevels(col)) > 0]
    codes <- match(levels(col), lv)[as.integer(col)]
    if (!is.null(fill) && anyNA(col)) {
      present <- union(present, fill)
      codes[is.na(col)] <- match(fill, lv)
    }
  } else {
    values <- as.character(col)
    if (!is.null(fill) && anyNA(values)) values[is.na(values)] <- fill
    present <- unique(values[!is.na(values)])
    codes <- match(values, lv)
  }
  unseen <- setdiff(present, lv)
  if (length(unseen)) {
    stop(sprintf("Column `%s` of `newdata` has level%s not seen in training: %s.", v,
                 if (length(unseen) > 1) "s" else "",
                 paste0('"', utils::head(unseen, 5), '"', collapse = ", ")), call. = FALSE)
  }
  structure(codes, levels = lv, class = "factor")
}

# Engine input for new data, built the way the model's design was built.
new_engine_data <- function(object, newdata) {
  if (!identical(object$design$type, "frame")) return(new_matrix_engine_data(object, newdata))
  new_frame_engine_data(object$design, newdata, object$forest$num_features)
}

# Engine input for new data of a model fitted on a data frame or formula.
new_frame_engine_data <- function(spec, newdata, p) {
  if (!is.data.frame(newdata)) {
    if (is.matrix(newdata) && !is.null(colnames(newdata))) newdata <- as.data.frame(newdata)
    else stop("`newdata` must be a data frame: the model was fitted on a data frame or formula.",
              call. = FALSE)
  }
  newdata <- as.data.frame(newdata)
  check_frame_columns(newdata, "newdata")
  if (!is.null(spec$columns)) return(new_plain_engine_data(spec, newdata, p))
  tt <- stats::delete.response(stored_terms(spec$terms))
  missing <- setdiff(terms_used_variables(tt), names(newdata))
  if (length(missing)) {
    stop(sprintf("`newdata` lacks column%s %s used by the model.", if (length(missing) > 1) "s" else "",
                 paste0("`", missing, "`", collapse = ", ")), call. = FALSE)
  }
  # a variable the formula names but no term uses (`y ~ . - z`): model.frame()
  # evaluates it, the design never reads it
  for (v in setdiff(all.vars(tt), names(newdata))) newdata[[v]] <- rep(NA, nrow(newdata))
  for (v in names(spec$xlevels)) {
    if (!v %in% names(newdata)) next
    col <- newdata[[v]]
    if (!(is.factor(col) || is.character(col) || is.logical(col))) {
      stop(sprintf("Column `%s` of `newdata` must be a factor or character, as in training.", v),
           call. = FALSE)
    }
    newdata[[v]] <- training_levels(col, v, spec)
  }
  mf <- stats::model.frame(tt, newdata, xlev = spec$xlevels, na.action = stats::na.pass)
  # a numeric predictor of the training data must not come as text or factor
  wrong <- setdiff(names(mf)[vapply(mf, function(col) is.factor(col) || is.character(col) ||
                                      inherits(col, c("Date", "POSIXt")), TRUE)],
                   c(names(spec$xlevels), names(spec$dates)))
  if (length(wrong)) {
    stop(sprintf("Column%s %s of `newdata` must be numeric, as in training.",
                 if (length(wrong) > 1) "s" else "", paste0("`", wrong, "`", collapse = ", ")),
         call. = FALSE)
  }
  mf <- dates_as_numbers(mf, spec$dates, "newdata")
  used <- terms_frame_columns(tt, names(mf))
  x <- input_steps_replay("frame", spec, mf, function(mf) {
    check_finite_frame(mf[used])
    frame_matrix(spec, mf)
  })
  if (ncol(x) != p) stop("`newdata` does not give the model's predictor columns.", call. = FALSE)
  list(type = "dense", x = replay_prefit_steps(spec, x))  # R/prefit-steps.R
}

# The variables the terms of `tt` use (not those a formula only removes).
terms_used_variables <- function(tt) {
  unique(unlist(lapply(terms_used_columns(tt), function(v) all.vars(str2lang(v)))))
}

# The model-frame columns (`x`, `log(x)`) the terms of `tt` use, as the
# terms write them (a non-syntactic name in backticks).
terms_used_columns <- function(tt) {
  fac <- attr(tt, "factors")
  if (!length(fac)) return(character())
  rownames(fac)[rowSums(fac != 0) > 0]
}

# Which of a model frame's `columns` the terms of `tt` use (a formula such as
# `y ~ . - z` keeps `z` in the frame, unused).
terms_frame_columns <- function(tt, columns) {
  used <- terms_used_columns(tt)
  quoted <- vapply(columns, function(v) deparse(as.name(v), backtick = TRUE), "", USE.NAMES = FALSE)
  columns[columns %in% used | quoted %in% used]
}

# Engine input for new data of a model fitted on a matrix or sparse matrix:
# columns matched by name when both have names.
new_matrix_engine_data <- function(object, newdata) {
  spec <- object$design
  p <- object$forest$num_features
  if (is.data.frame(newdata)) {
    # columns the model does not use (a formula's outcome, an id) may be of any type
    used <- if (!is.null(spec$input_ncol)) spec$input_names else spec$feature_names
    if (!is.null(used) && all(used %in% names(newdata))) newdata <- newdata[used]
    ok <- vapply(newdata, function(col) (is.numeric(col) || is.logical(col)) && is.null(dim(col)), TRUE)
    if (!all(ok)) {
      stop(sprintf("`newdata` columns must all be numeric for a model fitted on a matrix; %s %s not.",
                   paste0("`", names(newdata)[!ok], "`", collapse = ", "), if (sum(!ok) > 1) "are" else "is"),
           call. = FALSE)
    }
    newdata <- as.matrix(newdata)
  }
  sparse <- inherits(newdata, "Matrix")
  if (sparse) newdata <- as_dgc(newdata)
  else if (!is.matrix(newdata) || !(is.numeric(newdata) || is.logical(newdata))) {
    stop(sprintf("`newdata` must be a numeric matrix, data frame or dgCMatrix, not %s.", describe(newdata)),
         call. = FALSE)
  }
  # the input columns (models before na_action: the design columns)
  names_model <- if (!is.null(spec$input_ncol)) spec$input_names else spec$feature_names
  p_input <- if (!is.null(spec$input_ncol)) spec$input_ncol else p
  if (!is.null(names_model) && !is.null(colnames(newdata))) {
    missing <- setdiff(names_model, colnames(newdata))
    if (length(missing)) {
      stop(sprintf("`newdata` lacks column%s %s used by the model.", if (length(missing) > 1) "s" else "",
                   paste0("`", utils::head(missing, 5), "`", collapse = ", ")), call. = FALSE)
    }
    newdata <- newdata[, names_model, drop = FALSE]
  } else if (ncol(newdata) != p_input) {
    stop(sprintf("`newdata` has %d columns, the model was fitted on %d.", ncol(newdata), p_input), call. = FALSE)
  }
  newdata <- input_steps_replay("matrix", spec, newdata, identity)
  if (sparse) {
    check_finite_matrix(newdata, "newdata")
    if (!prefit_steps_replay(spec) && all(object$forest$scale_center == 0)) {
      tx <- Matrix::t(newdata)  # columns of the transpose are the rows: CSR
      return(list(type = "csr", j = tx@i, p = tx@p, x = tx@x, nrow = nrow(newdata), ncol = ncol(newdata)))
    }
    newdata <- as.matrix(newdata)
  }
  storage.mode(newdata) <- "double"
  check_finite_matrix(newdata, "newdata")
  list(type = "dense", x = replay_prefit_steps(spec, newdata))  # R/prefit-steps.R
}

# Engine input for new data of a plain frame design (plain_frame_design()):
# the model's columns taken by name, as numbers.
new_plain_engine_data <- function(spec, newdata, p) {
  missing <- setdiff(spec$columns, names(newdata))
  if (length(missing)) {
    stop(sprintf("`newdata` lacks column%s %s used by the model.", if (length(missing) > 1) "s" else "",
                 paste0("`", utils::head(missing, 5), "`", collapse = ", ")), call. = FALSE)
  }
  mf <- newdata[spec$columns]
  numbers <- setdiff(spec$columns, names(spec$dates))
  wrong <- numbers[!vapply(mf[numbers], function(col) (is.numeric(col) || is.logical(col)) && !is.factor(col) &&
                             is.null(dim(col)) && !inherits(col, c("Date", "POSIXt")), NA)]
  if (length(wrong)) {
    stop(sprintf("Column%s %s of `newdata` must be numeric, as in training.", if (length(wrong) > 1) "s" else "",
                 paste0("`", utils::head(wrong, 5), "`", collapse = ", ")), call. = FALSE)
  }
  mf <- dates_as_numbers(mf, spec$dates, "newdata")
  x <- input_steps_replay("plain", spec, list(mf = mf, x = plain_frame_matrix(spec, mf), spec = spec),
                          function(data) plain_complete(data)$x)
  if (ncol(x) != p) stop("`newdata` does not give the model's predictor columns.", call. = FALSE)
  list(type = "dense", x = replay_prefit_steps(spec, x))  # R/prefit-steps.R
}
