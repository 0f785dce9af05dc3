#!/usr/bin/env bash
# The OpenCL backend on PoCL (OpenCL on this machine's CPU) against clpeak
# and against bwsurvey's CPU backend on the same cores: device STREAM Triad
# (HPCC_FPGA's combined kernel) vs `clpeak --global-bandwidth` (the best of
# its float..float16 read kernels) vs CPU STREAM Triad (normal and
# non-temporal stores); device BS1 Wmax vs CPU BS1 Wmax (the same sweep and
# fit). One process, no mpirun: PoCL's 2 worker threads and the CPU
# backend's 2 pinned threads share the same 2 cores. The tools alternate,
# REPS times. Not a test: run it on an idle machine. clpeak is Debian's
# package (scripts/install-deps.sh installs it); this script builds nothing.
#   bench/ocl-vs-clpeak.sh [REPS] [ELEMENTS] [BS_MAX_BYTES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
reps=${1:-3}
elements=${2:-64M}   # per array, device and CPU alike (a multiple of the default 4096-element block)
bs_max=${3:-2GiB}
bwsurvey="$root/build/apps/bwsurvey"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v clpeak >/dev/null || { echo "clpeak not found (apt-get install clpeak)"; exit 2; }
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$work/pocl-cache}
sweep=(--bs.tests bs1 --bs.min-bytes 32K --bs.max-bytes "$bs_max" --bs.fit-min-bytes 256M --bs.points 16 --bs.reps 5)

clpeak_gbs() {  # the best of clpeak's global-bandwidth kernels, GB/s
  clpeak --global-bandwidth 2>/dev/null |
    awk '/Global memory bandwidth/ {on = 1; next} on && /float/ {if ($3 > best) best = $3} END {printf "%.2f\n", best}'
}
figure() {  # FILE TABLE -> the figure the caller's python prints
  /usr/bin/python3 - "$@" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
what = sys.argv[2]
if what == "ocl-triad":
    rows = f["/ocl/stream/results"][:]
    print("%.2f" % ([r["bandwidth"] for r in rows if r["kernel"] == b"Triad"][0] / 1e9))
elif what == "cpu-triad":
    rows = f["/stream/nodes"][:]
    print("%.2f" % ([r["bandwidth"] for r in rows if r["kernel"] == b"Triad"][0] / 1e9))
else:  # bs1 Wmax of the backend named
    rows = [r for r in f["/bs/fits"][:] if r["backend"].decode() == what and r["test"] == b"BS1"]
    print("%.2f" % (rows[0]["Wmax_Bps"] / 1e9))
PY
}
run() {  # OUT ARGS... : bwsurvey, quiet, exit code checked
  local out=$1; shift
  "$bwsurvey" "$@" --out "$work/$out.h5" --force >"$work/$out.txt" 2>&1 || { cat "$work/$out.txt"; exit 1; }
}

echo "bwsurvey $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$bwsurvey" --ocl.list | sed -n 2p
echo "$reps repetitions, STREAM $elements elements per array (double), BS1 sweep 32K..$bs_max fitted from 256M; GB/s = 1e9 B/s"
echo "rep  clpeak  ocl Triad  Triad/clpeak  cpu Triad normal  cpu Triad nt  ocl/cpu normal  ocl BS1 Wmax  cpu BS1 Wmax  ocl/cpu BS1"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
for rep in $(seq 1 "$reps"); do
  cp=$(clpeak_gbs)
  run ocls --tests stream --stream.backend ocl --stream.elements "$elements" --stream.reps 10
  ot=$(figure "$work/ocls.h5" ocl-triad)
  run cpun --tests stream --stream.elements "$elements" --stream.reps 10 --stream.stores normal
  ctn=$(figure "$work/cpun.h5" cpu-triad)
  run oclb --tests bs --bs.backend ocl "${sweep[@]}"
  ob=$(figure "$work/oclb.h5" ocl)
  run cpub --tests bs "${sweep[@]}"
  cb=$(figure "$work/cpub.h5" cpu)
  run cput --tests stream --stream.elements "$elements" --stream.reps 10 --stream.stores nontemporal
  ctt=$(figure "$work/cput.h5" cpu-triad)
  printf "%3d  %6s  %9s  %12s  %16s  %12s  %14s  %12s  %12s  %11s\n" "$rep" "$cp" "$ot" "$(ratio "$ot" "$cp")" \
    "$ctn" "$ctt" "$(ratio "$ot" "$ctn")" "$ob" "$cb" "$(ratio "$ob" "$cb")"
done
