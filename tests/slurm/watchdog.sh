#!/usr/bin/env bash
# A rank stopped (SIGSTOP) inside STREAM on the 2nd of 2 pretend nodes,
# under srun: rank 0's watchdog asks the other ranks over TCP and names rank
# 1 and its node (silent, or still measuring when the step's daemon has let
# it go on: either names it), marks the file aborted and ends the step with MPI_Abort from
# its own thread (MPI runs at MPI_THREAD_SINGLE); the job exits 1 and no
# rank is left behind.
. "$(dirname "$0")/common.sh"
start_cluster 2
BWSURVEY_INJECT_FAULT=stop:stream:1 run_job --nodes=2 "$repo/jobs/survey.sbatch" "${quick_options[@]}" \
  --tests beff,stream --phase-timeout 5
[ "$job_exit" = 1 ] || { echo "job $job_id: exit code $job_exit, expected 1"; exit 1; }
log=$work/job-$job_id.log
grep -Eq "^bwsurvey: error: stream: rank 1 \(n2\) did not (reach the end of the phase|finish measuring) within --phase-timeout 5 s" "$log" ||
  { echo "rank 1 (n2) is not named"; exit 1; }
file=$work/survey-$job_id.h5
"$bwreport" summary "$file" >"$work/summary.txt"
grep -q "status aborted" "$work/summary.txt" || { echo "the file is not marked aborted"; exit 1; }
grep -q "aborted: stream: rank 1 (n2)" "$work/summary.txt" || { echo "the reason does not name rank 1 (n2)"; exit 1; }
! pgrep -f "$bwsurvey .*--phase-timeout 5" >/dev/null || { echo "a rank is left running"; exit 1; }
echo "slurm watchdog OK"
