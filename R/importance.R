#' Variable importance of a support vector forest
#'
#' Permutation importance (every method) or model-based importance from the
#' coefficients of linear leaves and oblique splits. [svforest()] computes
#' one at fit time with `importance = "permutation"` or `"coefficients"`
#' (stored in `fit$variable_importance`); this function computes them for a
#' fitted model afterwards, on any labelled data.
#'
#' @section Permutation importance:
#' For each tree, the share of its rows it classifies correctly minus that
#' share when the columns of one predictor are permuted among those rows
#' (mean decrease in accuracy, as `ranger`'s and `randomForest`'s unscaled
#' permutation importance); the importance is the mean over the trees. For a
#' regression forest, the increase of the tree's mean squared error (on the
#' outcome's scale) when the predictor is permuted. The
#' rows of a tree are its out-of-bag rows when `oob = TRUE` (a sampler that
#' leaves rows out, `x` and `y` the training data in their order: the rows
#' a tree left out are drawn again from its seed; with the default method,
#' those that scored it, not those that chose its structure), else all rows
#' of `x`. At
#' fit time, `svforest(..., importance = "permutation")` uses the out-of-bag
#' rows when the sampler leaves rows out, else all training rows, which the
#' trees have seen: that importance is optimistic (it also credits what a
#' tree fitted to noise); pass held-out data here for an honest one.
#'
#' A predictor is what the user gave: the indicator columns of a factor (or
#' logical) predictor are permuted together and reported under its name;
#' matrix columns are reported one by one (as `V1`, `V2`, ... when they have
#' no names). Each tree permutes with a generator of its own, drawn from the
#' model's seed and the tree's index, so the importance does not depend on
#' `num_threads`. With `per_class = TRUE` the decrease is also computed on
#' the rows of each class (a tree counts for a class when its rows hold that
#' class).
#'
#' @section Coefficient importance:
#' For forests whose trees hold linear leaves (`leaf = "linear_svm"`,
#' `"logistic"`, and for regression `"ridge"` or `"linear_svr"`) or
#' hyperplane splits (written by the `"psvm"` and `"oob_svm"` splitters, and
#' by the default `"hybrid"` splitter where a hyperplane beats an axis cut;
#' whether a forest has any is read from its trees): the mean absolute
#' coefficient of each predictor, weighted by the training rows the leaf or
#' node holds. Leaves are fitted on scaled predictors (min-max to \[0, 1\]
#' for dense data, by the largest absolute value for sparse data), so their
#' coefficients are per unit of the *scaled* predictor, i.e. the coefficient
#' on the original scale times the predictor's range (or largest absolute
#' value): this makes predictors measured in different units comparable.
#' With `scale = "rank"` the original scale is the rank scale (see
#' [svforest_scaling]).
#' Oblique splits act on the original predictors; their weights are
#' multiplied by the range in the same way, and each node's weights are
#' divided by their sum of absolute values (only a split's direction
#' matters). A model with both linear leaves and oblique splits gets the sum
#' of the two parts, each first divided by its total. A factor's importance
#' is the sum over its indicator columns. Axis splits (`"random_axis"`,
#' `"cart"`), transformation splits and kernel or constant leaves have no
#' coefficients: a forest with no linear leaf and no hyperplane split is an
#' error.
#'
#' @param object A fitted [svforest()] model.
#' @param x,y Labelled data for permutation importance: predictors as for
#'   [predict.svforest()]'s `newdata` and one class (or, for regression, one
#'   number) per row; for a survival forest a `Surv` outcome, the importance
#'   then the drop in Harrell's C ([svforest_survival]); for a competing-risks
#'   forest its outcome, the importance then a predictors x causes matrix of
#'   the drops in each cause's Wolbers C ([svforest_competing]). For a formula model, `x` may be a data frame holding the
#'   outcome: `y = NULL` takes it from there. Not used by
#'   `type = "coefficients"`.
#' @param type `"permutation"` or `"coefficients"`.
#' @param per_class Also report the importance per class (permutation only).
#' @param oob Use each tree's out-of-bag rows of `x` (which must then be the
#'   training data, rows in the training order).
#' @param num_threads Threads, as in [svforest()]; the result does not
#'   depend on it.
#' @return A named numeric vector, one value per predictor (in the order of
#'   the training data's columns), with attribute `type`; with
#'   `per_class = TRUE` a matrix with one column per class and a last column
#'   `overall` (as `randomForest::importance()`).
#' @seealso [plot.svforest()] (`what = "importance"`), `vip::vi()`.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' svforest_importance(fit, iris[, 1:4], iris$Species)
#' svforest_importance(fit, type = "coefficients")
#' @export
svforest_importance <- function(object, x = NULL, y = NULL, type = c("permutation", "coefficients"),
                                per_class = FALSE, oob = FALSE, num_threads = NULL) {
  check_model(object)
  if (identical(type, c("permutation", "coefficients"))) type <- "permutation"
  type <- check_choice(type, "type", c("permutation", "coefficients"))
  per_class <- check_flag(per_class, "per_class")
  oob <- check_flag(oob, "oob")
  if (type == "coefficients") {
    if (per_class) stop("`per_class` is available for permutation importance only.", call. = FALSE)
    return(coefficient_importance(object))
  }
  if (is.null(y) && is.data.frame(x) && !is.null(object$outcome)) {
    # a formula model: the outcome is a column (or expression) of `x`
    # (in the caller's environment: an outcome such as Surv(time, status) calls its package)
    caller <- parent.frame()
    y <- tryCatch(eval(object$outcome, x, caller), error = function(e) NULL)
    if (is.null(y)) {
      stop(sprintf("`y` is missing and `x` has no outcome `%s` (the model's formula): give `y` or a data frame with the outcome.",
                   deparse1(object$outcome)), call. = FALSE)
    }
  }
  if (is.null(x) || is.null(y)) {
    stop("Permutation importance needs labelled data: give `x` (predictors) and `y` (the outcome).", call. = FALSE)
  }
  num_threads <- engine_threads(resolve_threads(num_threads))
  model_family(object)$importance(object, x, y, num_threads, oob, per_class)  # R/family-*.R
}

# Permutation importance of a classification or regression forest (their
# families' `importance`): `yi` the outcome as the engine sees it (class
# codes or the scaled number), `same_y(yi)` whether it is the training
# outcome the out-of-bag results were scored on.
forest_permutation_importance <- function(object, x, yi, num_threads, oob, per_class, same_y) {
  if (oob && !is.null(object$rows_used) && NROW(x) == length(object$rows_used)) {
    # the training data as given: leave out the rows of case weight 0, as the fit did
    x <- x[object$rows_used, , drop = FALSE]
    yi <- yi[object$rows_used]
  }
  if (oob) {
    if (identical(object$params$sampler, "all") || is.null(object$params$sampler)) {
      stop("`oob = TRUE` needs a sampler that leaves rows out (\"bootstrap\" or \"subsample\"); this model's trees saw every row.",
           call. = FALSE)
    }
    if (NROW(x) != object$num_rows || (!is.null(object$oob_y) && !same_y(yi))) {
      stop(sprintf("`oob = TRUE` needs the training data (%d rows, in the training order) as `x` and `y`.",
                   object$num_rows), call. = FALSE)
    }
  }
  permutation_importance(object, new_engine_data(object, x), yi, oob, per_class, num_threads)
}

# A regression model's outcome `y` on the engine's scale, checked.
importance_response <- function(object, y, n) {
  if (!is.numeric(y) || is.factor(y) || length(y) != n || anyNA(y) || any(!is.finite(y))) {
    stop(sprintf("`y` must be a numeric vector of finite values, one per row of `x` (%d), not %s.",
                 n, describe(y)), call. = FALSE)
  }
  (as.double(y) - object$outcome_center) / object$outcome_scale
}

# Class codes (from 0) of `y` for the model's levels, checked.
importance_outcome <- function(object, y, n) {
  if (!(is.factor(y) || is.character(y)) || length(y) != n) {
    stop(sprintf("`y` must be a factor or character vector with one value per row of `x` (%d), not %s.",
                 n, describe(y)), call. = FALSE)
  }
  bad <- is.na(y) | !as.character(y) %in% object$levels
  if (any(bad)) {
    stop(sprintf("`y` has %d values that are missing or not among the model's classes.", sum(bad)), call. = FALSE)
  }
  as.integer(factor(as.character(y), levels = object$levels)) - 1L
}

# The predictors as the user gave them: list(names, groups), groups a list
# of increasing column indices (from 0) of the design matrix. A factor's (or
# logical's) indicator columns form one group under the variable's name.
importance_groups <- function(object) {
  spec <- object$design
  p <- object$forest$num_features
  cols <- spec$feature_names
  if (is.null(cols)) {
    return(list(names = paste0("V", seq_len(p)), groups = as.list(seq_len(p) - 1L)))
  }
  if (identical(spec$type, "frame") && !is.null(spec$origin)) {
    # by each column's predictor (R/design.R); a column of several
    # predictors (an interaction) is a group of its own
    key <- ifelse(is.na(spec$origin), -seq_along(cols), spec$origin)
    first <- !duplicated(key)
    names <- ifelse(is.na(spec$origin[first]), cols[first], spec$predictors[spec$origin[first]])
    return(list(names = names, groups = lapply(key[first], function(k) which(key == k) - 1L)))
  }
  owner <- cols
  if (identical(spec$type, "frame")) {
    # models before spec$origin: their columns by the names they were built with
    vars <- all.vars(stats::delete.response(stored_terms(spec$terms)))
    for (v in vars) {
      lev <- if (!is.null(spec$xlevels[[v]])) spec$xlevels[[v]] else "TRUE"
      owner[cols %in% paste0(v, lev)] <- v
    }
  }
  # a missingness indicator goes with its predictor
  if (imputes(spec) && length(spec$impute$indicator_names)) {
    base <- if (identical(spec$type, "frame")) spec$impute$indicators else spec$input_names[spec$impute$indicators]
    hit <- match(spec$impute$indicator_names, cols)
    owner[hit[!is.na(hit)]] <- base[!is.na(hit)]
  }
  names <- unique(owner)
  list(names = names, groups = lapply(names, function(nm) which(owner == nm) - 1L))
}

# Seed and global index of each tree (combine() stores them when parts
# differ in seed or leave gaps between their tree ranges).
tree_streams <- function(object) {
  if (!is.null(object$tree_streams)) return(object$tree_streams)
  ntree <- length(object$forest$trees)
  data.frame(seed = rep(as.double(object$seed), ntree),
             index = as.double(part_first_tree(object)) + seq_len(ntree) - 1)
}

# Permutation importance on engine data `data` with class codes `yi`.
# `fast = FALSE` turns off the engine's shortcuts (tests compare the two).
permutation_importance <- function(object, data, yi, oob, per_class, num_threads, fast = TRUE) {
  g <- importance_groups(object)
  streams <- tree_streams(object)
  if (oob && anyNA(streams$seed)) {
    stop("The trees' out-of-bag rows cannot be drawn again: the model combines forests of unknown seeds.",
         call. = FALSE)
  }
  seeds <- streams$seed
  seeds[is.na(seeds)] <- 0
  fraction <- object$params$sample_fraction
  if (is.null(fraction)) fraction <- 1
  sampler <- if (is.null(object$params$sampler)) "all" else object$params$sampler
  res <- .svf_importance(object$forest, data, engine_outcome_value(yi), g$groups, seeds,
                         streams$index, oob,
                         sampler, as.double(fraction), if (oob) object$sampling_weights,
                         if (oob && is.numeric(object$oob_choosing_share)) object$oob_choosing_share else 0, per_class,
                         object$type, num_threads,
                         fast)
  # regression: the increase of the mean squared error on the outcome's scale
  imp <- stats::setNames(res$importance * if (is.null(object$outcome_scale)) 1 else object$outcome_scale^2, g$names)
  if (!per_class) return(structure(imp, type = "permutation"))
  out <- cbind(res$per_class, overall = imp)
  dimnames(out) <- list(g$names, c(object$levels, "overall"))
  structure(out, type = "permutation")
}

# Importance computed right after a fit: on the out-of-bag rows when the
# sampler leaves rows out, else on all training rows. `x` is the design
# matrix (dense or dgCMatrix), `y` the factor outcome.
# The outcome as the engine's entry points read it (a family's outcome class
# may add a method: a Surv gives its times and statuses).
engine_outcome_value <- function(y) UseMethod("engine_outcome_value")
engine_outcome_value.default <- function(y) y

fit_importance <- function(object, x, y, importance, num_threads) {
  if (importance == "none") return(NULL)
  if (importance == "coefficients") {
    if (!has_coefficient_parts(object)) no_coefficients_error(object)
    return(coefficient_importance(object))
  }
  data <- if (methods::is(x, "dgCMatrix")) {
    tx <- Matrix::t(x)
    list(type = "csr", j = tx@i, p = tx@p, x = tx@x, nrow = nrow(x), ncol = ncol(x))
  } else {
    list(type = "dense", x = x)
  }
  oob <- !identical(object$params$sampler, "all")
  # the outcome as the engine saw it in the fit (R/family-*.R)
  yi <- model_family(object)$engine_y(y, list(center = object$outcome_center, scale = object$outcome_scale))
  permutation_importance(object, data, yi, oob, FALSE, num_threads)
}

# Checks `importance` of svforest() before the fit: the kind it asks for
# (whether the forest holds coefficients is known only after it grew:
# fit_importance()).
check_importance_arg <- function(importance) {
  if (is.null(importance)) return("none")
  # ranger's and randomForest's values
  if (isTRUE(importance) || identical(importance, "impurity_corrected") || identical(importance, "impurity")) {
    stop(sprintf("`importance = %s` has no equivalent here: svforest does not record impurity decreases per predictor (hyperplane splits and SVM leaves have none). Use `importance = \"permutation\"` (ranger's and randomForest's permutation importance), or \"coefficients\" where the forest holds hyperplane splits or linear leaves.",
                 describe(importance)), call. = FALSE)
  }
  if (isFALSE(importance)) return("none")
  check_choice(importance, "importance", c("none", "permutation", "coefficients"))
}

# Whether the fitted forest holds coefficients: a hyperplane split or a
# linear leaf in any tree (read from the trees' arrays, whatever parts
# grew them: the default's splitter writes hyperplanes where they beat an
# axis cut, and may write none).
has_coefficient_parts <- function(object) {
  codes <- .svf_split_kinds()
  oblique <- codes[names(codes) == "oblique"]
  kinds <- .svf_leaf_kinds()
  linear <- kinds$code[kinds$linear]
  for (tree in object$forest$trees) {
    nodes <- tree_nodes(tree)
    if (any(nodes$split_kind[nodes$leaf_id < 0] %in% oblique) || any(nodes$leaf_kind %in% linear)) return(TRUE)
  }
  FALSE
}

# The error for coefficient importance of a forest without coefficients.
no_coefficients_error <- function(object) {
  stop(sprintf("This model has no coefficients (no linear leaves and no hyperplane splits in its trees; leaf \"%s\", splitter \"%s\"): use permutation importance.",
               object$params$leaf, object$params$splitter), call. = FALSE)
}

# Model-based importance from linear leaves and oblique splits (see
# svforest_importance()).
coefficient_importance <- function(object) {
  forest <- object$forest
  p <- forest$num_features
  range <- ifelse(forest$scale_factor > 0, 1 / forest$scale_factor, 0)
  leaf_sum <- numeric(p)
  leaf_weight <- 0
  split_sum <- numeric(p)
  split_weight <- 0
  for (tree in forest$trees) {
    sizes <- tree_leaf_sizes(tree)
    linear <- tree_linear_leaves(forest, tree)
    for (l in seq_len(tree_n_leaves(tree))) {
      lin <- linear[[l]]
      if (is.null(lin)) next
      w <- abs(lin$coef[seq_len(p), , drop = FALSE])
      leaf_sum <- leaf_sum + sizes[l] * rowMeans(w)
      leaf_weight <- leaf_weight + sizes[l]
    }
    kinds <- tree_split_kinds(tree)
    oblique <- which(kinds %in% "oblique")
    if (length(oblique)) {
      node_rows <- tree_node_rows(tree)
      splits <- tree_oblique_splits(forest, tree, oblique)
      for (i in seq_along(oblique)) {
        node <- oblique[i]
        s <- splits[[i]]
        w <- abs(s$weights) * range[s$vars + 1L]
        if (sum(w) <= 0) next
        split_sum[s$vars + 1L] <- split_sum[s$vars + 1L] + node_rows[node] * w / sum(w)
        split_weight <- split_weight + node_rows[node]
      }
    }
  }
  if (leaf_weight == 0 && split_weight == 0) no_coefficients_error(object)
  imp <- numeric(p)
  if (leaf_weight > 0 && split_weight > 0) {
    imp <- leaf_sum / sum(leaf_sum) + split_sum / sum(split_sum)
  } else if (leaf_weight > 0) {
    imp <- leaf_sum / leaf_weight
  } else {
    imp <- split_sum / split_weight
  }
  g <- importance_groups(object)
  out <- vapply(g$groups, function(cols) sum(imp[cols + 1L]), 0)
  structure(stats::setNames(out, g$names), type = "coefficients")
}

# vip::vi_model() method (registered in .onLoad when vip is installed):
# the importance stored in the model, or computed from its coefficients.
vi_model_svforest <- function(object, type = NULL, ...) {
  imp <- object$variable_importance
  if (!is.null(type) && !identical(type, attr(imp, "type"))) imp <- NULL
  if (is.null(imp)) {
    if (!is.null(type) && !identical(type, "coefficients")) {
      stop(sprintf("The model holds no %s importance: fit with `importance = \"%s\"`, or use svforest_importance().",
                   type, type), call. = FALSE)
    }
    if (!has_coefficient_parts(object)) {
      stop("The model holds no variable importance: fit with `importance = \"permutation\"` (or use vip's permutation method).",
           call. = FALSE)
    }
    imp <- coefficient_importance(object)
  }
  if (is.matrix(imp)) imp <- imp[, "overall"]
  tib <- data.frame(Variable = names(imp), Importance = unname(as.double(imp)), stringsAsFactors = FALSE)
  if (requireNamespace("tibble", quietly = TRUE)) tib <- tibble::as_tibble(tib)
  attr(tib, "type") <- attr(imp, "type")
  class(tib) <- c("vi", class(tib))
  tib
}

register_vip_method <- function(...) {
  if (!requireNamespace("vip", quietly = TRUE)) return(invisible(FALSE))
  if (!"vi_model" %in% getNamespaceExports("vip")) return(invisible(FALSE))
  registerS3method("vi_model", "svforest", vi_model_svforest, envir = asNamespace("vip"))
  invisible(TRUE)
}

