#!/usr/bin/env bash
# A user's SBATCH_PARTITION is kept by jobs/survey (it clears only the
# SBATCH_* variables of what it sets itself): the job runs in partition
# `second`, not in the default `debug`; bwreport summary names it.
. "$(dirname "$0")/common.sh"
start_cluster 1
export SBATCH_PARTITION=second
run_survey_wrapper --nodes 1
expect_exit_0_or_3
[ "$(job_field "$job_id" Partition)" = second ] || { echo "job $job_id: partition '$(job_field "$job_id" Partition)', expected second"; exit 1; }
"$bwreport" summary "$work/survey-$job_id.h5" | grep "Slurm job $job_id, partition second"
# --partition given: SBATCH_PARTITION would override the script's line, so it is cleared.
unset job_id
run_survey_wrapper --nodes 1 --partition debug
expect_exit_0_or_3
[ "$(job_field "$job_id" Partition)" = debug ] || { echo "job $job_id: partition '$(job_field "$job_id" Partition)', expected debug (--partition)"; exit 1; }
echo "SBATCH_PARTITION OK"
