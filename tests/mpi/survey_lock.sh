#!/usr/bin/env bash
# One writer per survey file (core/FileLock.hpp). A first run stops itself
# inside its stream phase (test hook stop:stream:0) and so holds the file's
# lock; meanwhile a second run with --force and a --resume each end with
# exit 2 and one line naming the holder (pid and host), and the file's
# bytes are as they were (other spellings of the path:
# tests/unit/file_lock_test.cpp). Then the first run is killed (kill -9: its
# lock file stays, holding no lock): a --resume takes the stale lock over,
# completes the file and removes the lock file.
# usage: survey_lock.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
out=$dir/s.h5
opts=(--tests stream --quick --threads 1 --stream.elements 64K)
fail() { echo "FAILED: $*"; exit 1; }

"$mpirun" -q -np 1 -x BWSURVEY_INJECT_FAULT=stop:stream:0 "$bwsurvey" "${opts[@]}" --out "$out" \
  >"$dir/first.txt" 2>&1 &
first=$!
pid=""
for _ in $(seq 1 600); do  # at most 60 s: the run stops after its setup
  [ -s "$out.lock" ] && pid=$(sed -n 's/^pid \([0-9]*\) on host .*/\1/p' "$out.lock")
  if [ -n "$pid" ] && ps -o stat= -p "$pid" | grep -q '^T'; then break; fi
  kill -0 "$first" 2>/dev/null || { cat "$dir/first.txt"; fail "the first run ended"; }
  sleep 0.1
done
[ -n "$pid" ] || fail "no lock file names the first run"
cleanup() { kill -9 "$pid" 2>/dev/null || true; }
trap cleanup EXIT

# expect_refused ARGS...: exit 2, one line naming the holder, file unchanged.
expect_refused() {
  local before code
  before=$(sha256sum "$out" | cut -d' ' -f1)
  set +e
  timeout 60 "$mpirun" -q -np 1 "$bwsurvey" "$@" >"$dir/second.txt" 2>&1
  code=$?
  set -e
  [ $code -eq 2 ] || { cat "$dir/second.txt"; fail "bwsurvey $*: exit $code, expected 2"; }
  [ "$(wc -l <"$dir/second.txt")" -eq 1 ] || { cat "$dir/second.txt"; fail "bwsurvey $*: not one line"; }
  grep -q "^bwsurvey: error: --[a-z]*: '.*s.h5' is being written by another run (pid $pid on host .* since " \
    "$dir/second.txt" || { cat "$dir/second.txt"; fail "bwsurvey $*: the holder is not named"; }
  [ "$(sha256sum "$out" | cut -d' ' -f1)" = "$before" ] || fail "bwsurvey $* changed the locked file"
}
expect_refused "${opts[@]}" --out "$out" --force
expect_refused --resume "$out"

# kill -9: the lock file stays, the lock goes with the process.
kill -9 "$pid"
wait "$first" 2>/dev/null || true
[ -e "$out.lock" ] || fail "the killed run's lock file is gone (the test needs a stale one)"
timeout 120 "$mpirun" -q -np 1 "$bwsurvey" --resume "$out" >"$dir/resume.txt" 2>&1 ||
  { cat "$dir/resume.txt"; fail "--resume after a killed run"; }
[ ! -e "$out.lock" ] || fail "the lock file stays after a complete run"
/usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); assert f.attrs['status']=='complete', f.attrs['status']" \
  "$out"
echo "survey lock OK"
