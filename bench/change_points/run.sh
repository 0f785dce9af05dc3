#!/usr/bin/env bash
# Change points in one node's series (lib/model/ChangePoints, the
# find_change_points `bwreport history changes` calls) measured on simulated
# series: detection of 5/10/20 % steps up and down at 1/3/8 % noise (in the
# middle, 3 surveys before the end, and the delay), false changes without a
# step, single outliers and slow drifts, then PASS/FAIL for the issue's
# targets. Builds nothing: build the bws_change_point_bench target first
# (cmake --build build --target bws_change_point_bench). The full run takes
# about a minute on one core; the table depends on the seed and the options
# only. Exit status: the program's (0 targets met, 1 one missed, 2 usage).
#   bench/change_points/run.sh [BUILD_DIR | PATH/TO/bws_change_point_bench] [--trials N] [--min-change F]
#                              [--false-alarm A] [--min-segment N] [--outlier-rate R] [--seed N] [--quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=$root/build/bench/bws_change_point_bench
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then sim=$1; shift; fi   # the program, or a build directory
[ -d "$sim" ] && sim="$sim/bench/bws_change_point_bench"
[ -x "$sim" ] || { echo "$sim not found: build it first (cmake --build build --target bws_change_point_bench)"; exit 2; }

echo "command: $sim${*:+ $*}"
echo "date: $(date -u +%FT%TZ), host: $(hostname), $(nproc) cores"
exec "$sim" "$@"
