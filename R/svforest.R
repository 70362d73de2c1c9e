#' Fit a support vector forest
#'
#' Grows an ensemble of trees whose leaves hold linear SVMs (or class
#' frequencies), following one of the published methods (see
#' [svforest_methods()]) or a combination of engine parts.
#'
#' @section Method "rsvt" (random support vector trees):
#' Every tree sees all rows. Splits are totally random: a predictor drawn
#' uniformly among those not constant in the node, a cut drawn uniformly. A
#' node with fewer than `2 * min_leaf_size` rows is a leaf, where
#' `min_leaf_size = ceiling(leaf_size_factor * sqrt(n))`. By default
#' (`split_rule = "admissible"`) the cut is drawn among the positions that
#' leave both children at least `min_leaf_size` rows, so leaves hold between
#' `min_leaf_size` and `2 * min_leaf_size - 1` rows. `split_rule = "published"`
#' reproduces the published code: the cut is uniform between the node's min
#' and max, and a node whose cut leaves a child too small becomes a leaf (trees
#' then have few, large leaves). Each leaf fits an L2-regularised L2-loss
#' linear SVM (LIBLINEAR, primal solver) on min-max scaled predictors, one per
#' class (one-vs-rest) when the leaf holds more than two classes, each binary
#' problem weighted so both sides count equally (`balanced`). `C` is chosen
#' from `cost` by stratified `cv_folds`-fold cross-validation inside the leaf.
#' With fewer than 160 predictors (the usual case) the cross-validation fits
#' are solved by a full-Hessian Newton method on the same objective, and the
#' leaf's own SVM by LIBLINEAR started from the Newton solution: the same
#' models, about 3 times faster.
#' A leaf with one class predicts its class frequencies. Classes with fewer
#' than `min_class_rows` rows in a leaf get no SVM of their own there: with
#' `rare_classes = "negative"` (default) their rows stay in the leaf as
#' negatives of the other classes' SVMs (as in the thesis' code, which fits
#' every leaf that is not pure), so the leaf never predicts them; with
#' `rare_classes = "constant"` (the rule of our SPEC) such a leaf predicts its
#' class frequencies instead, which on many-class data leaves most leaves
#' without an SVM (letter: 19% SVM leaves, accuracy 0.75 against 0.95 with
#' the default). Trees vote.
#'
#' @section Method "psvm" (proximal SVM trees):
#' Every tree sees all rows; leaves keep class frequencies; trees are
#' unpruned and vote. At each node the classes present are shuffled and put
#' into overlay group A until A holds at least half the rows (the rest is
#' group B); `m` is drawn uniformly in `1..m_max` (default `NA`: all predictors)
#' and `m` predictors at random; a proximal SVM, the linear system
#' `(I / nu + E'E) z = E'De` with `E = [A, -1]`, gives the hyperplane
#' `x'w = gamma` that routes the rows. The node is split only when both groups
#' have more than `n_min` rows (default 2) and the plane leaves rows on both
#' sides; a draw that fails is retried (new groups and predictors) up to 10
#' times before the node becomes a leaf. `nu` defaults to 1000 (on scaled
#' predictors; 100 to 1000 did best on vehicle and vowel). Combine the parts
#' freely, e.g. `splitter = "psvm", leaf = "linear_svm"`, or
#' `method = "rsvt", leaf = "constant"`.
#'
#' @section Method "transform" (transformation forests):
#' Each tree grows on a random subsample (`sample_fraction`, default 0.632,
#' without replacement) to `max_depth = 9` (the paper's depth); leaves keep
#' class frequencies and the forest averages them (`aggregation = "prob"`).
#' At each node the classes present are divided at random into two non-empty
#' groups, and a linear transform `T` is learned by projected subgradient
#' descent (`transform_iter` steps of size `transform_step`, identity start)
#' on `||T A||_* + ||T B||_* - ||T [A, B]||_*` subject to `||T||_2 = 1`,
#' where `A`, `B` hold the groups' rows as columns and `||.||_*` is the
#' nuclear norm: it makes each group low-rank and pushes the two groups'
#' subspaces apart. Each group is modelled by the top `subspace_dim` left
#' singular vectors of its transformed rows; a row `x` goes to the child of
#' the group whose subspace reconstructs `T x` with the smaller residual.
#' With `dim_per_class = k` (default `NA`: off) a node with `c` classes uses
#' `ceiling(k c / 2)` dimensions for both groups, at most `subspace_dim`:
#' a group of several classes spans the union of their subspaces, so
#' nodes near the root need more dimensions than nodes with two classes
#' (faces under varying light: `k = 9`, with `subspace_dim` raised as the
#' cap, e.g. 120). The
#' iterate with the smallest objective is kept. `transform_rank = r` learns a
#' "fat" `r x p` transform (dimension reduction; started from the node's top
#' `r` principal directions, and much faster on wide data); the default `NA`
#' is the paper's square `T`. Nodes with fewer than `min_node_size` rows are
#' leaves; a node whose rule sends every row one way is retried with new
#' groups (3 attempts). With `node_tries = t` (default 1) each node draws
#' `t` random divisions of its classes in turn (randomized node optimisation,
#' Criminisi & Shotton), learns `T` and the subspaces for each, and keeps the
#' one whose routing of the node's rows has the largest information gain
#' (class entropy of the node minus the size-weighted entropies of the
#' children; ties: the earlier draw); the fit costs about `t` times as much.
#' Predictors are used as they are, without scaling
#' (`scale` is ignored): subspaces pass through the origin and a shift would
#' break them; rows are divided by their norm for learning, and routing does
#' not depend on a row's scale. Predictors constant in a node are left out
#' of its transform (they get zero weight). A subspace of `subspace_dim`
#' dimensions (at most `r - 1`, with `r` the transform's rank) must leave
#' room for a residual, so transformation splits need at least two
#' (non-constant) predictors: with one predictor every tree is a single leaf
#' and every row gets the same prediction. Cost per node: `O(n p^2)` once, then per
#' step `O(r p^2 + r^3)` (groups with fewer rows than `p`: `O(r p m)`).
#'
#' @section Method "tdsvm" (tree decomposition SVM):
#' One CART tree cuts the data into leaves of fewer than `sigma` rows (the
#' ceiling size); RBF-kernel C-SVMs (LIBSVM, on scaled predictors) are fitted
#' on the leaves with more than one class, homogeneous leaves predict their
#' class. A node with `sigma` or more rows is split at the cut of largest
#' entropy gain over all predictors (midpoint between consecutive distinct
#' values); a node with no cut of positive gain is a leaf. The paper's
#' fallback for such non-homogeneous nodes (a balanced cut) is not
#' implemented: they keep an SVM.
#'
#' `sigma` and the SVM parameters `cost` x `gamma` are chosen on validation
#' data: `validation = list(x = , y = )` (or, with a formula, a data frame
#' with the outcome), else a stratified `validation_fraction` share of the
#' training rows (drawn from `seed`). Stage 0 grows the tree with `sigma0`
#' (paper: 1500; default `min(1500, max(50, ceiling(n / 8)))`) and tries every
#' (`cost`, `gamma`); stage t sets `sigma_t = sigma_factor * sigma_{t-1}`
#' (4), merges the nodes of fewer than `sigma_t` rows of the same tree into
#' leaves (the tree grown with `sigma_t`, without regrowing) and tries only
#' the `top_k` (5) best pairs of stage 0. The search stops when the best
#' validation accuracy gains less than `min_gain` (0.5) percentage points
#' (the previous stage is kept) or `sigma_t` reaches the number of training
#' rows. The final tree is grown with the chosen `sigma` on all training rows
#' (training part plus held-out share) with the chosen `cost` and `gamma`.
#' Giving `sigma` (default `NA`: searched) skips the sigma search; a single `cost` and `gamma` with a
#' given `sigma` skips validation altogether. The paper's grid is
#' `cost = 10^(-1:5)`, `gamma = 10^(-4:4)`; the default grid is the cheaper
#' `cost = 10^(0:4)`, `gamma = 10^(-1:2)` (predictors min-max scaled to
#' \[0, 1\]). The choice and every validation accuracy are kept in the
#' model's `tdsvm` element and shown by `summary()` and `plot()`.
#' `multiclass = "ovo"` (default) uses LIBSVM's one-against-one voting,
#' `"ovr"` one SVM per class against the others (largest decision value).
#' `leaf = "linear_svm"` fits linear SVM leaves instead (the grid is then
#' `cost` only). `svm_tolerance` and `cache_size` (MB) go to LIBSVM.
#' [support_vectors_used()] counts the support vectors a prediction uses.
#' The held-out share takes `round(validation_fraction * n_k)` rows of each
#' class `k`; on very small data (e.g. one row per class) it can be empty, or
#' leave fewer than 2 training rows, which is an error: give `validation`,
#' change `validation_fraction`, or skip the search (a `sigma` and a single
#' `cost` and `gamma`).
#'
#' @section Method "rsvf" (randomized support vector forest):
#' Each tree grows on a bootstrap sample and keeps its out-of-bag (OOB) rows.
#' At a node, candidates `(theta, omega, tau)` are drawn: `theta` is
#' `proj_dim` distinct predictors (redrawn when the node is constant along
#' them), `omega` weights uniform in \[0, 1\] on the scaled predictors, `tau`
#' the projection of a random in-bag row; `n_theta` predictor sets x `n_omega`
#' weight vectors x `n_tau` thresholds. Each candidate is scored by training
#' the linear SVMs of its two children (C = `cost`, no CV, stopping tolerance
#' `split_tolerance`) on their in-bag rows and counting their errors on the
#' OOB rows that reach them: `delta_e = e - (p_l e_l + p_r e_r)`, with `e` the
#' OOB error of the node's own SVM and `p_l`, `p_r` the shares of the node's
#' OOB rows in each child. The best candidate splits the node if
#' `delta_e > 0`; otherwise, at `max_depth`, when a child would have fewer
#' than `min_leaf_size` in-bag rows, or without OOB rows, the node is a leaf.
#' In-bag rows whose projection lies within `delta_tau` (a share of the
#' node's projection range) of `tau` go to both children, for scoring and for
#' growing (so leaves may share rows); OOB rows and new rows follow the plain
#' rule `projection <= tau`. (The paper also sends OOB rows in the band to
#' both children; we route them as prediction will, so `p_l + p_r = 1`.)
#' Leaves fit linear SVMs with `C = 1`. Class weights (`balanced = "task"`,
#' the rsvf default): with more than two classes each one-vs-rest SVM weights
#' its two sides equally (`balanced = TRUE`; the 1 : (K - 1) imbalance is an
#' artefact of the decomposition). With two classes, each SVM (split scoring
#' and leaves) weights the classes so that the node's rows count in the
#' task's class shares: a node's own class mix is undone (a balanced SVM
#' where the task is balanced), but the task's imbalance is kept, so the SVM's
#' sign aims at the error rate that the split criterion counts, as the
#' paper's unweighted LIBLINEAR does at the root. On a9a (24% positives) this
#' gives 85.0% accuracy against 81.6--82.3% with `balanced = TRUE`; on the
#' multi-class bench data nothing changes. Trees vote; `aggregation =
#' "max_confidence"` takes, for each row, the class of the tree whose leaf
#' SVM is most confident (see [predict.svforest()]). Defaults: 20 trees,
#' `max_depth = 6`, 8 x 1 x 4 candidates, `delta_tau = 0`,
#' `min_leaf_size = 5`, `balanced = "task"`; [rsvf_paper_settings()] gives the paper's settings.
#' For few predictors (p < 160) the split SVMs are solved by a full-Hessian
#' Newton method on the same objective as LIBLINEAR's (bootstrap duplicates as
#' row weights), which is several times faster; leaves use LIBLINEAR.
#' The OOB error of an RSVF is optimistic: the OOB rows chose the splits of
#' their tree. In our bench it was 0.2 (letter, a9a) to 5 (vehicle) points below the test error.
#'
#' @section Engine parts and parameters (passed through `...`):
#' \describe{
#' \item{`sampler`}{`"all"` rows, `"bootstrap"` or `"subsample"` (these two
#'   give an out-of-bag error).}
#' \item{`sample_fraction`}{share of rows drawn by the sampler (default 1, or
#'   0.632 for `"subsample"`).}
#' \item{`splitter`}{`"random_axis"` (RSVT), `"psvm"` (proximal SVM
#'   oblique splits, with `nu`, `m_max`, `n_min`), `"transform"` (learned
#'   transformations, with `transform_rank`, `subspace_dim` (default 10),
#'   `dim_per_class` (default `NA`),
#'   `transform_iter` (default 30), `transform_step` (default 0.5),
#'   `node_tries` (default 1) and
#'   `min_node_size` (default 5)), `"cart"` (entropy splits, see method
#'   "tdsvm") or `"oob_svm"` (RSVF, with `n_theta`, `n_omega`, `n_tau`,
#'  `proj_dim`, `delta_tau`, `split_tolerance` and `min_leaf_size`).}
#' \item{`leaf`}{`"linear_svm"`, `"constant"` (class frequencies) or
#'   `"kernel_svm"` (RBF SVM with the first `cost` and `gamma` outside
#'   method "tdsvm").}
#' \item{`aggregation`}{`"vote"` (majority vote, ties broken by averaged
#'   probabilities), `"prob"` (largest averaged probability) or
#'   `"max_confidence"` (the most confident tree).}
#' \item{`leaf_size_factor`, `min_leaf_size`, `split_rule`, `max_depth`}{tree
#'   size (`max_depth = 0`: unlimited; the method default is 0, 9 for `"transform"`).}
#' \item{`rare_classes`}{`"negative"` or `"constant"`, see above.}
#' \item{`cost`, `cv_folds`, `min_class_rows`, `balanced`, `tolerance`,
#'   `cv_tolerance`}{the leaf SVMs: grid of `C`, folds of the inner CV (1: no
#'   CV, the first `cost` is used), fewest rows a class needs for the leaf to
#'   get an SVM, class balancing (`TRUE`, `FALSE` or `"task"`: balanced with
#'   more than two classes, the task's class shares with two, see method
#'   "rsvf"; they apply to the cross-validation fits too),
#'   LIBLINEAR's stopping tolerance for the final
#'   fit (default 0.01, LIBLINEAR's own) and for the CV fits (default 0.1:
#'   only their held-out accuracy is used, and it is faster).}
#' \item{`first_tree`}{index (from 0) of the first tree grown (default 0):
#'   a fit with `ntree = m, first_tree = k` grows trees `k + 1` to `k + m` of
#'   the forest with that `seed`, so machines can grow parts of one forest
#'   that [combine()] merges; see [svforest_future()].}
#' \item{`scale`}{scale predictors for the SVMs: min-max to \[0, 1\] for dense
#'   input, division by the largest absolute value for sparse input (zeros stay
#'   zero).}
#' }
#'
#' @section Input handling:
#' Factor and character predictors become one indicator column per level;
#' levels unseen in training are an error at prediction time. Missing or
#' infinite predictor values are an error naming the column; so are columns
#' of other types (dates, complex numbers, lists). Logical columns count as
#' 0/1. Constant predictors are kept but never split on and get zero weight
#' (also in a `dgCMatrix`, where a column holding one non-zero value in every
#' row is constant): when no predictor varies, every tree is one leaf and all
#' rows get the same prediction. Duplicated rows are kept as they are (they
#' weigh more). Explicit zeros stored in a `dgCMatrix` are the same as
#' implicit ones, and a `dgCMatrix` without non-zeros is all-constant data.
#' Matrix column names, when given, must be unique and non-empty: `predict()`
#' matches columns by them. An outcome level with no rows is kept (it is never
#' predicted) with a warning; a level that is `NA` is an error. Zero rows or
#' zero predictor columns are an error; one predictor is fine.
#'
#' @param x A data frame, numeric matrix or `Matrix::dgCMatrix` of
#'   predictors, or a formula for the formula method.
#' @param y A factor with at least two non-empty levels (character and logical
#'   vectors are converted to factors).
#' @param formula A formula `outcome ~ predictors`.
#' @param data A data frame for the formula method.
#' @param method Method preset; see [svforest_methods()].
#' @param ntree Number of trees, a whole number from 1 to 10^6 (method
#'   default when `NULL`: 10 for `"rsvt"`, 100 for `"psvm"`, 20 for
#'   `"transform"`, 1 for `"tdsvm"`, 20 for `"rsvf"`).
#' @param num_threads Threads; `NULL` uses option `svforest.num_threads`, the
#'   `SVFOREST_NUM_THREADS` environment variable or all cores (at most 2 under
#'   `R CMD check`, at most `OMP_THREAD_LIMIT` when that is set). More threads than cores are reduced to the number of
#'   cores. The model does not depend on it.
#' @param seed Whole number; `NULL` draws one from R's generator (so
#'   [set.seed()] makes fits repeatable). Tree `t` uses the stream
#'   `(seed, t)`.
#' @param verbose Show a progress bar with an estimate of the time left:
#'   `TRUE` always, `FALSE` never; `NULL` (default) in interactive sessions
#'   for fits that run longer than 2 seconds. Fits stop promptly on an
#'   interrupt (Ctrl-C, Esc).
#' @param ... Method parameters (see the sections below).
#' @return An object of class `svforest`: a plain list that can be saved with
#'   [saveRDS()]. `oob_error` holds the out-of-bag error when the sampler
#'   leaves rows out, else `NA`.
#' @seealso [predict.svforest()], [summary.svforest()], [plot.svforest()]
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' fit
#' predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' @export
svforest <- function(x, ...) UseMethod("svforest")

#' @rdname svforest
#' @export
# `...` comes before the named arguments so that method parameters are never
# partially matched to them (`nu = 10` would otherwise set num_threads).
svforest.formula <- function(formula, data, ..., method = "rsvt", ntree = NULL, num_threads = NULL,
                             seed = NULL, verbose = NULL) {
  call <- match.call()
  if (missing(data) || !is.data.frame(data)) stop("`data` must be a data frame.", call. = FALSE)
  if (ncol(data) == 0) stop("`data` has no columns.", call. = FALSE)
  used <- all.vars(formula)
  check_frame_columns(data[if ("." %in% used) names(data) else intersect(used, names(data))], "data")
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass)
  terms <- attr(mf, "terms")
  if (attr(terms, "response") == 0) stop("`formula` needs an outcome on its left side.", call. = FALSE)
  y <- stats::model.response(mf)
  tt <- stats::delete.response(terms)
  if (length(attr(tt, "term.labels")) == 0) stop("`formula` has no predictors.", call. = FALSE)
  # a frame of its own (with terms) so that transformed predictors, e.g.
  # log(a), are evaluated once and found again by model.matrix()
  xf <- stats::model.frame(tt, data, na.action = stats::na.pass)
  design <- frame_design(tt, xf)
  user <- list(...)
  if (is.data.frame(user[["validation"]])) user[["validation"]] <- frame_validation(formula, user[["validation"]])
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, user, call)
}

#' @rdname svforest
#' @export
svforest.default <- function(x, y, ..., method = "rsvt", ntree = NULL, num_threads = NULL, seed = NULL,
                             verbose = NULL) {
  call <- match.call()
  if (missing(y)) stop("`y` is missing: give the outcome, or use the formula interface.", call. = FALSE)
  design <- x_design(x)
  fit_forest(design, y, method, ntree, num_threads, seed, verbose, list(...), call)
}

# Shared by both interfaces: checks, engine call, model object.
fit_forest <- function(design, y, method, ntree, num_threads, seed, verbose, user, call) {
  method <- check_choice(method, "method", names(svf_presets))
  x <- design$x
  n <- nrow(x)
  if (n == 0) stop("The training data has no rows.", call. = FALSE)
  if (ncol(x) == 0) stop("The training data has no predictor columns.", call. = FALSE)
  y <- check_outcome(y, n)
  # NULL: progress only in interactive sessions and only once a fit is slow
  progress_delay <- if (is.null(verbose)) 2 else 0
  verbose <- if (is.null(verbose)) interactive() else check_flag(verbose, "verbose")
  first_tree <- check_count(if (is.null(user$first_tree)) 0L else user$first_tree, "first_tree", 0, 1e9)
  user$first_tree <- NULL
  ntree <- check_count(if (is.null(ntree)) svf_presets[[method]]$ntree else ntree, "ntree", 1, 1e6)
  num_threads <- engine_threads(resolve_threads(num_threads))
  seed <- resolve_seed(seed)
  validation <- user[["validation"]]  # data, not a parameter: never stored in the model (exact name:
  user[["validation"]] <- NULL       # user$validation would match validation_fraction)
  params <- resolve_parameters(method, user, n)
  if (is.na(params$m_max)) params$m_max <- ncol(x)
  params$m_max <- min(params$m_max, ncol(x))

  engine_params <- c(params, list(ntree = ntree, seed = as.double(seed), first_tree = first_tree,
                                  progress_delay = progress_delay))
  engine_params$balanced <- !isFALSE(params$balanced)
  engine_params$class_factor <- class_factors(params$balanced, y)
  if (!is.null(validation) && !identical(params$splitter, "cart")) {
    stop("`validation` is used only by the \"cart\" splitter (method \"tdsvm\").", call. = FALSE)
  }
  valid <- validation_data(validation, design$spec, ncol(x), levels(y))
  if (identical(params$splitter, "cart") && is.null(validation)) check_tdsvm_holdout(params, y)
  res <- .svf_fit(engine_data(x), as.integer(y) - 1L, nlevels(y), engine_params, valid$data, valid$y,
                  num_threads, verbose)
  forest <- res$forest
  tdsvm <- res$tuning
  if (!is.null(tdsvm)) params$sigma <- tdsvm$sigma
  forest$oob <- res$oob
  oob <- forest$oob
  forest$oob <- NULL
  oob_predictions <- NULL
  if (!is.null(oob)) {
    has_votes <- rowSums(oob$votes) > 0
    cls <- if (identical(params$aggregation, "max_confidence")) oob$predicted + 1L
           else max.col(oob$votes, ties.method = "first")
    cls[!has_votes] <- NA
    oob_predictions <- factor(levels(y)[cls], levels = levels(y))
  }
  design$x <- NULL
  structure(list(
    call = call,
    method = method,
    params = params,
    ntree = ntree,
    seed = seed,
    levels = levels(y),
    class_counts = as.vector(table(y)),
    num_rows = n,
    design = design$spec,
    forest = forest,
    oob_error = if (is.null(oob)) NA_real_ else oob$error,
    oob_error_curve = if (is.null(oob)) NULL else oob$error_curve,
    oob_predictions = oob_predictions,
    # kept so that combine() can merge the out-of-bag votes of parts
    oob_votes = if (is.null(oob)) NULL else oob$votes,
    oob_y = if (is.null(oob)) NULL else as.integer(y),
    first_tree = first_tree,
    tdsvm = tdsvm,
    format_version = model_format_version,
    package_version = as.character(utils::packageVersion("svforest"))
  ), class = "svforest")
}

check_outcome <- function(y, n) {
  if (is.character(y) || is.logical(y)) y <- factor(y)
  if (!is.factor(y)) {
    stop(sprintf("`y` must be a factor for classification, not %s. For class codes stored as numbers use factor(y).",
                 describe(y)), call. = FALSE)
  }
  if (length(y) != n) {
    stop(sprintf("`y` has %d values but the predictors have %d rows.", length(y), n), call. = FALSE)
  }
  if (anyNA(y)) stop(sprintf("`y` has %d missing values.", sum(is.na(y))), call. = FALSE)
  if (anyNA(levels(y))) stop("`y` has a level that is NA (see addNA()); give the missing class a name.", call. = FALSE)
  counts <- table(y)
  if (sum(counts > 0) < 2) {
    stop("`y` must have at least two classes with rows; found ",
         if (sum(counts > 0) == 1) paste0('only "', names(counts)[counts > 0], '"') else "none", ".",
         call. = FALSE)
  }
  if (any(counts == 0)) {
    warning(sprintf("Level%s %s of `y` %s no rows; the model keeps %s but never predicts %s.",
                    if (sum(counts == 0) > 1) "s" else "",
                    paste0('"', names(counts)[counts == 0], '"', collapse = ", "),
                    if (sum(counts == 0) > 1) "have" else "has",
                    if (sum(counts == 0) > 1) "them" else "it",
                    if (sum(counts == 0) > 1) "them" else "it"), call. = FALSE)
  }
  y
}

# Method "tdsvm" without `validation`: the search needs a non-empty held-out
# part and at least 2 training rows (the engine's stratified hold-out takes
# round(fraction * n_k) rows of each class k).
check_tdsvm_holdout <- function(params, y) {
  grid <- switch(params$leaf, kernel_svm = length(params$cost) * length(params$gamma),
                 linear_svm = length(params$cost), 1L)
  if (!is.na(params$sigma) && grid <= 1) return(invisible())
  counts <- tabulate(as.integer(y), nlevels(y))
  held <- sum(floor(params$validation_fraction * counts + 0.5))
  hint <- "give `validation`, change `validation_fraction`, or skip the search (give `sigma` and a single `cost` and `gamma`)"
  if (held == 0) {
    stop(sprintf("Method \"tdsvm\" chooses its parameters on held-out rows, but `validation_fraction = %s` holds out no row of these %d rows: %s.",
                 format(params$validation_fraction), length(y), hint), call. = FALSE)
  }
  if (length(y) - held < 2) {
    stop(sprintf("Method \"tdsvm\" chooses its parameters on held-out rows, but `validation_fraction = %s` leaves fewer than 2 of these %d rows for training: %s.",
                 format(params$validation_fraction), length(y), hint), call. = FALSE)
  }
  invisible()
}
