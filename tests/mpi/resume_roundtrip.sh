#!/usr/bin/env bash
# A survey killed once its stream phase is stored (every rank SIGKILLed,
# BWSURVEY_INJECT_FAULT=kill-after:stream) leaves status=running with the
# phase readable; bwsurvey --resume runs only b_eff and completes the file.
# A second --resume is refused (the file is complete), and so is a resume
# whose options differ from the stored ones.
# usage: resume_roundtrip.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
file=$dir/survey.h5
options=(--quick --threads 1 --stream.elements 1M --beff.sizes 8,4096 --beff.random-rings 0 --beff.reps 2)
set +e
"$mpirun" -np 2 --oversubscribe -x BWSURVEY_INJECT_FAULT=kill-after:stream "$bwsurvey" "${options[@]}" \
  --out "$file" >"$dir/killed.txt" 2>&1
code=$?
set -e
[ $code -ne 0 ] || { echo "the killed run exited 0"; cat "$dir/killed.txt"; exit 1; }
"$checker" killed "$file" stream
set +e
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --resume "$file" --stream.elements 2M >"$dir/mismatch.txt" 2>&1
code=$?
set -e
[ $code -eq 2 ] || { echo "a resume with other options: exit $code, expected 2"; cat "$dir/mismatch.txt"; exit 1; }
grep -q -- "--resume: --stream.elements is '2M' here but '1M'" "$dir/mismatch.txt"
"$mpirun" -np 2 --oversubscribe "$bwsurvey" --resume "$file" --stream.elements 1M >"$dir/resumed.txt" 2>&1 ||
  { cat "$dir/resumed.txt"; exit 1; }
grep -q "stream: stored in the resumed file; not run again" "$dir/resumed.txt"
"$checker" resumed "$file" 2 "$(hostname)"
set +e
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --resume "$file" >"$dir/again.txt" 2>&1
code=$?
set -e
[ $code -eq 2 ] && grep -q "is complete; there is nothing to resume" "$dir/again.txt" ||
  { echo "resuming a complete file: exit $code"; cat "$dir/again.txt"; exit 1; }
echo "resume round trip OK"
