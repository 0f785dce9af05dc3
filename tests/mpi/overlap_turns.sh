#!/usr/bin/env bash
# Two ranks pinned to the same CPU (mpirun --bind-to none,
# one thread each: both pin to CPU 0) are never measured at the same time
# and summed. bwsurvey says which ranks share which CPUs, measures them one
# after another, keeps both ranks' rows, and takes the node's figures from
# one turn (ranks = 1 in /stream/nodes), never from a sum over turns.
# usage: overlap_turns.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
"$mpirun" -np 2 --bind-to none "$bwsurvey" --tests stream --quick --threads 1 --stream.elements 2M \
  --out "$dir/survey.h5" >"$dir/stdout.txt" 2>"$dir/stderr.txt" || { cat "$dir/stderr.txt"; exit 1; }
cat "$dir/stderr.txt"
grep -q "ranks 0 and 1 share CPU" "$dir/stderr.txt" || { echo "the overlap was not named"; exit 1; }
grep -q "one after another in 2 turns" "$dir/stderr.txt" || { echo "no turns"; exit 1; }
/usr/bin/python3 - "$dir/survey.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
results = f["stream/results"][:]
assert sorted({int(r["rank"]) for r in results}) == [0, 1], "both ranks' rows are kept"
assert all(int(r["valid"]) == 1 for r in results)
nodes = f["stream/nodes"][:]
for r in nodes:
    assert int(r["ranks"]) == 1, "a node figure from one turn, not a sum of %d ranks" % int(r["ranks"])
    assert int(r["threads"]) == 1
print("node rows:", len(nodes), "each from one rank's turn")
PY
