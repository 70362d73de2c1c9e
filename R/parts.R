#' @include registry.R
NULL

# Samplers and leaf models, shared by the methods. The splitters are
# registered by the method that brings them (R/method-*.R).

register_part("sampler", "all", parameters = "sample_fraction")
register_part("sampler", "bootstrap", parameters = "sample_fraction")
register_part("sampler", "subsample", parameters = "sample_fraction")

svm_leaf_parameters <- c("cost", "cv_folds", "min_class_rows", "rare_classes", "balanced", "tolerance",
                         "cv_tolerance")
register_part("leaf", "linear_svm", parameters = svm_leaf_parameters)
# L2-regularised logistic regression (LIBLINEAR), the same parameters as the
# linear SVM leaves
register_part("leaf", "logistic", parameters = svm_leaf_parameters)
register_part("leaf", "kernel_svm", parameters = c("cost", "gamma", "multiclass", "svm_tolerance", "cache_size"))
register_part("leaf", "constant")
