#!/usr/bin/env bash
# Runs a quick b_eff survey on N ranks and checks the file it leaves.
# usage: beff_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [CORRUPT_RANK]
# With CORRUPT_RANK, the test hook BWSURVEY_BEFF_CORRUPT makes that rank see
# stale messages in the natural ring: bwsurvey must exit 1 and the file must
# hold rows with valid=0 and failed beff.payload checks.
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 corrupt=${6:-}
rm -rf "$dir" && mkdir -p "$dir"
hook=()
[ -n "$corrupt" ] && hook=(-x "BWSURVEY_BEFF_CORRUPT=$corrupt")
set +e
"$mpirun" -np "$ranks" --oversubscribe "${hook[@]}" "$bwsurvey" --tests beff --quick \
  --out "$dir/b.h5" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
cat "$dir/stdout.txt"
if [ -n "$corrupt" ]; then
  [ $code -eq 1 ] || { echo "expected exit 1 with corrupted payloads, got $code"; cat "$dir/stderr.txt"; exit 1; }
  grep -q "FAILED: beff.payload: natural ring, .*: rank $corrupt.*stale" "$dir/stdout.txt" ||
    { echo "the failed payload check does not name rank $corrupt and the problem"; exit 1; }
  "$checker" --corrupt "$dir/b.h5" "$ranks" "$corrupt"
  exit
fi
if [ $code -ne 0 ]; then
  echo "bwsurvey exited $code"; cat "$dir/stderr.txt"; exit 1
fi
grep -q "Results: $dir/b.h5" "$dir/stdout.txt" || { echo "no 'Results:' line"; exit 1; }
grep -q "^    MSize      looplength        transfer             B/s$" "$dir/stdout.txt" || { echo "no seed-style table"; exit 1; }
grep -Eq "^ +1048576 +[0-9]+ +[0-9.]+e[-+][0-9]+ +[0-9.]+e[-+][0-9]+$" "$dir/stdout.txt" || { echo "no 1 MiB row"; exit 1; }
grep -Eq "^b_eff = [0-9.]+e[-+][0-9]+ B/s$" "$dir/stdout.txt" || { echo "no 'b_eff =' line"; exit 1; }
grep -q "^b_eff per rank = " "$dir/stdout.txt" || { echo "no per-rank line"; exit 1; }
grep -q "^linear scaling: " "$dir/stdout.txt" || { echo "no scaling line"; exit 1; }
"$checker" "$dir/b.h5" "$ranks"
