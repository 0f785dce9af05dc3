#!/usr/bin/env bash
# SIGTERM (Slurm's time limit, scancel) or SIGINT sent to
# mpirun during the 2nd phase (a STREAM slowed by BWSURVEY_SLOW_HOST) leaves
# the file status=aborted with the phase that was cut named in abort_reason
# and on the console, the 1st phase whole; --resume then completes it.
# (mpirun passes SIGINT on to the ranks as SIGTERM.)
# usage: signal_resume.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT SIGNAL
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5 signal=$6
rm -rf "$dir" && mkdir -p "$dir"
file=$dir/survey.h5
fail() { echo "FAILED: $*"; cat "$dir/stderr.txt"; exit 1; }
: >"$dir/stderr.txt"
"$mpirun" -np 2 --oversubscribe -x "BWSURVEY_SLOW_HOST=$(hostname):300" "$bwsurvey" --tests beff,stream --quick \
  --threads 1 --stream.elements 1M --beff.sizes 8,4096 --beff.random-rings 0 --beff.reps 2 --out "$file" \
  >"$dir/stdout.txt" 2>"$dir/stderr.txt" &
pid=$!
for _ in $(seq 600); do grep -q "^bwsurvey: stream: " "$dir/stderr.txt" && break; sleep 0.1; done
grep -q "^bwsurvey: stream: " "$dir/stderr.txt" || { kill $pid; fail "STREAM never started"; }
kill "-$signal" $pid
set +e
wait $pid
code=$?
set -e
[ $code -ne 0 ] || fail "the cut run exited 0"
grep -q "^bwsurvey: error: stream: cut by SIG[A-Z]* " "$dir/stderr.txt" || fail "the cut phase is not named"
"$bwreport" summary "$file" >"$dir/summary.txt" || fail "bwreport cannot read the file"
grep -q "status aborted" "$dir/summary.txt" || fail "not aborted: $(head -1 "$dir/summary.txt")"
grep -q "completed phases: beff " "$dir/summary.txt" || fail "b_eff is not kept"
grep -q "aborted: stream: cut by SIG[A-Z]*" "$dir/summary.txt" || fail "no abort_reason naming the phase"
"$mpirun" -np 2 --oversubscribe "$bwsurvey" --resume "$file" >"$dir/resumed.txt" 2>&1 ||
  { cat "$dir/resumed.txt"; fail "--resume failed"; }
grep -q "beff: stored in the resumed file; not run again" "$dir/resumed.txt" || fail "b_eff ran again"
"$bwreport" summary "$file" >"$dir/summary.txt"
grep -q "status complete" "$dir/summary.txt" || fail "the resumed file is not complete"
if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
  /usr/bin/python3 - "$file" <<'PY' || fail "h5py: the resumed file is not complete"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["status"] == "complete"
    assert f.attrs["completed_phases"] == "beff,stream"
    assert len(f["beff/results"]) > 0 and len(f["stream/results"]) > 0
PY
fi
echo "signal ($signal) and resume OK"
