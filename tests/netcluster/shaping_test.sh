#!/usr/bin/env bash
# The pretend cluster's links run at the rates they are shaped to, and
# each fault slows what it says and nothing else: 4 hosts on 2 leaves
# (h1 h2 on s1, h3 h4 on s2) at 400 Mbit/s, one TCP transfer per path
# (tests/netcluster/tcp_rate.py). A shaper is a ceiling: every path stays
# below its rate (+10 % for the token bucket's burst and timing). A busy
# machine lowers every figure (the 2 cores copy every byte), so a clean
# path is compared with the faulted ones of the same run: at least 1.5x
# their ceiling (4x when idle: 350-390 Mbit/s against 100), which a fault
# that did nothing, or slowed the clean path too, cannot pass.
# usage: shaping_test.sh WORKDIR
set -euo pipefail
work=$1
. "$(dirname "$0")/netcluster.sh"
netcluster_require || exit 77
rm -rf "$work"
netcluster_init "$work"
started=$(date +%s%N)
netcluster_start 4 2 400
echo "pretend cluster up in $(( ($(date +%s%N) - started) / 1000000 )) ms"

mib=8
# rate SRC DST: Mbit/s from SRC to DST, said as it is measured.
rate() {
  local r
  r=$(netcluster_measure_mbit "$1" "$2" "$mib")
  echo "$1 -> $2: $r Mbit/s" >&2
  echo "$r"
}
# at_most VALUE LIMIT WHAT
at_most() {
  /usr/bin/python3 -c "import sys; sys.exit(0 if float('$1') <= float('$2') else 1)" ||
    { echo "$3: $1 Mbit/s, expected at most $2"; exit 1; }
}

# A clean path against the slow ceiling: 1.5 x 110 Mbit/s.
clean_floor=165
clean=$(rate h1 h2)
at_most "$clean" 440 "h1 -> h2 at 400 Mbit/s"
at_most "$clean_floor" "$clean" "h1 -> h2, clean, against the faults' ceiling"

netcluster_slow_nic h3 100
echo "fault: h3's NIC at 100 Mbit/s both ways" >&2
at_most "$(rate h1 h3)" 110 "h1 -> h3 (h3 receives)"
at_most "$(rate h3 h4)" 110 "h3 -> h4 (h3 sends)"
netcluster_shape_host h3 400

netcluster_slow_pair h2 h4 100
echo "fault: h2 -> h4 at 100 Mbit/s" >&2
at_most "$(rate h2 h4)" 110 "h2 -> h4"
other=$(rate h2 h1)
at_most "$other" 440 "h2 -> h1 beside the slow pair"
at_most "$clean_floor" "$other" "h2 -> h1 is not slowed with h2 -> h4"
netcluster_shape_host h2 400

netcluster_slow_uplink s1 100
echo "fault: s1's uplink at 100 Mbit/s both ways" >&2
at_most "$(rate h1 h4)" 110 "h1 -> h4 (up through s1's uplink)"
at_most "$(rate h3 h2)" 110 "h3 -> h2 (down through s1's uplink)"
within=$(rate h1 h2)
at_most "$clean_floor" "$within" "h1 -> h2 stays within s1"
netcluster_clear_uplink s1
at_most "$clean_floor" "$(rate h1 h4)" "h1 -> h4 once s1's uplink is clear again"
