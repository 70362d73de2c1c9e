#' The RSVF paper's settings
#'
#' Parameter sets for `svforest(..., method = "rsvf")` that follow the
#' randomized support vector forest paper (Lv, Han, Liu and He), to be
#' passed on with [do.call()]. The defaults of `method = "rsvf"` are cheaper
#' (fewer trees, shallower trees) for everyday use.
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
    letter = list(ntree = 100L, max_depth = 7L, n_theta = 8L, n_omega = 1L, n_tau = 4L, proj_dim = 1L),
    kth = list(ntree = 100L, max_depth = 5L, n_theta = 44L, n_omega = 2L, n_tau = 40L, proj_dim = 2L)
  )
}
