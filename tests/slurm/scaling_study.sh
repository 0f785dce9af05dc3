#!/usr/bin/env bash
# jobs/scaling-study at 1, 2 and 4 nodes runs to its
# aggregation job; the merged file has three runs and a scaling verdict,
# written to a copy (the merged runs stay as they were).
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
# `bwreport scaling` never changes its input: the merged
# runs are byte for byte the same after a run without --out, and --out may
# not name the input (exit 2, one line).
before=$(sha256sum <"$study/runs.h5")
set +e
"$bwreport" scaling "$study/runs.h5" >/dev/null
"$bwreport" scaling "$study/runs.h5" --out "$study/./runs.h5" --force 2>"$work/scaling-err"
code=$?
set -e
[ "$code" -eq 2 ] || { echo "scaling --out over its input: exit $code, expected 2"; exit 1; }
[ "$(wc -l <"$work/scaling-err")" -eq 1 ] || { echo "not one line:"; cat "$work/scaling-err"; exit 1; }
[ "$(sha256sum <"$study/runs.h5")" = "$before" ] || { echo "bwreport scaling changed its input"; exit 1; }
echo "scaling study OK"
