#!/usr/bin/env bash
# The ring's figures against hpcc's, alternated ROUNDS times (medians of the
# rounds; use >= 5): the naturally ordered ring's latency (8 B, per message)
# and its bandwidth per rank at 2,000,000 B, bwsurvey with 4 KiB pages (what
# hpcc's malloc'd buffers get: like for like) and with its default 2 MiB
# pages. Both tools count per rank the two messages it sends per exchange,
# the slowest rank's time, the best of several measurements.
# Then, on 2 ranks, bwsurvey's `--tests links` against a plain MPI ping-pong
# of the same sizes (8 B and 1 MiB) written here, to show the
# pattern costs nothing extra (skipped when this bwsurvey has no links test).
# Not a test: run it on an idle machine.
#   bench/beff-vs-hpcc.sh [RANKS] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ranks=${1:-2}
rounds=${2:-5}
bwsurvey="${BWSURVEY:-$root/build/apps/bwsurvey}"  # BWSURVEY=path: another build (one without test hooks)
python=/usr/bin/python3
command -v hpcc >/dev/null || { echo "hpcc not found (apt-get install hpcc)"; exit 2; }
command -v mpicc >/dev/null || { echo "mpicc not found (the MPI development package)"; exit 2; }
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (scripts/build.sh)"; exit 2; }
"$python" -c "import h5py" 2>/dev/null || { echo "$python lacks h5py (python3-h5py)"; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# hpcc with tiny HPL/PTRANS/FFT problems: only its ring test matters here.
sed -e 's/^[0-9]* *Ns$/500          Ns/' -e 's/^2            Ps/1            Ps/' \
    -e "s/^2            Qs/$ranks            Qs/" /usr/share/doc/hpcc/examples/_hpccinf.txt >"$work/hpccinf.txt"
hpcc_ring() {  # -> "latency_us bandwidth_GBs" of the naturally ordered ring
  (cd "$work" && rm -f hpccoutf.txt && mpirun -np "$ranks" hpcc >/dev/null 2>&1 &&
    awk -F= '/^NaturallyOrderedRingBandwidth_GBytes/ {b=$2} /^NaturallyOrderedRingLatency_usec/ {l=$2}
             END {print l, b}' hpccoutf.txt)
}
# The natural ring's latency (us) and per-rank bandwidth (GB/s) at 2,000,000 B from a bwsurvey file.
read_ring() {
  "$python" - "$1" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    summary = [r for r in f["/beff/summary"][:] if r["ring_kind"].split(b"\0")[0] == b"natural"][0]
    sizes = [r for r in f["/beff/sizes"][:] if r["ring_kind"].split(b"\0")[0] == b"natural"]
    bw = [r["b_per_rank_Bps"] for r in sizes if r["message_bytes"] == 2000000]
    print("%.4f %.4f" % (summary["latency_8B_seconds"] * 1e6, (bw[0] if bw else float("nan")) / 1e9))
PY
}
bwsurvey_ring() {  # huge-pages -> "latency_us bandwidth_GBs"
  mpirun -np "$ranks" "$bwsurvey" --tests beff --beff.sizes 8,2000000 --beff.random-rings 0 \
    --beff.huge-pages "$1" --out "$work/b.h5" --force >/dev/null 2>&1
  read_ring "$work/b.h5"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
column_median() { awk -v c="$1" '{print $c}' "$2" | median; }

echo "ranks=$ranks, $rounds alternated rounds, $(date -u +%FT%TZ), bwsurvey $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "natural ring; latency in us per message (8 B); bandwidth in GB/s per rank at 2,000,000 B"
echo "round  hpcc_lat  bws_lat(4K)  lat_ratio   hpcc_bw  bws_bw(4K)  bw_ratio  bws_bw(2M)  bw_ratio(2M)"
: >"$work/rows"
for round in $(seq 1 "$rounds"); do
  read -r hl hb < <(hpcc_ring)
  read -r bl boff < <(bwsurvey_ring off)
  read -r _ bon < <(bwsurvey_ring on)
  row="$round $hl $bl $(ratio "$bl" "$hl") $hb $boff $(ratio "$boff" "$hb") $bon $(ratio "$bon" "$hb")"
  echo "$row" >>"$work/rows"
  echo "$row" | awk '{printf "%5d  %8.3f  %11.3f  %9s  %8.2f  %10.2f  %8s  %10.2f  %12s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9}'
done
printf "median %8.3f  %11.3f  %9.3f  %8.2f  %10.2f  %8.3f  %10.2f  %12.3f\n" \
  "$(column_median 2 "$work/rows")" "$(column_median 3 "$work/rows")" "$(column_median 4 "$work/rows")" \
  "$(column_median 5 "$work/rows")" "$(column_median 6 "$work/rows")" "$(column_median 7 "$work/rows")" \
  "$(column_median 8 "$work/rows")" "$(column_median 9 "$work/rows")"
echo "targets: latency ratio <= 1.1, bandwidth ratio (4 KiB pages) >= 0.95"

# --- --tests links at 2 ranks against a plain MPI ping-pong ---
echo
if ! "$bwsurvey" --help 2>&1 | grep -q -- "--links.bytes"; then
  echo "links: skipped (this bwsurvey has no --tests links)"; exit 0
fi
# Rank 0 sends, rank 1 sends it back (MPI_Send, MPI_Recv): half the round
# trip is one message's one-way time, what the links pattern measures (its
# latency is half a ping-pong's round trip; its bandwidth one direction at a
# time, a window of 8 messages where this has one). A loop grown until it
# lasts >= 10 ms, the best of 5 loops, the slower rank's time per half
# round trip.
cat >"$work/pingpong.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  const int bytes = atoi(argv[1]), peer = 1 - rank;
  char* out = malloc(bytes);
  char* in = malloc(bytes);
  memset(out, rank + 1, bytes);
  memset(in, 0, bytes);
  long loop = 1;
  double best = 1e30;
  for (int run = 0; run < 40 && best > 0; ++run) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (long i = 0; i < loop; ++i) {
      if (rank == 0) MPI_Send(out, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(in, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (rank == 1) MPI_Send(out, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    }
    t = (MPI_Wtime() - t) / 2; /* half the round trips */
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (2 * t < 0.01) { loop *= 2; continue; }  /* still calibrating */
    if (t / loop < best) best = t / loop;
    static int timed = 0;
    if (++timed == 5) break;
  }
  if (in[0] != (char)(peer + 1)) MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) printf("%.6e %.6e\n", best * 1e6, bytes / best / 1e9);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
C
mpicc -O2 -o "$work/pingpong" "$work/pingpong.c"
links_pair() {  # -> "latency_us send_GBs" of pair (0, 1)
  mpirun -np 2 "$bwsurvey" --tests links --links.bytes 1M --out "$work/l.h5" --force >/dev/null 2>&1
  "$python" - "$work/l.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    lat = f["/links/latency_s"][0, 1] if "/links/latency_s" in f else float("nan")
    print("%.4f %.4f" % (lat * 1e6, f["/links/send_Bps"][0, 1] / 1e9))
PY
}
echo "2 ranks: --tests links (pair 0->1) against a plain MPI ping-pong"
echo "round  pingpong_lat_us(8B)  links_lat_us  ratio   pingpong_GBs(1MiB)  links_GBs  ratio"
: >"$work/links"
for round in $(seq 1 "$rounds"); do
  sl=$(mpirun -np 2 "$work/pingpong" 8 | awk '{print $1}')
  sb=$(mpirun -np 2 "$work/pingpong" 1048576 | awk '{print $2}')
  read -r ll lb < <(links_pair)
  row="$round $sl $ll $(ratio "$ll" "$sl") $sb $lb $(ratio "$lb" "$sb")"
  echo "$row" >>"$work/links"
  echo "$row" | awk '{printf "%5d  %19.3f  %12.3f  %5s   %18.2f  %9.2f  %5s\n", $1,$2,$3,$4,$5,$6,$7}'
done
printf "median %19.3f  %12.3f  %5.3f   %18.2f  %9.2f  %5.3f\n" \
  "$(column_median 2 "$work/links")" "$(column_median 3 "$work/links")" "$(column_median 4 "$work/links")" \
  "$(column_median 5 "$work/links")" "$(column_median 6 "$work/links")" "$(column_median 7 "$work/links")"
