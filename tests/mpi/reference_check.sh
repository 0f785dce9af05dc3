#!/usr/bin/env bash
# --reference: a target no node can reach fails its /checks row (exit 3);
# one every node reaches passes; a malformed file is a usage error (exit 2)
# before anything is measured.
# usage: reference_check.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5
rm -rf "$dir" && mkdir -p "$dir"
options=(--tests stream --quick --threads 1 --stream.elements 1M)
printf '[*]\nstream.triad = 1000, -0.1, none, TB/s\n[nohost*]\nstream.triad = 1, -0.5, none, GB/s\n' >"$dir/high.ini"
set +e
"$mpirun" -np 2 --oversubscribe "$bwsurvey" "${options[@]}" --reference "$dir/high.ini" --out "$dir/high.h5" \
  >"$dir/high.txt" 2>&1
code=$?
set -e
[ $code -eq 3 ] || { echo "unreachable reference: exit $code, expected 3"; cat "$dir/high.txt"; exit 1; }
grep -q "FAILED: reference.stream.triad: $(hostname) stream.triad\[double\]" "$dir/high.txt"
"$bwreport" summary "$dir/high.h5" | grep -q "FAILED: reference.stream.triad"
printf 'stream.triad = 1, -0.5, none, MB/s\n' >"$dir/low.ini"
"$mpirun" -np 2 --oversubscribe "$bwsurvey" "${options[@]}" --reference "$dir/low.ini" --out "$dir/low.h5" \
  >"$dir/low.txt" 2>&1 || { cat "$dir/low.txt"; exit 1; }
printf 'stream.triad = 1, -0.5, none, parsecs\n' >"$dir/bad.ini"
set +e
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" "${options[@]}" --reference "$dir/bad.ini" --out "$dir/bad.h5" \
  >"$dir/bad.txt" 2>&1
code=$?
set -e
[ $code -eq 2 ] || { echo "bad reference file: exit $code, expected 2"; cat "$dir/bad.txt"; exit 1; }
grep -q "bwsurvey: error: --reference '$dir/bad.ini' line 1: unit 'parsecs' does not fit stream.triad" "$dir/bad.txt"
[ ! -e "$dir/bad.h5" ] || { echo "a usage error left a file"; exit 1; }
echo "reference checks OK"
