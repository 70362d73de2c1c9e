#!/bin/sh
# The code-size and layering guards that `make test` runs before the test
# suite: C++ file and function sizes, includes of concrete part headers in
# forest/ and the bindings, R function lengths, machine paths in bench/results
# and bench/*.R, outcome names used as branches outside the families' files,
# R files over 400 lines, a search over cut candidates inside an outcome
# unit. Runs every guard, then exits
# 1 when any failed, so one report lists every offender.
cd "$(dirname "$0")/.."
status=0
for guard in .ci/check-cpp-sizes.py .ci/check-includes.py .ci/check-bench-results.py .ci/check-outcome-branches.py \
    .ci/check-cut-loops.py; do
  echo "== $guard"
  python3 "$guard" || status=1
done
echo "== .ci/check-r-functions.R"
Rscript .ci/check-r-functions.R || status=1
echo "== .ci/check-r-files.R"
Rscript .ci/check-r-files.R || status=1
[ "$status" -eq 0 ] || echo "guards: FAILED (see above)"
exit "$status"
