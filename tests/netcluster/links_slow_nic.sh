#!/usr/bin/env bash
# The link map on real links: four pretend hosts (tests/netcluster/
# netcluster.sh) under two leaf switches, every host link shaped to
# 400 Mbit/s both ways, h3's NIC slowed to 100 Mbit/s both ways; one rank
# per host over Open MPI's TCP. No test hook: the slowness is in the
# network. /flags must name h3 with links.node_out (its sends run at a
# quarter of its peers').
# usage: links_slow_nic.sh MPIRUN BWSURVEY BWREPORT WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 bwreport=$3 work=$4
. "$(dirname "$0")/netcluster.sh"
netcluster_require || exit 77
rm -rf "$work"
NETCLUSTER_MPIRUN=$mpirun
netcluster_init "$work"

started=$(date +%s%N)
netcluster_start 4 2 400
netcluster_slow_nic h3 100
echo "pretend cluster up in $(( ($(date +%s%N) - started) / 1000000 )) ms: h1 h2 on s1, h3 h4 on s2, 400 Mbit/s links, h3 at 100 Mbit/s"

# The launch: one rank per host, each in its host's namespace and name.
names=$(netcluster_mpirun -np 4 hostname | sort -V | paste -sd' ' -)
[ "$names" = "h1 h2 h3 h4" ] || { echo "ranks ran on '$names', expected h1 h2 h3 h4"; exit 1; }

# 4 MiB messages (at 64 KiB to 1 MiB TCP's buffers, not the link, set the
# send times), a window of 4 and 3 repetitions: h3's windows take 1.3 s
# at its 100 Mbit/s, the whole map about 20 s.
survey_started=$(date +%s%N)
set +e
netcluster_mpirun -np 4 "$bwsurvey" --tests links --retest 0 --links.bytes 4M --links.window 4 --links.reps 3 \
  --out "$work/links.h5" >"$work/stdout.txt" 2>"$work/stderr.txt"
code=$?
set -e
echo "link map on 4 hosts in $(( ($(date +%s%N) - survey_started) / 1000000 )) ms"
cat "$work/stdout.txt"
[ "$code" -eq 0 ] || { echo "bwsurvey exited $code"; cat "$work/stderr.txt"; exit 1; }
"$bwreport" flags "$work/links.h5" | tee "$work/flags.txt"
grep -Eq "^  links\.node_out: h3: " "$work/flags.txt" || { echo "h3's slow NIC is not named with links.node_out"; exit 1; }
# Slow both ways: the receive side is named too (each direction of a pair
# is timed alone, so h3's slow sends do not lower its partners' receives).
grep -Eq "^  links\.node_in: h3: " "$work/flags.txt" || { echo "h3's slow NIC is not named with links.node_in"; exit 1; }
# Said, not asserted: any verdict on another host (the rule's false
# verdicts are counted over 10 runs, docs/PERFORMANCE.md, not in one).
grep -E "^  links\.[a-z_]+: " "$work/flags.txt" | grep -Ev "^  links\.node_(out|in): h3: " | sed 's/^/note: also /' || true
