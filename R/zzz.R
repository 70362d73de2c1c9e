.onLoad <- function(libname, pkgname) {
  .svf_init()  # silence LIBLINEAR's solver output
}
