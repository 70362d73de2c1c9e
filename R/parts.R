#' @include registry.R
NULL

# Samplers and leaf models, shared by the methods. The splitters are
# registered by the method that brings them (R/method-*.R).

both <- c("classification", "regression")
# (a survival forest refuses "all" itself, naming why: R/family-survival.R)
register_part("sampler", "all", parameters = "sample_fraction", outcomes = c(both, "survival", "competing"))
register_part("sampler", "bootstrap", parameters = "sample_fraction", outcomes = c(both, "survival", "competing"))
register_part("sampler", "subsample", parameters = "sample_fraction", outcomes = c(both, "survival", "competing"))

svm_leaf_parameters <- c("cost", "cv_folds", "min_class_rows", "rare_classes", "balanced", "tolerance",
                         "cv_tolerance")
register_part("leaf", "linear_svm", parameters = svm_leaf_parameters)
# L2-regularised logistic regression (LIBLINEAR), the same parameters as the
# linear SVM leaves
register_part("leaf", "logistic", parameters = svm_leaf_parameters)
register_part("leaf", "kernel_svm", parameters = c("cost", "gamma", "multiclass", "svm_tolerance", "cache_size"))
# class frequencies, or for a numeric outcome the mean
register_part("leaf", "constant", outcomes = both)
# regression: ridge (closed form), linear SVR (LIBLINEAR), RBF epsilon-SVR (LIBSVM)
register_part("leaf", "ridge", parameters = c("lambda", "cv_folds"), outcomes = "regression")
register_part("leaf", "linear_svr", parameters = c("cost", "cv_folds", "epsilon", "tolerance"),
              outcomes = "regression")
register_part("leaf", "kernel_svr", parameters = c("cost", "gamma", "epsilon", "svm_tolerance", "cache_size"),
              outcomes = "regression")
