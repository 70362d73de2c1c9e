.onLoad <- function(libname, pkgname) {
  .svf_init()  # silence LIBLINEAR's solver output
  # parsnip engine: register now if parsnip is loaded, else when it loads
  # (parsnip is only suggested; this is the vctrs::s3_register() pattern)
  register <- function(...) {
    tryCatch(register_parsnip_engine(),
             error = function(e) warning("svforest: parsnip engine not registered: ",
                                         conditionMessage(e), call. = FALSE))
  }
  if (isNamespaceLoaded("parsnip")) register()
  setHook(packageEvent("parsnip", "onLoad"), register)
  # vip::vi_model() method for svforest models, the same way (R/importance.R)
  register_vi <- function(...) {
    tryCatch(register_vip_method(),
             error = function(e) warning("svforest: vip method not registered: ",
                                         conditionMessage(e), call. = FALSE))
  }
  if (isNamespaceLoaded("vip")) register_vi()
  setHook(packageEvent("vip", "onLoad"), register_vi)
  # tidypredict::tidypredict_fit() for svforest models, the same way (R/tidypredict.R)
  register_tp <- function(...) {
    tryCatch({
               registerS3method("tidypredict_fit", "svforest", tidypredict_fit_svforest, envir = asNamespace("tidypredict"))
               registerS3method("tidypredict_test", "svforest", tidypredict_test_svforest, envir = asNamespace("tidypredict"))
             },
             error = function(e) warning("svforest: tidypredict method not registered: ",
                                         conditionMessage(e), call. = FALSE))
  }
  if (isNamespaceLoaded("tidypredict")) register_tp()
  setHook(packageEvent("tidypredict", "onLoad"), register_tp)
}

# The outcome families the package itself registers (every R/family-*.R has
# run by now: this file is collated last); its help pages document these,
# not those a test or another package adds.
package_family_names <- rev(names(svf_registry$families))
