#!/usr/bin/env bash
# BS1's fitted Wmax against STREAM Copy of the same run, both with normal
# stores, from the default plan (only --bs.tests bs1 narrows it), ROUNDS
# times, alternating one rank of THREADS threads with THREADS ranks of one
# thread. The figure is the run's own cross-check (`cross.bs1_copy` in
# /checks: the node's BS1 Wmax over its STREAM Copy, expected 1.0), with the
# fit's verdict, its plateau (fitted sizes, the smallest one, sizes left out
# as interference) and both bandwidths. The last column is this Copy over
# the same layout's Copy of the round before: how well the machine agrees
# with itself from one run to the next, the floor under BS1/Copy's spread
# (the two are measured seconds apart). Not a test: run it on an idle
# machine; another process's memory traffic moves both figures.
#   bench/bs1-vs-copy.sh [THREADS] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-2}
rounds=${2:-5}
bwsurvey="${BWSURVEY:-$root/build/apps/bwsurvey}"
python=/usr/bin/python3
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }
"$python" -c "import h5py" 2>/dev/null || { echo "$python lacks h5py (python3-h5py)"; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
options=(--tests stream,bs --bs.tests bs1 --stream.stores normal --out "$work/b.h5" --force)

# -> "copy_GBs wmax_GBs ratio verdict fitted_sizes first_fitted_MiB interference"
read_run() {
  "$python" - "$1" <<'PY'
import sys, h5py, math
text = lambda v: v.split(b"\0")[0].decode() if isinstance(v, bytes) else str(v)
with h5py.File(sys.argv[1], "r") as f:
    copy = sum(r["bandwidth"] for r in f["/stream/nodes"][:] if text(r["kernel"]) == "Copy" and text(r["type"]) == "double")
    fits = [r for r in f["/bs/fits"][:] if text(r["test"]) == "BS1"]
    wmax = sum(r["Wmax_Bps"] for r in fits)
    verdicts = sorted({text(r["fit_verdict"]) for r in fits})
    points = min(int(r["points_used"]) for r in fits)
    first = min(int(r["first_fitted_bytes"]) for r in fits) / 2**20
    slowed = sum(int(r["plateau_interference"]) for r in fits)
    print("%.2f %.2f %s %s %d %.0f %d" % (copy / 1e9, wmax / 1e9, "-" if math.isnan(wmax) else "%.3f" % (wmax / copy),
          "/".join(verdicts), points, first, slowed))
PY
}
run_layout() {  # ranks threads -> the row's figures
  if [ "$1" -eq 1 ]; then
    "$bwsurvey" "${options[@]}" --threads "$2" >"$work/log" 2>&1
  else
    mpirun --oversubscribe -np "$1" "$bwsurvey" "${options[@]}" --threads "$2" >"$work/log" 2>&1
  fi || { echo "bwsurvey failed:"; tail -5 "$work/log"; exit 1; }
  read_run "$work/b.h5"
}

echo "BS1 Wmax / STREAM Copy (normal stores), default plan, $rounds alternated rounds, $(date -u +%FT%TZ)," \
  "bwsurvey $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'); GB/s = 1e9 B/s"
echo "round  layout      Copy  BS1_Wmax  ratio  verdict  fitted  from_MiB  interference  Copy/previous"
declare -A previous
for round in $(seq 1 "$rounds"); do
  for layout in "1 $threads" "$threads 1"; do
    read -r ranks t <<<"$layout"
    read -r copy wmax ratio verdict points first slowed < <(run_layout "$ranks" "$t")
    self=-
    [ -n "${previous[$layout]:-}" ] && self=$(awk -v a="$copy" -v b="${previous[$layout]}" 'BEGIN {printf "%.3f", a / b}')
    previous[$layout]=$copy
    printf "%5d  %dx%d  %8s  %8s  %5s  %7s  %6s  %8s  %12s  %13s\n" "$round" "$ranks" "$t" "$copy" "$wmax" "$ratio" \
      "$verdict" "$points" "$first" "$slowed" "$self"
  done
done
