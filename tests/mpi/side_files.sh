#!/usr/bin/env bash
# Side files (--pmbw.stats) are made only when the run
# starts. A usage error found after the exporter was planned leaves no side
# file (and, with --force, an existing one as it was); a resumed survey
# keeps the finished lines and appends.
# usage: side_files.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4
python=/usr/bin/python3
rm -rf "$dir" && mkdir -p "$dir"
pmbw=(--quick --threads 1 --stream.elements 1M --pmbw.max-bytes 64K --pmbw.min-time 0.001
      --pmbw.routines ScanRead64PtrUnrollLoop)
sha() { sha256sum "$1" | cut -d' ' -f1; }

# A usage error after the pmbw exporter was planned (STREAM's repetitions).
set +e
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" "${pmbw[@]}" --tests pmbw,stream --stream.reps 1 \
  --pmbw.stats "$dir/stats.txt" --out "$dir/refused.h5" >"$dir/refused.txt" 2>&1
code=$?
set -e
[ $code -eq 2 ] || { echo "usage error: exit $code, expected 2"; cat "$dir/refused.txt"; exit 1; }
grep -q "^bwsurvey: error: --stream.reps" "$dir/refused.txt" || { cat "$dir/refused.txt"; exit 1; }
[ ! -e "$dir/stats.txt" ] || { echo "a refused run left --pmbw.stats behind"; exit 1; }
[ ! -e "$dir/refused.h5" ] || { echo "a refused run left --out behind"; exit 1; }
# The same with --force over an existing side file: it stays as it was.
printf 'RESULT\tkept=1\n' >"$dir/old.txt"
before=$(sha "$dir/old.txt")
set +e
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" "${pmbw[@]}" --tests pmbw,stream --stream.reps 1 --force \
  --pmbw.stats "$dir/old.txt" --out "$dir/refused.h5" >"$dir/refused.txt" 2>&1
code=$?
set -e
[ $code -eq 2 ] || { echo "usage error with --force: exit $code"; cat "$dir/refused.txt"; exit 1; }
[ "$(sha "$dir/old.txt")" = "$before" ] || { echo "a refused run with --force changed the side file"; exit 1; }

# count_lines FILE.h5 STATS: the side file has one RESULT line per /pmbw/results row.
check_lines() {
  "$python" - "$1" "$2" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    rows = len(f["pmbw/results"]) if "pmbw/results" in f else 0
lines = [l for l in open(sys.argv[2]) if l.startswith("RESULT\t")]
assert len(lines) == rows and rows > 0, (len(lines), rows)
PY
}

# Killed after pmbw: the resume (STREAM only) keeps the finished lines.
set +e
"$mpirun" -q -np 2 --oversubscribe -x BWSURVEY_INJECT_FAULT=kill-after:pmbw "$bwsurvey" "${pmbw[@]}" \
  --tests pmbw,stream --pmbw.stats "$dir/a.txt" --out "$dir/a.h5" >"$dir/a-killed.txt" 2>&1
set -e
check_lines "$dir/a.h5" "$dir/a.txt"
before=$(sha "$dir/a.txt")
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --resume "$dir/a.h5" >"$dir/a-resumed.txt" 2>&1 ||
  { cat "$dir/a-resumed.txt"; exit 1; }
[ "$(sha "$dir/a.txt")" = "$before" ] || { echo "the resume wiped or changed the finished lines"; exit 1; }
check_lines "$dir/a.h5" "$dir/a.txt"

# Killed after STREAM, before pmbw: the side file exists (the run had
# started) and the resume appends pmbw's lines after what it holds.
set +e
"$mpirun" -q -np 2 --oversubscribe -x BWSURVEY_INJECT_FAULT=kill-after:stream "$bwsurvey" "${pmbw[@]}" \
  --tests stream,pmbw --pmbw.stats "$dir/b.txt" --out "$dir/b.h5" >"$dir/b-killed.txt" 2>&1
set -e
[ -e "$dir/b.txt" ] && [ ! -s "$dir/b.txt" ] || { echo "b.txt: expected an empty side file"; exit 1; }
echo "# a note the user added" >>"$dir/b.txt"
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --resume "$dir/b.h5" >"$dir/b-resumed.txt" 2>&1 ||
  { cat "$dir/b-resumed.txt"; exit 1; }
[ "$(head -1 "$dir/b.txt")" = "# a note the user added" ] || { echo "the resume did not append"; exit 1; }
check_lines "$dir/b.h5" "$dir/b.txt"
[ ! -e "$dir/b.txt.part" ] && [ ! -e "$dir/a.txt.part" ] || { echo "a staging file was left"; exit 1; }
echo "side files OK"
