#!/usr/bin/env bash
# The terminal summary at scale (issue 17, requirement 6): a quick real
# survey of one node (stream, load; 2 ranks) is the template of a synthetic
# survey of 2,000 nodes (bench/synthetic_survey.py, with slow nodes and their
# confirmed /flags rows). On both files `bwreport summary` fits one screen
# (<= 40 lines; <= 120 columns on the synthetic one, whose lines are all
# verdicts), prints bandwidths in GB/s (no e+ notation
# for B/s), and on the synthetic file opens with the verdicts: the checks,
# then the flagged nodes with the worst flagged node (the lowest % of its
# cohort median, read from /flags with h5py) named first, the cohorts, the
# worst nodes per metric, then the pointer to bwreport flags and plot;
# bwreport flags and bwreport plot read the synthetic file.
# usage: summary_scale.sh MPIRUN BWSURVEY BWREPORT SOURCE_DIR WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 bwreport=$3 src=$4 dir=$5
python=/usr/bin/python3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAILED: $*"; exit 1; }

"$mpirun" -np 2 --oversubscribe "$bwsurvey" --tests stream,load --quick --stream.elements 1M \
  --load.elements 100000 --out "$dir/real.h5" >"$dir/run.txt" 2>&1 || { cat "$dir/run.txt"; fail "bwsurvey exited $?"; }
"$python" "$src/bench/synthetic_survey.py" "$dir/real.h5" "$dir/s2000.h5" --nodes 2000 --links-nodes 0 --bwreport "$bwreport" \
  --slow-fraction 0.005 || fail "synthetic_survey.py"

one_screen() {  # FILE [WIDTH]: <= 40 lines (of <= WIDTH columns, not counting the lines
  # with the file's path), no B/s in e+ notation
  local lines width
  lines=$(wc -l <"$1")
  width=$(grep -v "$dir/" "$1" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
  [ "$lines" -le 40 ] || fail "$1: $lines lines, more than one screen"
  [ "$width" -le "${2:-1000}" ] || fail "$1: a line of $width columns"
  if grep -Eq "[0-9]e[-+][0-9]+ B/s" "$1"; then fail "$1: B/s in e+ notation"; fi
  return 0
}

"$bwreport" summary "$dir/real.h5" >"$dir/real.txt" || fail "bwreport summary real.h5"
cat "$dir/real.txt"
one_screen "$dir/real.txt"
grep -q "^Flagged nodes: none of 1" "$dir/real.txt" || fail "real.h5: no flag verdict"
grep -Eq "^Cohort: .*: 1 node [^ ]+ \(too few to compare: only absolute rules apply\), Triad median [0-9.]+ GB/s$" \
  "$dir/real.txt" ||
  fail "real.h5: no cohort line with its median Triad"
grep -Eq "^host +ranks +threads +Copy +Scale +Add +Triad" "$dir/real.txt" || fail "real.h5: 1 node, no STREAM details"

"$bwreport" summary "$dir/s2000.h5" >"$dir/s2000.txt" || fail "bwreport summary s2000.h5"
cat "$dir/s2000.txt"
one_screen "$dir/s2000.txt" 120
worst=$("$python" - "$dir/s2000.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    flags = f["flags"][...]
    assert len(flags) >= 5, len(flags)
    print(flags["host"][np.argmin(flags["percent_of_median"])].decode())
PY
)
grep -Eq "^Flagged nodes \([0-9]+ of 2000\): $worst " "$dir/s2000.txt" || fail "the worst flagged node $worst is not named first"
first_flag=$(grep -A1 "^Flagged nodes" "$dir/s2000.txt" | tail -1)
[[ "$first_flag" == "  $worst  stream.triad"* ]] || fail "the first flag line is not $worst's: $first_flag"
# The verdicts' order: checks, flags, cohorts, worst nodes, then the pointer.
order=$(grep -nE "^(Checks|Flagged nodes|Cohorts|Worst nodes|Every flag)" "$dir/s2000.txt" | cut -d: -f2 | cut -c1-5 | tr '\n' ,)
[ "$order" = "Check,Flagg,Cohor,Worst,Every," ] || fail "verdicts out of order: $order"
[ "$(grep -cE "^  [^ ].*: [0-9]+ nodes.*, Triad median [0-9.]+ GB/s, 5-95 %: " "$dir/s2000.txt")" -eq 3 ] || fail "not one line per cohort (3)"
grep -Eq "^  stream.triad\[double\]: ($worst|[^ ]+) [0-9.]+ GB/s [0-9]+ %" "$dir/s2000.txt" || fail "no worst Triad nodes"
grep -q "bwreport flags $dir/s2000.h5" "$dir/s2000.txt" || fail "no pointer to bwreport flags"
if grep -Eq "^host +ranks +threads +Copy" "$dir/s2000.txt"; then fail "per-node tables at 2,000 nodes"; fi
# The synthetic file reads as a survey: bwreport flags names the worst node,
# bwreport plot writes its page.
"$bwreport" flags "$dir/s2000.h5" >"$dir/flags.txt" || fail "bwreport flags s2000.h5"
grep -Eq "^  $worst  stream.triad(\[double\])?: " "$dir/flags.txt" || fail "bwreport flags does not list $worst"
"$bwreport" plot "$dir/s2000.h5" -o "$dir/report" >"$dir/plot.txt" || fail "bwreport plot s2000.h5"
[ -s "$dir/report/index.html" ] && [ -s "$dir/report/stream_triad_double.png" ] || fail "no report of s2000.h5"
echo "summary at scale: ok"
