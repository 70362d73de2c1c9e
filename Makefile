# The two commands of the README. Both install everything first.
.PHONY: demo test guards check check-cran deps install sanitize valgrind

# SVFOREST_LIB=dir (optional) installs svforest into dir instead of R's default
# library; demo and test then load it from there.
RSCRIPT = $(if $(SVFOREST_LIB),R_LIBS="$(SVFOREST_LIB)$${R_LIBS:+:$$R_LIBS}" )Rscript

# Dependencies and svforest, installed from the source directory: no vignettes,
# one compilation (what `make test` and CI need).
deps:
	sh .ci/install-deps

# What the demo and the vignettes use (Debian binaries only: no CRAN
# packages, whose compilation is most of `make deps`), and svforest with its
# vignettes, knitted against the freshly installed package (compiled once,
# .ci/build-vignettes.R). Vignette chunks that need tidymodels or caret run only where those
# are installed when the vignettes are built.
install:
	SVFOREST_DEPS=demo SVFOREST_VIGNETTES=1 sh .ci/install-deps

# Main job: fit the default forest on the bundled image segmentation data,
# print the model and its test accuracy. Installs with the vignettes.
demo: install
	$(RSCRIPT) -e 'demo("segment", package = "svforest", ask = FALSE, echo = FALSE)'

# The test suite, against the installed package (installed without vignettes:
# the tests do not read them, and this keeps CI one compilation long).
# deps installs what the demo does not: testthat's peers, tidymodels (from
# CRAN), caret and the explainers. The guards run first and the suite runs
# even when they fail (its closing "N passed, N failed" line stays last);
# the target fails when either does.
test: deps
	@status=0; sh .ci/run-guards.sh || status=1; \
	$(RSCRIPT) .ci/run-tests.R || status=1; \
	exit $$status

# Code-size and layering guards alone (no install): C++ file and function
# sizes, concrete part headers in forest/ and the bindings, R function lengths.
guards:
	sh .ci/run-guards.sh

# R CMD check of a built tarball (needs the Suggests installed by deps).
check: deps
	rm -rf /tmp/svforest-check && mkdir -p /tmp/svforest-check
	R CMD build --no-manual . && mv svforest_*.tar.gz /tmp/svforest-check/
	cd /tmp/svforest-check && _R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual svforest_*.tar.gz

# The CRAN-style check (needs the network only for the incoming checks).
# _R_SHLIB_STRIP_=true (R's own switch, as R CMD INSTALL --strip) strips debug symbols at install: with
# R's default -g the library is ~10 MB of debug info (0.4 MB stripped), which
# would give the "installed package size" NOTE. --strip-debug keeps the symbol
# table for the compiled-code checks. --no-manual: the PDF manual needs LaTeX.
# See tools/README.md.
check-cran: deps
	rm -rf /tmp/svforest-check && mkdir -p /tmp/svforest-check
	R CMD build . && mv svforest_*.tar.gz /tmp/svforest-check/
	cd /tmp/svforest-check && _R_SHLIB_STRIP_=true R_STRIP_SHARED_LIB="strip --strip-debug" \
	  R CMD check --as-cran --no-manual svforest_*.tar.gz

# Optional, slow, not part of `make test`: the test suite under AddressSanitizer
# + UndefinedBehaviorSanitizer, and under valgrind memcheck (see
# tools/README.md). Both fail on any report from svforest's code.
sanitize:
	sh tools/sanitize.sh

valgrind:
	sh tools/valgrind.sh
