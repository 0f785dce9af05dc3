#!/usr/bin/env bash
# A survey in a maintenance reservation (the main admin use): n2 is
# reserved, `jobs/survey --nodes 1 --reservation R` passes the option through
# to sbatch unchanged, and the job runs inside the reservation, on n2 (left
# to itself Slurm would take n1, the first idle node).
. "$(dirname "$0")/common.sh"
start_cluster 2
scontrol create reservation ReservationName=maint_bwtest StartTime=now Duration=60 Nodes=n2 Users=root Flags=MAINT,IGNORE_JOBS
scontrol show reservation maint_bwtest
run_survey_wrapper --nodes 1 --reservation maint_bwtest
expect_exit_0_or_3
[ "$(job_field "$job_id" Reservation)" = maint_bwtest ] || { echo "job $job_id: reservation '$(job_field "$job_id" Reservation)', expected maint_bwtest"; exit 1; }
[ "$(job_field "$job_id" NodeList)" = n2 ] || { echo "job $job_id ran on '$(job_field "$job_id" NodeList)', not on the reserved n2"; exit 1; }
"$checker" survey "$work/survey-$job_id.h5" 1 n2 "$job_id"
# The --opt=VALUE form too, in the dry run: the word reaches sbatch as it is.
"$repo/jobs/survey" --dry-run --nodes 1 --reservation=maint_bwtest --dir "$work" | grep -qx '### sbatch --parsable --reservation=maint_bwtest .*'
echo "reservation OK"
