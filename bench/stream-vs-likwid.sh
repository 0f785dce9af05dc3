#!/usr/bin/env bash
# bwsurvey's STREAM Triad against likwid-bench's stream kernel (a = b + s*c,
# 24 bytes per element, no write-allocate counted: the same kernel and the
# same counting), same thread count, same array size, arrays offset in both
# (likwid-bench without offsets can lose half to 4 KiB aliasing). Runs the
# two alternately, REPS times each, for bwsurvey's normal and non-temporal
# stores, and prints every figure and the median ratio. Not a test: run it
# on an idle machine.
#   bench/stream-vs-likwid.sh [THREADS] [BYTES_PER_ARRAY] [REPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-$(hwloc-calc --number-of core all 2>/dev/null || nproc)}
array_bytes=${2:-1000000000}      # 1 GB per array (likwid's GB is 1e9)
reps=${3:-3}
elements=$((array_bytes / 8))
total_gb=$((3 * array_bytes / 1000000000))
bwsurvey="$root/build/apps/bwsurvey"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v likwid-bench >/dev/null || { echo "likwid-bench not found (apt-get install likwid)"; exit 2; }
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }

likwid_mbs() {  # kernel -> MByte/s (1e6)
  likwid-bench -t "$1" -w "S0:${total_gb}GB:${threads}-0:S0,1:S0:256,2:S0:512" 2>/dev/null |
    awk '/^MByte\/s:/ {print $2}'
}
bwsurvey_triad_mbs() {  # stores -> "best avg" Triad MB/s (1e6) from the STREAM table
  # STREAM reports the best repetition; likwid-bench the mean over its
  # iterations: both are printed so the comparison can be made either way.
  "$bwsurvey" --tests stream --threads "$threads" --stream.elements "$elements" --stream.stores "$1" \
    --stream.reps 10 --out "$work/s.h5" --force 2>/dev/null |
    awk '/^Triad:/ {printf "%.0f %.0f\n", $2, $2 * $4 / $3; exit}'
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

echo "threads=$threads, $elements doubles per array ($((array_bytes / 1000000)) MB), $reps repetitions, $(date -u +%FT%TZ)"
echo "MB/s (1e6). likwid: mean over its iterations; bwsurvey: best (STREAM's rule) / mean of repetitions 2..10"
echo "rep  likwid stream_avx512  bwsurvey normal best/mean  ratio best/mean  likwid stream_mem_avx512  bwsurvey NT best/mean  ratio best/mean"
: >"$work/normal" ; : >"$work/nt" ; : >"$work/normal_mean" ; : >"$work/nt_mean"
for rep in $(seq 1 "$reps"); do
  l=$(likwid_mbs stream_avx512)
  read -r bn bn_mean < <(bwsurvey_triad_mbs normal)
  lm=$(likwid_mbs stream_mem_avx512)
  read -r bt bt_mean < <(bwsurvey_triad_mbs nontemporal)
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
  rn=$(ratio "$bn" "$l"); rnm=$(ratio "$bn_mean" "$l"); rt=$(ratio "$bt" "$l"); rtm=$(ratio "$bt_mean" "$l")
  echo "$rn" >>"$work/normal"; echo "$rt" >>"$work/nt"; echo "$rnm" >>"$work/normal_mean"; echo "$rtm" >>"$work/nt_mean"
  printf "%3d  %20.0f  %13.0f/%-11.0f  %s/%s  %24.0f  %11.0f/%-9.0f  %s/%s\n" \
    "$rep" "$l" "$bn" "$bn_mean" "$rn" "$rnm" "$lm" "$bt" "$bt_mean" "$rt" "$rtm"
done
echo "median Triad ratio, bwsurvey normal stores / likwid stream_avx512:       best $(median <"$work/normal"), mean $(median <"$work/normal_mean")"
echo "median Triad ratio, bwsurvey non-temporal stores / likwid stream_avx512: best $(median <"$work/nt"), mean $(median <"$work/nt_mean")"
