#!/bin/sh
# Where the default forest's fit time goes, by function: a sampling profile
# (Linux perf, cpu-clock) of bench/profile_default.R fitting svforest's
# default with one thread on the given registry sets (ranger is timed in a
# separate, unprofiled run for the ratio). Prints the 20 functions with the
# most samples inside svforest's library and the share of all samples there.
# Usage: sh bench/profile_default.sh spam,friedman1 [data_dir]
set -e
sets=${1:?usage: sh bench/profile_default.sh set1,set2 [data_dir]}
data=${2:-../shared/data}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
perf record -F 999 -e cpu-clock -o "$out/perf.data" -- \
  Rscript bench/profile_default.R "$data" --only="$sets" --what=svforest > "$out/fit.log" 2>&1
Rscript bench/profile_default.R "$data" --only="$sets" --what=both
echo "== profile of the svforest fits ($sets, one thread)"
perf report -i "$out/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep '%' | head -6
perf report -i "$out/perf.data" --no-children --dsos svforest.so --sort symbol --stdio 2>/dev/null |
  grep '%' | grep -v '^#' | head -20 | sed -e 's/ \{2,\}/ /g' -e 's/(svf::TrainingData.*//' | cut -c1-140
rm -rf "$out"
