#!/usr/bin/env bash
# The stored configuration re-runs the same plan. A quick
# survey (STREAM and BS on 2 ranks), the same survey from its --print-config
# text (--config q.ini), and a quick survey killed after STREAM and finished
# by --resume: each file must hold the plan --quick promises (--help: STREAM
# 5 repetitions, BS 12 points and 5 reps per size), never the full one
# (20 repetitions; 24 points, 20 reps), read back from the files.
# usage: quick_replay.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4
python=/usr/bin/python3
rm -rf "$dir" && mkdir -p "$dir"
options=(--quick --tests stream,bs --threads 1 --stream.elements 1M --bs.tests bs1 --bs.degrees 1 --bs.max-bytes 1M)
run() {  # run NAME ARGS...: a survey on 2 ranks, its console kept
  local name=$1
  shift
  "$mpirun" -q -np 2 --oversubscribe "$bwsurvey" "$@" >"$dir/$name.txt" 2>&1 || { cat "$dir/$name.txt"; exit 1; }
}
run quick "${options[@]}" --out "$dir/quick.h5"
"$bwsurvey" "${options[@]}" --print-config >"$dir/q.ini"
run replayed --config "$dir/q.ini" --out "$dir/replayed.h5"
set +e
"$mpirun" -q -np 2 --oversubscribe -x BWSURVEY_INJECT_FAULT=kill-after:stream "$bwsurvey" "${options[@]}" \
  --out "$dir/resumed.h5" >"$dir/killed.txt" 2>&1
set -e
run resumed --resume "$dir/resumed.h5"
grep -q "stream: stored in the resumed file; not run again" "$dir/resumed.txt" ||
  { echo "the resume ran STREAM again"; cat "$dir/resumed.txt"; exit 1; }
for name in quick replayed resumed; do
  grep -q "bs: BS1, .*, 12 points, 5 reps" "$dir/$name.txt" || { echo "$name: BS plan"; cat "$dir/$name.txt"; exit 1; }
done
grep -q "stream: .*, 5 repetitions" "$dir/replayed.txt" || { echo "replayed: STREAM plan"; exit 1; }
"$python" - "$dir" <<'PY'
import sys, collections, h5py
d = sys.argv[1]
for name in ("quick", "replayed", "resumed"):
    with h5py.File(f"{d}/{name}.h5", "r") as f:
        assert f.attrs["status"] == "complete", (name, f.attrs["status"])
        stream = f["stream/results"][:]
        assert len(stream) == 2 * 4, (name, len(stream))  # 2 ranks x 4 kernels
        assert set(stream["reps"]) == {5}, (name, set(stream["reps"]))
        bs = f["bs/results"][:]
        points = collections.Counter((int(r["rank"]), r["test"], int(r["degree"])) for r in bs)
        assert sorted(points.values()) == [12, 12], (name, points)
        assert set(bs["reps"]) == {5}, (name, set(bs["reps"]))
        assert f["bs/times"].shape[1] == 5, (name, f["bs/times"].shape)
print("quick plan kept by --config and --resume")
PY
echo "quick replay OK"
