#!/usr/bin/env bash
# `jobs/survey --constraint=bwtest` passes the constraint through to sbatch:
# of the nodes n1 and n2 only n2 has the feature bwtest (tests/slurm/cluster.sh),
# and the job lands there. With BWS_PER=numa the NUMA domains are counted
# on the job's node (a one-task step there, named in the log), not on the
# batch node, and the survey has one rank per domain.
. "$(dirname "$0")/common.sh"
start_cluster 2
domains=$(hwloc-calc --disallowed --number-of numanode all)
BWS_PER=numa run_survey_wrapper --nodes 1 --constraint=bwtest
expect_exit_0_or_3
[ "$(job_field "$job_id" NodeList)" = n2 ] || { echo "job $job_id ran on '$(job_field "$job_id" NodeList)', not on the bwtest node n2"; exit 1; }
grep -q "^survey.sbatch: NUMA domains (node domains CPUs): n2 $domains " "$job_log" ||
  { echo "the log does not show n2's $domains NUMA domains counted on n2"; exit 1; }
"$checker" survey "$work/survey-$job_id.h5" "$domains" n2 "$job_id"
echo "constraint OK"
