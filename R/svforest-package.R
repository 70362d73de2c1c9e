#' svforest: support vector forests
#'
#' Ensembles of trees with linear SVMs in their leaves or nodes. Start with
#' [svforest()], [svforest_methods()] and `vignette("svforest")`.
#' @keywords internal
#' @name svforest-package
#' @aliases svforest-package
#' @useDynLib svforest, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom RcppParallel RcppParallelLibs
"_PACKAGE"
