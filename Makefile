# The two commands of the README. Both install everything first.
.PHONY: demo test check deps

deps:
	sh .ci/install-deps

# Main job: fit RSVT on the bundled image segmentation data, print the model
# and its test accuracy.
demo: deps
	Rscript -e 'demo("segment", package = "svforest", ask = FALSE, echo = FALSE)'

# The test suite, against the installed package.
test: deps
	Rscript .ci/run-tests.R

# R CMD check of a built tarball (needs the Suggests installed by deps).
check: deps
	rm -rf /tmp/svforest-check && mkdir -p /tmp/svforest-check
	R CMD build --no-manual . && mv svforest_*.tar.gz /tmp/svforest-check/
	cd /tmp/svforest-check && _R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual svforest_*.tar.gz
