#!/usr/bin/env bash
# bwsurvey's ring bandwidth per rank at 2,000,000 B against hpcc's
# naturally ordered ring bandwidth (same message size, same rank count,
# both per process and counting the two messages each process sends per
# exchange), alternated REPS times; plus bwsurvey's b_eff and 8-byte
# latency beside hpcc's ring latency. Not a test: run it on an idle machine.
#   bench/beff-vs-hpcc.sh [RANKS] [REPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ranks=${1:-2}
reps=${2:-3}
bwsurvey="$root/build/apps/bwsurvey"
command -v hpcc >/dev/null || { echo "hpcc not found (apt-get install hpcc)"; exit 2; }
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# hpcc with tiny HPL/PTRANS/FFT problems: only its ring test matters here.
sed -e 's/^[0-9]* *Ns$/500          Ns/' -e 's/^2            Ps/1            Ps/' \
    -e "s/^2            Qs/$ranks            Qs/" /usr/share/doc/hpcc/examples/_hpccinf.txt >"$work/hpccinf.txt"
hpcc_ring() {  # -> "bandwidth_GBs latency_us" of the naturally ordered ring
  (cd "$work" && rm -f hpccoutf.txt && mpirun -np "$ranks" hpcc >/dev/null 2>&1 &&
    awk -F= '/^NaturallyOrderedRingBandwidth_GBytes/ {b=$2} /^NaturallyOrderedRingLatency_usec/ {l=$2}
             END {print b, l}' hpccoutf.txt)
}
bwsurvey_ring_2mb() {  # -> per-rank GB/s at 2,000,000 B (natural ring; aggregate / ranks)
  mpirun -np "$ranks" "$bwsurvey" --tests beff --beff.sizes 2000000 --beff.random-rings 0 \
    --out "$work/b.h5" --force 2>/dev/null |
    awk -v n="$ranks" '$1 == "2000000" {printf "%.4f\n", $4 / n / 1e9; exit}'
}

echo "ranks=$ranks, $reps repetitions, $(date -u +%FT%TZ)"
echo "rep  hpcc ring GB/s  bwsurvey ring GB/s (per rank, 2,000,000 B)  ratio   hpcc ring latency us"
: >"$work/ratios"
for rep in $(seq 1 "$reps"); do
  read -r hb hl < <(hpcc_ring)
  bb=$(bwsurvey_ring_2mb)
  r=$(awk -v a="$bb" -v b="$hb" 'BEGIN {printf "%.3f", a / b}')
  echo "$r" >>"$work/ratios"
  printf "%3d  %14.3f  %42.3f  %6s   %20.3f\n" "$rep" "$hb" "$bb" "$r" "$hl"
done
echo "ratios bwsurvey / hpcc: $(sort -g "$work/ratios" | tr '\n' ' ')(min..max; the figure is bimodal on some machines)"
echo
echo "bwsurvey b_eff with the default 21 sizes (natural ring), for the record:"
mpirun -np "$ranks" "$bwsurvey" --tests beff --out "$work/b.h5" --force 2>/dev/null | grep -E "^b_eff|per rank|latency" || true
