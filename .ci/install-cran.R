# Installs the tidymodels packages svforest's parsnip engine is tested with
# (parsnip, tune, workflows, yardstick, dials; not in Debian) from CRAN, with
# every dependency that is missing or older than some package to be installed
# requires. Idempotent: installs nothing when all is in place. Run after the
# Debian r-cran-* binaries, which provide most dependencies.
# The CRAN archive of old versions is not always reachable, so current CRAN
# versions are used: available.packages() only lists versions whose R
# requirement this R meets (all need R >= 4.1 at most as of 2026-11).
# Library: R_LIBS_CRAN if set, else the first library on .libPaths().
options(repos = c(CRAN = Sys.getenv("CRAN_MIRROR", "https://cloud.r-project.org")))
targets <- c("parsnip", "tune", "workflows", "yardstick", "dials")
# The explainer and deployment packages the tests use when they can
# (test-explainers.R, test-butcher.R, test-tidypredict.R). Optional: one that CRAN does not offer
# for this R version (shapviz needs xgboost, which needs R >= 4.3) is
# skipped with a message, and its tests skip.
optional <- c("DALEX", "pdp", "iml", "kernelshap", "shapviz", "butcher", "future.mirai", "tidypredict")
lib <- Sys.getenv("R_LIBS_CRAN", .libPaths()[1])
dir.create(lib, showWarnings = FALSE, recursive = TRUE)

installed_version <- function(p) {
  v <- suppressWarnings(utils::packageDescription(p, lib.loc = c(lib, .libPaths()), fields = "Version"))
  if (is.na(v)) NULL else package_version(v)
}
base <- rownames(utils::installed.packages(priority = "base"))
ap <- NULL
deps_of <- function(p) {
  if (!p %in% rownames(ap)) stop("Package ", p, " is not available from CRAN for this R version.")
  f <- ap[p, c("Depends", "Imports", "LinkingTo")]
  tools:::.split_dependencies(paste(f[!is.na(f)], collapse = ","))
}

missing_targets <- Filter(function(p) is.null(installed_version(p)), c(targets, optional))
if (length(missing_targets) == 0) {
  message("CRAN packages already installed: ", paste(c(targets, optional), collapse = ", "))
  quit(save = "no", status = 0)
}
ap <- utils::available.packages()

# Optional packages whose dependencies (recursively) CRAN cannot give this R.
installable <- function(p, seen = character()) {
  if (p %in% c("R", base) || p %in% seen || !is.null(installed_version(p))) return(TRUE)
  if (!p %in% rownames(ap)) return(FALSE)
  all(vapply(deps_of(p), function(d) installable(d$name, c(seen, p)), TRUE))
}
skipped <- Filter(function(p) p %in% optional && !installable(p), missing_targets)
if (length(skipped)) {
  message("Not available from CRAN for this R version (their tests skip): ", paste(skipped, collapse = ", "))
  missing_targets <- setdiff(missing_targets, skipped)
}
if (length(missing_targets) == 0) quit(save = "no", status = 0)

# Fixpoint: a package is installed (CRAN's current version) when it is a
# target, missing, or older than what a package to be installed requires.
install <- missing_targets
repeat {
  added <- character()
  for (p in install) for (d in deps_of(p)) {
    if (d$name %in% c("R", base) || d$name %in% install || d$name %in% added) next
    have <- installed_version(d$name)
    if (is.null(have) || (!is.null(d$version) && !do.call(d$op, list(have, d$version))))
      added <- c(added, d$name)
  }
  if (length(added) == 0) break
  install <- c(install, added)
}
message("Installing from CRAN into ", lib, ": ", paste(sort(install), collapse = ", "))
t0 <- Sys.time()
utils::install.packages(install, lib = lib, dependencies = FALSE,
                        Ncpus = max(1L, parallel::detectCores()), quiet = TRUE)
ok <- vapply(targets, function(p) requireNamespace(p, lib.loc = c(lib, .libPaths()), quietly = TRUE), TRUE)
message(sprintf("CRAN install took %.1f min", as.numeric(difftime(Sys.time(), t0, units = "mins"))))
if (!all(ok)) stop("Could not load: ", paste(targets[!ok], collapse = ", "))
