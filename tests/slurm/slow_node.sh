#!/usr/bin/env bash
# Issue 6, test (d): n3 made slow on purpose (its kernels take 6x as long,
# BWSURVEY_SLOW_HOST) is flagged in /flags, the summary names it, and
# `bwreport retest` gives it as the --nodelist of a follow-up job.
stream_elements=4M  # DRAM-sized arrays: steadier than cache-sized ones
. "$(dirname "$0")/common.sh"
start_cluster 4
# 20 repetitions: the best of them is steady even with four ranks on two cores.
# STREAM only: b_eff per rank on four ranks sharing two cores is noisy enough
# to flag a second node now and then, and this test is about the slow one.
BWSURVEY_SLOW_HOST=n3:6 run_job --nodes=4 "$repo/jobs/survey.sbatch" "${quick_options[@]}" --tests stream \
  --stream.ntimes 20 --fail-on-flags
[ "$job_exit" = 3 ] || { echo "expected exit code 3 (--fail-on-flags)"; exit 1; }
file=$work/survey-$job_id.h5
"$checker" flagged "$file" n3
grep -q "Flagged nodes (1 of 4): n3" "$work/job-$job_id.log"
retest=$("$bwreport" retest "$file")
echo "bwreport retest: $retest"
[ "$retest" = n3 ] || { echo "expected 'n3'"; exit 1; }
"$bwreport" flags "$file" | grep "n3  stream.triad"
# The follow-up job on the flagged node runs there.
run_job --nodes=1 --nodelist="$retest" --wrap hostname
grep -qx n3 "$work/job-$job_id.log"
