#!/usr/bin/env bash
# Runs a quick b_eff survey on N ranks and checks the file it leaves.
# usage: beff_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [CORRUPT_RANK]
# With CORRUPT_RANK, the test hook BWSURVEY_BEFF_CORRUPT makes that rank see
# stale messages in the natural ring: bwsurvey must exit 1 and the file must
# hold rows with valid=0 and failed beff.payload checks.
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 corrupt=${6:-}
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
hook=()
[ -n "$corrupt" ] && hook=(-x "BWSURVEY_BEFF_CORRUPT=$corrupt")
# No --time-budget: beside a CPU hog, 4 ranks on 2 cores probed runs of
# exchanges 637x their fastest and estimated 30 min for this 10-40 s plan,
# over the default budget (exit 2). What is checked here is the file.
run_survey "$mpirun" -np "$ranks" --oversubscribe "${hook[@]}" "$bwsurvey" --tests beff --quick \
  --time-budget 0 --out "$dir/b.h5"
if [ -n "$corrupt" ]; then
  expect_payload_failure
  grep -q "FAILED: beff.payload: natural ring, .*: rank $corrupt.*stale" "$dir/stdout.txt" ||
    { echo "the failed payload check does not name rank $corrupt and the problem"; exit 1; }
  "$checker" --corrupt "$dir/b.h5" "$ranks" "$corrupt"
  exit
fi
expect_success
expect_stdout "Results: $dir/b.h5" "'Results:' line"
expect_stdout "^    MSize      looplength        transfer             B/s$" "seed-style table"
expect_stdout "^ +1048576 +[0-9]+ +[0-9.]+e[-+][0-9]+ +[0-9.]+e[-+][0-9]+$" "1 MiB row"
expect_stdout "^b_eff = [0-9.]+ GB/s$" "'b_eff =' line"
expect_stdout "^b_eff per rank = " "per-rank line"
expect_stdout "^linear scaling: " "scaling line"
"$checker" "$dir/b.h5" "$ranks"
