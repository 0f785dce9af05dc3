#!/usr/bin/env bash
# Rank 1 of 2 fails cleanly before measuring: bwsurvey exits 1, names the
# rank, and leaves a valid file with status=aborted and the metadata.
# usage: aborted_roundtrip.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
set +e
"$mpirun" -np 2 --oversubscribe -x BWSURVEY_INJECT_FAULT=prepare:1 "$bwsurvey" --tests stream --quick \
  --stream.elements 1M --out "$dir/survey.h5" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
cat "$dir/stdout.txt"
[ $code -eq 1 ] || { echo "expected exit 1, got $code"; cat "$dir/stderr.txt"; exit 1; }
grep -q "ERROR: stream: rank 1" "$dir/stdout.txt" || { echo "the failing rank is not named"; exit 1; }
"$checker" --aborted "$dir/survey.h5" 2
