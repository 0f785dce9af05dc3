#!/usr/bin/env bash
# n3 is slow only in the first pass (BWSURVEY_SLOW_HOST
# n3:6:first-pass, a transient); the template's in-job retest measures it
# again at full speed, so the flag does not stand: /flags keeps the first
# value and the retest's, says "not confirmed (transient)", --fail-on-flags
# does not fail the job, and `bwreport drain` prints nothing.
stream_elements=4M
. "$(dirname "$0")/common.sh"
start_cluster 4
# --flags.fraction 0.35: the first pass at a sixth of the speed (14-17 %
# of the median) stays below it with room, and the retest still passes
# when n3 shares the memory with other work: beside a second CI run it
# read 39 % (12.1 of 30.8 GB/s), which the default 0.75 confirmed.
BWSURVEY_SLOW_HOST=n3:6:first-pass run_job --nodes=4 "$repo/jobs/survey.sbatch" "${quick_options[@]}" --tests stream \
  --stream.reps 20 --fail-on-flags --flags.fraction 0.35
[ "$job_exit" = 0 ] || { echo "expected exit code 0: the retest dismisses the transient flag"; exit 1; }
file=$work/survey-$job_id.h5
log=$work/job-$job_id.log
grep -q "retest 1 of 1: stream on n3" "$log"
grep -q "Flagged nodes: none of 4 (1 flagged at first, not confirmed by the retest)" "$log"
/usr/bin/python3 - "$file" <<'PY'
import math, sys, h5py
flags = h5py.File(sys.argv[1], "r")["flags"][:]
assert len(flags) == 1, flags
row = flags[0]
assert row["host"].decode() == "n3" and row["metric"].decode() == "stream.triad[double]", row
assert row["status"].decode() == "not confirmed (transient)", row["status"]
retest = float(row["retest_values"].decode())
assert retest > row["threshold"] > row["value"], (row["value"], row["threshold"], retest)
assert math.isclose(row["retest_median"], retest, rel_tol=1e-3)
print("n3: first", row["value"], "retest", retest, "threshold", row["threshold"])
PY
"$bwreport" drain "$file" >"$work/drain.txt" 2>"$work/drain.err"
cat "$work/drain.err"
[ ! -s "$work/drain.txt" ] || { echo "expected no drain line"; cat "$work/drain.txt"; exit 1; }
grep -q "1 flag not confirmed (transient)" "$work/drain.err"
