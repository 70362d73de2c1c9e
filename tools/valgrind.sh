#!/bin/sh
# Runs the test suite under valgrind memcheck and reports the errors whose
# stack passes through svforest's own code (svforest.so). R, TBB and the
# BLAS have known valgrind noise of their own, which is counted separately.
#
#   tools/valgrind.sh [library dir] [test file filter (regexp)]
#
# Slow: about 30-50 times the normal run time of the suite.
set -u
cd "$(dirname "$0")/.."
LIB=${1:-/tmp/svforest-valgrind-lib}
FILTER=${2:-}
WORK=$(mktemp -d /tmp/svforest-valgrind.XXXXXX)
mkdir -p "$LIB" "$WORK/pkg"
# build from a copy (-g -O2, R's default flags): the checkout is left alone
tar -c --exclude=.git --exclude='*.o' --exclude='*.so' --exclude=src/Makevars . | tar -x -C "$WORK/pkg"
R CMD INSTALL --preclean --no-test-load -l "$LIB" "$WORK/pkg" > "$WORK/install.log" 2>&1 ||
  { tail -40 "$WORK/install.log"; exit 1; }

cat > "$WORK/run.R" <<RS
library(testthat)
res <- as.data.frame(test_dir("tests/testthat", filter = if (nzchar("$FILTER")) "$FILTER" else NULL,
                              reporter = "summary", stop_on_failure = FALSE,
                              package = "svforest", load_package = "installed"))
cat(sprintf("\n%d tests, %d failed\n", sum(res\$nb), sum(res\$failed) + sum(res\$error)))
RS
echo "== running the test suite under valgrind (log: $WORK/valgrind.log)"
(cd "$WORK/pkg" && R_LIBS="$LIB" SVFOREST_NUM_THREADS=2 R -d "valgrind --tool=memcheck --num-callers=30 \
   --track-origins=no --log-file=$WORK/valgrind.log" --vanilla --no-echo -f "$WORK/run.R") > "$WORK/tests.log" 2>&1
tail -2 "$WORK/tests.log"
# an error block starts with "== Invalid ..." / "== Conditional jump ..." etc.
# and ends at an empty "==PID== " line; keep those whose stack names svforest
awk '
  /^==[0-9]+== [A-Z]/ && !/Memcheck|Copyright|Using Valgrind|Command:|HEAP SUMMARY|LEAK SUMMARY|ERROR SUMMARY|For lists|For counts|Rerun|in use at exit|total heap|searching|Parent PID|definitely|indirectly|possibly|still reachable|suppressed/ {
    inblock = 1; block = $0 "\n"; next }
  inblock && /^==[0-9]+== *$/ { inblock = 0; total++; if (block ~ /svforest\.so/) { ours++; print block > "'"$WORK"'/ours.txt" } next }
  inblock { block = block $0 "\n" }
  END { printf "valgrind error blocks: %d, in svforest code: %d\n", total + 0, ours + 0 }
' "$WORK/valgrind.log" | tee "$WORK/summary.txt"
grep "ERROR SUMMARY" "$WORK/valgrind.log" | tail -1
[ -s "$WORK/ours.txt" ] && { echo "--- errors in svforest code:"; head -100 "$WORK/ours.txt"; exit 1; }
grep -q "tests, 0 failed" "$WORK/tests.log" || { echo "test failures under valgrind"; exit 1; }
echo "OK: no valgrind errors from svforest code"
