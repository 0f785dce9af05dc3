#!/usr/bin/env bash
# Rank 2 of 3 never comes back from the stream phase
# (BWSURVEY_INJECT_FAULT=hang:2): with --phase-timeout 2 rank 0 names it,
# marks the file aborted with the reason, and ends the job (exit 1).
# usage: phase_timeout.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5
rm -rf "$dir" && mkdir -p "$dir"
file=$dir/survey.h5
set +e
"$mpirun" -np 3 --oversubscribe -x BWSURVEY_INJECT_FAULT=hang:2 "$bwsurvey" --tests stream --quick --threads 1 \
  --stream.elements 1M --phase-timeout 2 --out "$file" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
cat "$dir/stdout.txt"
[ $code -eq 1 ] || { echo "expected exit 1, got $code"; cat "$dir/stderr.txt"; exit 1; }
grep -q "bwsurvey: error: stream: rank 2 ($(hostname)) did not finish preparing within --phase-timeout 2 s" \
  "$dir/stderr.txt" || { echo "rank 2 is not named"; cat "$dir/stderr.txt"; exit 1; }
"$bwreport" summary "$file" | tee "$dir/summary.txt"
grep -q "status aborted" "$dir/summary.txt"
grep -q "aborted: stream: rank 2" "$dir/summary.txt"
echo "phase timeout OK"
