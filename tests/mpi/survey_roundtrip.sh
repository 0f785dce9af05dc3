#!/usr/bin/env bash
# Runs a quick STREAM survey on N ranks and checks the file it leaves.
# usage: survey_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
# A small explicit size keeps three oversubscribed ranks quick; the default
# size rule is tested in the unit tests.
set +e
"$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests stream --quick --stream.elements 2M \
  --out "$dir/survey.h5" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
cat "$dir/stdout.txt"
if [ $code -ne 0 ]; then
  echo "bwsurvey exited $code"; cat "$dir/stderr.txt"; exit 1
fi
grep -q "Results: $dir/survey.h5" "$dir/stdout.txt" || { echo "no 'Results:' line"; exit 1; }
grep -q "Best Rate MB/s" "$dir/stdout.txt" || { echo "no STREAM table"; exit 1; }
"$checker" "$dir/survey.h5" "$ranks"
