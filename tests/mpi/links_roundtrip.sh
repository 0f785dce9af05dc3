#!/usr/bin/env bash
# Runs a quick link map on N ranks of this one host (each rank stands for a
# node) and checks the file it leaves.
# usage: links_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [FROM TO]
# With FROM TO, the test hook BWSURVEY_LINKS_SLOW_PAIR makes member FROM's
# messages to TO 20 times as slow: the file must show that pair lowest.
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 from=${6:-} to=${7:-}
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
hook=()
[ -n "$from" ] && hook=(-x "BWSURVEY_LINKS_SLOW_PAIR=$from,$to,20")
run_survey "$mpirun" -np "$ranks" --oversubscribe "${hook[@]}" "$bwsurvey" --tests links --quick --out "$dir/l.h5"
expect_success
# The plan line goes to stderr with bwsurvey's other progress lines.
grep -Eq "links: $ranks ranks \(one host: each rank stands for a node\), $((ranks - 1)) steps x 2 reps x window 4 x 64.00 KiB each way, 8 B latency, estimate .* \(limit --links.max-time 300 s\)" "$dir/stderr.txt" ||
  { echo "no plan line"; exit 1; }
expect_stdout "^links: $ranks nodes, median out " "summary line"
if [ -n "$from" ]; then
  expect_stdout "^links: lowest pair \(low at both ends\): node $from \(.*\) -> node $to \(" "the slowed pair named lowest"
  "$checker" --slow "$dir/l.h5" "$ranks" "$from" "$to"
  exit
fi
"$checker" "$dir/l.h5" "$ranks"
