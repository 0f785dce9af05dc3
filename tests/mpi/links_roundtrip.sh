#!/usr/bin/env bash
# Runs a quick link map on N ranks of this one host (each rank stands for a
# node) and checks the file it leaves.
# usage: links_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [FROM TO | --topology]
# With FROM TO, the test hook BWSURVEY_LINKS_SLOW_PAIR makes member FROM's
# messages to TO 1000 times as slow (0.1 %): the file must show that pair
# lowest and /flags name it, with no node verdict; --retest 1 must leave it
# alone (a link is not retested by host). With --topology, a topology.conf
# of two switches naming this host: the file must hold the tree. Ranks
# oversubscribed on one host are noisy (a pair at 60 % of the median
# happens, and a robust z beyond 3 at 8 ranks), so the flags are judged
# with --flags.fraction 0.3 --flags.k 100; beside a CPU hog a rank taken
# off its core stalls the windows of its pair (0-5 %): such
# pairs may be named too, so the checker asks for the hook's pair among
# them, not alone, and the hook is 1000 times, below any stall measured.
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 from=${6:-} to=${7:-}
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
hook=() extra=()
[ -n "$from" ] && [ "$from" != --topology ] && hook=(-x "BWSURVEY_LINKS_SLOW_PAIR=$from,$to,1000") && extra=(--retest 1)
if [ "$from" = --topology ]; then
  printf 'SwitchName=s1 Nodes=%s\nSwitchName=top Switches=s1\n' "$(uname -n)" >"$dir/topology.conf"
  extra=(--links.topology "$dir/topology.conf")
fi
run_survey "$mpirun" -np "$ranks" --oversubscribe "${hook[@]}" "$bwsurvey" --tests links --quick --flags.fraction 0.3 --flags.k 100 \
  "${extra[@]}" --out "$dir/l.h5"
expect_success
# The plan line goes to stderr with bwsurvey's other progress lines.
# Rounds of disjoint pairs: N - 1 for N even, N for N odd (one member sits out each round).
rounds=$((ranks % 2 == 0 ? ranks - 1 : ranks))
grep -Eq "links: $ranks ranks \(one host: each rank stands for a node\), $rounds rounds? of pairs x 5 reps x window 4 x [0-9.]+ [KMG]iB each way, 8 B latency, estimate .* \(limit --time-budget [0-9.]+ s\)" "$dir/stderr.txt" ||
  { echo "no plan line"; exit 1; }
grep -Fq "; link probe: " "$dir/stderr.txt" || { echo "the plan line has no link probe (core/ProbedCollective.hpp)"; exit 1; }
expect_stdout "^links: $ranks nodes, median out " "summary line"
if [ "$from" = --topology ]; then
  grep -Fq "; topology: $dir/topology.conf (1 leaf)" "$dir/stderr.txt" || { echo "no topology in the plan line"; exit 1; }
  "$checker" --topology "$dir/l.h5" "$ranks"
  exit
fi
grep -Fq "; no switch tree" "$dir/stderr.txt" || { echo "the plan line does not say: no switch tree"; exit 1; }
if [ -n "$from" ]; then
  expect_stdout "^links: lowest pair \(low at both ends\): node $from \(.*\) -> node $to \(" "the slowed pair named lowest"
  expect_stdout "^  links.pair: link .*:r[0-9]+->.*:r[0-9]+: send at " "the slowed pair's verdict in the summary"
  "$checker" --slow "$dir/l.h5" "$ranks" "$from" "$to"
  exit
fi
"$checker" "$dir/l.h5" "$ranks"
