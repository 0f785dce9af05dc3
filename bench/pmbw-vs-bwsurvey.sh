#!/usr/bin/env bash
# bwsurvey's pmbw routines against pmbw itself, alternated point by point:
# the same routine, array size and thread count, one sample each (pmbw
# keeps one), each calibrated to >= 1 s (pmbw's rule). Prints bandwidth
# (GB/s, 1e9 B/s) and, for PermRead, the access time (ns per access over all
# threads, pmbw's "rate"), and their ratios. Then bwsurvey's 512-bit and
# non-temporal routines at the same points (pmbw has none).
# pmbw is built by the user outside this repository
# (https://github.com/bingmann/pmbw: ./configure && make); this script only runs it.
# Not a test: run it on an idle machine.
#   bench/pmbw-vs-bwsurvey.sh PMBW_BINARY [ROUNDS] [SIZES] [THREADS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pmbw=${1:?usage: pmbw-vs-bwsurvey.sh PMBW_BINARY [ROUNDS] [SIZES] [THREADS]}
rounds=${2:-3}
sizes=${3:-"16384 1048576 1073741824"}
threads_list=${4:-"1 2"}
routines="ScanRead64PtrUnrollLoop ScanWrite64PtrUnrollLoop ScanRead256PtrUnrollLoop PermRead64UnrollLoop"
extra="ScanRead512PtrUnrollLoop ScanWrite512PtrUnrollLoop ScanWrite256PtrUnrollLoopNT ScanWrite512PtrUnrollLoopNT"
bwsurvey="$root/build/apps/bwsurvey"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }
[ -x "$pmbw" ] || { echo "not an executable: $pmbw"; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

pmbw_point() {  # routine size threads -> "GB/s ns_per_access"
  (cd "$work" && rm -f pmbw.txt && "$pmbw" -f "$1" -s "$2" -S "$2" -p "$3" -P "$3" -M 3G -o pmbw.txt >/dev/null 2>&1)
  awk -F'\t' '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                          printf "%.3f %.3f\n", v["bandwidth"] / 1e9, v["rate"] * 1e9 }' "$work/pmbw.txt"
}
bwsurvey_point() {  # routine size threads -> "GB/s ns_per_access"
  "$bwsurvey" --tests pmbw --threads "$3" --pmbw.threads "$3" --pmbw.routines "$1" --pmbw.min-bytes "$2" \
    --pmbw.max-bytes "$2" --pmbw.reps 1 --pmbw.min-time 1.0 --out "$work/b.h5" --force >/dev/null 2>&1
  /usr/bin/python3 - "$work/b.h5" <<'PY'
import sys, h5py
r = h5py.File(sys.argv[1], "r")["/pmbw/results"][0]
print("%.3f %.3f" % (r["bandwidth"] / 1e9, r["access_seconds"] * 1e9))
PY
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

echo "pmbw vs bwsurvey, $rounds rounds, $(date -u +%FT%TZ); GB/s = 1e9 B/s; ns per access over all threads"
echo "round  routine                     size_B      threads  pmbw_GB/s  bws_GB/s  bw_ratio  pmbw_ns  bws_ns  ns_ratio"
for round in $(seq 1 "$rounds"); do
  for routine in $routines; do
    for size in $sizes; do
      for threads in $threads_list; do
        if [ $((round % 2)) -eq 1 ]; then
          read -r pb pn < <(pmbw_point "$routine" "$size" "$threads")
          read -r bb bn < <(bwsurvey_point "$routine" "$size" "$threads")
        else
          read -r bb bn < <(bwsurvey_point "$routine" "$size" "$threads")
          read -r pb pn < <(pmbw_point "$routine" "$size" "$threads")
        fi
        printf "%5d  %-26s %11s  %7s  %9s  %8s  %8s  %7s  %6s  %8s\n" "$round" "$routine" "$size" "$threads" \
          "$pb" "$bb" "$(ratio "$bb" "$pb")" "$pn" "$bn" "$(ratio "$bn" "$pn")"
      done
    done
  done
done
echo "bwsurvey only (pmbw has no 512-bit or non-temporal routines), round 1 points:"
for routine in $extra; do
  for size in $sizes; do
    for threads in $threads_list; do
      read -r bb bn < <(bwsurvey_point "$routine" "$size" "$threads")
      printf "       %-26s %11s  %7s  %9s  %8s\n" "$routine" "$size" "$threads" "-" "$bb"
    done
  done
done
