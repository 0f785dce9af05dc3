#!/usr/bin/env bash
# The link map's estimate against its measured time, and the b_eff ring
# against the shaper's rate. For each network (loopback: 4 ranks on this
# host, no namespaces; then the pretend cluster of tests/netcluster, 4
# hosts on 2 leaves, every host link shaped to each rate of RATES with
# tbf) `bwsurvey --tests links` runs RUNS times at the default settings
# (the size chosen by the link probe) and RUNS times with --quick; each
# run's row: the plan's window and size, the estimate of its plan line,
# the phase's time ("links: took X s (estimated Y s)") and their ratio
# (target: 0.5..2). On the first rate, also: --links.max-time MAX_TIME
# (below the default plan's estimate: the plan must lower its repetitions
# and the phase stay within it), --links.max-time 1 (below one repetition
# of the probe's size: refused in one line, exit 2), and the b_eff ring
# RUNS times (b_eff, the 8-byte latency, the Hockney fit's alpha and beta,
# and b per rank at the largest size, against the shaped rate).
# A benchmark, not a test: minutes (30-45 s a run at 400 Mbit/s), root for
# the namespaces. The library's trap and reaper remove them.
#   bench/netcluster-estimate.sh [RUNS]
# Environment: BUILD (default build), MPIRUN (mpirun), RATES (default
# "400 100", Mbit/s; "" for loopback only), MAX_TIME (default 15, s), WORK (default
# /tmp/bws-netcluster-estimate), LOOPBACK (0: skip the loopback rows).
set -uo pipefail
runs=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$repo/build}
bwsurvey=$build/apps/bwsurvey
rates=${RATES-400 100}  # "": loopback only
max_time=${MAX_TIME:-15}
work=${WORK:-/tmp/bws-netcluster-estimate}
python=/usr/bin/python3
. "$repo/tests/netcluster/netcluster.sh"
netcluster_require || exit 1
[ -x "$bwsurvey" ] || { echo "build bwsurvey first (in $build)"; exit 1; }
"$python" -c "import h5py" 2>/dev/null || { echo "$python lacks h5py (python3-h5py)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck disable=SC2034  # read by netcluster_mpirun
NETCLUSTER_MPIRUN=${MPIRUN:-mpirun}
rm -rf "$work"
netcluster_init "$work"
rows=$work/rows.md beff_rows=$work/beff.md
: >"$rows" && : >"$beff_rows"

# One row from a run's stderr: window x size, estimate, took, ratio.
links_row() {  # network options run err wall_s exit
  local size estimate took
  size=$(grep -oE 'links: [0-9]+ (nodes|ranks)[^;]* x window [0-9]+ x [0-9.]+ [KMG]?i?B' "$4" | head -1 |
    sed -E 's/.* x window ([0-9]+) x /\1 x /')
  estimate=$(grep -oE 'links: took [0-9.]+ s \(estimated [0-9.]+ s\)' "$4" | sed -E 's/.*estimated ([0-9.]+) s.*/\1/')
  took=$(grep -oE 'links: took [0-9.]+ s' "$4" | sed -E 's/.*took ([0-9.]+) s/\1/')
  if [ -z "$took" ]; then
    echo "| $1 | ${2:-defaults} | $3 | exit $6: $(grep -m1 -E 'bwsurvey|error' "$4" | cut -c1-200) | | | | $5 |" >>"$rows"
    return
  fi
  echo "| $1 | ${2:-defaults} | $3 | $size | $estimate | $took | $(awk -v a="$took" -v b="$estimate" 'BEGIN {printf "%.2f", a / b}') | $5 |" >>"$rows"
}
# Runs bwsurvey (the launcher words first, then --) and records its row.
links_run() {  # network options run launcher...
  local network=$1 options=$2 run=$3 out code started wall
  shift 3
  out=$work/$(echo "$network-${options:-defaults}-$run" | tr -c 'a-zA-Z0-9.\n-' '_')
  started=$(date +%s%N)
  # shellcheck disable=SC2086  # the options are words
  "$@" "$bwsurvey" --tests links --retest 0 $options --out "$out.h5" >"$out.out" 2>"$out.err"
  code=$?
  wall=$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
  links_row "$network" "$options" "$run" "$out.err" "$wall" "$code"
  echo "$network ${options:-defaults} run $run: exit $code, $wall s; $(grep -oE 'links: took .*' "$out.err" || grep -m1 -iE 'error|bwsurvey:' "$out.err")"
}
# b_eff's natural ring from a file: b_eff, latency, Hockney alpha and beta, b per rank at the largest size.
beff_row() {  # run file mbit
  "$python" - "$@" <<'PY' >>"$beff_rows"
import sys, h5py
run, path, mbit = sys.argv[1], sys.argv[2], float(sys.argv[3])
link = mbit * 1e6 / 8
with h5py.File(path, "r") as f:
    s = [r for r in f["/beff/summary"][:] if r["ring_kind"].split(b"\0")[0] == b"natural"][0]
    sizes = [r for r in f["/beff/sizes"][:] if r["ring_kind"].split(b"\0")[0] == b"natural"]
    top = max(sizes, key=lambda r: r["message_bytes"])
    # A rank sends L to each neighbour per exchange, through its one link:
    # 2L per exchange, so b per rank tends to the link's rate and the fit's
    # beta (L per exchange time) to half of it.
    print("| %s | %.2f | %.2f | %.0f | %.0f | %.2f (%.2f) | %d: %.2f (%.2f) | %s |" % (
        run, s["b_eff_Bps"] / 1e6, s["b_eff_per_rank_Bps"] / 1e6, s["latency_8B_seconds"] * 1e6,
        s["hockney_alpha_seconds"] * 1e6, 2 * s["hockney_beta_Bps"] / 1e6, 2 * s["hockney_beta_Bps"] / link,
        top["message_bytes"], top["b_per_rank_Bps"] / 1e6, top["b_per_rank_Bps"] / link,
        s["hockney_verdict"].split(b"\0")[0].decode()))
PY
}

if [ "${LOOPBACK:-1}" != 0 ]; then
  for options in "" "--quick"; do
    for r in $(seq 1 "$runs"); do
      links_run "loopback, 4 ranks" "$options" "$r" "${MPIRUN:-mpirun}" -np 4 --oversubscribe
    done
  done
fi
first=1
for mbit in $rates; do
  netcluster_cleanup "$NETCLUSTER_PREFIX"
  netcluster_start 4 2 "$mbit" || { echo "the cluster did not start at $mbit Mbit/s"; exit 1; }
  for options in "" "--quick"; do
    for r in $(seq 1 "$runs"); do links_run "$mbit Mbit/s, 4 hosts" "$options" "$r" netcluster_mpirun -np 4; done
  done
  if [ "$first" = 1 ]; then
    links_run "$mbit Mbit/s, 4 hosts" "--links.max-time $max_time" 1 netcluster_mpirun -np 4
    links_run "$mbit Mbit/s, 4 hosts" "--links.max-time 1" 1 netcluster_mpirun -np 4
    for r in $(seq 1 "$runs"); do
      netcluster_mpirun -np 4 "$bwsurvey" --tests beff --retest 0 --out "$work/beff$r.h5" >"$work/beff$r.out" 2>"$work/beff$r.err"
      echo "beff run $r at $mbit Mbit/s: exit $?"
      beff_row "$r" "$work/beff$r.h5" "$mbit"
    done
    first=0 beff_mbit=$mbit
  fi
done
netcluster_cleanup "$NETCLUSTER_PREFIX"

echo
echo "command: bench/netcluster-estimate.sh $runs (RATES=\"$rates\" MAX_TIME=$max_time)"
echo "date: $(date -u +%FT%TZ), commit: $(git -C "$repo" rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bwsurvey --tests links --retest 0 [options]; loopback: mpirun -np 4 --oversubscribe; shaped: 4 hosts on 2 leaves, tbf both ways"
echo
echo "| network | options | run | window x size | estimate s | took s | took / estimate | wall s |"
echo "|---|---|---|---|---|---|---|---|"
cat "$rows"
if [ -s "$beff_rows" ]; then
  echo
  echo "b_eff ring at ${beff_mbit:-?} Mbit/s (link $(awk -v m="${beff_mbit:-0}" 'BEGIN {printf "%.0f", m / 8}') MB/s each way): bwsurvey --tests beff --retest 0; figures in MB/s and us, (x the link)"
  echo
  echo "| run | b_eff | b_eff per rank | latency 8 B us | Hockney alpha us | 2 x Hockney beta (x link) | b per rank at L bytes (x link) | fit |"
  echo "|---|---|---|---|---|---|---|---|"
  cat "$beff_rows"
fi
