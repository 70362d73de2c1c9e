#' @include registry.R parts.R
NULL

# Method "rsvf": randomized support vector forest. Bootstrap trees whose
# splits are scored by the out-of-bag errors of the children's linear SVMs
# (the "oob_svm" splitter); leaves fit linear SVMs with C = 1.

# Leaves and split scoring use C = 1 without CV (the paper's choice); tree
# and candidate counts are cheap everyday values, see rsvf_paper_settings()
register_method("rsvf", sampler = "bootstrap", splitter = "oob_svm", leaf = "linear_svm",
                aggregation = "vote", ntree = 20L,
                defaults = list(cost = 1, cv_folds = 1L, max_depth = 6L, min_leaf_size = 5L, balanced = "task",
                                split_max_iter = 1L, screen_fraction = 0.25, screen_keep = 2L),
                regression = list(leaf = "ridge", defaults = list(cv_folds = 3L)))

register_part("splitter", "oob_svm",
              parameters = c("n_theta", "n_omega", "n_tau", "proj_dim", "delta_tau", "split_tolerance",
                             "split_max_iter", "screen_fraction", "screen_keep",
                             "min_leaf_size", "cost", "min_class_rows", "rare_classes", "balanced"),
              tune = "max_depth", node_size = "min_leaf_size", predictors = "proj_dim", outcomes = c("classification", "regression"))

#' @rdname svforest_methods
#' @name svforest_methods
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
#' `min_leaf_size = 5`, `balanced = "task"`, `split_max_iter = 1`,
#' `screen_fraction = 0.25`, `screen_keep = 2`; [rsvf_paper_settings()] gives the paper's settings.
#' The split SVMs solve LIBLINEAR's objective by Newton's method on the
#' child's rows gathered once as a dense matrix shared by its one-vs-rest
#' problems (bootstrap duplicates as row weights): full Hessian for p < 160,
#' conjugate-gradient steps for more (dense data; sparse data with many
#' predictors use LIBLINEAR); leaves use LIBLINEAR.
#' Two cheaper-scoring parameters (classification) make the defaults fast on
#' large or wide data (issue 20; `bench/rsvf_speed.R` times them against
#' ranger): `split_max_iter` (default 1) caps the Newton steps of each split
#' SVM, which starts from the node's own solution (100 lets them converge to
#' `split_tolerance`, as before); `screen_fraction` (default 0.25) and
#' `screen_keep` (default 2) screen the candidates: each is first scored with
#' child SVMs trained on a random `screen_fraction` of the node's distinct
#' in-bag rows (errors still counted on all its OOB rows), and only the
#' `screen_keep` best are scored in full as above (`screen_fraction = 1`
#' turns screening off; it is skipped where the subsample would have fewer
#' than 500 rows, so nodes of fewer than 2,000 distinct in-bag rows are
#' always scored in full: smaller subsamples rank the candidates too
#' noisily). The split is still chosen, and `delta_e > 0` checked, on
#' the full scores.
#' The OOB error of an RSVF is optimistic: the OOB rows chose the splits of
#' their tree (`print()` says so). In our bench it was 0.2 (letter, a9a) to 5 (vehicle) points below the test error.
NULL

#' The RSVF paper's settings
#'
#' Parameter sets for `svforest(..., method = "rsvf")` that follow the
#' randomized support vector forest paper (Lv, Han, Liu and He), to be
#' passed on with [do.call()]. The defaults of `method = "rsvf"` are cheaper
#' (fewer trees, shallower trees, screened candidates, one Newton step per
#' split SVM) for everyday use; both sets score every candidate with split
#' SVMs solved to `split_tolerance` (`split_max_iter = 100`,
#' `screen_fraction = 1`).
#'
#' * `"letter"`: 100 trees of depth at most 7, one predictor per projection
#'   (the paper's letter experiment, 3.38% test error). The paper does not say
#'   how many candidates it drew per node for letter; we use 8 predictors x 1
#'   weight x 4 thresholds, which fits the 15-minute budget on 2 cores.
#' * `"kth"`: 100 trees, 44 x 2 x 40 candidates `(theta, omega, tau)` on two
#'   predictors per projection, as the paper used for the sparse KTH
#'   bag-of-words features; depth at most 5 (the paper's trees were "no more
#'   than 5" deep outside letter). Expensive: 3520 candidates per node.
#'
#' @param dataset `"letter"` or `"kth"`.
#' @return A named list of [svforest()] arguments.
#' @examples
#' rsvf_paper_settings("letter")
#' \dontrun{
#' fit <- do.call(svforest, c(list(x, y, method = "rsvf"), rsvf_paper_settings("letter")))
#' }
#' @export
rsvf_paper_settings <- function(dataset = c("letter", "kth")) {
  if (!is.character(dataset)) stop("`dataset` must be \"letter\" or \"kth\".", call. = FALSE)
  dataset <- check_choice(dataset[1], "dataset", c("letter", "kth"))
  switch(dataset,
    letter = list(ntree = 100L, max_depth = 7L, n_theta = 8L, n_omega = 1L, n_tau = 4L, proj_dim = 1L,
                  split_max_iter = 100L, screen_fraction = 1),
    kth = list(ntree = 100L, max_depth = 5L, n_theta = 44L, n_omega = 2L, n_tau = 40L, proj_dim = 2L,
               split_max_iter = 100L, screen_fraction = 1)
  )
}
