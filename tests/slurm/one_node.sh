#!/usr/bin/env bash
# One node; `sbatch jobs/survey.sbatch` with 2 tasks runs
# a quick survey; the file holds both ranks and the job's provenance. With
# BWS_PROMETHEUS_DIR the job also leaves bwsurvey.prom there (promtool
# accepts it; it names the job), and no temporary file.
. "$(dirname "$0")/common.sh"
start_cluster 1
export BWREPORT=$bwreport BWS_PROMETHEUS_DIR=$work/textfile
run_job --nodes=1 --ntasks-per-node=2 "$repo/jobs/survey.sbatch" "${quick_options[@]}"
[ "$job_exit" = 0 ] || { echo "expected exit code 0"; exit 1; }
file=$work/survey-$job_id.h5
"$checker" survey "$file" 2 n1 "$job_id"
"$bwreport" summary "$file" | tee "$work/summary.txt"
grep -q "Slurm job $job_id, partition debug, cluster bwstest, nodes n1" "$work/summary.txt"
grep -q "SLURM_JOB_ID=$job_id" "$work/summary.txt"
[ "$(ls -A "$work/textfile")" = bwsurvey.prom ] || { echo "textfile directory: $(ls -A "$work/textfile")"; exit 1; }
grep -q "^bwsurvey_survey_info{job_id=\"$job_id\"," "$work/textfile/bwsurvey.prom"
grep -q '^bwsurvey_stream_triad_bytes_per_second{host="n1",' "$work/textfile/bwsurvey.prom"
if command -v promtool >/dev/null; then promtool check metrics <"$work/textfile/bwsurvey.prom"; fi
