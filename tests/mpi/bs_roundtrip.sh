#!/usr/bin/env bash
# Runs a quick BS1-BS7 survey on N ranks and checks the file it leaves.
# usage: bs_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
set +e
"$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests bs --quick --out "$dir/bs.h5" \
  >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
cat "$dir/stdout.txt"
if [ $code -ne 0 ]; then
  echo "bwsurvey exited $code"; cat "$dir/stderr.txt"; exit 1
fi
grep -q "Results: $dir/bs.h5" "$dir/stdout.txt" || { echo "no 'Results:' line"; exit 1; }
grep -q "^BS1-BS7: T(B) = T0 + B/Wmax" "$dir/stdout.txt" || { echo "no BS summary"; exit 1; }
grep -Eq "^host +ranks +threads +test +N +Wmax GB/s +T0 us +B0.8 KB +R\^2 +paper T0 us +paper B0.8 KB +valid$" "$dir/stdout.txt" ||
  { echo "no BS table header"; exit 1; }
"$checker" --bs "$dir/bs.h5" "$ranks"
