#!/usr/bin/env bash
# The OpenCL backend on N ranks (PoCL in CI), and b_eff's device path.
# usage: ocl_roundtrip.sh MPIRUN BWSURVEY CHECKER N WORKDIR [corrupt]
#   --tests ocl (an alias: stream and bs on backend ocl, beff on the device
#   path) --quick with small sizes: exit 0, STREAM with its PCI rows in
#   stream/results (backend ocl), the BS fits (backend ocl) and the device
#   b_eff (its payload checked) in the file, read back by the checker.
#   corrupt: b_eff on the device path with the payload test hook on rank 1:
#   exit 1, and the failed check names the device path, the rank and the
#   stale messages.
# Skips (exit 0 with a note) when this bwsurvey has no OpenCL or sees no device.
set -euo pipefail
mpirun=$1 bwsurvey=$2 checker=$3 ranks=$4 dir=$5 mode=${6:-}
rm -rf "$dir" && mkdir -p "$dir"
source "$(dirname "$0")/survey_run.sh"
if ! "$bwsurvey" --ocl.list >"$dir/list.txt" 2>&1 || ! grep -q "^  device 0:" "$dir/list.txt"; then
  echo "SKIPPED: no OpenCL device for this bwsurvey:"; cat "$dir/list.txt"; exit 0
fi
small=(--quick --ocl.elements 1M --bs.max-bytes 2M --bs.fit-min-bytes 256K --bs.points 6
       --beff.max-bytes 64K --beff.random-rings 1 --beff.reps 3)
if [ "$mode" = corrupt ]; then
  run_survey "$mpirun" -np "$ranks" --oversubscribe -x BWSURVEY_BEFF_CORRUPT=1 "$bwsurvey" --tests beff --beff.path device \
    "${small[@]}" --out "$dir/o.h5"
else
  run_survey "$mpirun" -np "$ranks" --oversubscribe "$bwsurvey" --tests ocl "${small[@]}" --out "$dir/o.h5"
fi
if [ "$mode" = corrupt ]; then
  expect_payload_failure
  grep -q "FAILED: beff.payload: device path: natural ring, .*: rank 1.*stale" "$dir/stdout.txt" ||
    { echo "the failed payload check does not name the device path, rank 1 and the problem"; exit 1; }
  exit 0
fi
expect_success
grep -q "^STREAM double on ocl: node bandwidth" "$dir/stdout.txt" || { echo "no device STREAM summary"; exit 1; }
grep -Eq "^PCI_write: +[0-9]+[.][0-9]+ " "$dir/stdout.txt" || { echo "no PCI_write row in STREAM's table"; exit 1; }
grep -q "^BS1-BS7 on the ocl device" "$dir/stdout.txt" || { echo "no device BS summary"; exit 1; }
grep -q "^b_eff, device path" "$dir/stdout.txt" || { echo "no device b_eff summary"; exit 1; }
"$checker" "$dir/o.h5" "$ranks"
