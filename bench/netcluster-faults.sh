#!/usr/bin/env bash
# The link map's verdicts on real, shaped links, judged many times: for each
# scenario (a clean network, a slow pair, a NIC slow both ways, a slow leaf
# uplink, 2 ms added each way on one host's link, and 8 hosts clean when
# asked for) the pretend cluster of
# tests/netcluster/netcluster.sh is started once, the fault made in the
# network with tc, and `bwsurvey --tests links` run RUNS times with the
# settings of tests/netcluster/links_slow_nic.sh (4 MiB messages, a window
# of 4, 3 repetitions). Each run's `bwreport flags` is sorted into the right
# verdict (the fault's host, pair or uplink) and wrong ones (anything else).
# Prints a markdown table, then every wrong verdict with its figures.
# A benchmark, not a test: it takes minutes (about 25 s a run on 4 hosts)
# and needs root. The library's trap and reaper remove the namespaces.
#   bench/netcluster-faults.sh [RUNS] [HOSTS]
# Environment: BUILD (build directory, default build), MPIRUN (mpirun),
# SCENARIOS (default "clean slow_pair slow_nic slow_uplink delay"; add clean8
# for 8 hosts clean), WORK (work directory, default /tmp/bws-netcluster-faults).
# The delay scenario needs the test tool link_delay_relay (a build with
# BUILD_TESTING) and also checks /links/latency_s of each run.
# LINK_OPTIONS: the link map's size options, default the fixed
# "--links.bytes 4M --links.window 4 --links.reps 3"; "" runs the defaults
# (the size chosen by the link probe), "--quick" the quick ones.
set -uo pipefail
runs=${1:-10}
hosts=${2:-4}
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$repo/build}
bwsurvey=$build/apps/bwsurvey
bwreport=$build/apps/bwreport
scenarios=${SCENARIOS:-clean slow_pair slow_nic slow_uplink delay}
work=${WORK:-/tmp/bws-netcluster-faults}
link_options=${LINK_OPTIONS---links.bytes 4M --links.window 4 --links.reps 3}
mbit=400
slow_mbit=$((mbit / 4))
delay_ms=2
. "$repo/tests/netcluster/netcluster.sh"
netcluster_require || exit 1
if [ ! -x "$bwsurvey" ] || [ ! -x "$bwreport" ]; then
  echo "build bwsurvey and bwreport first (in $build)"
  exit 1
fi
# shellcheck disable=SC2034  # read by netcluster_mpirun
NETCLUSTER_MPIRUN=${MPIRUN:-mpirun}
# shellcheck disable=SC2034  # read by netcluster_delay_host
NETCLUSTER_RELAY=$build/tests/link_delay_relay
rm -rf "$work"
netcluster_init "$work"

# The hosts of scenario $1 and what it does to the network.
scenario_hosts() { [ "$1" = clean8 ] && echo 8 || echo "$hosts"; }
make_fault() {
  case $1 in
    slow_pair) netcluster_slow_pair h1 h3 "$slow_mbit" ;;
    slow_nic) netcluster_slow_nic h3 "$slow_mbit" ;;
    slow_uplink) netcluster_slow_uplink s1 "$slow_mbit" ;;
    delay) netcluster_delay_host h3 "$delay_ms" ;;
  esac
}
describe() {
  case $1 in
    clean) echo "clean, $2 hosts" ;;
    clean8) echo "clean, 8 hosts" ;;
    slow_pair) echo "slow pair h1->h3 at $slow_mbit Mbit/s" ;;
    slow_nic) echo "slow NIC h3 at $slow_mbit Mbit/s both ways" ;;
    slow_uplink) echo "slow uplink s1 at $slow_mbit Mbit/s both ways" ;;
    delay) echo "$delay_ms ms added each way on h3's link" ;;
  esac
}
# The verdict lines that name the fault (extended regex on `bwreport flags`
# lines); a clean network has none. A NIC slow both ways is named when
# both node_out and node_in name h3; s1's uplink in either direction; a
# delayed host by the latency verdict.
right_pattern() {
  case $1 in
    slow_pair) echo '^  links\.pair: link h1(:r[0-9]+)?->h3(:r[0-9]+)?: ' ;;
    slow_nic) echo '^  links\.node_(out|in): h3: ' ;;
    slow_uplink) echo '^  links\.uplink: .*(s1->(s2|top)|(s2|top)->s1)' ;;
    delay) echo '^  links\.node_latency: h3: ' ;;
    *) echo '^$-never' ;;
  esac
}
named_right() {
  case $1 in
    clean | clean8) ! grep -Eq '^  links\.' "$2" ;;
    slow_nic) grep -Eq '^  links\.node_out: h3: ' "$2" && grep -Eq '^  links\.node_in: h3: ' "$2" ;;
    *) grep -Eq "$(right_pattern "$1")" "$2" ;;
  esac
}
# The lowest and highest latency of h3's pairs in check_latency.py's
# matrix ($1), in ms: "2.07-2.25".
h3_latency_range() {
  awk 'NR == 1 {for (i = 6; i <= NF; i++) if ($i == "h3") f = i - 4}
       NR > 1 && $1 ~ /^h[0-9]+$/ {for (i = 2; i <= NF; i++) if (($1 == "h3" || i == f) && $i != "nan") v[++n] = $i}
       END {lo = 1e9; hi = 0; for (k = 1; k <= n; k++) {lo = v[k] < lo ? v[k] : lo; hi = v[k] > hi ? v[k] : hi}
            printf "%.2f-%.2f", lo, hi}' "$1"
}
# A verdict line cut to its kind and subject, ranks dropped:
# "links.pair h1->h3", "links.node_in h2", "links.uplink s1->top->s2".
subject_of() {
  sed -E 's/^  (links\.uplink): [^(]*\(([^)]*)\).*/\1 \2/; t; s/^  (links\.[a-z_]+): (link )?([^ ]+): .*/\1 \3/; s/:r[0-9]+//g'
}

table=$work/table.md details=$work/wrong.txt
: >"$details"
{
  echo "| scenario | runs | right verdict named | runs with a wrong verdict | wrong verdicts seen (runs) | s per run, median |"
  echo "|---|---|---|---|---|---|"
} >"$table"
for scenario in $scenarios; do
  dir=$work/$scenario n=$(scenario_hosts "$scenario")
  mkdir -p "$dir"
  netcluster_cleanup "$NETCLUSTER_PREFIX"
  netcluster_start "$n" 2 "$mbit" || { echo "$scenario: the cluster did not start"; exit 1; }
  make_fault "$scenario" || { echo "$scenario: the fault could not be made"; exit 1; }
  netcluster_topology_conf >"$dir/topology.conf"
  right=0 wrong=0 done_runs=0
  : >"$dir/subjects.txt" && : >"$dir/seconds.txt"
  for r in $(seq 1 "$runs"); do
    started=$(date +%s%N)
    # shellcheck disable=SC2086  # the options are words
    netcluster_mpirun -np "$n" "$bwsurvey" --tests links --retest 0 $link_options \
      --links.topology "$dir/topology.conf" --out "$dir/run$r.h5" >"$dir/run$r.out" 2>"$dir/run$r.err"
    code=$?
    awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f\n", (b - a) / 1e9}' >>"$dir/seconds.txt"
    if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
      echo "$scenario run $r: bwsurvey exited $code (left out)"; tail -5 "$dir/run$r.err"; continue
    fi
    done_runs=$((done_runs + 1))
    "$bwreport" flags "$dir/run$r.h5" >"$dir/flags$r.txt" 2>&1
    latency=""
    if [ "$scenario" = delay ]; then
      # The figures themselves: h3's pairs at the one-way delay, the others
      # far below (the bounds of tests/netcluster/links_delay.sh).
      verdict=WRONG
      /usr/bin/python3 "$repo/tests/netcluster/check_latency.py" "$dir/run$r.h5" h3 1.5 3.0 0.5 >"$dir/latency$r.txt" &&
        verdict=right
      latency=", latency figures $verdict (h3's pairs $(h3_latency_range "$dir/latency$r.txt") ms)"
    fi
    named_right "$scenario" "$dir/flags$r.txt" && right=$((right + 1))
    grep -E '^  links\.' "$dir/flags$r.txt" | grep -Ev "$(right_pattern "$scenario")" >"$dir/wrong$r.txt"
    if [ -s "$dir/wrong$r.txt" ]; then
      wrong=$((wrong + 1))
      subject_of <"$dir/wrong$r.txt" | sort -u >>"$dir/subjects.txt"
      sed "s/^/$scenario run $r:/" "$dir/wrong$r.txt" >>"$details"
    fi
    took=$(grep -o 'links: took .*' "$dir/run$r.err" | head -1)
    echo "$scenario run $r: exit $code, $(tail -1 "$dir/seconds.txt") s, right $right, wrong $wrong$latency; ${took:-no phase time}"
  done
  seen=$(sort "$dir/subjects.txt" | uniq -c | sort -rn | awk '{c=$1; $1=""; sub(/^ /,""); printf "%s%s (%d)", (NR>1?"; ":""), $0, c}')
  median=$(sort -n "$dir/seconds.txt" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  echo "| $(describe "$scenario" "$n") | $done_runs | $right | $wrong | ${seen:-none} | $median |" >>"$table"
done
netcluster_cleanup "$NETCLUSTER_PREFIX"

echo
echo "command: bench/netcluster-faults.sh $runs $hosts (SCENARIOS=\"$scenarios\" LINK_OPTIONS=\"$link_options\")"
echo "date: $(date -u +%FT%TZ), commit: $(git -C "$repo" rev-parse --short HEAD), $(nproc) cores"
echo "links: $mbit Mbit/s both ways (tbf), two leaves under top; bwsurvey --tests links --retest 0 $link_options --links.topology"
echo
cat "$table"
echo
echo "wrong verdicts, with their figures:"
if [ -s "$details" ]; then cat "$details"; else echo "  none"; fi
