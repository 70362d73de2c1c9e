#!/bin/sh
# Builds svforest with AddressSanitizer + UndefinedBehaviorSanitizer into a
# private library and runs the test suite under it. Fails (exit 1) on any
# sanitizer report or test failure. R itself is not instrumented: the ASan
# runtime is preloaded so that it is initialised before R starts.
#
#   tools/sanitize.sh [library dir]          (default /tmp/svforest-asan-lib)
#
# Needs gcc/g++ with libasan and libubsan (Debian: part of gcc).
set -u
cd "$(dirname "$0")/.."
LIB=${1:-/tmp/svforest-asan-lib}
WORK=$(mktemp -d /tmp/svforest-asan.XXXXXX)
mkdir -p "$LIB" "$WORK/logs"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# R_MAKEVARS_USER replaces ~/.R/Makevars for this build only. The flags go into
# the compiler variables so that the shared library is linked with them too.
cat > "$WORK/Makevars" <<MK
CC = gcc $SAN
CXX = g++ $SAN
CXX11 = g++ $SAN
CXX14 = g++ $SAN
CXX17 = g++ $SAN
CFLAGS = -g -O1
CXXFLAGS = -g -O1
CXX11FLAGS = -g -O1
CXX14FLAGS = -g -O1
CXX17FLAGS = -g -O1
MK

# Build from a copy: the checkout's src/ keeps no instrumented objects.
mkdir -p "$WORK/pkg"
tar -c --exclude=.git --exclude='*.o' --exclude='*.so' --exclude=src/Makevars . | tar -x -C "$WORK/pkg"
echo "== building with $SAN into $LIB"
R_MAKEVARS_USER="$WORK/Makevars" R CMD INSTALL --preclean --no-test-load -l "$LIB" "$WORK/pkg" \
  > "$WORK/install.log" 2>&1 || { tail -40 "$WORK/install.log"; exit 1; }
grep -q -- "-fsanitize=address" "$WORK/install.log" || { echo "sanitizer flags not used"; exit 1; }

ASAN_RT=$(gcc -print-file-name=libasan.so)
# detect_leaks=0: R keeps its heap until exit, leak reports would be R's.
# log_path: every report lands in a file, so the run can be judged afterwards.
export LD_PRELOAD="$ASAN_RT"
export ASAN_OPTIONS="detect_leaks=0:log_path=$WORK/logs/asan:abort_on_error=1:detect_odr_violation=0"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$WORK/logs/ubsan"
echo "== running the test suite (logs in $WORK/logs)"
# the tests of the copy that was built (the checkout may change meanwhile)
(cd "$WORK/pkg" && R_LIBS="$LIB" SVFOREST_NUM_THREADS=2 Rscript .ci/run-tests.R) > "$WORK/tests.log" 2>&1
status=$?
unset LD_PRELOAD
tail -3 "$WORK/tests.log"
reports=$(ls "$WORK/logs" | wc -l)
echo "== sanitizer reports: $reports"
for f in "$WORK"/logs/*; do [ -e "$f" ] && { echo "--- $f"; head -60 "$f"; }; done
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
  echo "FAILED (test status $status, $reports reports)"; exit 1
fi
echo "OK: test suite passed under ASan+UBSan with no reports"
rm -rf "$WORK"
