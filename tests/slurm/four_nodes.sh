#!/usr/bin/env bash
# Four pretend nodes n1..n4, each with its own hostname:
# one rank per node; per-node rows keyed n1..n4 and a b_eff over 4 ranks.
. "$(dirname "$0")/common.sh"
start_cluster 4
run_job --nodes=4 "$repo/jobs/survey.sbatch" "${quick_options[@]}"
expect_exit_0_or_3
file=$work/survey-$job_id.h5
"$checker" survey "$file" 4 n1,n2,n3,n4 "$job_id"
"$bwreport" summary "$file" | grep "Slurm job $job_id"
