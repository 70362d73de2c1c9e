#' @keywords internal
#' @useDynLib svforest, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom RcppParallel RcppParallelLibs
"_PACKAGE"
