#!/usr/bin/env bash
# The terminal summary at the end of a run and `bwreport summary` of its file
# are one summary (lib/report/RunSummary.cpp): past their headings (what the
# run was; the file's path, status and provenance) they print the same
# lines: each report, STREAM Triad against the DIMMs, the flags, the checks
# and the drain hint. A quick STREAM and b_eff survey on 2 ranks.
# usage: summary_shared.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5
rm -rf "$dir" && mkdir -p "$dir"
file=$dir/run.h5
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --quick --tests stream,beff --threads 1 --stream.elements 1M \
  --out "$file" >"$dir/stdout.txt" 2>"$dir/stderr.txt" || { cat "$dir/stdout.txt" "$dir/stderr.txt"; exit 1; }
"$bwreport" summary "$file" >"$dir/summary.txt"
# The run's: between its heading and the "Results:" line; the file's: from
# the first blank line (after the heading and the provenance).
sed -n '/^bwsurvey .*: [0-9]* nodes*, [0-9]* ranks*$/,/^Results: /p' "$dir/stdout.txt" | sed '1d;$d' >"$dir/run-body.txt"
sed -n '/^$/,$p' "$dir/summary.txt" >"$dir/file-body.txt"
grep -q "^Checks: " "$dir/run-body.txt" || { echo "no summary on the terminal"; cat "$dir/stdout.txt"; exit 1; }
grep -q "^b_eff" "$dir/run-body.txt" || { echo "no b_eff report on the terminal"; cat "$dir/stdout.txt"; exit 1; }
grep -q "^Flagged nodes" "$dir/run-body.txt" || { echo "no flags on the terminal"; cat "$dir/stdout.txt"; exit 1; }
diff "$dir/run-body.txt" "$dir/file-body.txt" || { echo "the terminal and bwreport summary differ"; exit 1; }
echo "one summary OK"
