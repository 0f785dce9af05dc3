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
bwsurvey_ring_2mb() {  # huge-pages -> per-rank GB/s at 2,000,000 B (natural ring; aggregate / ranks)
  mpirun -np "$ranks" "$bwsurvey" --tests beff --beff.sizes 2000000 --beff.random-rings 0 \
    --beff.huge-pages "$1" --out "$work/b.h5" --force 2>/dev/null |
    awk -v n="$ranks" '$1 == "2000000" {printf "%.4f\n", $4 / n / 1e9; exit}'
}

echo "ranks=$ranks, $reps repetitions, $(date -u +%FT%TZ)"
# bwsurvey twice per round: with 4 KiB pages (what hpcc's malloc'd buffers
# get) and with its default 2 MiB pages.
echo "GB/s per rank at 2,000,000 B, natural ring"
echo "rep  hpcc   bwsurvey 4KiB-pages  ratio   bwsurvey 2MiB-pages  ratio   hpcc ring latency us"
: >"$work/ratios_off"; : >"$work/ratios_on"
for rep in $(seq 1 "$reps"); do
  read -r hb hl < <(hpcc_ring)
  boff=$(bwsurvey_ring_2mb off)
  bon=$(bwsurvey_ring_2mb on)
  roff=$(awk -v a="$boff" -v b="$hb" 'BEGIN {printf "%.3f", a / b}')
  ron=$(awk -v a="$bon" -v b="$hb" 'BEGIN {printf "%.3f", a / b}')
  echo "$roff" >>"$work/ratios_off"; echo "$ron" >>"$work/ratios_on"
  printf "%3d  %5.2f  %19.2f  %5s   %19.2f  %5s   %20.3f\n" "$rep" "$hb" "$boff" "$roff" "$bon" "$ron" "$hl"
done
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "ratios, 4 KiB pages: $(sort -g "$work/ratios_off" | tr '\n' ' ')median $(median <"$work/ratios_off")"
echo "ratios, 2 MiB pages: $(sort -g "$work/ratios_on" | tr '\n' ' ')median $(median <"$work/ratios_on")"
echo
echo "bwsurvey b_eff with the default 21 sizes (natural ring), for the record:"
mpirun -np "$ranks" "$bwsurvey" --tests beff --out "$work/b.h5" --force 2>/dev/null | grep -E "^b_eff|per rank|latency" || true
