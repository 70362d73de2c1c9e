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
}
