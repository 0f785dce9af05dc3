#!/usr/bin/env bash
# An error on one rank during setup reaches every rank, and a refusal
# touches nothing.
# --resume of a file that rank 0 cannot read (truncated, /config not text,
# a root attribute of the wrong type) with 1, 2 and 3 ranks: the job ENDS
# (a `timeout` turns a hang into a failure), exit 2, one error line, and the
# file's bytes are as they were (item 6: checked read-only first).
# usage: setup_errors.sh MPIRUN BWSURVEY CHECKER WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4
python=/usr/bin/python3
rm -rf "$dir" && mkdir -p "$dir"
base=$dir/base.h5
"$mpirun" -q -np 1 "$bwsurvey" --tests stream --quick --threads 1 --stream.elements 1M --out "$base" \
  >"$dir/base.txt" 2>&1 || { cat "$dir/base.txt"; exit 1; }

# A survey cut off in its stream phase, then damaged three ways.
"$python" - "$base" "$dir" <<'PY'
import shutil, sys, h5py
base, d = sys.argv[1], sys.argv[2]
def variant(name, edit):
    path = f"{d}/{name}.h5"
    shutil.copy(base, path)
    with h5py.File(path, "a") as f:
        f.attrs["status"] = "aborted"
        f.attrs["completed_phases"] = ""
        f.attrs["running_phase"] = "stream"
        edit(f)
    return path
variant("cut", lambda f: None)
def config_not_text(f):
    del f["config"]
    f["config"] = [1, 2, 3]
variant("config_not_text", config_not_text)
def ranks_as_text(f):
    f.attrs["n_ranks"] = "two"
variant("ranks_as_text", ranks_as_text)
# Truncated: the first half of a good file.
data = open(f"{d}/cut.h5", "rb").read()
open(f"{d}/truncated.h5", "wb").write(data[: len(data) // 2])
PY

# expect_refused RANKS FILE EXIT PATTERN [OPTIONS...]: the resume ends with
# EXIT, one error line matching PATTERN, and FILE unchanged.
expect_refused() {
  local ranks=$1 file=$2 want=$3 pattern=$4
  shift 4
  local before after code
  before=$(sha256sum "$file" | cut -d' ' -f1)
  set +e
  timeout 60 "$mpirun" -q -np "$ranks" --oversubscribe "$bwsurvey" --resume "$file" "$@" >"$dir/out.txt" 2>&1
  code=$?
  set -e
  [ $code -ne 124 ] || { echo "HANG: --resume $file $* on $ranks ranks did not end"; cat "$dir/out.txt"; exit 1; }
  [ $code -eq "$want" ] || { echo "--resume $file $* on $ranks ranks: exit $code, expected $want"; cat "$dir/out.txt"; exit 1; }
  local errors
  errors=$(grep -c "error" "$dir/out.txt" || true)
  [ "$errors" -eq 1 ] || { echo "--resume $file on $ranks ranks: $errors error lines, expected 1"; cat "$dir/out.txt"; exit 1; }
  grep -q "^bwsurvey: error: .*$pattern" "$dir/out.txt" ||
    { echo "--resume $file on $ranks ranks: no line matching '$pattern'"; cat "$dir/out.txt"; exit 1; }
  if grep -qi "abort" "$dir/out.txt"; then echo "MPI_Abort instead of an agreed error"; cat "$dir/out.txt"; exit 1; fi
  after=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$before" = "$after" ] || { echo "--resume $file $* on $ranks ranks changed the file's bytes"; exit 1; }
}

for ranks in 1 2 3; do
  expect_refused "$ranks" "$dir/truncated.h5" 2 "--resume: '$dir/truncated.h5' cannot be resumed: .*truncated"
  expect_refused "$ranks" "$dir/config_not_text.h5" 2 "--resume: '$dir/config_not_text.h5' cannot be resumed: .*/config"
  expect_refused "$ranks" "$dir/ranks_as_text.h5" 2 "--resume: '$dir/ranks_as_text.h5' cannot be resumed: .*n_ranks"
done
# Refusals of a good file (another rank count, a bad option value) and of a
# complete one; other damaged attributes and tables: tests/unit/resume_test.cpp.
expect_refused 2 "$dir/cut.h5" 2 "was measured by 1 ranks"
expect_refused 1 "$dir/cut.h5" 2 "--phase-timeout: '-1' is out of range" --phase-timeout -1
expect_refused 1 "$base" 2 "is complete; there is nothing to resume"
# Other setup steps, on $setup_ranks ranks (3, then 1: the agreement is the
# same for every refusal): a --config file rank 0 cannot read (exit 2).
setup_ranks=3
expect_setup_error() {  # expect_setup_error EXIT PATTERN ARGS...
  local want=$1 pattern=$2 code
  shift 2
  set +e
  timeout 60 "$mpirun" -q -np "$setup_ranks" --oversubscribe "$bwsurvey" "$@" >"$dir/out.txt" 2>&1
  code=$?
  set -e
  [ $code -eq "$want" ] || { echo "bwsurvey $*: exit $code, expected $want"; cat "$dir/out.txt"; exit 1; }
  [ "$(grep -c error "$dir/out.txt")" -eq 1 ] && grep -q "^bwsurvey: error: $pattern" "$dir/out.txt" ||
    { echo "bwsurvey $*:"; cat "$dir/out.txt"; exit 1; }
  ! grep -qi "HDF5-DIAG\|Segmentation\|signal" "$dir/out.txt" || { echo "bwsurvey $*: not a clean end"; cat "$dir/out.txt"; exit 1; }
}
expect_setup_error 2 "--config: '$dir' is a directory" --config "$dir"
# --out and --resume that are not regular files are refused whatever --force
# says, and left as they are: this test's own character device (the numbers
# of /dev/full, made here: no test touches the machine's /dev), a FIFO, a
# link to a survey and a file that is not a survey. /dev/full used to be
# removed and the run crashed in HDF5's shutdown (exit 139).
made_device=0
if mknod "$dir/full" c 1 7 2>/dev/null; then made_device=1; fi
mkfifo "$dir/fifo"
ln -s "$base" "$dir/link.h5"
printf 'notes of a user\n' >"$dir/notes.txt"
expect_setup_error 2 "--out: '$dir/fifo' is a FIFO" --tests stream --quick --threads 1 --out "$dir/fifo" --force
setup_ranks=1
if [ $made_device -eq 1 ]; then
  expect_setup_error 2 "--out: '$dir/full' is a character device" --tests stream --quick --threads 1 --out "$dir/full" --force
  expect_setup_error 2 "--resume: '$dir/full' is a character device" --resume "$dir/full"
  [ -c "$dir/full" ] || { echo "the character device $dir/full is gone"; exit 1; }
fi
expect_setup_error 2 "--resume: '$dir/fifo' is a FIFO" --resume "$dir/fifo"
[ -p "$dir/fifo" ] || { echo "the FIFO $dir/fifo is gone"; exit 1; }
expect_setup_error 2 "--out: '$dir/link.h5' is a symbolic link" --tests stream --quick --threads 1 --out "$dir/link.h5" --force
[ -L "$dir/link.h5" ] || { echo "the link $dir/link.h5 is gone"; exit 1; }
expect_setup_error 2 "--out: '$dir' is a directory" --tests stream --quick --threads 1 --out "$dir" --force
expect_setup_error 2 "--out: '$dir/notes.txt' exists and is not an HDF5 file" --tests stream --quick --threads 1 \
  --out "$dir/notes.txt" --force
[ "$(cat "$dir/notes.txt")" = "notes of a user" ] || { echo "$dir/notes.txt changed"; exit 1; }
ls "$dir"/*.lock 2>/dev/null && { echo "a refusal left a lock file"; exit 1; }
# The good one still resumes.
"$mpirun" -q -np 1 "$bwsurvey" --resume "$dir/cut.h5" >"$dir/resumed.txt" 2>&1 || { cat "$dir/resumed.txt"; exit 1; }
"$python" -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); assert f.attrs['status']=='complete', f.attrs['status']" \
  "$dir/cut.h5"
echo "setup errors OK"
