#!/usr/bin/env bash
# One plan per run: for every benchmark --time-budget can fit (stream, bs,
# b_eff, pmbw, links; roofline and load have nothing to fit), on 2 ranks
# (which agree on one fitted plan: run/PhasePlan), a budget that
# forces fitting, then the repetitions the plan line prints = those the
# file's /config stores = the samples in the file (links keeps no samples:
# printed = stored). BWSURVEY_FIXED_SPEED (a test hook) plans with the
# default machine speed, so a plan's estimate is the same in every run
# whatever the load: a first run with a budget nothing fits is refused with
# the plan's estimate, and two thirds of it force fitting (links' estimate
# is a fixed model: 0.06 s fits 2 of its 5 reps, 1 round of 2 directions
# of 3 windows of 8 MiB at 1 GB/s and 50 latency messages).
# usage: plan_consistency.sh MPIRUN BWSURVEY WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"

survey() {  # survey NAME BUDGET OPTIONS...: a survey, its console in NAME.txt
  local name=$1 budget=$2
  shift 2
  BWSURVEY_FIXED_SPEED=1 "$mpirun" -q -np 2 --oversubscribe -x BWSURVEY_FIXED_SPEED "$bwsurvey" --threads 1 --time-budget "$budget" "$@" \
    --out "$dir/$name.h5" >"$dir/$name.txt" 2>&1
}

fitted() {  # fitted NAME OPTIONS...: two thirds of the refused plan's estimate; fitting must change the plan
  local name=$1 budget
  shift
  if [ "$name" = links ]; then
    budget=0.06
  else
    ! survey "$name" 0.0001 "$@" || { echo "$name: ran within 0.1 ms"; exit 1; }
    budget=$(/usr/bin/python3 - "$dir/$name.txt" <<'PY'
import re, sys
m = re.search(r"plan is estimated at ([0-9.]+) (ms|s|min|h) ", open(sys.argv[1]).read())
if not m:
    sys.exit("no estimate in the refusal: " + open(sys.argv[1]).read())
seconds = float(m.group(1)) * {"ms": 1e-3, "s": 1, "min": 60, "h": 3600}[m.group(2)]
print(f"{seconds / 1.5:.6g}")
PY
)
  fi
  survey "$name" "$budget" "$@" || { echo "$name: --time-budget $budget refused"; cat "$dir/$name.txt"; exit 1; }
  grep -Eq "fitted to --time-budget|to fit it: " "$dir/$name.txt" ||
    { echo "$name: --time-budget $budget ran the plan as given"; cat "$dir/$name.txt"; exit 1; }
  echo "$name: fitted to --time-budget $budget"
}

fitted stream --tests stream --stream.elements 256K
fitted bs --tests bs --bs.tests bs1 --bs.max-bytes 256K
fitted beff --tests beff --beff.max-bytes 8K --beff.random-rings 1 --beff.min-time 0.001 --beff.methods sendrecv
fitted pmbw --tests pmbw --pmbw.routines ScanRead64PtrSimpleLoop --pmbw.max-bytes 16K --pmbw.min-time 0.01
fitted links --tests links --links.bytes 1M

/usr/bin/python3 - "$dir" <<'PY'
import re, sys
import h5py

d = sys.argv[1]
# test -> the plan line's repetitions, the /config key, the file's samples
plan_reps = {
    "stream": r", (\d+) repetitions",
    "bs": r", \d+ points, (\d+) reps",
    "beff": r", (\d+) repetitions of >=",
    "pmbw": r", (\d+) reps of >=",
    "links": r" x (\d+) reps x window",
}

def printed(name):
    for line in open(f"{d}/{name}.txt"):
        if line.startswith(f"bwsurvey: {name}: ") and "estimated" not in line and "took" not in line:
            m = re.search(plan_reps[name], line)
            if m:
                return int(m.group(1)), line.strip()
    sys.exit(f"{name}: no plan line with its repetitions in {d}/{name}.txt")

def stored(f, name):
    section = None
    for line in f["config"][()].decode().splitlines():
        line = line.removeprefix("# default: ").strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif section == name and line.split("=")[0].strip() == "reps":
            return int(line.split("=", 1)[1])
    sys.exit(f"{name}: no reps in /config")

def samples(f, name):
    if name == "stream":
        counts = set(f["stream/results"]["reps"]) | {f["stream/times"].shape[1]}
    elif name == "bs":
        counts = set(f["bs/results"]["reps"]) | {f["bs/times"].shape[1]}
    elif name == "beff":
        counts = {len(set(f["beff/results"]["repetition"]))}
    elif name == "pmbw":
        counts = set(f["pmbw/results"]["reps"])
    else:
        return None  # links keeps the best window of each pair, no samples
    assert len(counts) == 1, (name, counts)
    return int(counts.pop())

for name in plan_reps:
    reps, line = printed(name)
    with h5py.File(f"{d}/{name}.h5", "r") as f:
        assert f.attrs["status"] == "complete", (name, f.attrs["status"])
        in_config, in_file = stored(f, name), samples(f, name)
    print(f"{name}: printed {reps}, /config {in_config}, file {in_file if in_file is not None else '-'}: {line}")
    assert reps == in_config, (name, reps, in_config)
    assert in_file is None or in_file == reps, (name, reps, in_file)
print("one plan: printed = stored = measured")
PY
