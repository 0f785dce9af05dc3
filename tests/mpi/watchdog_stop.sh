#!/usr/bin/env bash
# --phase-timeout fires wherever a rank stalls. Rank 1
# stops itself with SIGSTOP inside the measurement of PHASE (test hook
# stop:PHASE:1: at the benchmark's first progress report), so rank 0 waits in
# a node barrier inside STREAM or BS, or inside b_eff's own MPI calls. Rank 0's
# watchdog must name rank 1 and its host, mark the file aborted with the
# reason, keep the phase before whole, and end the job (exit 1).
# usage: watchdog_stop.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT PHASE
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5 phase=$6
rm -rf "$dir" && mkdir -p "$dir"
file=$dir/survey.h5
fail() { echo "FAILED: $*"; cat "$dir/stderr.txt"; exit 1; }
case $phase in
  stream) tests=beff,stream before=beff ;;
  *) tests=stream,$phase before=stream ;;
esac
# Two ranks on their own cores measure together (node barriers inside the
# benchmark), where the machine has two cores.
bind=()
[ "$(nproc)" -ge 2 ] && bind=(--bind-to core --map-by core)
set +e
timeout 50 "$mpirun" -np 2 --oversubscribe "${bind[@]}" -x "BWSURVEY_INJECT_FAULT=stop:$phase:1" "$bwsurvey" \
  --tests "$tests" --quick --threads 1 --stream.elements 1M --beff.sizes 8,4096 --beff.random-rings 0 --beff.reps 2 \
  --bs.tests bs1 --bs.max-bytes 1M --bs.points 4 --bs.reps 2 --phase-timeout 5 --out "$file" \
  >"$dir/stdout.txt" 2>"$dir/stderr.txt"
code=$?
set -e
[ $code -ne 124 ] || fail "still running after 50 s"
[ $code -eq 1 ] || fail "exit $code, expected 1"
grep -q "^bwsurvey: error: $phase: rank 1 ($(hostname)) did not reach the end of the phase within --phase-timeout 5 s" \
  "$dir/stderr.txt" || fail "rank 1 and its host are not named"
"$bwreport" summary "$file" >"$dir/summary.txt" || fail "bwreport cannot read the file"
grep -q "status aborted" "$dir/summary.txt" || fail "not aborted"
grep -q "completed phases: $before " "$dir/summary.txt" || fail "$before is not kept"
grep -q "aborted: $phase: rank 1 " "$dir/summary.txt" || fail "no abort_reason"
if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
  /usr/bin/python3 - "$file" "$before" <<'PY' || fail "h5py: the file is not as expected"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["status"] == "aborted"
    assert "rank 1" in f.attrs["abort_reason"]
    assert len(f[sys.argv[2] + "/results"]) > 0
PY
fi
echo "watchdog ($phase) OK"
