# Knits the vignettes of a package source directory (the working directory)
# against the svforest already installed, and leaves them where R CMD build
# would: the outputs in inst/doc and their index in build/vignette.rds, so a
# second R CMD INSTALL of the same directory installs them. .ci/install-deps
# uses it so that `make demo` compiles svforest once (R CMD build would
# compile it a second time, into a temporary library, only to knit).
vignettes <- tools::pkgVignettes(dir = ".", check = TRUE)
if (length(vignettes$docs) == 0L) quit(save = "no")
tools::buildVignettes(dir = ".", tangle = TRUE, quiet = TRUE)
vignettes <- tools::pkgVignettes(dir = ".", output = TRUE, source = TRUE)
dir.create(file.path("inst", "doc"), recursive = TRUE, showWarnings = FALSE)
built <- c(vignettes$docs, unlist(vignettes$outputs), unlist(vignettes$sources))
if (!all(file.copy(built, file.path("inst", "doc"), overwrite = TRUE))) {
  stop("could not copy the knitted vignettes to inst/doc")
}
dir.create("build", showWarnings = FALSE)
# The index R CMD build writes (R's own function: its format is R's to define).
index <- getFromNamespace(".build_vignette_index", "tools")(vignettes)
saveRDS(index, file.path("build", "vignette.rds"), version = 2L)
cat(sprintf("knitted %d vignettes\n", length(vignettes$docs)))
