#!/usr/bin/env bash
# Issue 6, test (c): jobs/scaling-study at 1, 2 and 4 nodes runs to its
# aggregation job; the merged file has three runs and a scaling verdict.
. "$(dirname "$0")/common.sh"
start_cluster 4
study=$work/study
"$repo/jobs/scaling-study" --nodes 1,2,4 --partition debug --dir "$study" --bwsurvey "$bwsurvey" \
  --bwreport "$bwreport" -- "${quick_options[@]}"
aggregate=$(cat "$study/aggregate.jobid")
state=$(slurm_wait_job "$aggregate" 240)
echo "aggregation job $aggregate: $state, exit code $(slurm_job_exit_code "$aggregate")"
cat "$study"/aggregate-*.log
case $(slurm_job_exit_code "$aggregate") in 0|3) ;; *) echo "aggregation failed"; tail -n 30 "$study"/*.log; exit 1 ;; esac
"$checker" merged "$study/scaling.h5" 1,2,4
"$bwreport" summary "$study/scaling.h5"
