#!/usr/bin/env bash
# Runs a short pmbw survey on N ranks with --pmbw.stats and checks the file
# and the RESULT lines it leaves. A few routines (a read, a write, a
# non-temporal write where the CPU has it, the unrolled walk), sizes up to
# 8 MiB, so that the test takes seconds; every offered routine is covered by
# the unit tests, and by the README's quick command. --pmbw.max-size, an
# old name, prints its deprecation line once however many ranks run.
# usage: pmbw_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
run_survey "$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests pmbw --quick --out "$dir/p.h5" \
  --pmbw.stats "$dir/stats.txt" --pmbw.max-size 8M --pmbw.min-time 0.002 \
  --pmbw.routines ScanRead64PtrUnrollLoop,ScanWrite64PtrSimpleLoop,PermRead64UnrollLoop,~UnrollLoopNT
expect_success
# --pmbw.max-size is an old name: one deprecation line for the run, from rank 0 alone.
deprecated='^bwsurvey: --pmbw.max-size is deprecated: use --pmbw.max-bytes$'
[ "$(grep -c "$deprecated" "$dir/stderr.txt")" -eq 1 ] || {
  echo "expected one line '$deprecated'"; cat "$dir/stderr.txt"; exit 1; }
expect_stdout "Results: $dir/p.h5" "'Results:' line"
expect_stdout "^pmbw: ScanRead bandwidth plateaus" "pmbw summary"
"$checker" "$dir/p.h5" "$dir/stats.txt" "$ranks"
