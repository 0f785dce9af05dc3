#!/usr/bin/env bash
# Runs a quick link map on N ranks of this one host (each rank stands for a
# node) and checks the file it leaves.
# usage: links_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [--topology]
# With --topology, a topology.conf of two switches naming this host: the
# file must hold the tree. Ranks oversubscribed on one host are noisy (a
# pair at 60 % of the median happens, and a robust z beyond 3 at 8 ranks),
# so the flags are judged with --flags.fraction 0.3 --flags.k 100. Slow
# links are the network tests' (tests/netcluster: real, shaped links).
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 mode=${6:-}
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
extra=()
if [ "$mode" = --topology ]; then
  printf 'SwitchName=s1 Nodes=%s\nSwitchName=top Switches=s1\n' "$(uname -n)" >"$dir/topology.conf"
  extra=(--links.topology "$dir/topology.conf")
fi
run_survey "$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests links --quick --flags.fraction 0.3 --flags.k 100 \
  "${extra[@]}" --out "$dir/l.h5"
expect_success
# The plan line goes to stderr with bwsurvey's other progress lines.
# Rounds of disjoint pairs: N - 1 for N even, N for N odd (one member sits out each round).
rounds=$((ranks % 2 == 0 ? ranks - 1 : ranks))
grep -Eq "links: $ranks ranks \(one host: each rank stands for a node\), $rounds rounds? of pairs x 5 reps x window 4 x [0-9.]+ [KMG]iB each way, 8 B latency, estimate .* \(limit --time-budget [0-9.]+ s\)" "$dir/stderr.txt" ||
  { echo "no plan line"; exit 1; }
grep -Fq "; link probe: " "$dir/stderr.txt" || { echo "the plan line has no link probe (core/ProbedCollective.hpp)"; exit 1; }
expect_stdout "^links: $ranks nodes, median out " "summary line"
if [ "$mode" = --topology ]; then
  grep -Fq "; topology: $dir/topology.conf (1 leaf)" "$dir/stderr.txt" || { echo "no topology in the plan line"; exit 1; }
  "$checker" --topology "$dir/l.h5" "$ranks"
  exit
fi
grep -Fq "; no switch tree" "$dir/stderr.txt" || { echo "the plan line does not say: no switch tree"; exit 1; }
"$checker" "$dir/l.h5" "$ranks"
