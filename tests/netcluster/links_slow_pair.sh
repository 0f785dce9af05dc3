#!/usr/bin/env bash
# A slow pair on real links: four pretend hosts (tests/netcluster/
# netcluster.sh) under two leaf switches, every host link shaped to
# 400 Mbit/s both ways, and h1's traffic to h4 alone at 100 Mbit/s (an htb
# class on h1's link: the other direction and every other path stay fast).
# One rank per host over Open MPI's TCP, no test hook. The run's summary
# and /flags must name the pair h1 -> h4 and no node; with --retest 1 the
# pair stays "not retested" (a link is never retested by host), and
# `bwreport retest` names its two ends.
# usage: links_slow_pair.sh MPIRUN BWSURVEY BWREPORT WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 bwreport=$3 work=$4
. "$(dirname "$0")/netcluster.sh"
netcluster_require || exit 77
rm -rf "$work"
# shellcheck disable=SC2034  # read by netcluster_mpirun
NETCLUSTER_MPIRUN=$mpirun
netcluster_init "$work"
netcluster_start 4 2 400
netcluster_slow_pair h1 h4 100
fail() { echo "FAILED: $*"; exit 1; }

# The message settings of links_slow_nic.sh (4 MiB, window 4, 3 reps): a
# fixed plan, so the test's time does not depend on the probe.
set +e
netcluster_mpirun -np 4 "$bwsurvey" --tests links --retest 1 --links.bytes 4M --links.window 4 --links.reps 3 \
  --out "$work/links.h5" >"$work/stdout.txt" 2>"$work/stderr.txt"
code=$?
set -e
cat "$work/stdout.txt"
# Exit 3: a confirmed flag (the pair stands, not retested).
[ "$code" -eq 0 ] || [ "$code" -eq 3 ] || { cat "$work/stderr.txt"; fail "bwsurvey exited $code"; }
grep -Eq "^links: lowest pair \(low at both ends\): node 0 \(h1[^)]*\) -> node 3 \(h4" "$work/stdout.txt" ||
  fail "the summary does not name h1 -> h4 as the lowest pair"
"$bwreport" flags "$work/links.h5" | tee "$work/flags.txt"
grep -Eq "^  links\.pair: link h1->h4: .*not retested" "$work/flags.txt" ||
  fail "/flags does not name the pair h1->h4, not retested"
! grep -Eq "^  links\.node_(out|in): " "$work/flags.txt" || fail "a node is named for a slow pair"
"$bwreport" retest "$work/links.h5" >"$work/retest.txt" 2>&1 || true
grep -Eq "^h\[1,4\]$" "$work/retest.txt" ||
  { cat "$work/retest.txt"; fail "bwreport retest does not name the pair's two ends"; }
# The figures behind the verdict, read back: h1's send to h4 is its lowest
# and below half its median out (100 of 400 Mbit/s).
/usr/bin/python3 - "$work/links.h5" <<'PY' || fail "the file's figures do not show the slow pair"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    send = f["links/send_Bps"][:]
    h1 = [send[0][j] for j in range(4) if j != 0]
    assert min(h1) == send[0][3], f"h1's lowest send is not to h4: {h1}"
    assert send[0][3] < 0.5 * sorted(h1)[1], f"h1->h4 {send[0][3]:.3g} B/s is not below half h1's median {sorted(h1)[1]:.3g}"
    back = send[3][0]
    assert back > 2 * send[0][3], f"h4->h1 {back:.3g} B/s is slowed too (the fault is one way)"
print("slow pair h1->h4 in the file: OK")
PY
echo "slow pair OK"
