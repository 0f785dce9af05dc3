#!/usr/bin/env bash
# BS1 (copy) and BS2 (AXPY) asymptotic bandwidth Wmax, from the T0/Wmax fit
# of their size sweeps, against bwsurvey's own STREAM Copy and Triad (normal
# stores, the same kind of stores the BS kernels use) and against
# likwid-bench copy and stream, same thread count, one rank, alternated
# REPS times. Also prints T0 (the team's fork/join cost). Not a test: run it
# on an idle machine.
# BS2 (y = a*x + b*y) reads and writes the same array, so unlike STREAM
# Triad (three arrays) it pays no write-allocate: likwid-bench's daxpy
# (y = a*x + y, 24 B per element, two arrays) is its like-for-like peer and
# is printed too. The fit starts at 256 MiB (--bs.fit-min-bytes): this VM's
# last-level cache reports 32 MiB but caches up to ~64 MiB.
#   bench/bs-vs-stream.sh [THREADS] [REPS] [BS_MAX_BYTES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-$(hwloc-calc --number-of core all 2>/dev/null || nproc)}
reps=${2:-3}
bs_max=${3:-3GiB}
bwsurvey="$root/build/apps/bwsurvey"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v likwid-bench >/dev/null || { echo "likwid-bench not found (apt-get install likwid)"; exit 2; }
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }

likwid_gbs() {  # kernel -> GB/s (1e9), 3 GB working set, arrays offset
  likwid-bench -t "$1" -w "S0:3GB:${threads}-0:S0,1:S0:256,2:S0:512" 2>/dev/null |
    awk '/^MByte\/s:/ {printf "%.2f\n", $2 / 1000}'
}
bwsurvey_figures() {  # -> "stream_copy stream_triad bs1_wmax bs2_wmax bs1_t0_us bs2_t0_us" in GB/s and us
  "$bwsurvey" --tests stream,bs --threads "$threads" --stream.elements 125000000 --stream.stores normal \
    --stream.reps 10 --bs.tests bs1,bs2 --bs.max-bytes "$bs_max" --bs.fit-min-bytes 256M --out "$work/b.h5" --force >/dev/null 2>&1
  /usr/bin/python3 - "$work/b.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
nodes = f["/stream/nodes"][:]
copy = [r["bandwidth"] for r in nodes if r["kernel"] == b"Copy"][0]
triad = [r["bandwidth"] for r in nodes if r["kernel"] == b"Triad"][0]
fits = {r["test"].decode().lower(): r for r in f["/bs/fits"][:]}
print("%.2f %.2f %.2f %.2f %.3f %.3f" % (copy / 1e9, triad / 1e9, fits["bs1"]["Wmax_Bps"] / 1e9,
      fits["bs2"]["Wmax_Bps"] / 1e9, fits["bs1"]["T0_seconds"] * 1e6, fits["bs2"]["T0_seconds"] * 1e6))
PY
}

echo "threads=$threads, $reps repetitions, BS sweep up to $bs_max, $(date -u +%FT%TZ); GB/s = 1e9 B/s"
echo "rep  STREAM Copy  BS1 Wmax  BS1/Copy  likwid copy  BS1/likwid  STREAM Triad  BS2 Wmax  BS2/Triad  likwid stream  BS2/likwid  likwid daxpy  BS2/daxpy  T0 BS1 us  T0 BS2 us"
for rep in $(seq 1 "$reps"); do
  lc=$(likwid_gbs copy_avx512)
  read -r sc st w1 w2 t1 t2 < <(bwsurvey_figures)
  ls=$(likwid_gbs stream_avx512)
  ld=$(likwid_gbs daxpy_avx512)
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
  printf "%3d  %11s  %8s  %8s  %11s  %10s  %12s  %8s  %9s  %13s  %10s  %12s  %9s  %9s  %9s\n" "$rep" "$sc" "$w1" \
    "$(ratio "$w1" "$sc")" "$lc" "$(ratio "$w1" "$lc")" "$st" "$w2" "$(ratio "$w2" "$st")" "$ls" \
    "$(ratio "$w2" "$ls")" "$ld" "$(ratio "$w2" "$ld")" "$t1" "$t2"
done
