#!/usr/bin/env bash
# The slow-node rule (lib/model/FlagRule, the judge_cohort the survey and
# bwreport call) measured by simulation: detection of nodes at 20/50/80/90 %
# of their cohort and false flags, for cohorts of 3 to 10,000 nodes and
# 1/3/8 % noise with a 1 % heavy tail at -15 %, then PASS/FAIL per target
# (T1-T3 of the issue). Builds nothing: build the flag_rule_sim target first
# (cmake --build build --target flag_rule_sim). The full run takes about a
# minute on 2 cores; the table depends on the seed only. Exit status: the
# program's (0 all targets pass, 1 one fails, 2 usage).
#   bench/flag-rule.sh [BUILD_DIR | PATH/TO/flag_rule_sim] [--k K] [--fraction F] [--trials-scale X] [--seed N] [--quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sim=$root/build/bench/flag_rule_sim
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then sim=$1; shift; fi   # the program, or a build directory
[ -d "$sim" ] && sim="$sim/bench/flag_rule_sim"
[ -x "$sim" ] || { echo "$sim not found: build it first (cmake --build build --target flag_rule_sim)"; exit 2; }

echo "command: $sim${*:+ $*}"
echo "date: $(date -u +%FT%TZ), host: $(hostname), $(nproc) cores"
exec "$sim" "$@"
