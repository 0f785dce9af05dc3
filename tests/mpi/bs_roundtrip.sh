#!/usr/bin/env bash
# Runs a quick BS1-BS7 survey on N ranks and checks the file it leaves.
# The sweep stops at 16 MiB (--quick's own reaches 8x the LLC, 256 MiB a
# rank on a 32 MiB L3, and most of the time went there): what is checked is
# the ranks' rows and the file, fitted on a plateau or not, not the memory.
# usage: bs_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
run_survey "$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests bs --quick --bs.max-bytes 16M --out "$dir/bs.h5"
expect_success
expect_stdout "Results: $dir/bs.h5" "'Results:' line"
expect_stdout "^BS1-BS7: T\(B\) = T0 \+ B/Wmax" "BS summary"
expect_stdout "^host +ranks +threads +test +N +Wmax GB/s +T0 us +B0.8 KB +R\^2 +paper T0 us +paper B0.8 KB +fit +valid$" \
  "BS table header"
"$checker" --bs "$dir/bs.h5" "$ranks"
