#!/usr/bin/env bash
# A survey killed half-way (every rank killed once the
# stream phase is stored) leaves a readable file with status running; a
# second job with bwsurvey --resume runs only b_eff and completes it.
. "$(dirname "$0")/common.sh"
start_cluster 2
BWSURVEY_INJECT_FAULT=kill-after:stream run_job --nodes=2 "$repo/jobs/survey.sbatch" "${quick_options[@]}"
[ "$job_exit" != 0 ] || { echo "the killed job must not succeed"; exit 1; }
file=$work/survey-$job_id.h5
"$checker" killed "$file" stream
"$bwreport" summary "$file" | grep "completed phases: stream"
BWS_RESUME=$file run_job --nodes=2 "$repo/jobs/survey.sbatch"
expect_exit_0_or_3
grep -q "stream: stored in the resumed file; not run again" "$work/job-$job_id.log"
"$checker" resumed "$file" 2 n1,n2
