#!/usr/bin/env bash
# A full disk or a write error never destroys finished
# phases. On a small tmpfs (mounted here; skipped, exit 77, where mount is
# not permitted):
#  A. the survey's own writes fill the disk during its 2nd phase (b_eff);
#  B. another process fills the disk while the 2nd phase (a slowed STREAM)
#     measures;
#  C. every write fails with EIO from the 2nd phase of a resumed file
#     (BWSURVEY_INJECT_FAULT=write-error:stream), then --resume completes it;
#  D. the writes of the setup fail: the file this run created is removed.
# Each: exit 1, one line naming the phase and the cause; the file opens
# (bwreport summary, and h5py where it is installed) with status=aborted and
# the 1st phase whole.
# usage: disk_full.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT
set -euo pipefail
# The tmpfs lives in a mount namespace of this test's own: when ctest kills
# the test on a timeout the EXIT trap never runs, but the namespace ends
# with its last process and takes the mount with it, so nothing stays
# mounted under the build directory.
if [ -z "${BWS_DISK_FULL_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null &&
  unshare --mount --propagation private true 2>/dev/null; then
  BWS_DISK_FULL_PRIVATE_MOUNTS=1 exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5
rm -rf "$dir" && mkdir -p "$dir"
mnt=$dir/mnt
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=64m tmpfs "$mnt" 2>/dev/null; then
  echo "SKIPPED: mounting a tmpfs is not permitted here (run as root)"; exit 77
fi
trap 'umount "$mnt" 2>/dev/null || true' EXIT
remount() { umount "$mnt"; mount -t tmpfs -o "size=$1" tmpfs "$mnt"; }
fail() { echo "FAILED: $*"; exit 1; }
opts=(--quick --threads 1 --stream.elements 1M --beff.sizes 8,4096 --beff.random-rings 0 --beff.reps 2)
survey() { "$mpirun" -np 2 --oversubscribe "$@"; }
# Runs a command with `set -e` off, leaving its exit status in $code.
status_of() { set +e; "$@"; code=$?; set -e; }
# Case $1 (A..D) must have exited 1 with a line matching $2 in its stderr
# ($dir/a.err for A); $3 says what that line names.
expect_error() {  # case pattern what
  local err=$dir/${1,,}.err
  [ "$code" -eq 1 ] || { cat "$err"; fail "$1: exit $code, expected 1"; }
  grep -q "$2" "$err" || { cat "$err"; fail "$1: no line naming $3"; }
}

# The file must open, say aborted with a reason naming $2, and hold $3 whole.
check_aborted() {  # file phase_cut phase_kept
  "$bwreport" summary "$1" >"$dir/summary.txt" 2>&1 || { cat "$dir/summary.txt"; fail "bwreport cannot read $1"; }
  grep -q "status aborted" "$dir/summary.txt" || fail "$1 is not aborted"
  grep -q "completed phases: $3 " "$dir/summary.txt" || { cat "$dir/summary.txt"; fail "$3 is not complete in $1"; }
  grep -q "aborted: $2: " "$dir/summary.txt" || { cat "$dir/summary.txt"; fail "the reason does not name $2"; }
  if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
    /usr/bin/python3 - "$1" "$2" "$3" <<'PY' || fail "h5py cannot read $1"
import sys, h5py
path, cut, kept = sys.argv[1:]
with h5py.File(path, "r") as f:
    assert f.attrs["status"] == "aborted", f.attrs["status"]
    assert f.attrs["abort_reason"].startswith(cut + ": "), f.attrs["abort_reason"]
    assert f.attrs["completed_phases"] == kept
    tables = {"stream": "stream/results", "beff": "beff/results"}
    assert len(f[tables[kept]]) > 0
    assert tables[cut] not in f, "rows of the phase that was cut are left"
PY
  fi
}

# A. The survey's own writes fill the disk in b_eff: the size of a tmpfs
# where STREAM fits and b_eff does not comes from a run on a large one.
survey -x BWSURVEY_INJECT_FAULT=kill-after:stream "$bwsurvey" --tests stream,beff "${opts[@]}" \
  --out "$mnt/one.h5" >/dev/null 2>&1 || true
after_stream=$(stat -c %s "$mnt/one.h5")
survey "$bwsurvey" --tests stream,beff "${opts[@]}" --out "$mnt/full.h5" >/dev/null 2>&1 || fail "the full survey failed"
whole=$(stat -c %s "$mnt/full.h5")
[ $((whole - after_stream)) -gt 131072 ] || fail "b_eff adds too little ($after_stream -> $whole bytes) to fill a disk"
remount "$(( (after_stream + (whole - after_stream) / 2) / 4096 * 4 ))k"
status_of survey "$bwsurvey" --tests stream,beff "${opts[@]}" --out "$mnt/a.h5" >"$dir/a.out" 2>"$dir/a.err"
expect_error A "^bwsurvey: error: beff: HDF5: cannot write '$mnt/a.h5': .*No space left on device" \
  "b_eff and the full disk"
check_aborted "$mnt/a.h5" beff stream
echo "A: own writes fill the disk in phase 2: OK"

# B. Another process fills the disk while STREAM (2nd, slowed) measures.
remount 64m
survey -x "BWSURVEY_SLOW_HOST=$(hostname):300" "$bwsurvey" --tests beff,stream "${opts[@]}" --out "$mnt/b.h5" \
  >"$dir/b.out" 2>"$dir/b.err" &
pid=$!
for _ in $(seq 600); do grep -qs "^bwsurvey: stream: " "$dir/b.err" && break; sleep 0.1; done
grep -qs "^bwsurvey: stream: " "$dir/b.err" || { kill $pid; fail "B: STREAM never started"; }
dd if=/dev/zero of="$mnt/filler" bs=64k >/dev/null 2>&1 || true  # until the disk is full
status_of wait $pid
expect_error B "^bwsurvey: error: stream: HDF5: cannot write .*No space left on device" "STREAM and the full disk"
check_aborted "$mnt/b.h5" stream beff
rm -f "$mnt/filler"
survey "$bwsurvey" --resume "$mnt/b.h5" >"$dir/b-resumed.txt" 2>&1 || { cat "$dir/b-resumed.txt"; fail "B: --resume"; }
"$bwreport" summary "$mnt/b.h5" | grep -q "status complete" || fail "B: the resumed file is not complete"
echo "B: another process fills the disk in phase 2: OK"

# C. An I/O error (not ENOSPC) in the 2nd phase of a resumed file.
survey -x BWSURVEY_INJECT_FAULT=kill-after:stream "$bwsurvey" --tests stream,beff "${opts[@]}" \
  --out "$mnt/c.h5" >/dev/null 2>&1 || true
status_of survey -x BWSURVEY_INJECT_FAULT=write-error:beff "$bwsurvey" --resume "$mnt/c.h5" >"$dir/c.out" 2>"$dir/c.err"
expect_error C "^bwsurvey: error: beff: HDF5: cannot write .*Input/output error" "b_eff and the I/O error"
check_aborted "$mnt/c.h5" beff stream
survey "$bwsurvey" --resume "$mnt/c.h5" >"$dir/c-resumed.txt" 2>&1 || { cat "$dir/c-resumed.txt"; fail "C: --resume"; }
"$bwreport" summary "$mnt/c.h5" | grep -q "status complete" || fail "C: the resumed file is not complete"
echo "C: an I/O error in a resumed file: OK"

# D. The setup cannot be written: no half-file is left.
status_of survey -x BWSURVEY_INJECT_FAULT=write-error:setup "$bwsurvey" --tests stream "${opts[@]}" --out "$mnt/d.h5" \
  >"$dir/d.out" 2>"$dir/d.err"
expect_error D "^bwsurvey: error: setup: HDF5: cannot write .*Input/output error" "the setup and the I/O error"
grep -q "is removed: its setup never completed" "$dir/d.err" || fail "D: the removal is not said"
[ ! -e "$mnt/d.h5" ] || fail "D: the half-made file is left"
echo "disk full OK"
